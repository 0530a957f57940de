#include "core/motion/motion.h"

#include "core/common/error.h"
#include "core/motion/bvh_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <numbers>

#ifndef RIGSMITH_ASSIMP_MODELS
#define RIGSMITH_ASSIMP_MODELS "/usr/share/assimp/models"
#endif

namespace rig {
namespace {

Eigen::Quaterniond rot(double degrees, int axis)
{
    return Eigen::Quaterniond(Eigen::AngleAxisd(degrees * std::numbers::pi / 180.0, Vec3::Unit(axis)));
}

/// root (6 channels, Z Y X) -> spine (+Y, Z X Y) -> arm (+X, X Y Z) with an End Site (+X),
/// and a leaf "leg" (-Y, no channels) under the root.
Motion smallMotion()
{
    Motion m;
    m.names = {"root", "spine", "arm", "leg"};
    m.parents = {-1, 0, 1, 0};
    m.offsets.resize(4, 3);
    m.offsets << 1, 2, 3, 0, 1, 0, 2, 0, 0, 0, -1, 0;
    m.channels = {Channel::Xposition, Channel::Yposition, Channel::Zposition, Channel::Zrotation,
                  Channel::Yrotation, Channel::Xrotation, Channel::Zrotation, Channel::Xrotation,
                  Channel::Yrotation, Channel::Xrotation, Channel::Yrotation, Channel::Zrotation};
    m.channelStarts = {0, 6, 9, 12, 12};
    m.endSiteParents = {2};
    m.endSiteOffsets.resize(1, 3);
    m.endSiteOffsets << 1, 0, 0;
    m.frameTime = 0.04;
    m.frames.resize(2, 12);
    m.frames.row(0).setZero();
    m.frames.row(1) << 0.5, -1, 2, 90, 0, 0, 10, 20, 30, 0, 0, 45;
    return m;
}

// ---------------------------------------------------------------- invalid input first

TEST(Motion, InvalidMotionsAreRejectedFirst)
{
    EXPECT_NO_THROW(validateMotion(smallMotion()));
    EXPECT_THROW(validateMotion(Motion{}), InvalidInput);
    const auto broken = [](auto edit) {
        Motion m = smallMotion();
        edit(m);
        return m;
    };
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.parents[2] = 2; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.parents[0] = 0; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.names[3] = "spine"; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.names[3] = ""; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.names[3] = "leg\n"; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.names[3] = " leg"; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.names.pop_back(); })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.channels[7] = Channel::Zrotation; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.channelStarts = {0, 7, 9, 12, 12}; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.channelStarts.back() = 11; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.offsets(1, 1) = std::nan(""); })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.frames(1, 4) = INFINITY; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.frames.conservativeResize(2, 11); })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.frameTime = 0; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.endSiteParents = {4}; })), InvalidInput);
    EXPECT_THROW(validateMotion(broken([](Motion& m) { m.endSiteParents = {1, 2}; })), InvalidInput);

    const Motion m = smallMotion();
    EXPECT_THROW(evaluateFrame(m, 2), InvalidInput);
    EXPECT_THROW(evaluateFrame(m, -1), InvalidInput);
    EXPECT_THROW(worldPositions(m, 5), InvalidInput);
    EXPECT_THROW(motionPose(m, 2), InvalidInput);
    const std::vector<double> tooFew(11, 0.0);
    EXPECT_THROW(evaluateValues(m, tooFew), InvalidInput);
    MotionPose wrong = restPose(m);
    wrong.localRotations.pop_back();
    EXPECT_THROW(worldTransforms(m, wrong), InvalidInput);
}

TEST(Motion, ChannelNames)
{
    for (int i = 0; i < 6; ++i) {
        const auto c = static_cast<Channel>(i);
        EXPECT_EQ(parseChannelName(channelName(c)), c);
        EXPECT_EQ(isRotation(c), i >= 3);
        EXPECT_EQ(channelAxis(c), i % 3);
    }
    EXPECT_EQ(parseChannelName("zROTATION"), Channel::Zrotation);
    EXPECT_EQ(parseChannelName("Wrotation"), std::nullopt);
    EXPECT_EQ(parseChannelName("Xrot"), std::nullopt);
}

// ---------------------------------------------------------------- evaluation

TEST(Motion, RestPoseSumsOffsets)
{
    const Motion m = smallMotion();
    const MotionWorld w = worldTransforms(m, restPose(m));
    MatrixX3d expected(4, 3);
    expected << 1, 2, 3, 1, 3, 3, 3, 3, 3, 1, 1, 3;
    EXPECT_TRUE(w.positions.isApprox(expected));
    EXPECT_TRUE(w.endSitePositions.row(0).isApprox(Eigen::RowVector3d(4, 3, 3)));
    for (const auto& q : w.orientations)
        EXPECT_LT(q.angularDistance(Eigen::Quaterniond::Identity()), 1e-15);
    // Frame 0 is all zeros: the rest pose.
    EXPECT_TRUE(worldPositions(m, 0).isApprox(expected));
}

TEST(Motion, RotationsComposeInListedOrderInDegrees)
{
    const Motion m = smallMotion();
    const MotionPose p = evaluateFrame(m, 1);
    // root: Z Y X = 90 0 0; spine: Z X Y = 10 20 30; arm: X Y Z = 0 0 45; leg: none.
    EXPECT_LT(p.localRotations[0].angularDistance(rot(90, 2)), 1e-12);
    EXPECT_LT(p.localRotations[1].angularDistance(rot(10, 2) * rot(20, 0) * rot(30, 1)), 1e-12);
    EXPECT_GT(p.localRotations[1].angularDistance(rot(20, 0) * rot(30, 1) * rot(10, 2)), 1e-3);
    EXPECT_LT(p.localRotations[2].angularDistance(rot(45, 2)), 1e-12);
    EXPECT_LT(p.localRotations[3].angularDistance(Eigen::Quaterniond::Identity()), 1e-15);
    EXPECT_TRUE(p.translations.row(0).isApprox(Eigen::RowVector3d(0.5, -1, 2)));
    EXPECT_TRUE(p.translations.bottomRows(3).isZero());
}

TEST(Motion, ForwardKinematicsComposesParentThenLocal)
{
    const Motion m = smallMotion();
    const MotionPose p = evaluateFrame(m, 1);
    const MotionWorld w = worldTransforms(m, p);
    const Vec3 root = Vec3(1, 2, 3) + Vec3(0.5, -1, 2);
    const Eigen::Quaterniond W0 = rot(90, 2);
    const Eigen::Quaterniond W1 = W0 * p.localRotations[1];
    const Eigen::Quaterniond W2 = W1 * p.localRotations[2];
    const Vec3 spine = root + W0 * Vec3(0, 1, 0);
    const Vec3 arm = spine + W1 * Vec3(2, 0, 0);
    const Vec3 leg = root + W0 * Vec3(0, -1, 0);
    EXPECT_LT((w.positions.row(0).transpose() - root).norm(), 1e-12);
    EXPECT_LT((w.positions.row(1).transpose() - spine).norm(), 1e-12);
    EXPECT_LT((w.positions.row(2).transpose() - arm).norm(), 1e-12);
    EXPECT_LT((w.positions.row(3).transpose() - leg).norm(), 1e-12);
    EXPECT_LT((w.endSitePositions.row(0).transpose() - (arm + W2 * Vec3(1, 0, 0))).norm(), 1e-12);
    EXPECT_LT(w.orientations[2].angularDistance(W2), 1e-12);
    // The root's 90 degrees about Z turns the spine offset +Y into -X.
    EXPECT_LT((spine - (root + Vec3(-1, 0, 0))).norm(), 1e-12);
}

TEST(Motion, TranslationChannelsOfInnerJointsMoveThemInTheParentFrame)
{
    Motion m = smallMotion();
    // Give the spine 6 channels: translation listed after its rotations still
    // applies before them, in the parent's frame.
    m.channels.insert(m.channels.begin() + 9, {Channel::Yposition, Channel::Xposition, Channel::Zposition});
    m.channelStarts = {0, 6, 12, 15, 15};
    m.frames.setZero(2, 15);
    m.frames.row(1) << 0.5, -1, 2, 90, 0, 0, 10, 20, 30, 0.25, 0.5, 0.75, 0, 0, 45; // spine: y, x, z
    validateMotion(m);
    const MotionPose p = evaluateFrame(m, 1);
    EXPECT_TRUE(p.translations.row(1).isApprox(Eigen::RowVector3d(0.5, 0.25, 0.75)));
    const MotionWorld w = worldTransforms(m, p);
    const Vec3 root = w.positions.row(0).transpose();
    const Vec3 expected = root + rot(90, 2) * (Vec3(0, 1, 0) + Vec3(0.5, 0.25, 0.75));
    EXPECT_LT((w.positions.row(1).transpose() - expected).norm(), 1e-12);
}

// ---------------------------------------------------------------- rig::Skeleton

TEST(Motion, SkeletonIsTheRestPoseWithIdentityFrames)
{
    const Motion m = smallMotion();
    const Skeleton s = motionSkeleton(m);
    EXPECT_NO_THROW(validateSkeleton(s));
    EXPECT_EQ(s.names, m.names);
    EXPECT_EQ(s.parents, m.parents);
    EXPECT_TRUE(s.bindPositions.isApprox(worldTransforms(m, restPose(m)).positions));
    for (const auto& q : s.bindOrientations)
        EXPECT_EQ(q.coeffs(), Eigen::Quaterniond::Identity().coeffs());

    Motion clash = m;
    clash.names[3] = "arm_end"; // the End Site's name is taken: a suffix makes it unique
    const Skeleton withEnds = motionSkeleton(clash, {true});
    EXPECT_NO_THROW(validateSkeleton(withEnds));
    ASSERT_EQ(withEnds.jointCount(), 5);
    EXPECT_EQ(withEnds.names[4], "arm_end2");
    EXPECT_EQ(withEnds.parents[4], 2);
    EXPECT_TRUE(withEnds.bindPositions.row(4).isApprox(Eigen::RowVector3d(4, 3, 3)));
}

TEST(Motion, PoseOnTheSkeletonReproducesTheClip)
{
    const Motion m = smallMotion();
    for (const bool ends : {false, true}) {
        const MotionSkeletonOptions options{ends};
        const Skeleton s = motionSkeleton(m, options);
        for (int f = 0; f < m.frameCount(); ++f) {
            const PosedSkeleton posed = forwardKinematics(s, motionPose(m, f, options));
            const MotionWorld w = worldTransforms(m, evaluateFrame(m, f));
            EXPECT_LT((posed.positions.topRows(m.jointCount()) - w.positions).cwiseAbs().maxCoeff(), 1e-12);
            if (ends) {
                EXPECT_LT((posed.positions.bottomRows(1) - w.endSitePositions).cwiseAbs().maxCoeff(), 1e-12);
            }
        }
    }
}

TEST(Motion, CmuClipOnTheSkeletonMatchesBvhForwardKinematics)
{
    const std::string path = std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/01_01.bvh";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << path << " is missing (Debian package assimp-testmodels)";
    const Motion m = readBvh(path);
    const Skeleton s = motionSkeleton(m);
    EXPECT_NO_THROW(validateSkeleton(s));
    for (const int f : {0, 100, 1000, m.frameCount() - 1}) {
        const PosedSkeleton posed = forwardKinematics(s, motionPose(m, f));
        EXPECT_LT((posed.positions - worldPositions(m, f)).cwiseAbs().maxCoeff(), 1e-9) << "frame " << f;
    }
    // Zero-length joints (LHipJoint, LowerBack) sit on their parents at rest.
    EXPECT_LT((s.bindPositions.row(*s.find("LHipJoint")) - s.bindPositions.row(0)).norm(), 1e-12);
}

} // namespace
} // namespace rig
