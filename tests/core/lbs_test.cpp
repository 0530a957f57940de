#include "core/deform/lbs.h"

#include "core/common/error.h"
#include "core/rig/pose.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <thread>

namespace rig {
namespace {

/// A capsule along +Y from 0 to 3 and a 3-joint chain (0, 1.5, 3), weights
/// blended linearly across the middle joint (joint 2, the tip, gets none).
struct Tube {
    Mesh mesh;
    Skeleton skeleton;
    SkinWeights weights;
};

Tube tube(int segments = 24, int rings = 8, int maxInfluences = 4)
{
    Tube t;
    t.mesh = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 3, 0), 0.4, segments, rings, rings * 2);
    t.skeleton.names = {"a", "b", "c"};
    t.skeleton.parents = {-1, 0, 1};
    t.skeleton.bindPositions.resize(3, 3);
    t.skeleton.bindPositions << 0, 0, 0, 0, 1.5, 0, 0, 3, 0;
    t.skeleton.bindOrientations.assign(3, Eigen::Quaterniond::Identity());
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(t.mesh.V.rows(), 3);
    for (Eigen::Index i = 0; i < W.rows(); ++i) {
        const double s = std::clamp((t.mesh.V(i, 1) - 1.0) / 1.0, 0.0, 1.0);
        W(i, 0) = 1.0 - s;
        W(i, 1) = s;
    }
    t.weights = skinWeightsFromDense(W, maxInfluences);
    return t;
}

Pose bentPose(const Skeleton& s)
{
    Pose p = identityPose(s);
    p.localRotations[1] = Eigen::AngleAxisd(0.7, Vec3(1, 0, 0.3).normalized());
    p.localRotations[0] = Eigen::AngleAxisd(0.2, Vec3::UnitZ());
    p.rootTranslation = Vec3(0.1, -0.2, 0.3);
    return p;
}

TEST(Lbs, InvalidInputsAreRejectedFirst)
{
    const Tube t = tube();
    const PosedSkeleton ps = forwardKinematics(t.skeleton, identityPose(t.skeleton));
    const MatrixX3d wrongN = t.mesh.N.topRows(5);
    EXPECT_THROW(lbs(t.mesh.V, wrongN, t.weights, ps.skinning), InvalidInput);
    const MatrixX3d fewer = t.mesh.V.topRows(5);
    EXPECT_THROW(lbs(fewer, MatrixX3d(), t.weights, ps.skinning), InvalidInput);
    const std::vector<Eigen::Isometry3d> two(ps.skinning.begin(), ps.skinning.begin() + 1);
    EXPECT_THROW(lbs(t.mesh.V, t.mesh.N, t.weights, two), InvalidInput); // joint 1 has no transform
    EXPECT_THROW(lbs(t.mesh.V, t.mesh.N, t.weights, std::vector<Eigen::Isometry3d>{}), InvalidInput);
    SkinWeights bad = t.weights;
    bad.joints(0, 0) = -1;
    EXPECT_THROW(lbs(t.mesh.V, t.mesh.N, bad, ps.skinning), InvalidInput);
    bad = t.weights;
    bad.maxInfluences = 2;
    EXPECT_THROW(lbs(t.mesh.V, t.mesh.N, bad, ps.skinning), InvalidInput);
}

TEST(Lbs, IdentityPoseReturnsTheRestMesh)
{
    const Tube t = tube();
    const PosedSkeleton ps = forwardKinematics(t.skeleton, identityPose(t.skeleton));
    const DeformedMesh d = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    EXPECT_LT((d.V - t.mesh.V).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_LT((d.N - t.mesh.N).cwiseAbs().maxCoeff(), 1e-6);
    // Without normals, none come back.
    EXPECT_EQ(lbs(t.mesh.V, MatrixX3d(), t.weights, ps.skinning).N.rows(), 0);
}

TEST(Lbs, RigidMotionOfTheWholeSkeletonMovesTheMeshRigidly)
{
    const Tube t = tube();
    Pose p = identityPose(t.skeleton);
    p.localRotations[0] = Eigen::AngleAxisd(2.0, Vec3(1, 2, 3).normalized());
    p.rootTranslation = Vec3(4, -1, 2);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    const Eigen::Isometry3d X = ps.skinning[0];
    const DeformedMesh d = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i) {
        EXPECT_LT((d.V.row(i).transpose() - X * Vec3(t.mesh.V.row(i).transpose())).norm(), 1e-5);
        EXPECT_LT((d.N.row(i).transpose() - X.linear() * t.mesh.N.row(i).transpose()).norm(), 1e-5);
    }
}

TEST(Lbs, NormalsAreUnitAndThreadCountsAgree)
{
    const Tube t = tube(128, 32); // > 8192 vertices: really split over two threads
    ASSERT_GT(t.mesh.V.rows(), 8192);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, bentPose(t.skeleton));
    const DeformedMesh one = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning, {.threads = 1});
    const DeformedMesh two = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning, {.threads = 2});
    EXPECT_EQ(one.V, two.V);
    EXPECT_EQ(one.N, two.N);
    EXPECT_LT((one.N.rowwise().norm().array() - 1.0).abs().maxCoeff(), 1e-5);
    // The reuse overload gives the same.
    DeformedMesh reuse;
    lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning, reuse);
    lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning, reuse);
    EXPECT_EQ(reuse.V, one.V);
}

TEST(Lbs, ConcurrentAndInPlaceCallsAgree)
{
    // Two callers at once share the worker pool (one of them falls back to
    // its own threads); a call writing over its input gets a correct result.
    const Tube t = tube(128, 32);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, bentPose(t.skeleton));
    const DeformedMesh ref = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning, {.threads = 1});
    DeformedMesh a, b;
    std::thread other([&] {
        for (int r = 0; r < 20; ++r)
            lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning, a, {.threads = 2});
    });
    for (int r = 0; r < 20; ++r)
        lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning, b, {.threads = 2});
    other.join();
    EXPECT_EQ(a.V, ref.V);
    EXPECT_EQ(b.V, ref.V);
    EXPECT_EQ(b.N, ref.N);
    DeformedMesh inPlace{t.mesh.V, t.mesh.N};
    lbs(inPlace.V, inPlace.N, t.weights, ps.skinning, inPlace);
    EXPECT_EQ(inPlace.V, ref.V);
    EXPECT_EQ(inPlace.N, ref.N);
}

TEST(Lbs, MatchesEquation43)
{
    // Any influence count (the generic path for k = 3, the unrolled one for 4).
    for (int k : {3, 4}) {
        const Tube t = tube(24, 8, k);
        const PosedSkeleton ps = forwardKinematics(t.skeleton, bentPose(t.skeleton));
        const DeformedMesh d = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
        for (Eigen::Index i = 0; i < t.mesh.V.rows(); i += 7) {
            Vec3 expect = Vec3::Zero();
            for (int s = 0; s < k; ++s)
                expect += t.weights.weights(i, s) * (ps.skinning[t.weights.joints(i, s)] * Vec3(t.mesh.V.row(i).transpose()));
            EXPECT_LT((d.V.row(i).transpose() - expect).norm(), 1e-5) << "k " << k << " vertex " << i;
        }
    }
}

} // namespace
} // namespace rig
