#pragma once
/// @file orbit_camera.h
/// A Blender-like orbit camera: yaw/pitch around a target, distance, pan, and
/// zoom towards the point under the cursor. Pure GLM, no Qt and no GL, so it is
/// unit-testable.

#include <glm/glm.hpp>

namespace rig::ui {

/// Named views. The character faces +Z, so "front" looks down -Z.
enum class ViewPreset { Front, Side, Top, ThreeQuarter };

class OrbitCamera {
public:
    glm::vec3 target{0.0f, 0.9f, 0.0f};
    float distance = 3.0f;
    float yaw = 0.0f;    ///< Radians about +Y; 0 looks from +Z towards the target.
    float pitch = 0.0f;  ///< Radians; positive looks down from above.
    float fovY = glm::radians(40.0f);

    glm::vec3 eye() const;
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;

    /// Rotates by a mouse delta in pixels (0.01 rad per pixel); pitch is clamped short of the poles.
    void orbit(float dxPixels, float dyPixels);
    /// Moves the target in the view plane by a mouse delta, so that the point under the cursor follows it.
    void pan(float dxPixels, float dyPixels, float viewportHeight);
    /// Zooms by `factor` (< 1 moves closer) towards the point under the cursor
    /// at normalized device coordinates (ndcX, ndcY) in [-1, 1].
    void zoomTowards(float factor, float ndcX, float ndcY, float aspect);
    /// Centres the box and backs off so it fills the view.
    void frame(const glm::vec3& boxMin, const glm::vec3& boxMax, float aspect);
    /// Sets yaw and pitch for a named view (keeps target and distance).
    void setPreset(ViewPreset preset);
    /// Near and far planes derived from the distance (scale independent).
    float nearPlane() const { return distance * 0.01f; }
    float farPlane() const { return distance * 100.0f; }
};

} // namespace rig::ui
