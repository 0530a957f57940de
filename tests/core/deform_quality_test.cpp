#include "core/eval/deform_quality.h"

#include "core/character/humanoid.h"
#include "core/eval/bar_experiment.h"
#include "tests/support/skeletons.h"

#include <gtest/gtest.h>

#include <numbers>

namespace rig {
namespace {

DeformQuality measureBar(const BarRig& bar, const Pose& pose, const std::string& deformer, int joint,
                         const DeformQualityOptions& options = {})
{
    const DeformerInput input{bar.mesh, bar.weights, &bar.segmentation, bar.skeleton};
    const DeformedMesh d = deformOnce(findDeformer(deformer), input, pose);
    std::vector<int> top(static_cast<size_t>(bar.weights.vertexCount()));
    for (int v = 0; v < bar.weights.vertexCount(); ++v)
        top[static_cast<size_t>(v)] = bar.weights.joints(v, 0);
    return measureDeformation(bar.mesh, d.V, bar.skeleton, forwardKinematics(bar.skeleton, pose),
                              bar.segmentation.bone, top, joint, options);
}

// Deformers write float positions: 1e-4 is their precision on the bar's edges.
TEST(DeformQuality, TheRestPoseAndARigidMotionChangeNothing)
{
    const BarRig bar = makeBar();
    Pose pose = identityPose(bar.skeleton);
    for (const char* id : {"lbs", "dqs", "twist"}) {
        const DeformQuality rest = measureBar(bar, pose, id, 2);
        EXPECT_EQ(rest.stretched, 0) << id;
        EXPECT_EQ(rest.flipped, 0) << id;
        EXPECT_NEAR(rest.maxStretch, 1.0, 1e-4) << id;
        EXPECT_NEAR(rest.maxVolumeChange, 0.0, 1e-4) << id;
        EXPECT_EQ(rest.intersections, 0) << id;
    }
    pose.localRotations[0] = Eigen::Quaterniond(Eigen::AngleAxisd(2.0, Vec3(1, 2, 3).normalized()));
    pose.rootTranslation = Vec3(0.5, -2.0, 7.0);
    for (const char* id : {"lbs", "dqs", "twist"}) {
        const DeformQuality rigid = measureBar(bar, pose, id, 2);
        EXPECT_EQ(rigid.stretched, 0) << id;
        EXPECT_EQ(rigid.flipped, 0) << id;
        EXPECT_NEAR(rigid.maxStretch, 1.0, 1e-4) << id;
        EXPECT_NEAR(rigid.maxVolumeChange, 0.0, 1e-4) << id;
        EXPECT_EQ(rigid.intersections, 0) << id;
    }
}

TEST(DeformQuality, LbsCollapsesATwistedBarAndDqsDoesNot)
{
    const BarRig bar = makeBar();
    Pose pose = identityPose(bar.skeleton);
    const Vec3 axis = (bar.skeleton.bindPositions.row(3) - bar.skeleton.bindPositions.row(2)).normalized();
    const Eigen::Quaterniond& o = bar.skeleton.bindOrientations[2];
    pose.localRotations[2] = o.conjugate() * Eigen::Quaterniond(Eigen::AngleAxisd(std::numbers::pi * 0.999, axis)) * o;
    const DeformQuality lbs = measureBar(bar, pose, "lbs", 2);
    const DeformQuality dqs = measureBar(bar, pose, "dqs", 2);
    EXPECT_GT(lbs.maxVolumeChange, 0.05); // the candy wrapper: 7.7 % of a link's volume
    EXPECT_LT(dqs.maxVolumeChange, lbs.maxVolumeChange / 2);
}

TEST(DeformQuality, FlipsAreFoldsNotSkinTurnedAboutItsBone)
{
    // The twist deformer turns the bar's skin progressively about the twisted
    // link, up to 180° at its end: not a single triangle is turned over
    // against its neighbours, but against the bone's rotation (the first
    // definition) the far half of the link counted as flipped.
    const BarRig bar = makeBar();
    Pose pose = identityPose(bar.skeleton);
    const Vec3 axis = (bar.skeleton.bindPositions.row(3) - bar.skeleton.bindPositions.row(2)).normalized();
    const Eigen::Quaterniond& o = bar.skeleton.bindOrientations[3];
    pose.localRotations[3] = o.conjugate() * Eigen::Quaterniond(Eigen::AngleAxisd(std::numbers::pi * 0.999, axis)) * o;
    EXPECT_EQ(measureBar(bar, pose, "twist", 3).flipped, 0);
    EXPECT_GT(measureBar(bar, pose, "twist", 3, {.flipAgainstBone = true}).flipped, 0);
    // A real fold: one vertex pushed through the skin turns its triangles over.
    Mesh rest;
    rest.V.resize(9, 3);
    for (int i = 0; i < 9; ++i)
        rest.V.row(i) << i % 3, i / 3, 0.0;
    rest.F.resize(8, 3);
    for (int y = 0, f = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x) {
            const int a = 3 * y + x;
            rest.F.row(f++) << a, a + 1, a + 4;
            rest.F.row(f++) << a, a + 4, a + 3;
        }
    Skeleton one;
    one.names = {"root"};
    one.parents = {-1};
    one.bindPositions = MatrixX3d::Zero(1, 3);
    one.bindOrientations = {Eigen::Quaterniond::Identity()};
    MatrixX3d posed = rest.V;
    posed.row(4) << 2.6, 1.0, 0.0; // the centre pushed past its right neighbour, in the plane
    const std::vector<int> zero(9, 0);
    const DeformQuality q =
        measureDeformation(rest, posed, one, forwardKinematics(one, identityPose(one)), zero, zero, 0);
    EXPECT_GT(q.flipped, 0);
    EXPECT_LT(q.flipped, 8);
}

TEST(DeformQuality, SelfIntersectionsCountCrossingTrianglesOnly)
{
    MatrixX3d V(10, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0,          // in z = 0
        0.2, 0.2, -0.5, 0.2, 0.2, 0.5, 0.8, 0.8, 0, // crosses it
        5, 5, 5, 6, 5, 5, 5, 6, 5,               // far away
        1, -1, 0;
    MatrixX3i F(4, 3);
    F << 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 9; // the last touches the first along an edge
    EXPECT_EQ(selfIntersections(V, F, Vec3::Zero(), 100.0), 1);
    EXPECT_EQ(selfIntersections(V, F, Vec3(5, 5, 5), 0.5), 0); // only the far triangle is near
}

TEST(DeformQuality, TestPosesBendTwistAndRaiseEachLimb)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::T, .height = 1.75, .cellSize = 0.05});
    const Skeleton s = test::groundTruthSkeleton(h);
    const auto poses = deformTestPoses(s, Vec3::UnitZ());
    EXPECT_EQ(poses.size(), 24u); // per side: 4 bends and raises, 8 twists
    for (const DeformTestPose& t : poses) {
        const PosedSkeleton p = forwardKinematics(s, t.pose);
        if (t.name.find("twist") != std::string::npos) {
            // A turn about the parent bone by the named angle.
            const Eigen::AngleAxisd turn(p.orientations[static_cast<size_t>(t.joint)] *
                                         s.bindOrientations[static_cast<size_t>(t.joint)].conjugate());
            const int parent = s.parents[static_cast<size_t>(t.joint)];
            const Vec3 bone = (s.bindPositions.row(t.joint) - s.bindPositions.row(parent)).normalized();
            EXPECT_NEAR(std::abs(turn.axis().dot(bone)), 1.0, 1e-9) << t.name;
            const double degrees = std::abs(std::stod(t.name.substr(t.name.rfind(' ') + 1)));
            EXPECT_NEAR(turn.angle() * 180.0 / std::numbers::pi, degrees, 1e-6) << t.name;
            continue;
        }
        int child = -1;
        for (int c = s.jointCount() - 1; c >= 0; --c)
            if (s.parents[static_cast<size_t>(c)] == t.joint)
                child = c;
        ASSERT_GE(child, 0) << t.name;
        const Vec3 moved = p.positions.row(child) - s.bindPositions.row(child);
        if (t.name.find("ForeArm bend") != std::string::npos) {
            EXPECT_GT(moved.z(), 0.1) << t.name; // the hand comes forward
        } else if (t.name.find("Leg bend") != std::string::npos) {
            EXPECT_LT(moved.z(), -0.1) << t.name; // the foot goes back
        } else {
            EXPECT_GT(moved.y() + moved.z(), 0.1) << t.name; // raised: up (arm) or forward (thigh)
        }
    }
}

} // namespace
} // namespace rig
