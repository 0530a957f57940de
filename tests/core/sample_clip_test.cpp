#include "core/motion/sample_clip.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

#include <numbers>

namespace rig {
namespace {

RetargetedClip twoFrameClip()
{
    RetargetedClip clip;
    clip.name = "test";
    clip.frameTime = 0.5;
    Pose a, b;
    a.localRotations = {Eigen::Quaterniond::Identity(), Eigen::Quaterniond::Identity()};
    b.localRotations = {Eigen::Quaterniond(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitX())),
                        // The same rotation with the opposite sign: slerp must not spin round.
                        Eigen::Quaterniond(-1.0, 0.0, 0.0, 0.0)};
    b.rootTranslation = Vec3(2.0, 0.0, -4.0);
    clip.frames = toPoseFrames(std::vector<Pose>{a, b});
    return clip;
}

TEST(SampleClip, EmptyClipAndMismatchedPosesAreErrors)
{
    RetargetedClip empty;
    empty.name = "empty";
    EXPECT_THROW(sampleClip(empty, 0.0), InvalidInput);
    Pose a, b;
    a.localRotations.resize(2, Eigen::Quaterniond::Identity());
    b.localRotations.resize(3, Eigen::Quaterniond::Identity());
    EXPECT_THROW(blendPoses(a, b, 0.5), InvalidInput);
}

TEST(SampleClip, FramesAreReturnedExactlyAndTimesClamp)
{
    const RetargetedClip clip = twoFrameClip();
    EXPECT_TRUE(sampleClip(clip, 0.0).rootTranslation.isZero());
    EXPECT_TRUE(sampleClip(clip, -3.0).rootTranslation.isZero());
    EXPECT_EQ(sampleClip(clip, 0.5).rootTranslation, Vec3(2.0, 0.0, -4.0));
    EXPECT_EQ(sampleClip(clip, 99.0).rootTranslation, Vec3(2.0, 0.0, -4.0));
    EXPECT_TRUE(sampleClip(clip, std::nan("")).rootTranslation.isZero());
}

TEST(SampleClip, HalfwayIsTheMidpointOnTheShorterArc)
{
    const Pose p = sampleClip(twoFrameClip(), 0.25);
    EXPECT_TRUE(p.rootTranslation.isApprox(Vec3(1.0, 0.0, -2.0)));
    const Eigen::AngleAxisd r(p.localRotations[0]);
    EXPECT_NEAR(r.angle(), std::numbers::pi / 4, 1e-12);
    EXPECT_TRUE(r.axis().isApprox(Vec3::UnitX()));
    // -1 is the identity rotation: halfway must still be the identity.
    EXPECT_NEAR(Eigen::AngleAxisd(p.localRotations[1]).angle(), 0.0, 1e-9);
}

} // namespace
} // namespace rig
