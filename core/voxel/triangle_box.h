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

/// The same test for one triangle against many boxes of one size (the voxels
/// of its bounding box): the 10 non-box axes and their box radii are computed
/// once, and the triangle's plane, which rejects most of those voxels, is
/// tried first. The same test as `triangleBoxOverlap()`; its edges come from
/// the absolute vertices rather than the box-relative ones, which can differ
/// in the last bit (the tests find the same answers, ties on voxel faces
/// included, and the devset's skeletons are unchanged).
class TriangleBoxTest {
public:
    TriangleBoxTest(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& halfSize);
    bool overlaps(const Vec3& center) const;

private:
    Vec3 m_a, m_b, m_c, m_half;
    Vec3 m_axis[10]; ///< The plane's normal, then the 9 edge cross products.
    double m_radius[10];
};

} // namespace rig
