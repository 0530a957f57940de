#include "ui/viewport/orbit_camera.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

namespace rig::ui {
namespace {

glm::vec3 toNdc(const OrbitCamera& c, float aspect, const glm::vec3& p)
{
    const glm::vec4 clip = c.projection(aspect) * c.view() * glm::vec4(p, 1.0f);
    return glm::vec3(clip) / clip.w;
}

TEST(OrbitCamera, FrameFitsEveryCornerInsideTheView)
{
    const glm::vec3 lo(-0.7f, 0.0f, -0.15f), hi(0.7f, 1.75f, 0.15f);
    for (ViewPreset preset : {ViewPreset::Front, ViewPreset::Side, ViewPreset::Top, ViewPreset::ThreeQuarter})
        for (float aspect : {0.5f, 1.0f, 16.0f / 9.0f}) {
            OrbitCamera c;
            c.setPreset(preset);
            c.frame(lo, hi, aspect);
            float maxExtent = 0.0f;
            for (int i = 0; i < 8; ++i) {
                const glm::vec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
                const glm::vec3 ndc = toNdc(c, aspect, corner);
                EXPECT_LE(std::abs(ndc.x), 1.0f);
                EXPECT_LE(std::abs(ndc.y), 1.0f);
                maxExtent = std::max({maxExtent, std::abs(ndc.x), std::abs(ndc.y)});
            }
            EXPECT_GT(maxExtent, 0.8f) << "framed too loosely";
        }
}

TEST(OrbitCamera, ZoomKeepsThePointUnderTheCursorFixed)
{
    OrbitCamera c;
    c.setPreset(ViewPreset::ThreeQuarter);
    const float aspect = 1.5f;
    // The world point under NDC (0.4, -0.3) on the target plane.
    const float h = c.distance * std::tan(c.fovY * 0.5f);
    const glm::mat4 v = c.view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
    const glm::vec3 p = c.target + right * (0.4f * h * aspect) + up * (-0.3f * h);
    c.zoomTowards(0.5f, 0.4f, -0.3f, aspect);
    const glm::vec3 ndc = toNdc(c, aspect, p);
    EXPECT_NEAR(ndc.x, 0.4f, 1e-4f);
    EXPECT_NEAR(ndc.y, -0.3f, 1e-4f);
}

TEST(OrbitCamera, OrbitClampsPitchShortOfThePoles)
{
    OrbitCamera c;
    c.orbit(0.0f, 1e6f);
    EXPECT_LT(c.pitch, 1.5708f);
    c.orbit(0.0f, -1e6f);
    EXPECT_GT(c.pitch, -1.5708f);
    const glm::vec3 e = c.eye();
    EXPECT_TRUE(std::isfinite(e.x) && std::isfinite(e.y) && std::isfinite(e.z));
}

} // namespace
} // namespace rig::ui
