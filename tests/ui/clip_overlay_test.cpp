#include "ui/viewport/clip_overlay.h"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

namespace rig::ui {
namespace {

/// A two-joint clip: a root and a 1-unit bone along +Y, rotating 90° about Z at frame 1.
Motion twoBoneClip()
{
    Motion m;
    m.names = {"Hips", "Spine"};
    m.parents = {-1, 0};
    m.offsets.resize(2, 3);
    m.offsets << 2.0, 1.0, 0.0, 0.0, 1.0, 0.0;
    m.channels = {Channel::Zrotation};
    m.channelStarts = {0, 1, 1};
    m.endSiteParents = {1};
    m.endSiteOffsets.resize(1, 3);
    m.endSiteOffsets << 0.0, 0.5, 0.0;
    m.frameTime = 0.5;
    m.frames.resize(2, 1);
    m.frames << 0.0, 90.0;
    return m;
}

TEST(ClipOverlay, BonesAreScaledAndAnchoredBesideTheCharacter)
{
    const auto lines = makeClipSkeletonLines(twoBoneClip(), 0.0, 2.0, glm::vec3(5.0f, 0.0f, 0.0f));
    ASSERT_EQ(lines.size(), 4u); // one bone, one End Site
    // The root's rest position lands on the anchor's x/z; heights are scaled.
    EXPECT_LT(glm::distance(lines[0].position, glm::vec3(5.0f, 2.0f, 0.0f)), 1e-5f);
    EXPECT_LT(glm::distance(lines[1].position, glm::vec3(5.0f, 4.0f, 0.0f)), 1e-5f);
    EXPECT_LT(glm::distance(lines[3].position, glm::vec3(5.0f, 5.0f, 0.0f)), 1e-5f);
}

TEST(ClipOverlay, TimeSelectsTheNearestFrameAndClamps)
{
    const Motion m = twoBoneClip();
    const auto late = makeClipSkeletonLines(m, 0.4, 1.0, glm::vec3(0.0f));
    // Frame 1: the root turned 90° about Z, the bone now points along -X.
    EXPECT_LT(glm::distance(late[0].position, glm::vec3(0.0f, 1.0f, 0.0f)), 1e-5f);
    EXPECT_LT(glm::distance(late[1].position, glm::vec3(-1.0f, 1.0f, 0.0f)), 1e-5f);
    EXPECT_EQ(makeClipSkeletonLines(m, 99.0, 1.0, glm::vec3(0.0f))[1].position, late[1].position);
    Motion empty = m;
    empty.frames.resize(0, 1);
    EXPECT_TRUE(makeClipSkeletonLines(empty, 0.0, 1.0, glm::vec3(0.0f)).empty());
}

} // namespace
} // namespace rig::ui
