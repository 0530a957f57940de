#include "core/skin/bone_segments.h"

#include "core/common/error.h"
#include "core/common/segment.h"

#include <cmath>
#include <limits>
#include <string>

namespace rig {

std::vector<BoneSegment> boneSegments(const Skeleton& s, double leafBoneLength)
{
    validateSkeleton(s);
    if (!(leafBoneLength >= 0.0 && std::isfinite(leafBoneLength)))
        throw InvalidInput("rig::boneSegments(): leafBoneLength must be finite and >= 0, got " +
                           std::to_string(leafBoneLength));
    const auto children = childrenOf(s);
    const auto pos = [&](int j) { return Vec3(s.bindPositions.row(j).transpose()); };
    std::vector<BoneSegment> bones;
    for (int c = 1; c < s.jointCount(); ++c)
        bones.push_back({pos(s.parents[static_cast<size_t>(c)]), pos(c), s.parents[static_cast<size_t>(c)], false});
    for (int j = 0; j < s.jointCount(); ++j) {
        if (!children[static_cast<size_t>(j)].empty())
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

} // namespace rig
