#include "ui/viewport/gizmo.h"

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <numbers>

namespace rig::ui {
namespace {

glm::vec3 ringPoint(const RotateGizmo& g, int axis, int i)
{
    const float t = 2.0f * std::numbers::pi_v<float> * float(i) / float(RotateGizmo::segments);
    const glm::vec3 a = g.axes[(axis + 1) % 3], b = g.axes[(axis + 2) % 3];
    return g.center + g.radius * (std::cos(t) * a + std::sin(t) * b);
}

float distanceToSegment(glm::vec2 p, glm::vec2 a, glm::vec2 b)
{
    const glm::vec2 ab = b - a;
    const float len2 = glm::dot(ab, ab);
    const float t = len2 > 0.0f ? glm::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
    return glm::length(p - (a + t * ab));
}

/// Where the ray meets the plane through `point` with normal `n` (nullopt when parallel or behind).
std::optional<glm::vec3> hitPlane(const Ray& ray, const glm::vec3& point, const glm::vec3& n)
{
    const float denom = glm::dot(ray.direction, n);
    if (std::abs(denom) < 1e-6f)
        return std::nullopt;
    const float t = glm::dot(point - ray.origin, n) / denom;
    if (t < 0.0f)
        return std::nullopt;
    return ray.origin + t * ray.direction;
}

} // namespace

RotateGizmo makeRotateGizmo(const PosedSkeleton& posed, int joint, float radius)
{
    RotateGizmo g;
    g.center = glm::vec3(posed.positions(joint, 0), posed.positions(joint, 1), posed.positions(joint, 2));
    const Eigen::Matrix3d R = posed.orientations[static_cast<size_t>(joint)].normalized().toRotationMatrix();
    for (int c = 0; c < 3; ++c)
        g.axes[c] = glm::vec3(float(R(0, c)), float(R(1, c)), float(R(2, c)));
    g.radius = radius;
    return g;
}

std::vector<LineVertex> makeGizmoLines(const RotateGizmo& g, int active)
{
    const glm::vec3 colors[3] = {{0.95f, 0.3f, 0.3f}, {0.35f, 0.95f, 0.35f}, {0.35f, 0.55f, 1.0f}};
    std::vector<LineVertex> lines;
    lines.reserve(size_t(RotateGizmo::segments) * 2 * 4);
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 c = axis == active ? glm::vec3(1.0f, 0.9f, 0.2f) : colors[axis];
        const bool twist = axis == RotateGizmo::twistAxis;
        if (twist && axis != active)
            c = glm::vec3(0.6f, 1.0f, 0.6f); // highlighted: brighter
        // The twist ring is doubled (a second ring 4 % larger) so it reads as
        // the highlighted one at any zoom, line widths being fixed in core GL.
        for (int copy = 0; copy < (twist ? 2 : 1); ++copy) {
            RotateGizmo s = g;
            s.radius = g.radius * (copy == 0 ? 1.0f : 1.04f);
            for (int i = 0; i < RotateGizmo::segments; ++i) {
                lines.push_back({ringPoint(s, axis, i), c});
                lines.push_back({ringPoint(s, axis, i + 1), c});
            }
        }
    }
    // The bone direction as a short line along the twist axis.
    const glm::vec3 c = glm::vec3(0.6f, 1.0f, 0.6f);
    lines.push_back({g.center, c});
    lines.push_back({g.center + 1.3f * g.radius * g.axes[RotateGizmo::twistAxis], c});
    return lines;
}

std::optional<int> pickGizmoRing(const RotateGizmo& g, const std::function<glm::vec2(const glm::vec3&)>& toScreen,
                                 glm::vec2 pixel, float tolerance)
{
    std::optional<int> best;
    float bestD = tolerance;
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec2 prev = toScreen(ringPoint(g, axis, 0));
        for (int i = 1; i <= RotateGizmo::segments; ++i) {
            const glm::vec2 next = toScreen(ringPoint(g, axis, i));
            const float d = distanceToSegment(pixel, prev, next);
            if (d < bestD) {
                bestD = d;
                best = axis;
            }
            prev = next;
        }
    }
    return best;
}

float gizmoDragAngle(const RotateGizmo& g, int axis, const Ray& start, const Ray& current)
{
    const glm::vec3 n = glm::normalize(g.axes[axis]);
    auto onRing = [&](const Ray& ray) -> std::optional<glm::vec3> {
        if (std::abs(glm::dot(ray.direction, n)) > 0.15f)
            if (auto p = hitPlane(ray, g.center, n))
                return *p - g.center;
        // Edge-on: the camera-facing plane, projected onto the ring's plane.
        const auto q = hitPlane(ray, g.center, -ray.direction);
        if (!q)
            return std::nullopt;
        const glm::vec3 v = *q - g.center;
        return v - n * glm::dot(v, n);
    };
    const auto a = onRing(start), b = onRing(current);
    if (!a || !b || glm::length(*a) < 1e-9f || glm::length(*b) < 1e-9f)
        return 0.0f;
    return std::atan2(glm::dot(n, glm::cross(*a, *b)), glm::dot(*a, *b));
}

float snapAngle(float angle, float step) { return step > 0.0f ? step * std::round(angle / step) : angle; }

Pose rotateJoint(const Pose& start, int joint, int axis, double angle)
{
    Pose p = start;
    Eigen::Quaterniond& r = p.localRotations[static_cast<size_t>(joint)];
    r = (r * Eigen::Quaterniond(Eigen::AngleAxisd(angle, Vec3::Unit(axis)))).normalized();
    return p;
}

} // namespace rig::ui
