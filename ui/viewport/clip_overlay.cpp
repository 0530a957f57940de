#include "ui/viewport/clip_overlay.h"

#include <algorithm>
#include <cmath>

namespace rig::ui {

std::vector<LineVertex> makeClipSkeletonLines(const Motion& clip, double seconds, double scale,
                                              const glm::vec3& anchor)
{
    std::vector<LineVertex> lines;
    if (clip.frameCount() == 0 || clip.jointCount() == 0)
        return lines;
    const int last = clip.frameCount() - 1;
    const int frame = std::clamp(int(std::lround(std::isfinite(seconds) ? seconds / clip.frameTime : 0.0)), 0, last);
    const MotionWorld world = worldTransforms(clip, evaluateFrame(clip, frame));
    // The current root position (x, z) anchors the figure.
    const Vec3 origin(world.positions(0, 0), 0.0, world.positions(0, 2));
    auto place = [&](const Vec3& p) {
        const Vec3 q = scale * (p - origin);
        return glm::vec3(anchor.x + float(q.x()), anchor.y + float(q.y()), anchor.z + float(q.z()));
    };
    const glm::vec3 bone(1.0f, 0.6f, 0.15f), leaf(1.0f, 0.85f, 0.4f);
    for (int j = 1; j < clip.jointCount(); ++j) {
        const int p = clip.parents[size_t(j)];
        lines.push_back({place(world.positions.row(p)), bone});
        lines.push_back({place(world.positions.row(j)), bone});
    }
    for (int e = 0; e < clip.endSiteCount(); ++e) {
        lines.push_back({place(world.positions.row(clip.endSiteParents[size_t(e)])), leaf});
        lines.push_back({place(world.endSitePositions.row(e)), leaf});
    }
    return lines;
}

} // namespace rig::ui
