#include "ui/viewport/orbit_camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace rig::ui {

glm::vec3 OrbitCamera::eye() const
{
    const glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    return target + distance * dir;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 1, 0)); }

glm::mat4 OrbitCamera::projection(float aspect) const
{
    return glm::perspective(fovY, std::max(aspect, 1e-3f), nearPlane(), farPlane());
}

void OrbitCamera::orbit(float dx, float dy)
{
    yaw -= dx * 0.01f;
    pitch = std::clamp(pitch + dy * 0.01f, -1.55f, 1.55f);
}

void OrbitCamera::pan(float dx, float dy, float viewportHeight)
{
    // World units per pixel at the target's depth.
    const float unitsPerPixel = 2.0f * distance * std::tan(fovY * 0.5f) / std::max(viewportHeight, 1.0f);
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
    const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
    target += (-dx * right + dy * up) * unitsPerPixel;
}

void OrbitCamera::zoomTowards(float factor, float ndcX, float ndcY, float aspect)
{
    factor = std::clamp(factor, 0.05f, 20.0f);
    // The point under the cursor on the plane through the target facing the camera.
    const float h = distance * std::tan(fovY * 0.5f);
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
    const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
    const glm::vec3 cursorPoint = target + right * (ndcX * h * aspect) + up * (ndcY * h);
    // Scaling the camera about that point keeps it fixed on screen.
    target = cursorPoint + (target - cursorPoint) * factor;
    distance = std::clamp(distance * factor, 1e-4f, 1e6f);
}

void OrbitCamera::frame(const glm::vec3& lo, const glm::vec3& hi, float aspect)
{
    // Fit the box's eight corners: each corner needs the camera at least far
    // enough back that it projects inside the (slightly shrunk) frustum.
    target = 0.5f * (lo + hi);
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
    const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
    const glm::vec3 back(v[0][2], v[1][2], v[2][2]); // from target towards the eye
    const float margin = 0.92f;
    const float tanY = std::tan(fovY * 0.5f) * margin;
    const float tanX = tanY * std::max(aspect, 0.1f);
    float needed = 1e-4f;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 c((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
        const glm::vec3 d = c - target;
        const float depth = glm::dot(d, back); // towards the camera
        needed = std::max(needed, depth + std::abs(glm::dot(d, up)) / tanY);
        needed = std::max(needed, depth + std::abs(glm::dot(d, right)) / tanX);
    }
    distance = needed;
}

void OrbitCamera::setPreset(ViewPreset preset)
{
    switch (preset) {
    case ViewPreset::Front: yaw = 0.0f; pitch = 0.0f; break;
    case ViewPreset::Side: yaw = glm::radians(90.0f); pitch = 0.0f; break;
    case ViewPreset::Top: yaw = 0.0f; pitch = 1.55f; break;
    case ViewPreset::ThreeQuarter: yaw = glm::radians(35.0f); pitch = glm::radians(15.0f); break;
    }
}

} // namespace rig::ui
