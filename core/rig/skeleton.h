#pragma once
/// @file skeleton.h
/// The animation skeleton (the "logic skeleton" of thesis §2.4) as flat arrays
/// with parents[i] < i, so forward kinematics is one loop (ozz-animation style).
///
/// Frames: each joint has a bind position and a bind orientation in world
/// space. The orientation's columns are the joint's local axes. Rigs built by
/// Rigsmith (`fitTemplate()` / `orientBones()` in core/rig/fit_template.h,
/// thesis §2.5) follow one roll convention:
///  - local +Y points along the bone to the joint's first child (the root: to
///    its child highest along up, the spine); zero-length bones look through to
///    the first descendant elsewhere; a leaf continues its parent's +Y;
///  - local +Z is the character's front (world +Z) made orthogonal to +Y, or,
///    for a bone within 10 degrees of ±front (feet, toes), world up made
///    orthogonal to +Y;
///  - local +X = Y × Z.
/// Skeletons read from BVH files (`motionSkeleton()`) keep identity bind
/// frames instead, so that BVH rotations apply unchanged.

#include "core/common/types.h"

#include <optional>
#include <string>
#include <vector>

namespace rig {

struct Skeleton {
    std::vector<std::string> names;                  ///< #J unique joint names.
    std::vector<int> parents;                        ///< #J parent indices, -1 for the root; parents[i] < i.
    MatrixX3d bindPositions;                         ///< #J by 3 world positions at bind time.
    std::vector<Eigen::Quaterniond> bindOrientations;///< #J world orientations at bind time (unit).

    int jointCount() const { return static_cast<int>(names.size()); }
    /// Index of a joint by exact name.
    std::optional<int> find(const std::string& name) const;
};

/// Positions beyond this many units from the origin are refused by `validateSkeleton()`:
/// no character is that large (1e9 mm is 1,000 km), and such a value in a saved
/// rig or project is corruption (a joint at 1e308 would overflow bone lengths).
constexpr double kMaxJointCoordinate = 1e9;

/// Checks the invariants (sizes agree, parents[i] < i, exactly one root at 0,
/// unique non-empty names, finite positions within ±`kMaxJointCoordinate`, unit orientations).
/// @throws rig::InvalidInput naming the first violation.
void validateSkeleton(const Skeleton& skeleton);

/// Checks that every joint lies near the character it rigs: within the mesh's
/// bounding box grown by twice its largest extent on every side.
/// A joint farther out cannot belong to this mesh (a rig saved for another
/// character, a corrupt project): skinning and export would silently produce
/// a character torn apart.
/// @throws rig::InvalidInput "joint 'NAME' lies D units outside the character, whose size is S: ..."
void validateSkeletonNearMesh(const Skeleton& skeleton, const Box3& bounds);

/// Children lists: #J vectors of child indices, in increasing order.
std::vector<std::vector<int>> childrenOf(const Skeleton& skeleton);

} // namespace rig
