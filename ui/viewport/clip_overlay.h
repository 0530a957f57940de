#pragma once
/// @file clip_overlay.h
/// What to draw of a motion clip's own skeleton beside the character (plain
/// C++ + GLM, no Qt, no GL): its bones as lines at a given time, scaled to the
/// character (the retargeting's leg-length ratio) and set beside it, so the
/// artist can compare the source motion with what the rig does.

#include "core/motion/motion.h"
#include "ui/viewport/draw_data.h"

#include <vector>

namespace rig::ui {

/// Lines (two points each) of the clip's bones at `seconds` (the nearest
/// frame), End Sites included: positions scaled by `scale`, then moved so the
/// root's current position lands at `anchor` (x, z) (the figure walks along
/// with the character instead of walking off screen); y = 0 of the clip maps
/// to y = anchor.y. Empty for a clip without frames.
std::vector<LineVertex> makeClipSkeletonLines(const Motion& clip, double seconds, double scale,
                                              const glm::vec3& anchor);

} // namespace rig::ui
