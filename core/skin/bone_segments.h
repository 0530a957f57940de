#pragma once
/// @file bone_segments.h
/// The bones of a skeleton as segments, each owned by the joint whose
/// transform moves it: the link from a joint to each of its children belongs
/// to the joint (the bone a joint drives starts at the joint); a leaf joint,
/// which has no link of its own, gets the continuation of its parent link by
/// `leafBoneLength` times that link's length (a hand, a head, a toe); a lone
/// root is a point. One definition for bone heat (Baran & Popović 2007, §3.1:
/// heat from the nearest bone), geodesic voxel binding (Dionne & de Lasa
/// 2013, the rasterized bones) and the weights report's reach test.

#include "core/common/types.h"
#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"

#include <vector>

namespace rig {

/// One bone segment [a, b] of `joint` (a == b: a point).
struct BoneSegment {
    Vec3 a = Vec3::Zero();
    Vec3 b = Vec3::Zero();
    int joint = 0;
    bool leaf = false; ///< The continuation of a leaf joint's parent link (or a lone root's point).
};

/// Every bone of `skeleton` (see the file comment): first the links in joint
/// order of their child (link parents[c] → c, owned by parents[c]), then one
/// segment per leaf joint in joint order. A leaf's direction is that of the
/// first link up its chain with non-zero length; a leaf with no such link (a
/// lone root, a chain of coincident joints) gets a point.
/// @param leafBoneLength >= 0: a leaf's segment length as a fraction of that link.
/// @param deforming #J joints that may get weight (deform_joints.h; empty: all).
///        The bones are those of the deforming joints alone, as if the others
///        were not there: no link to or from a joint that does not deform (a
///        weapon or head tag, an IK goal, a root at the floor), and a joint
///        whose children all do not deform is a leaf (re_male's head, whose
///        only child is `tag_head`). Their weight would otherwise be moved to
///        a deforming ancestor only afterwards (`restrictToDeformJoints()`).
/// @throws rig::InvalidInput for an invalid skeleton, a negative or non-finite
///         leafBoneLength, or `deforming` of the wrong size.
std::vector<BoneSegment> boneSegments(const Skeleton& skeleton, double leafBoneLength,
                                      const std::vector<bool>& deforming = {});

/// Whether the link (parents[c], c) is a bone with `deforming` (both joints
/// deform; empty: every joint does). A segmentation region on a link that is
/// none (the root to an IK goal) says nothing about which limb a vertex is on.
inline bool linkDeforms(const Skeleton& s, const std::vector<bool>& deforming, int c)
{
    return deforming.empty() ||
           (deforming[static_cast<size_t>(c)] && deforming[static_cast<size_t>(s.parents[static_cast<size_t>(c)])]);
}

/// Lengthens, in `bones` (from `boneSegments()`), each leaf segment that ends
/// a chain (the leaf is its parent's only child: a head, a fingertip, a toe)
/// to the skin nearest to it (its parent's only deforming child, with
/// `deforming` as for `boneSegments()`): the vertices of `mesh` whose nearest segment it
/// is (Euclidean, all segments), to the 90th percentile of how far they reach
/// along it; never shortens. A leaf among siblings (a weapon tag beside the
/// fingers, a face's joints) marks a point, not a limb's end, and is kept.
void leafBonesToSkin(const Mesh& mesh, const Skeleton& skeleton, std::vector<BoneSegment>& bones, int threads = 0,
                     const std::vector<bool>& deforming = {});

/// The distance from `p` to the nearest segment of `joint` in `bones` (+inf
/// when the joint owns none).
double distanceToBone(const Vec3& p, const std::vector<BoneSegment>& bones, int joint);

} // namespace rig
