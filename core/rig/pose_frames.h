#pragma once
/// @file pose_frames.h
/// A sequence of poses of one skeleton (an animation clip) in two flat arrays,
/// so that 10^6 frames are two allocations, not 10^6 (issue 47: a vector of
/// `Pose`s took one heap block per frame).
///
/// Frame f's #J local rotations are `rotations[f·#J .. (f+1)·#J)`, in each
/// joint's bind frame as in `Pose` (pose.h); its root translation is
/// `rootTranslations[f]`. A clip of F frames of J joints holds
/// F·(J·32 + 24) bytes.

#include "core/rig/pose.h"

#include <cstddef>
#include <span>
#include <vector>

namespace rig {

struct PoseFrames {
    int jointCount = 0;                        ///< #J rotations per frame.
    std::vector<Eigen::Quaterniond> rotations; ///< #F·#J unit local rotations, frame after frame.
    std::vector<Vec3> rootTranslations;        ///< #F root translations (pose.h).

    /// #F.
    std::size_t size() const { return rootTranslations.size(); }
    bool empty() const { return rootTranslations.empty(); }
    /// Frame f's #J local rotations. Expects f < #F.
    std::span<const Eigen::Quaterniond> rotationsOf(std::size_t f) const;
    std::span<Eigen::Quaterniond> rotationsOf(std::size_t f);
    /// Frame f as a `Pose` (a copy: one allocation). Expects f < #F.
    Pose pose(std::size_t f) const;
    /// Appends a frame. @throws rig::InvalidInput when its joint count is not
    /// #J (the first frame appended to an empty sequence sets #J).
    void append(const Pose& pose);
};

/// `frames` as a flat sequence.
/// @throws rig::InvalidInput when the frames' joint counts differ.
PoseFrames toPoseFrames(std::span<const Pose> frames);

/// Every frame as a `Pose` (for consumers that take a list of poses, such as
/// the glTF export; one allocation per frame).
std::vector<Pose> toPoses(const PoseFrames& frames);

} // namespace rig
