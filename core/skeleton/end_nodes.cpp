#include "core/skeleton/end_nodes.h"

#include "core/common/error.h"

#include <algorithm>
#include <charconv>

namespace rig {
namespace {

constexpr std::array<std::string_view, limbCount> limbKeys = {"head", "lhand", "rhand", "lfoot", "rfoot"};

std::string_view nodeTypeName(NodeType t)
{
    switch (t) {
    case NodeType::End: return "an end";
    case NodeType::Flow: return "a flow";
    case NodeType::Connection: return "a connection";
    }
    return "an unknown";
}

// The branch of end node e (thesis §2.4 segment, walked from the end): e, then
// flow nodes, up to and including the first non-flow node.
std::vector<int> branchOf(const std::vector<std::vector<int>>& adjacency, int e)
{
    std::vector<int> branch = {e};
    int previous = -1, current = e;
    while (true) {
        int next = -1;
        for (int n : adjacency[static_cast<size_t>(current)])
            if (n != previous) {
                next = n;
                break;
            }
        if (next < 0)
            break;
        branch.push_back(next);
        if (adjacency[static_cast<size_t>(next)].size() != 2)
            break;
        previous = current;
        current = next;
    }
    return branch;
}

// Mean projection on `axis` of the half of the branch nearer its connection
// node (by arc length): where the limb leaves the body, not where its tip went.
double proximalSide(const CurveSkeleton& s, const std::vector<int>& branch, const Vec3& axis)
{
    std::vector<double> arc(branch.size(), 0.0);
    for (size_t k = branch.size() - 1; k-- > 0;)
        arc[k] = arc[k + 1] + (s.positions.row(branch[k]) - s.positions.row(branch[k + 1])).norm();
    const double half = 0.5 * arc.front();
    double sum = 0.0;
    int count = 0;
    for (size_t k = 0; k < branch.size(); ++k)
        if (arc[k] <= half || branch.size() == 1) {
            sum += s.positions.row(branch[k]).dot(axis.transpose());
            ++count;
        }
    return count > 0 ? sum / count : s.positions.row(branch.front()).dot(axis.transpose());
}

std::string trim(std::string_view s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos)
        return {};
    const auto e = s.find_last_not_of(" \t");
    return std::string(s.substr(b, e - b + 1));
}

} // namespace

std::string_view limbKey(Limb limb)
{
    const auto i = static_cast<size_t>(limb);
    return i < limbKeys.size() ? limbKeys[i] : std::string_view("unknown");
}

EndNodeLabels suggestEndNodeLabels(const CurveSkeleton& s, const LabelOptions& options)
{
    const char* fn = "rig::suggestEndNodeLabels(): ";
    if (!options.up.allFinite() || !options.front.allFinite() || options.up.norm() == 0.0 ||
        options.front.norm() == 0.0)
        throw InvalidInput(std::string(fn) + "the up and front directions must be finite and non-zero");
    const Vec3 up = options.up.normalized();
    const Vec3 left = up.cross(options.front.normalized());
    if (left.norm() < 1e-6)
        throw InvalidInput(std::string(fn) + "the up and front directions are parallel");
    const Vec3 leftAxis = left.normalized();

    std::vector<int> ends = s.nodesOf(NodeType::End);
    if (ends.size() < static_cast<size_t>(limbCount))
        throw InvalidInput(std::string(fn) + "the skeleton has " + std::to_string(ends.size()) +
                           " end nodes; a head, two hands and two feet need five");

    // Highest first.
    std::stable_sort(ends.begin(), ends.end(), [&](int a, int b) {
        return s.positions.row(a).dot(up.transpose()) > s.positions.row(b).dot(up.transpose());
    });
    const auto adjacency = s.adjacency();
    auto side = [&](int e) { return proximalSide(s, branchOf(adjacency, e), leftAxis); };

    EndNodeLabels labels;
    labels[Limb::Head] = ends.front();
    const int f1 = ends[ends.size() - 1], f2 = ends[ends.size() - 2];
    const bool f1Left = side(f1) >= side(f2);
    labels[Limb::LeftFoot] = f1Left ? f1 : f2;
    labels[Limb::RightFoot] = f1Left ? f2 : f1;

    // Hands: the most lateral branches among the rest.
    std::vector<std::pair<double, int>> rest;
    for (size_t k = 1; k + 2 < ends.size(); ++k)
        rest.emplace_back(side(ends[k]), ends[k]);
    std::stable_sort(rest.begin(), rest.end()); // rightmost first
    labels[Limb::RightHand] = rest.front().second;
    labels[Limb::LeftHand] = rest.back().second;
    return labels;
}

void validateLabels(const CurveSkeleton& s, const EndNodeLabels& labels)
{
    const std::string fn = "rig::validateLabels(): ";
    const int n = s.nodeCount();
    for (Limb limb : allLimbs) {
        const int node = labels[limb];
        const std::string key(limbKey(limb));
        if (node < 0)
            throw InvalidInput(fn + key + " is not labelled; label head, lhand, rhand, lfoot and rfoot");
        if (node >= n)
            throw InvalidInput(fn + key + " = " + std::to_string(node) + " is not a node (the skeleton has " +
                               std::to_string(n) + ")");
        const NodeType t = s.types[static_cast<size_t>(node)];
        if (t != NodeType::End)
            throw InvalidInput(fn + key + " = " + std::to_string(node) + " is " + std::string(nodeTypeName(t)) +
                               " node, not an end node");
    }
    for (int a = 0; a < limbCount; ++a)
        for (int b = a + 1; b < limbCount; ++b)
            if (labels.nodes[static_cast<size_t>(a)] == labels.nodes[static_cast<size_t>(b)])
                throw InvalidInput(fn + "node " + std::to_string(labels.nodes[static_cast<size_t>(a)]) +
                                   " is labelled both " + std::string(limbKeys[static_cast<size_t>(a)]) + " and " +
                                   std::string(limbKeys[static_cast<size_t>(b)]));
    // One component: the same spanning-forest root.
    auto componentRoot = [&](int v) {
        while (s.parents[static_cast<size_t>(v)] >= 0)
            v = s.parents[static_cast<size_t>(v)];
        return v;
    };
    const int r = componentRoot(labels[Limb::Head]);
    for (Limb limb : allLimbs)
        if (componentRoot(labels[limb]) != r)
            throw InvalidInput(fn + std::string(limbKey(limb)) + " = " + std::to_string(labels[limb]) +
                               " is not connected to the head's node " + std::to_string(labels[Limb::Head]));
}

EndNodeLabels parseEndNodeLabels(std::string_view text)
{
    const std::string fn = "rig::parseEndNodeLabels(): ";
    EndNodeLabels labels;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = trim(text.substr(start, comma - start));
        start = comma + 1;
        if (item.empty()) {
            if (comma == text.size())
                break;
            continue;
        }
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            throw InvalidInput(fn + "'" + item + "' is not of the form key=node (keys: head, lhand, rhand, lfoot, rfoot)");
        const std::string key = trim(std::string_view(item).substr(0, eq));
        const std::string value = trim(std::string_view(item).substr(eq + 1));
        const auto it = std::find(limbKeys.begin(), limbKeys.end(), key);
        if (it == limbKeys.end())
            throw InvalidInput(fn + "unknown key '" + key + "' (keys: head, lhand, rhand, lfoot, rfoot)");
        int node = -1;
        const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), node);
        if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || node < 0)
            throw InvalidInput(fn + key + " = '" + value + "' is not a node index (a non-negative integer)");
        int& slot = labels.nodes[static_cast<size_t>(it - limbKeys.begin())];
        if (slot >= 0)
            throw InvalidInput(fn + key + " is given twice");
        slot = node;
    }
    std::string missing;
    for (Limb limb : allLimbs)
        if (labels[limb] < 0)
        {
            if (!missing.empty())
                missing += ", ";
            missing += limbKey(limb);
        }
    if (!missing.empty())
        throw InvalidInput(fn + "missing " + missing + "; all five of head, lhand, rhand, lfoot, rfoot are needed");
    for (int a = 0; a < limbCount; ++a)
        for (int b = a + 1; b < limbCount; ++b)
            if (labels.nodes[static_cast<size_t>(a)] == labels.nodes[static_cast<size_t>(b)])
                throw InvalidInput(fn + "node " + std::to_string(labels.nodes[static_cast<size_t>(a)]) +
                                   " is labelled both " + std::string(limbKeys[static_cast<size_t>(a)]) + " and " +
                                   std::string(limbKeys[static_cast<size_t>(b)]));
    return labels;
}

std::string formatEndNodeLabels(const EndNodeLabels& labels)
{
    std::string out;
    for (Limb limb : allLimbs)
        if (labels[limb] >= 0)
        {
            // Appended piecewise: GCC 12 warns (-Wrestrict, a false positive) on
            // `"," + std::string` chains here.
            if (!out.empty())
                out += ',';
            out += limbKey(limb);
            out += '=';
            out += std::to_string(labels[limb]);
        }
    return out;
}

} // namespace rig
