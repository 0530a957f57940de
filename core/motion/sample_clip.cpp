#include "core/motion/sample_clip.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>

namespace rig {

Pose blendPoses(const Pose& a, const Pose& b, double t)
{
    if (a.localRotations.size() != b.localRotations.size())
        throw InvalidInput("rig::blendPoses(): the poses have " + std::to_string(a.localRotations.size()) + " and " +
                           std::to_string(b.localRotations.size()) + " joints");
    Pose out;
    out.localRotations.resize(a.localRotations.size());
    for (size_t j = 0; j < a.localRotations.size(); ++j) {
        // Eigen's slerp already takes the shorter arc (it flips the sign of a
        // negative dot product).
        out.localRotations[j] = a.localRotations[j].slerp(t, b.localRotations[j]).normalized();
    }
    out.rootTranslation = (1.0 - t) * a.rootTranslation + t * b.rootTranslation;
    return out;
}

Pose sampleClip(const RetargetedClip& clip, double seconds)
{
    if (clip.frames.empty())
        throw InvalidInput("rig::sampleClip(): the clip '" + clip.name + "' has no frames");
    const int last = static_cast<int>(clip.frames.size()) - 1;
    const double f = clip.frameTime > 0 && std::isfinite(seconds) ? std::clamp(seconds / clip.frameTime, 0.0, double(last))
                                                                   : 0.0;
    const int i = std::min(static_cast<int>(std::floor(f)), last);
    const double t = f - i;
    if (i == last || t <= 0.0)
        return clip.frames.pose(static_cast<size_t>(i));
    return blendPoses(clip.frames.pose(static_cast<size_t>(i)), clip.frames.pose(static_cast<size_t>(i) + 1), t);
}

} // namespace rig
