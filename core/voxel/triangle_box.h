#pragma once
/// @file triangle_box.h
/// Exact triangle / axis-aligned box overlap test by the separating axis
/// theorem: T. Akenine-Möller, "Fast 3D triangle-box overlap testing",
/// Journal of Graphics Tools 6(1), 2001. Used for conservative surface
/// voxelization (thesis §2.1, step 1).

#include "core/common/types.h"

namespace rig {

/// True when triangle (a, b, c) and the closed box centred at `center` with
/// half extents `halfSize` intersect (touching counts as overlap). Tests the 13
/// candidate axes: the 3 box normals, the triangle normal and the 9 edge cross
/// products. Degenerate triangles (segments, points) are handled: their zero
/// normal and zero cross products separate nothing.
bool triangleBoxOverlap(const Vec3& center, const Vec3& halfSize, const Vec3& a, const Vec3& b, const Vec3& c);

} // namespace rig
