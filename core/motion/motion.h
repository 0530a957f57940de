#pragma once
/// @file motion.h
/// A motion clip as read from a BVH file: the source skeleton (flat arrays,
/// parents[i] < i), its channels, and the frames as one row-major matrix.
///
/// BVH semantics (see docs/conventions.md):
///  - The rest pose is implicit: every rotation is the identity and each joint
///    sits at its OFFSET from its parent. Units are whatever the file used.
///  - Each joint lists its channels; the listed order of the rotation channels
///    is the Euler order: R = R(ch1)·R(ch2)·R(ch3), angles in degrees. Never
///    assume ZXY or XYZ.
///  - Position channels translate the joint in its parent's frame, before its
///    rotation, wherever they appear in the list (usually the root's first three).
///
/// Forward kinematics (one loop since parents[i] < i), with L_i the local
/// rotation, o_i the OFFSET and t_i the translation channels (zero if absent):
///   W_i = W_p · L_i                   (W_root = L_root)
///   x_i = x_p + W_p · (o_i + t_i)     (x_root = o_root + t_root)
/// An End Site e of joint j sits at x_j + W_j · o_e.

#include "core/common/types.h"
#include "core/rig/pose.h"
#include "core/rig/skeleton.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rig {

/// One animation channel of a BVH joint.
enum class Channel : std::uint8_t { Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation };

/// True for Xrotation, Yrotation, Zrotation.
constexpr bool isRotation(Channel c) { return c >= Channel::Xrotation; }
/// 0, 1 or 2 for the X, Y or Z channels.
constexpr int channelAxis(Channel c) { return static_cast<int>(c) % 3; }
/// The BVH spelling: "Xposition" ... "Zrotation".
std::string_view channelName(Channel c);
/// Parses a BVH channel name (ASCII case-insensitive). std::nullopt if unknown.
std::optional<Channel> parseChannelName(std::string_view name);

/// Frame values, one row per frame: #F by #C, row-major (a frame is contiguous).
using MotionFrames = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Motion {
    std::vector<std::string> names;    ///< #J unique joint names, in file (depth-first) order.
    std::vector<int> parents;          ///< #J parent indices, -1 for the root at index 0; parents[i] < i.
    MatrixX3d offsets;                 ///< #J by 3 OFFSETs, in the parent's frame (the root's: from the origin).
    std::vector<Channel> channels;     ///< #C channels in frame-column order (joint by joint, as listed).
    std::vector<int> channelStarts;    ///< #J + 1: joint j owns columns [channelStarts[j], channelStarts[j+1]).
    std::vector<int> endSiteParents;   ///< #E joint that owns each End Site.
    MatrixX3d endSiteOffsets;          ///< #E by 3 End Site OFFSETs, in the owning joint's frame.
    double frameTime = 1.0 / 30.0;     ///< Seconds per frame ("Frame Time:"), > 0.
    MotionFrames frames;               ///< #F by #C values: degrees for rotations, file units for positions.
    /// #C channel values of the pose the file's mesh is bound in, for clips
    /// taken from a rigged file (clip_file.h); empty when the file has no bind
    /// pose (BVH). The retargeting's first choice of rest pose (retarget.h).
    std::vector<double> bindValues;
    /// #J: whether the joint carries skin weight in the file's mesh; empty when
    /// the file has no mesh (BVH). Joints whose whole subtree carries none are
    /// not body joints (skeleton_structure.h).
    std::vector<bool> weighted;

    int jointCount() const { return static_cast<int>(names.size()); }
    int channelCount() const { return static_cast<int>(channels.size()); }
    int frameCount() const { return static_cast<int>(frames.rows()); }
    int endSiteCount() const { return static_cast<int>(endSiteParents.size()); }
    /// The channels of joint j, in listed order. Expects 0 <= j < #J.
    std::span<const Channel> jointChannels(int j) const;
    /// Index of a joint by exact name.
    std::optional<int> find(std::string_view name) const;
};

/// Checks the invariants: one root at 0, parents[i] < i, unique non-empty names
/// without line breaks, braces or surrounding blanks; matching sizes; at most 6
/// channels per joint with no channel twice; finite offsets and values;
/// 0 < frameTime < infinity; bindValues empty or #C finite values, weighted empty or #J.
/// @throws rig::InvalidInput naming the first violation.
void validateMotion(const Motion& motion);

/// One frame, evaluated per joint.
struct MotionPose {
    std::vector<Eigen::Quaterniond> localRotations; ///< #J rotations L_i relative to the parent.
    MatrixX3d translations;                         ///< #J by 3 position-channel values t_i (0 where absent).
};

/// Evaluates one row of channel values: L_i = R(ch1)·R(ch2)·R(ch3) over joint
/// i's rotation channels in listed order (degrees), t_i from its position channels.
/// @throws rig::InvalidInput when values.size() != #C.
MotionPose evaluateValues(const Motion& motion, std::span<const double> values);
/// evaluateValues() into `pose`, reusing its storage: nothing is allocated
/// once it has #J rows (per-frame loops over long clips, issue 47).
/// @throws rig::InvalidInput when values.size() != #C.
void evaluateValues(const Motion& motion, std::span<const double> values, MotionPose& pose);
/// evaluateValues() of frame f. @throws rig::InvalidInput unless 0 <= f < #F.
MotionPose evaluateFrame(const Motion& motion, int frame);
/// The rest pose: identity rotations, zero translations.
MotionPose restPose(const Motion& motion);

/// World transforms of a posed clip skeleton.
struct MotionWorld {
    MatrixX3d positions;                          ///< #J by 3 joint positions x_i.
    std::vector<Eigen::Quaterniond> orientations; ///< #J world rotations W_i.
    MatrixX3d endSitePositions;                   ///< #E by 3 End Site positions.
};

/// Forward kinematics as in the file comment.
/// @throws rig::InvalidInput when the pose's sizes differ from #J.
MotionWorld worldTransforms(const Motion& motion, const MotionPose& pose);
/// worldTransforms() into `world`, reusing its storage (nothing is allocated
/// once its sizes fit). @throws as worldTransforms().
void worldTransforms(const Motion& motion, const MotionPose& pose, MotionWorld& world);
/// World joint positions (#J by 3) of frame f. @throws rig::InvalidInput unless 0 <= f < #F.
MatrixX3d worldPositions(const Motion& motion, int frame);

/// The BVH hierarchy as a rig::Skeleton ("fit this skeleton" templates, retargeting sources).
struct MotionSkeletonOptions {
    /// Append each End Site as an extra leaf joint named "<joint>_end" (made
    /// unique with a numeric suffix when taken), after the #J joints.
    bool includeEndSites = false;
};

/// The clip's rest pose as a `rig::Skeleton` bind pose: bind positions are the
/// rest world positions (offsets summed down the hierarchy) and every bind
/// orientation is the identity. This deliberately differs from the "+Y along
/// the bone" roll convention of skeleton.h: with identity bind frames a
/// `rig::Pose` local rotation is exactly a BVH local rotation, so
/// `forwardKinematics(motionSkeleton(m), motionPose(m, f))` reproduces the
/// clip (see motionPose()). Fit proper bone frames later if needed.
Skeleton motionSkeleton(const Motion& motion, const MotionSkeletonOptions& options = {});

/// Frame f as a `rig::Pose` on motionSkeleton(motion, options): BVH local
/// rotations, root translation = the root's position channels (identity for
/// appended End Site joints). Position channels of non-root joints have no
/// place in a Pose and are dropped.
/// @throws rig::InvalidInput unless 0 <= f < #F.
Pose motionPose(const Motion& motion, int frame, const MotionSkeletonOptions& options = {});

} // namespace rig
