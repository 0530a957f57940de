#pragma once
/// @file segment.h
/// The nearest point of a segment: bones as segments (bone heat, geodesic
/// voxel binding, the simplex deformer's effective distance).

#include "core/common/types.h"

#include <algorithm>

namespace rig {

/// The point of segment [a, b] nearest to p (a for a zero-length segment).
inline Vec3 closestPointOnSegment(const Vec3& p, const Vec3& a, const Vec3& b)
{
    const Vec3 ab = b - a;
    const double len2 = ab.squaredNorm();
    if (!(len2 > 0.0))
        return a;
    const double t = std::clamp((p - a).dot(ab) / len2, 0.0, 1.0);
    return a + t * ab;
}

} // namespace rig
