#pragma once
/// @file deform_joints.h
/// Which joints of an existing skeleton deform the mesh (issue 14): artists'
/// skeletons carry joints that must get no weight — IK goals, weapon and prop
/// tags, attachment sockets, end joints — and weights computed for every joint
/// hand them skin.
///
/// A spec is "all", "auto" or a comma-separated list of joint names:
///  - "auto": the joints the file's own weights use (a column with a weight
///    > 0) where the file has weights; otherwise every joint but those whose
///    name marks a helper (words ik, pole, target, goal, tag, weapon, prop,
///    attach, socket, end, nub, null, dummy, helper; split as in
///    core/eval/joint_map.h) and leaves with no such mark are kept;
///  - "all": every joint;
///  - "A,B,...": exactly those (an unknown name is an error).
/// `restrictToDeformJoints()` then moves each weight of a joint that does not
/// deform to its nearest deforming ancestor (or, without one, drops it) and
/// renormalizes.

#include "core/rig/skeleton.h"
#include "core/skin/skin_weights.h"

#include <Eigen/SparseCore>

#include <string>
#include <vector>

namespace rig {

/// #J flags, true for a joint that deforms (see the file comment).
/// `fileWeights` may be null or empty (no weights in the file).
/// @throws rig::InvalidInput (naming `rig::deformJoints()`) for an unknown
///         joint name, an empty list, or a spec that leaves no joint.
std::vector<bool> deformJoints(const std::string& spec, const Skeleton& skeleton,
                               const Eigen::SparseMatrix<double, Eigen::RowMajor>* fileWeights);

/// `weights` with every influence of a non-deforming joint moved to its
/// nearest deforming ancestor (merged with that joint's own), dropped where
/// there is none, rows renormalized, at most `weights.maxInfluences` per vertex.
/// A vertex left with no weight at all goes whole to the first deforming joint.
/// @throws rig::InvalidInput when `deform` has the wrong size or no joint deforms.
SkinWeights restrictToDeformJoints(const SkinWeights& weights, const Skeleton& skeleton, const std::vector<bool>& deform);

} // namespace rig
