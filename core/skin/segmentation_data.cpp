#include "core/skin/segmentation_data.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace rig {

double linkDelta(const Vec3& p, const Vec3& a, const Vec3& b)
{
    const Vec3 ab = b - a;
    const double len2 = ab.squaredNorm();
    return len2 > 0.0 ? (p - a).dot(ab) / len2 : 0.0;
}

Segmentation segmentationFromNearestLink(const MatrixX3d& V, const Skeleton& s)
{
    validateSkeleton(s);
    if (!V.allFinite())
        throw InvalidInput("rig::segmentationFromNearestLink(): the mesh has NaN or infinite vertices");
    const int n = static_cast<int>(V.rows());
    Segmentation seg;
    seg.bone.assign(static_cast<size_t>(n), 0);
    seg.delta.assign(static_cast<size_t>(n), 0.0);
    for (int i = 0; i < n; ++i) {
        const Vec3 p = V.row(i).transpose();
        double best = std::numeric_limits<double>::infinity();
        for (int c = 1; c < s.jointCount(); ++c) {
            const Vec3 a = s.bindPositions.row(s.parents[c]).transpose();
            const Vec3 b = s.bindPositions.row(c).transpose();
            const double d = std::clamp(linkDelta(p, a, b), 0.0, 1.0);
            const double l = ((p - a) - d * (b - a)).squaredNorm(); // thesis eq. 3.5
            if (l < best) {
                best = l;
                seg.bone[static_cast<size_t>(i)] = c;
                seg.delta[static_cast<size_t>(i)] = d;
            }
        }
    }
    return seg;
}

void validateSegmentation(const Segmentation& seg, int vertexCount, int jointCount)
{
    const std::string fn = "rig::validateSegmentation(): ";
    if (static_cast<int>(seg.bone.size()) != vertexCount || static_cast<int>(seg.delta.size()) != vertexCount)
        throw InvalidInput(fn + "the segmentation covers " + std::to_string(seg.bone.size()) + " / " +
                           std::to_string(seg.delta.size()) + " vertices, the mesh has " +
                           std::to_string(vertexCount));
    for (int i = 0; i < vertexCount; ++i) {
        const int c = seg.bone[static_cast<size_t>(i)];
        const double d = seg.delta[static_cast<size_t>(i)];
        if (c < -1 || c >= jointCount)
            throw InvalidInput(fn + "vertex " + std::to_string(i) + " lies on segment " + std::to_string(c) +
                               "; the skeleton has " + std::to_string(jointCount) + " joints");
        if (!(d >= 0.0 && d <= 1.0))
            throw InvalidInput(fn + "vertex " + std::to_string(i) + " has delta " + std::to_string(d) +
                               ", outside [0, 1]");
    }
}

} // namespace rig
