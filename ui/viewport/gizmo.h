#pragma once
/// @file gizmo.h
/// The rotate gizmo of Pose mode, in plain C++ + GLM (no Qt, no GL) so tests
/// reach it without a GPU: three rings around the selected joint, one per
/// local axis of its posed frame (X red, Y green, Z blue), the twist ring
/// (around the bone: local +Y, rigsmith's roll convention, skeleton.h) drawn
/// brighter and doubled; picking a ring under the cursor; the signed angle of
/// a drag about a ring; snapping.
///
/// Dragging ring k by φ turns the joint about its own local axis e_k:
/// R' = R · Rot(e_k, φ) (pose.h: local rotations live in the joint's bind
/// frame, whose axes the posed frame O_i carries).

#include "core/rig/pose.h"
#include "ui/viewport/draw_data.h"
#include "ui/viewport/picking.h"

#include <functional>
#include <optional>
#include <vector>

namespace rig::ui {

struct RotateGizmo {
    glm::vec3 center{0.0f};  ///< The joint's posed position.
    glm::mat3 axes{1.0f};    ///< Columns: world directions of the joint's local X, Y, Z (posed).
    float radius = 0.1f;     ///< World radius of the rings.
    static constexpr int twistAxis = 1; ///< Local +Y: along the bone.
    static constexpr int segments = 64; ///< Line segments per ring.
};

/// The gizmo of joint `joint` of a posed skeleton (`forwardKinematics()`).
/// Expects a valid joint index.
RotateGizmo makeRotateGizmo(const PosedSkeleton& posed, int joint, float radius);

/// Line segments (pairs of points) of the rings; `active` (0–2, or -1) is
/// drawn in yellow (hovered or dragged).
std::vector<LineVertex> makeGizmoLines(const RotateGizmo& gizmo, int active = -1);

/// The ring (0–2) drawn nearest to `pixel`, if within `tolerance` pixels.
/// `toScreen` maps a world point to pixels (the viewport's projection).
std::optional<int> pickGizmoRing(const RotateGizmo& gizmo, const std::function<glm::vec2(const glm::vec3&)>& toScreen,
                                 glm::vec2 pixel, float tolerance = 8.0f);

/// Signed angle (radians, right-handed about the ring's axis) from the point
/// grabbed with ray `start` to the point under ray `current`, both taken on
/// the ring's plane, or, where that plane is seen edge-on, on the plane through
/// the centre facing the camera projected onto the ring's plane.
float gizmoDragAngle(const RotateGizmo& gizmo, int axis, const Ray& start, const Ray& current);

/// `angle` rounded to a multiple of `step` (radians; e.g. 15° with Ctrl).
float snapAngle(float angle, float step);

/// The pose after turning joint `joint` by `angle` about its local axis `axis`
/// (0 X, 1 Y, 2 Z) from `start`: R' = R · Rot(e_axis, angle).
Pose rotateJoint(const Pose& start, int joint, int axis, double angle);

} // namespace rig::ui
