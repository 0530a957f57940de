#pragma once
/// @file sample_clip.h
/// Playback of a retargeted clip at any time: the pose between two frames.
///
/// Local rotations are interpolated by spherical linear interpolation on the
/// shorter arc (a frame pair never spins the long way round), the root
/// translation linearly. Times before 0 or past the last frame clamp to the
/// first or last frame; the clip does not wrap (looping is the caller's).

#include "core/rig/pose.h"
#include "core/motion/retarget.h"

namespace rig {

/// The pose of `clip` at `seconds` (frame f = seconds / frameTime, blending
/// frames floor(f) and floor(f) + 1 by the fraction).
/// @throws rig::InvalidInput when the clip has no frames or a frame's size
/// differs from the first one's.
Pose sampleClip(const RetargetedClip& clip, double seconds);

/// The blend of two poses of the same skeleton: slerp of each local rotation
/// (shorter arc), lerp of the root translation; t = 0 gives `a`, 1 gives `b`.
/// @throws rig::InvalidInput when their joint counts differ.
Pose blendPoses(const Pose& a, const Pose& b, double t);

} // namespace rig
