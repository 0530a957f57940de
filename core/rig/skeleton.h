#pragma once
/// @file skeleton.h
/// The animation skeleton (the "logic skeleton" of thesis §2.4) as flat arrays
/// with parents[i] < i, so forward kinematics is one loop (ozz-animation style).
///
/// Frames: each joint has a bind position and a bind orientation in world
/// space. The orientation's columns are the joint's local axes; by convention
/// (documented roll, thesis §2.5): local +Y points along the bone to the joint's
/// first child (or continues the parent's bone for an end joint), local +Z is
/// the world direction the character faces (+Z) made orthogonal to +Y (for a
/// bone pointing along ±Z, world +X... see `fitOrientations()` in core/rig where
/// rigs are built), and +X = Y × Z.

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

/// Checks the invariants (sizes agree, parents[i] < i, exactly one root at 0,
/// unique non-empty names, finite positions, unit orientations).
/// @throws rig::InvalidInput naming the first violation.
void validateSkeleton(const Skeleton& skeleton);

/// Children lists: #J vectors of child indices, in increasing order.
std::vector<std::vector<int>> childrenOf(const Skeleton& skeleton);

} // namespace rig
