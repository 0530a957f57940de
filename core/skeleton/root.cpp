#include "core/skeleton/root.h"

#include "core/common/error.h"

#include <algorithm>
#include <cassert>

namespace rig {
namespace {

std::vector<int> depthsOf(const CurveSkeleton& s)
{
    // parents[i] < i, so one forward loop.
    std::vector<int> depth(s.parents.size(), 0);
    for (size_t i = 0; i < s.parents.size(); ++i)
        if (s.parents[i] >= 0)
            depth[i] = depth[static_cast<size_t>(s.parents[i])] + 1;
    return depth;
}

int lowestCommonAncestor(const CurveSkeleton& s, const std::vector<int>& depth, int a, int b)
{
    while (a != b) {
        if (depth[static_cast<size_t>(a)] >= depth[static_cast<size_t>(b)])
            a = s.parents[static_cast<size_t>(a)];
        else
            b = s.parents[static_cast<size_t>(b)];
        assert(a >= 0 && b >= 0 && "nodes in different components");
    }
    return a;
}

// The median of three nodes of a tree: the deepest of their pairwise lowest
// common ancestors, the one node on all three paths between them.
int median(const CurveSkeleton& s, const std::vector<int>& depth, int a, int b, int c)
{
    const int ab = lowestCommonAncestor(s, depth, a, b);
    const int ac = lowestCommonAncestor(s, depth, a, c);
    const int bc = lowestCommonAncestor(s, depth, b, c);
    int m = ab;
    if (depth[static_cast<size_t>(ac)] > depth[static_cast<size_t>(m)])
        m = ac;
    if (depth[static_cast<size_t>(bc)] > depth[static_cast<size_t>(m)])
        m = bc;
    return m;
}

} // namespace

std::vector<int> treePath(const CurveSkeleton& s, int a, int b)
{
    const std::vector<int> depth = depthsOf(s);
    const int l = lowestCommonAncestor(s, depth, a, b);
    std::vector<int> up, down;
    for (int v = a; v != l; v = s.parents[static_cast<size_t>(v)])
        up.push_back(v);
    for (int v = b; v != l; v = s.parents[static_cast<size_t>(v)])
        down.push_back(v);
    up.push_back(l);
    up.insert(up.end(), down.rbegin(), down.rend());
    return up;
}

double pathLength(const CurveSkeleton& s, const std::vector<int>& path)
{
    double length = 0.0;
    for (size_t k = 1; k < path.size(); ++k)
        length += (s.positions.row(path[k]) - s.positions.row(path[k - 1])).norm();
    return length;
}

LimbChains assignRoot(const CurveSkeleton& s, const EndNodeLabels& labels)
{
    validateLabels(s, labels);
    const std::string fn = "rig::assignRoot(): ";
    const std::vector<int> depth = depthsOf(s);
    const int head = labels[Limb::Head];

    LimbChains c;
    c.hips = median(s, depth, labels[Limb::LeftFoot], labels[Limb::RightFoot], head);
    c.chest = median(s, depth, labels[Limb::LeftHand], labels[Limb::RightHand], head);
    if (median(s, depth, c.hips, head, c.chest) != c.chest)
        throw InvalidInput(fn + "the hands (lhand = " + std::to_string(labels[Limb::LeftHand]) +
                           ", rhand = " + std::to_string(labels[Limb::RightHand]) +
                           ") do not branch off between the hips and the head; check that hands and feet are not swapped");

    c.spine = treePath(s, c.hips, c.chest);
    for (Limb l : allLimbs) {
        // Each arm starts where it joins the spine: the chest, or a shoulder
        // junction below it (the thesis's three-connection case).
        int start = c.hips;
        if (l == Limb::Head)
            start = c.chest;
        else if (l == Limb::LeftHand || l == Limb::RightHand) {
            start = median(s, depth, labels[l], c.hips, head);
            if (start == c.hips && c.chest != c.hips)
                throw InvalidInput(fn + "the " + std::string(limbKey(l)) + " branch (end node " +
                                   std::to_string(labels[l]) +
                                   ") joins the body at the hips, not above them; check the labels");
        }
        c.limbs[static_cast<size_t>(l)] = treePath(s, start, labels[l]);
    }

    // The segments only meet at their first nodes; a node shared otherwise means
    // a limb runs through another (labels that do not describe a body).
    std::vector<int> uses(static_cast<size_t>(s.nodeCount()), 0);
    for (size_t k = 1; k + 1 < c.spine.size(); ++k)
        ++uses[static_cast<size_t>(c.spine[k])];
    for (const auto& path : c.limbs)
        for (size_t k = 1; k < path.size(); ++k)
            ++uses[static_cast<size_t>(path[k])];
    for (Limb l : allLimbs)
        for (int v : c.limb(l))
            if (uses[static_cast<size_t>(v)] > 1)
                throw InvalidInput(fn + "the " + std::string(limbKey(l)) + " branch (end node " +
                                   std::to_string(labels[l]) + ") shares node " + std::to_string(v) +
                                   " with another limb; the labels do not describe a head, two arms and two legs");

    c.kept.assign(static_cast<size_t>(s.nodeCount()), false);
    auto keep = [&](const std::vector<int>& path) {
        for (int v : path)
            c.kept[static_cast<size_t>(v)] = true;
    };
    keep(c.spine);
    for (const auto& path : c.limbs)
        keep(path);
    std::vector<int> keptDegree(static_cast<size_t>(s.nodeCount()), 0);
    for (int v = 0; v < s.nodeCount(); ++v) {
        const int p = s.parents[static_cast<size_t>(v)];
        if (p >= 0 && c.kept[static_cast<size_t>(v)] && c.kept[static_cast<size_t>(p)]) {
            ++keptDegree[static_cast<size_t>(v)];
            ++keptDegree[static_cast<size_t>(p)];
        }
    }
    for (int v = 0; v < s.nodeCount(); ++v)
        if (keptDegree[static_cast<size_t>(v)] >= 3)
            c.connectionNodes.push_back(v);
    return c;
}

} // namespace rig
