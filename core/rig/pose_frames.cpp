#include "core/rig/pose_frames.h"

#include "core/common/error.h"

#include <cassert>
#include <string>

namespace rig {

std::span<const Eigen::Quaterniond> PoseFrames::rotationsOf(std::size_t f) const
{
    assert(f < size());
    const auto n = static_cast<std::size_t>(jointCount);
    return std::span<const Eigen::Quaterniond>(rotations).subspan(f * n, n);
}

std::span<Eigen::Quaterniond> PoseFrames::rotationsOf(std::size_t f)
{
    assert(f < size());
    const auto n = static_cast<std::size_t>(jointCount);
    return std::span<Eigen::Quaterniond>(rotations).subspan(f * n, n);
}

Pose PoseFrames::pose(std::size_t f) const
{
    const auto r = rotationsOf(f);
    Pose p;
    p.localRotations.assign(r.begin(), r.end());
    p.rootTranslation = rootTranslations[f];
    return p;
}

void PoseFrames::append(const Pose& pose)
{
    if (empty() && rotations.empty())
        jointCount = static_cast<int>(pose.localRotations.size());
    if (static_cast<int>(pose.localRotations.size()) != jointCount)
        throw InvalidInput("rig::PoseFrames::append(): frame " + std::to_string(size()) + " has " +
                           std::to_string(pose.localRotations.size()) + " rotations, the clip " +
                           std::to_string(jointCount));
    rotations.insert(rotations.end(), pose.localRotations.begin(), pose.localRotations.end());
    rootTranslations.push_back(pose.rootTranslation);
}

PoseFrames toPoseFrames(std::span<const Pose> frames)
{
    PoseFrames out;
    if (!frames.empty()) {
        out.rotations.reserve(frames.size() * frames[0].localRotations.size());
        out.rootTranslations.reserve(frames.size());
    }
    for (const Pose& p : frames)
        out.append(p);
    return out;
}

std::vector<Pose> toPoses(const PoseFrames& frames)
{
    std::vector<Pose> out;
    out.reserve(frames.size());
    for (std::size_t f = 0; f < frames.size(); ++f)
        out.push_back(frames.pose(f));
    return out;
}

} // namespace rig
