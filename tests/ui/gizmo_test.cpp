// The rotate gizmo's geometry without a GPU: rings, picking, drag angles, snapping.
#include "ui/viewport/gizmo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace rig::ui {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

RotateGizmo unitGizmo()
{
    RotateGizmo g;
    g.center = glm::vec3(0.0f);
    g.axes = glm::mat3(1.0f);
    g.radius = 1.0f;
    return g;
}

/// Looking down -Z from z = 10, 100 pixels per unit, origin at pixel (500, 500).
glm::vec2 toScreen(const glm::vec3& p) { return glm::vec2(500.0f + 100.0f * p.x, 500.0f - 100.0f * p.y); }
Ray rayAtWorld(float x, float y) { return Ray{glm::vec3(x, y, 10.0f), glm::vec3(0.0f, 0.0f, -1.0f)}; }

TEST(Gizmo, ThreeRingsAndTheTwistRingDoubled)
{
    const std::vector<LineVertex> lines = makeGizmoLines(unitGizmo());
    // 64 segments per ring, the twist ring (local +Y) twice, plus the bone line.
    EXPECT_EQ(lines.size(), size_t(2 * RotateGizmo::segments * 4 + 2));
    for (const LineVertex& v : lines)
        EXPECT_LE(glm::length(v.position), 1.3f * 1.0f + 1e-5f);
}

TEST(Gizmo, PicksTheRingUnderTheCursor)
{
    const RotateGizmo g = unitGizmo();
    // Seen along Z, the Z ring is the unit circle; the X and Y rings are edge-on lines.
    EXPECT_EQ(pickGizmoRing(g, toScreen, toScreen(glm::vec3(std::cos(0.8f), std::sin(0.8f), 0.0f))), 2);
    EXPECT_EQ(pickGizmoRing(g, toScreen, toScreen(glm::vec3(0.0f, 0.5f, 0.0f)) + glm::vec2(3.0f, 0.0f)), 0);
    EXPECT_FALSE(pickGizmoRing(g, toScreen, glm::vec2(900.0f, 900.0f)));
}

TEST(Gizmo, DragAngleIsSignedAboutTheRingAxis)
{
    const RotateGizmo g = unitGizmo();
    // Counter-clockwise seen from +Z is positive about +Z.
    const float a = gizmoDragAngle(g, 2, rayAtWorld(1.0f, 0.0f), rayAtWorld(0.0f, 1.0f));
    EXPECT_NEAR(a, kPi / 2, 1e-5f);
    EXPECT_NEAR(gizmoDragAngle(g, 2, rayAtWorld(0.0f, 1.0f), rayAtWorld(1.0f, 0.0f)), -kPi / 2, 1e-5f);
    // Edge-on ring (X axis seen from the side): falls back to the camera-facing plane.
    EXPECT_TRUE(std::isfinite(gizmoDragAngle(g, 0, rayAtWorld(0.0f, 1.0f), rayAtWorld(0.0f, -1.0f))));
}

TEST(Gizmo, SnapsTo15DegreeSteps)
{
    const float step = kPi / 12.0f;
    EXPECT_NEAR(snapAngle(0.3f, step), step, 1e-6f);
    EXPECT_NEAR(snapAngle(-0.4f, step), -2.0f * step, 1e-6f);
    EXPECT_EQ(snapAngle(0.3f, 0.0f), 0.3f);
}

TEST(Gizmo, RotatingAJointTurnsItAboutItsOwnAxis)
{
    Pose p;
    p.localRotations = {Eigen::Quaterniond::Identity(), Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3::UnitX()))};
    const Pose q = rotateJoint(p, 1, 1, 0.3);
    const Eigen::Quaterniond expected = p.localRotations[1] * Eigen::AngleAxisd(0.3, Vec3::UnitY());
    EXPECT_LT(q.localRotations[1].angularDistance(expected), 1e-12);
    EXPECT_LT(q.localRotations[0].angularDistance(Eigen::Quaterniond::Identity()), 1e-12);
}

} // namespace
} // namespace rig::ui
