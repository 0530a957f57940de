#pragma once
/// @file retarget_rest.h
/// The retargeter's rest geometry and rest offsets (core/motion/retarget.cpp,
/// thesis Ch. 5: "a set of rotations from the initial pose of our target
/// skeleton to the source skeleton's initial pose"). Internal to the
/// retargeter: the rules, with their reasons and figures, are documented at
/// their definitions in core/motion/retarget_rest.cpp and summed up in the
/// file comment of retarget.h.

#include "core/rig/joint_names.h"
#include "core/motion/retarget.h"
#include "core/motion/skeleton_structure.h"

#include <Eigen/Geometry>

#include <vector>

namespace rig::retarget {

// Rest geometry of one side: positions, world orientations, hierarchy.
struct Rest {
    std::vector<int> parents;
    std::vector<std::vector<int>> children;
    MatrixX3d positions;
    std::vector<Eigen::Quaterniond> orientations;
    std::vector<JointNameRole> roles;
    BodyStructure body; // found on the rest pose (skeleton_structure.h)

    int count() const { return static_cast<int>(parents.size()); }
    Vec3 at(int j) const { return positions.row(j).transpose(); }
};

/// The rest pose's vertical extent over the body's kept joints (all joints
/// when no body structure was found): IK goals, props and helpers set aside.
double restHeight(const Rest& r);

/// Fills every mapped joint's `restOffset` (A_i of retarget.h) from the two
/// rest poses; `branchesFromBody`: the pelvis and the chest take only the
/// heading between the two bodies' frames (RetargetOptions::branchRestFromBody).
void computeRestOffsets(RetargetMapping& m, const Rest& target, const Rest& source, bool branchesFromBody);

} // namespace rig::retarget
