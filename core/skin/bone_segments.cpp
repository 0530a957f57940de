#include "core/skin/bone_segments.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/common/segment.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

namespace rig {

namespace {

/// Per joint, its children that deform (all with `deforming` empty).
std::vector<std::vector<int>> deformingChildren(const Skeleton& s, const std::vector<bool>& deforming)
{
    std::vector<std::vector<int>> out = childrenOf(s);
    if (!deforming.empty())
        for (auto& c : out)
            std::erase_if(c, [&](int j) { return !deforming[static_cast<size_t>(j)]; });
    return out;
}

} // namespace

std::vector<BoneSegment> boneSegments(const Skeleton& s, double leafBoneLength, const std::vector<bool>& deforming)
{
    validateSkeleton(s);
    if (!(leafBoneLength >= 0.0 && std::isfinite(leafBoneLength)))
        throw InvalidInput("rig::boneSegments(): leafBoneLength must be finite and >= 0, got " +
                           std::to_string(leafBoneLength));
    if (!deforming.empty() && deforming.size() != static_cast<size_t>(s.jointCount()))
        throw InvalidInput("rig::boneSegments(): the deforming joints name " + std::to_string(deforming.size()) +
                           " joints; the skeleton has " + std::to_string(s.jointCount()));
    const auto deforms = [&](int j) { return deforming.empty() || deforming[static_cast<size_t>(j)]; };
    const auto children = deformingChildren(s, deforming);
    const auto pos = [&](int j) { return Vec3(s.bindPositions.row(j).transpose()); };
    std::vector<BoneSegment> bones;
    for (int c = 1; c < s.jointCount(); ++c)
        if (const int p = s.parents[static_cast<size_t>(c)]; deforms(p) && deforms(c))
            bones.push_back({pos(p), pos(c), p, false});
    for (int j = 0; j < s.jointCount(); ++j) {
        if (!deforms(j) || !children[static_cast<size_t>(j)].empty())
            continue;
        // Direction: the first non-degenerate link up the chain.
        Vec3 dir = Vec3::Zero();
        double linkLength = 0.0;
        for (int k = j; s.parents[static_cast<size_t>(k)] >= 0 && !(linkLength > 0.0); k = s.parents[static_cast<size_t>(k)]) {
            dir = pos(k) - pos(s.parents[static_cast<size_t>(k)]);
            linkLength = dir.norm();
        }
        if (!(linkLength > 0.0)) {
            bones.push_back({pos(j), pos(j), j, true}); // a lone root: a point
            continue;
        }
        bones.push_back({pos(j), pos(j) + leafBoneLength * dir, j, true});
    }
    return bones;
}

double distanceToBone(const Vec3& p, const std::vector<BoneSegment>& bones, int joint)
{
    double best = std::numeric_limits<double>::infinity();
    for (const BoneSegment& b : bones)
        if (b.joint == joint)
            best = std::min(best, (closestPointOnSegment(p, b.a, b.b) - p).norm());
    return best;
}

void leafBonesToSkin(const Mesh& mesh, const Skeleton& s, std::vector<BoneSegment>& bones, int threads,
                     const std::vector<bool>& deforming)
{
    // The leaf segments that end a chain: their parent's only deforming child.
    const auto children = deformingChildren(s, deforming);
    std::vector<char> lengthen(bones.size(), 0);
    for (size_t b = 0; b < bones.size(); ++b)
        if (const int p = s.parents[static_cast<size_t>(bones[b].joint)];
            bones[b].leaf && (bones[b].b - bones[b].a).norm() > 0.0 && p >= 0 && children[static_cast<size_t>(p)].size() == 1)
            lengthen[b] = 1;
    if (std::find(lengthen.begin(), lengthen.end(), 1) == lengthen.end())
        return;
    // Per vertex its nearest bone (all bones), and how far along it the vertex reaches.
    const auto n = static_cast<size_t>(mesh.V.rows());
    std::vector<int> nearest(n, -1);
    std::vector<double> along(n, 0.0);
    parallelFor(static_cast<std::ptrdiff_t>(n), threads, 1024, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        for (std::ptrdiff_t i = begin; i < end; ++i) {
            const Vec3 p = mesh.V.row(i).transpose();
            double bestD = std::numeric_limits<double>::infinity();
            for (size_t b = 0; b < bones.size(); ++b)
                if (const double d = (p - closestPointOnSegment(p, bones[b].a, bones[b].b)).squaredNorm(); d < bestD) {
                    bestD = d;
                    nearest[static_cast<size_t>(i)] = static_cast<int>(b);
                }
            if (const int b = nearest[static_cast<size_t>(i)]; b >= 0 && lengthen[static_cast<size_t>(b)]) {
                const BoneSegment& bone = bones[static_cast<size_t>(b)];
                along[static_cast<size_t>(i)] = (p - bone.a).dot((bone.b - bone.a).normalized());
            }
        }
    });
    std::vector<std::vector<double>> reach(bones.size());
    for (size_t i = 0; i < n; ++i)
        if (const int b = nearest[i]; b >= 0 && lengthen[static_cast<size_t>(b)])
            reach[static_cast<size_t>(b)].push_back(along[i]);
    for (size_t b = 0; b < bones.size(); ++b) {
        std::vector<double>& r = reach[b];
        if (r.empty())
            continue;
        const Vec3 bone = bones[b].b - bones[b].a;
        const auto at = r.begin() + static_cast<std::ptrdiff_t>(0.9 * static_cast<double>(r.size() - 1));
        std::nth_element(r.begin(), at, r.end());
        if (*at > bone.norm())
            bones[b].b = bones[b].a + *at * bone.normalized();
    }
}

} // namespace rig
