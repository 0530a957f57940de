#pragma once
/// @file animation_poses.h
/// The frames of an animation read from a rigged file (`ImportedAnimation`)
/// as `Pose`s of the skeleton built from the file's skeleton
/// (`rigFromImportedSkeleton()`, core/project/rig_project.h).
///
/// A file gives each joint j, per frame, its animated joint-to-world transform
/// G_j; skinning with the file's weights moves bind space by
///   S_j = G_j · bindGlobal_j⁻¹          (Assimp: node transform · offset matrix).
/// A `Pose` moves it by the rigid M_j of `forwardKinematics()` (core/rig/pose.h):
/// M_j = [O_j·B_j⁻¹ | p_j − O_j·B_j⁻¹·b_j]. Choosing
///   O_j = polar(S_j) · B_j               (the rotation nearest S_j's linear part)
///   p_j = G_j's origin = S_j · b_j
/// makes M_j = S_j wherever S_j is rigid, which it is whenever the animation
/// keeps the bind scale; the local rotations that give these O_j are
///   R_root = B_root⁻¹ · O_root,   R_i = B_i⁻¹ · B_p · O_p⁻¹ · O_i,
/// and the root translation is p_root − b_root. Forward kinematics keeps bone
/// lengths, so a channel that stretches a bone (or moves an extra root hung
/// from joint 0) is reproduced in rotation only; every orientation is exact.
/// A frame equal to the bind pose gives the identity pose.

#include "core/rig/pose.h"
#include "core/import/mesh_import.h"
#include "core/rig/skeleton.h"

#include <optional>
#include <vector>

namespace rig {

/// The poses of `skeleton` that reproduce the frames of `animation` (see the file comment).
/// `maxFrames` > 0 keeps at most that many frames, evenly spaced over the
/// animation (the first and last included); 0 keeps all.
/// Expects `skeleton` built from `file` by `rigFromImportedSkeleton()` (same joints, same order).
/// @throws rig::InvalidInput (naming `rig::animationPoses()`) when the joint
///         counts of the skeleton, the file's skeleton and a frame differ, or `maxFrames` < 0.
std::vector<Pose> animationPoses(const Skeleton& skeleton, const ImportedSkeleton& file,
                                 const ImportedAnimation& animation, int maxFrames = 0);

/// The frames of `animation` as each joint's skinning transform,
/// S_j = G_j · bindGlobal_j⁻¹ (bind space to posed space; see the file
/// comment), `maxFrames` as for `animationPoses()`. Unlike a `Pose`, this keeps
/// every animated channel: all roots (a file with several roots, such as IK
/// goals beside the hips, moves each on its own), the translations of every
/// joint and any scale. Frame f, joint j: `result[f][j]`.
/// @throws rig::InvalidInput (naming `rig::animationSkinning()`) when a frame's
///         joint count differs from the file's, or `maxFrames` < 0.
std::vector<std::vector<Eigen::Affine3d>> animationSkinning(const ImportedSkeleton& file,
                                                            const ImportedAnimation& animation, int maxFrames = 0);

/// Index of the animation of `file` to deform with: the one with the most
/// frames (the first of equals) among those with at least two frames;
/// std::nullopt when none has two.
std::optional<int> longestAnimation(const ImportedSkeleton& file);

} // namespace rig
