#include "core/deform/dqs.h"

#include "core/common/error.h"
#include "core/rig/pose.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace rig {
namespace {

struct Tube {
    Mesh mesh;
    Skeleton skeleton;
    SkinWeights weights;
};

/// Capsule along +Y (0..3), chain at 0, 1.5, 3; rigid on joint 0 below y = 1
/// and on joint 1 above y = 2, blended linearly in between.
Tube tube()
{
    Tube t;
    t.mesh = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 3, 0), 0.4, 24, 8, 16);
    t.skeleton.names = {"a", "b", "c"};
    t.skeleton.parents = {-1, 0, 1};
    t.skeleton.bindPositions.resize(3, 3);
    t.skeleton.bindPositions << 0, 0, 0, 0, 1.5, 0, 0, 3, 0;
    t.skeleton.bindOrientations.assign(3, Eigen::Quaterniond::Identity());
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(t.mesh.V.rows(), 3);
    for (Eigen::Index i = 0; i < W.rows(); ++i) {
        const double s = std::clamp(t.mesh.V(i, 1) - 1.0, 0.0, 1.0);
        W(i, 0) = 1.0 - s;
        W(i, 1) = s;
    }
    t.weights = skinWeightsFromDense(W, 4);
    return t;
}

TEST(Dqs, InvalidInputsAreRejectedFirst)
{
    const Tube t = tube();
    PosedSkeleton ps = forwardKinematics(t.skeleton, identityPose(t.skeleton));
    const MatrixX3d fewer = t.mesh.V.topRows(3);
    EXPECT_THROW(dqs(fewer, MatrixX3d(), t.weights, ps.skinning), InvalidInput);
    const std::vector<Eigen::Isometry3d> one(ps.skinning.begin(), ps.skinning.begin() + 1);
    EXPECT_THROW(dqs(t.mesh.V, t.mesh.N, t.weights, one), InvalidInput);
    // Not a rigid motion: a scale.
    ps.skinning[1].linear() *= 2.0;
    EXPECT_THROW(dqs(t.mesh.V, t.mesh.N, t.weights, ps.skinning), InvalidInput);
    EXPECT_THROW(dualQuaternion(ps.skinning[1]), InvalidInput);
}

TEST(Dqs, IdentityPoseReturnsTheRestMesh)
{
    const Tube t = tube();
    const PosedSkeleton ps = forwardKinematics(t.skeleton, identityPose(t.skeleton));
    const DeformedMesh d = dqs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    EXPECT_LT((d.V - t.mesh.V).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_LT((d.N - t.mesh.N).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(Dqs, RigidMotionOfTheWholeSkeletonMovesTheMeshRigidly)
{
    const Tube t = tube();
    Pose p = identityPose(t.skeleton);
    p.localRotations[0] = Eigen::AngleAxisd(2.5, Vec3(-1, 2, 0.5).normalized());
    p.rootTranslation = Vec3(-3, 1, 2);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    const Eigen::Isometry3d X = ps.skinning[0];
    const DeformedMesh d = dqs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i) {
        EXPECT_LT((d.V.row(i).transpose() - X * Vec3(t.mesh.V.row(i).transpose())).norm(), 1e-5);
        EXPECT_LT((d.N.row(i).transpose() - X.linear() * t.mesh.N.row(i).transpose()).norm(), 1e-5);
    }
}

TEST(Dqs, EqualsLbsWhereAVertexHasASingleBone)
{
    const Tube t = tube();
    Pose p = identityPose(t.skeleton);
    p.localRotations[0] = Eigen::AngleAxisd(0.4, Vec3::UnitX());
    p.localRotations[1] = Eigen::AngleAxisd(1.1, Vec3(0.3, 0.2, 1).normalized());
    p.rootTranslation = Vec3(0.5, 0, 0);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    const DeformedMesh a = dqs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    const DeformedMesh b = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    int single = 0;
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i)
        if (t.weights.weights(i, 0) == 1.0f) {
            ++single;
            EXPECT_LT((a.V.row(i) - b.V.row(i)).norm(), 1e-5);
            EXPECT_LT((a.N.row(i) - b.N.row(i)).norm(), 1e-5);
        }
    EXPECT_GT(single, 100);
}

TEST(Dqs, TwistKeepsTheRadius)
{
    // 180° twist of joint 1 about the bone: LBS collapses the blend zone, DQS
    // rotates it about the axis.
    const Tube t = tube();
    Pose p = identityPose(t.skeleton);
    p.localRotations[1] = Eigen::AngleAxisd(std::numbers::pi * 0.999, Vec3::UnitY());
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    const DeformedMesh d = dqs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    const DeformedMesh l = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    double minRatioDqs = 1e9, minRatioLbs = 1e9;
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i) {
        const double r = std::hypot(t.mesh.V(i, 0), t.mesh.V(i, 2));
        if (r < 0.3)
            continue;
        minRatioDqs = std::min(minRatioDqs, std::hypot(d.V(i, 0), d.V(i, 2)) / r);
        minRatioLbs = std::min(minRatioLbs, std::hypot(l.V(i, 0), l.V(i, 2)) / r);
    }
    EXPECT_GT(minRatioDqs, 0.999);
    EXPECT_LT(minRatioLbs, 0.05);
}

TEST(Dqs, BlendsInTheHemisphereOfTheMainInfluence)
{
    // Two influences at 170° and 190° about Y: their quaternions are nearly
    // antipodal; aligned, the 50/50 blend is the 180° rotation.
    Skeleton s;
    MatrixX3d V(1, 3);
    V << 1, 0, 0;
    SkinWeights W;
    W.maxInfluences = 2;
    W.joints.resize(1, 2);
    W.joints << 0, 1;
    W.weights.resize(1, 2);
    W.weights << 0.5f, 0.5f;
    std::vector<Eigen::Isometry3d> M(2, Eigen::Isometry3d::Identity());
    M[0].linear() = Eigen::AngleAxisd(170.0 * std::numbers::pi / 180, Vec3::UnitY()).toRotationMatrix();
    M[1].linear() = Eigen::AngleAxisd(190.0 * std::numbers::pi / 180, Vec3::UnitY()).toRotationMatrix();
    const DeformedMesh d = dqs(V, MatrixX3d(), W, M);
    EXPECT_LT((d.V.row(0).transpose() - Vec3(-1, 0, 0)).norm(), 1e-5);
}

} // namespace
} // namespace rig
