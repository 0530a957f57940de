#pragma once
/// @file pose.h
/// Poses and forward kinematics over a flat `Skeleton`.
///
/// A pose gives each joint a rotation relative to its bind orientation,
/// expressed in the joint's own bind frame (so the identity pose is the bind
/// pose and "rotate the elbow 30 degrees about its local X" is a local edit),
/// plus a translation of the root in world space.
///
/// Forward kinematics (one loop since parents[i] < i), with B_i the bind
/// orientation, b_i the bind position and R_i the local rotation:
///   O_i = O_p · (B_p⁻¹ · B_i) · R_i          (O_root = B_root · R_root)
///   p_i = p_p + O_p · B_p⁻¹ · (b_i − b_p)    (p_root = b_root + t)
/// The skinning transform of joint i maps bind space to posed space:
///   M_i = [O_i · B_i⁻¹ | p_i − O_i · B_i⁻¹ · b_i]   (thesis eq. 4.3: M_δk · M_Lk).

#include "core/rig/skeleton.h"

#include <span>
#include <vector>

namespace rig {

struct Pose {
    std::vector<Eigen::Quaterniond> localRotations; ///< #J unit rotations in each joint's bind frame.
    Vec3 rootTranslation = Vec3::Zero();            ///< World translation of the root from its bind position.
};

/// The bind pose (all identities) of a skeleton.
Pose identityPose(const Skeleton& skeleton);

/// World transforms of the posed joints.
struct PosedSkeleton {
    MatrixX3d positions;                       ///< #J by 3 posed joint positions.
    std::vector<Eigen::Quaterniond> orientations; ///< #J posed world orientations O_i.
    std::vector<Eigen::Isometry3d> skinning;   ///< #J transforms M_i from bind space to posed space.
};

/// Forward kinematics. Expects pose.localRotations.size() == #J.
/// @throws rig::InvalidInput when the sizes differ.
PosedSkeleton forwardKinematics(const Skeleton& skeleton, const Pose& pose);

/// The posed orientations O_i (#J) and positions p_i (#J by 3) of
/// forwardKinematics(), with the same arithmetic, without the skinning
/// transforms, into the caller's storage: once `orientations` and `positions`
/// have #J rows nothing is allocated (the per-frame loops of retargeting and
/// BVH export, issue 47). `localRotations` is one frame of a `PoseFrames`
/// (pose_frames.h) or a `Pose`'s.
/// @throws rig::InvalidInput when localRotations.size() != #J.
void posedJoints(const Skeleton& skeleton, std::span<const Eigen::Quaterniond> localRotations,
                 const Vec3& rootTranslation, std::vector<Eigen::Quaterniond>& orientations, MatrixX3d& positions);

} // namespace rig
