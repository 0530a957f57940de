#include "core/deform/twist_lbs.h"

#include "core/common/error.h"
#include "core/deform/deformers.h"
#include "core/deform/dqs.h"
#include "core/rig/pose.h"
#include "core/deform/skinning_kernels.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace rig {
namespace {

constexpr double kPi = std::numbers::pi;

/// A capsule along a unit direction d (not a canonical axis: the general case
/// of thesis eq. 4.9), joints at 0, 1.5 d, 3 d with bind frames whose +Y
/// follows d; weights blend joint 0 → 1 across the middle joint.
struct Limb {
    Vec3 axis;
    Mesh mesh;
    Skeleton skeleton;
    SkinWeights weights;
    Segmentation segmentation;
};

Limb limb(int segments = 24, int rings = 8)
{
    Limb t;
    t.axis = Vec3(1, 1, 1).normalized();
    t.mesh = test::capsuleMesh(Vec3::Zero(), 3.0 * t.axis, 0.4, segments, rings, rings * 2);
    t.skeleton.names = {"upper", "middle", "lower"};
    t.skeleton.parents = {-1, 0, 1};
    t.skeleton.bindPositions.resize(3, 3);
    for (int j = 0; j < 3; ++j)
        t.skeleton.bindPositions.row(j) = (1.5 * j * t.axis).transpose();
    t.skeleton.bindOrientations.assign(3, Eigen::Quaterniond::FromTwoVectors(Vec3::UnitY(), t.axis));
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(t.mesh.V.rows(), 3);
    for (Eigen::Index i = 0; i < W.rows(); ++i) {
        const double s = std::clamp(t.mesh.V.row(i).dot(t.axis) - 1.0, 0.0, 1.0);
        W(i, 0) = 1.0 - s;
        W(i, 1) = s;
    }
    t.weights = skinWeightsFromDense(W, 4);
    t.segmentation = segmentationFromNearestLink(t.mesh.V, t.skeleton);
    return t;
}

Pose twistPose(const Limb& t, double joint1Twist)
{
    Pose p = identityPose(t.skeleton);
    p.localRotations[1] = Eigen::AngleAxisd(joint1Twist, Vec3::UnitY()); // local +Y is the link axis
    return p;
}

DeformedMesh deform(const Limb& t, const Pose& p, std::span<const double> unwrapped = {}, int threads = 0)
{
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    return twistLbs(t.mesh.V, t.mesh.N, t.weights, t.segmentation, twistTransforms(t.skeleton, p, ps, unwrapped),
                    {.threads = threads});
}

/// The largest distance between a deformed vertex and the rest vertex turned
/// by θ·δ about the limb axis (δ = 1 beyond the twisted link).
double progressiveTwistError(const Limb& t, const DeformedMesh& d, double theta)
{
    double worst = 0.0;
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i) {
        const double delta = t.segmentation.bone[i] == 1 ? t.segmentation.delta[i] : 1.0;
        const Vec3 expect = Eigen::AngleAxisd(theta * delta, t.axis) * Vec3(t.mesh.V.row(i).transpose());
        worst = std::max(worst, (d.V.row(i).transpose() - expect).norm());
    }
    return worst;
}

TEST(TwistLbs, InvalidInputsAreRejectedFirst)
{
    const Limb t = limb();
    const Pose p = twistPose(t, 1.0);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    const TwistTransforms T = twistTransforms(t.skeleton, p, ps);
    Segmentation s = t.segmentation;
    s.bone.pop_back();
    EXPECT_THROW(twistLbs(t.mesh.V, t.mesh.N, t.weights, s, T), InvalidInput);
    s = t.segmentation;
    s.bone[3] = 3;
    EXPECT_THROW(twistLbs(t.mesh.V, t.mesh.N, t.weights, s, T), InvalidInput);
    s = t.segmentation;
    s.delta[3] = 1.5;
    EXPECT_THROW(twistLbs(t.mesh.V, t.mesh.N, t.weights, s, T), InvalidInput);
    s.delta[3] = std::nan("");
    EXPECT_THROW(twistLbs(t.mesh.V, t.mesh.N, t.weights, s, T), InvalidInput);
    TwistTransforms broken = T;
    broken.segmentBase.pop_back();
    EXPECT_THROW(twistLbs(t.mesh.V, t.mesh.N, t.weights, t.segmentation, broken), InvalidInput);
    const std::vector<double> wrongSize = {0.0, 1.0};
    EXPECT_THROW(twistTransforms(t.skeleton, p, ps, wrongSize), InvalidInput);
    const std::vector<double> disagrees = {0.0, 1.5, 0.0}; // the pose twists 1.0
    EXPECT_THROW(twistTransforms(t.skeleton, p, ps, disagrees), InvalidInput);
    const std::vector<double> agrees = {0.0, 1.0 + 4 * kPi, 0.0};
    EXPECT_NO_THROW(twistTransforms(t.skeleton, p, ps, agrees));
    Pose shortPose = p;
    shortPose.localRotations.pop_back();
    EXPECT_THROW(twistAngles(t.skeleton, shortPose), InvalidInput);
}

TEST(TwistLbs, SwingTwistDecomposition)
{
    const Eigen::Quaterniond swing(Eigen::AngleAxisd(0.5, Vec3::UnitX()));
    const Eigen::Quaterniond twist(Eigen::AngleAxisd(-2.0, Vec3::UnitY()));
    const SwingTwist st = swingTwist(swing * twist, Vec3::UnitY());
    EXPECT_NEAR(st.angle, -2.0, 1e-12);
    EXPECT_TRUE((st.swing * st.twist).isApprox(swing * twist, 1e-12));
    EXPECT_NEAR(st.swing.angularDistance(swing), 0.0, 1e-9);
    // Wrapped to [−π, π]: 200° reads −160°; unwrapAngle puts it back.
    const SwingTwist big = swingTwist(Eigen::Quaterniond(Eigen::AngleAxisd(200.0 * kPi / 180, Vec3::UnitY())),
                                      Vec3::UnitY());
    EXPECT_NEAR(big.angle, -160.0 * kPi / 180, 1e-12);
    EXPECT_NEAR(unwrapAngle(190.0 * kPi / 180, big.angle), 200.0 * kPi / 180, 1e-12);
    EXPECT_NEAR(unwrapAngle(4 * kPi, 0.1), 4 * kPi + 0.1, 1e-12);
    // A pure swing has no twist.
    EXPECT_EQ(swingTwist(swing, Vec3::UnitY()).angle, 0.0);
}

TEST(TwistLbs, IdentityPoseReturnsTheRestMesh)
{
    const Limb t = limb();
    const DeformedMesh d = deform(t, identityPose(t.skeleton));
    EXPECT_LT((d.V - t.mesh.V).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_LT((d.N - t.mesh.N).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(TwistLbs, RigidMotionOfTheWholeSkeletonMovesTheMeshRigidly)
{
    const Limb t = limb();
    Pose p = identityPose(t.skeleton);
    p.localRotations[0] = Eigen::AngleAxisd(2.0, Vec3(1, -2, 3).normalized());
    p.rootTranslation = Vec3(1, 2, -3);
    const Eigen::Isometry3d X = forwardKinematics(t.skeleton, p).skinning[0];
    const DeformedMesh d = deform(t, p);
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i) {
        EXPECT_LT((d.V.row(i).transpose() - X * Vec3(t.mesh.V.row(i).transpose())).norm(), 1e-5);
        EXPECT_LT((d.N.row(i).transpose() - X.linear() * t.mesh.N.row(i).transpose()).norm(), 1e-5);
    }
}

TEST(TwistLbs, EqualsDqsWhenNoJointTwistsAndLbsWhenNothingBends)
{
    // With no twist the swings are blended as dual quaternions (twist_lbs.h):
    // the result is DQS of the skinning transforms.
    const Limb t = limb();
    Pose p = identityPose(t.skeleton);
    p.localRotations[0] = Eigen::AngleAxisd(0.3, Vec3::UnitZ());
    p.localRotations[1] = Eigen::AngleAxisd(1.2, Vec3(1, 0, 0.5).normalized()); // swing only (⊥ local +Y)
    p.localRotations[2] = Eigen::AngleAxisd(-0.4, Vec3::UnitX());
    p.rootTranslation = Vec3(0.2, 0.1, 0);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    for (const double a : twistAngles(t.skeleton, p))
        EXPECT_NEAR(a, 0.0, 1e-12);
    const DeformedMesh a = deform(t, p);
    const DeformedMesh q = dqs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    EXPECT_LT((a.V - q.V).cwiseAbs().maxCoeff(), 1e-5);
    EXPECT_LT((a.N - q.N).cwiseAbs().maxCoeff(), 1e-5);
    // ... which is not LBS in the bend (LBS shrinks it), but is where a vertex has a single bone.
    const DeformedMesh l = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    EXPECT_GT((a.V - l.V).cwiseAbs().maxCoeff(), 1e-2);
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i)
        if (t.weights.weights(i, 0) == 1.0f) {
            EXPECT_LT((a.V.row(i) - l.V.row(i)).norm(), 1e-5) << i;
        }
    // With neither twist nor bend (only the root moves and turns) it is LBS.
    Pose r = identityPose(t.skeleton);
    r.localRotations[0] = Eigen::AngleAxisd(0.8, Vec3(0.2, 1, -0.4).normalized());
    r.rootTranslation = Vec3(-1, 0.5, 2);
    const PosedSkeleton pr = forwardKinematics(t.skeleton, r);
    const DeformedMesh ar = deform(t, r);
    const DeformedMesh lr = lbs(t.mesh.V, t.mesh.N, t.weights, pr.skinning);
    EXPECT_LT((ar.V - lr.V).cwiseAbs().maxCoeff(), 1e-5);
    EXPECT_LT((ar.N - lr.N).cwiseAbs().maxCoeff(), 1e-5);
    // Unsegmented vertices are plain LBS, whatever the pose.
    Segmentation none = t.segmentation;
    none.bone.assign(none.bone.size(), -1);
    const Pose tw = twistPose(t, 2.0);
    const PosedSkeleton pst = forwardKinematics(t.skeleton, tw);
    const DeformedMesh c = twistLbs(t.mesh.V, t.mesh.N, t.weights, none, twistTransforms(t.skeleton, tw, pst));
    const DeformedMesh lt = lbs(t.mesh.V, t.mesh.N, t.weights, pst.skinning);
    EXPECT_LT((c.V - lt.V).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(TwistLbs, BendKeepsTheCrossSection)
{
    // A 90° bend at the middle joint: LBS pinches the elbow (the blend of two
    // rotations 90° apart shrinks by cos 45°); the rigid blend of the swings
    // turns the 50/50 ring rigidly by 45° about the joint: every vertex keeps
    // its rest distance from joint 1.
    const Limb t = limb(32, 12);
    Pose p = identityPose(t.skeleton);
    p.localRotations[1] = Eigen::AngleAxisd(kPi / 2, Vec3::UnitX()); // swing (⊥ local +Y, the link axis)
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    const DeformedMesh a = deform(t, p);
    const DeformedMesh l = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    const Vec3 joint = t.skeleton.bindPositions.row(1).transpose();
    double minTwist = 1e9, minLbs = 1e9;
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i) {
        const Vec3 v = t.mesh.V.row(i).transpose() - joint;
        if (std::abs(v.dot(t.axis)) > 0.07)
            continue; // the ring(s) at the joint: about 50/50
        const double r = v.norm();
        minTwist = std::min(minTwist, (a.V.row(i).transpose() - joint).norm() / r);
        minLbs = std::min(minLbs, (l.V.row(i).transpose() - joint).norm() / r);
    }
    EXPECT_GT(minTwist, 0.99);
    EXPECT_LT(minLbs, 0.75);
}

TEST(TwistLbs, PortableAndAvx2PathsAgree)
{
    const Limb t = limb(64, 16);
    Pose p = twistPose(t, 2.5);
    p.localRotations[0] = Eigen::AngleAxisd(0.4, Vec3(1, 2, 0).normalized());
    p.localRotations[2] = Eigen::AngleAxisd(0.9, Vec3(0.3, 1, 0.2).normalized());
    p.rootTranslation = Vec3(0.3, -0.2, 0.1);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    Segmentation seg = t.segmentation;
    for (size_t i = 0; i < seg.bone.size(); i += 5)
        seg.bone[i] = -1; // some unsegmented vertices: the LBS branch
    const TwistTransforms T = twistTransforms(t.skeleton, p, ps);
    const DeformedMesh fast[3] = {twistLbs(t.mesh.V, t.mesh.N, t.weights, seg, T),
                                  lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning),
                                  dqs(t.mesh.V, t.mesh.N, t.weights, ps.skinning)};
    skinning::forceScalar = true;
    const DeformedMesh portable[3] = {twistLbs(t.mesh.V, t.mesh.N, t.weights, seg, T),
                                      lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning),
                                      dqs(t.mesh.V, t.mesh.N, t.weights, ps.skinning)};
    skinning::forceScalar = false;
    for (int m = 0; m < 3; ++m) {
        EXPECT_LT((fast[m].V - portable[m].V).cwiseAbs().maxCoeff(), 1e-5) << m;
        EXPECT_LT((fast[m].N - portable[m].N).cwiseAbs().maxCoeff(), 1e-5) << m;
        EXPECT_LT((fast[m].N.rowwise().norm().array() - 1.0).abs().maxCoeff(), 1e-5) << m;
    }
}

TEST(TwistLbs, TwistIsAppliedProgressivelyAlongTheLink)
{
    // Thesis §4.4: θ' = θ·δ about the (non-canonical) link axis, eq. 4.9.
    const Limb t = limb();
    for (const double theta : {0.5, kPi * 0.999, -2.5}) {
        const DeformedMesh d = deform(t, twistPose(t, theta));
        EXPECT_LT(progressiveTwistError(t, d, theta), 2e-5) << theta;
    }
}

TEST(TwistLbs, NoCandyWrapperAt180Degrees)
{
    const Limb t = limb();
    const Pose p = twistPose(t, kPi);
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    const DeformedMesh tw = deform(t, p);
    const DeformedMesh l = lbs(t.mesh.V, t.mesh.N, t.weights, ps.skinning);
    auto radius = [&](const MatrixX3d& V, Eigen::Index i) {
        const Vec3 x = V.row(i).transpose();
        return (x - x.dot(t.axis) * t.axis).norm();
    };
    double minTwist = 1e9, minLbs = 1e9;
    for (Eigen::Index i = 0; i < t.mesh.V.rows(); ++i) {
        const double r = radius(t.mesh.V, i);
        if (r < 0.3)
            continue;
        minTwist = std::min(minTwist, radius(tw.V, i) / r);
        minLbs = std::min(minLbs, radius(l.V, i) / r);
    }
    EXPECT_GT(minTwist, 0.9999);
    EXPECT_LT(minLbs, 0.05);
}

TEST(TwistLbs, TwistsBeyond180And360DegreesNeedTheUnwrappedAngle)
{
    const Limb t = limb();
    for (const double deg : {270.0, 360.0, 400.0, 725.0}) {
        const double theta = deg * kPi / 180;
        const Pose p = twistPose(t, theta);
        const std::vector<double> unwrapped = {0.0, theta, 0.0};
        EXPECT_LT(progressiveTwistError(t, deform(t, p, unwrapped), theta), 2e-5) << deg;
        // Without it the twist is re-extracted modulo 360° (to ±180°): a different, valid deformation.
        const double wrapped = std::remainder(theta, 2 * kPi);
        EXPECT_LT(progressiveTwistError(t, deform(t, p), wrapped), 2e-5) << deg;
    }
}

/// A body whose chest branches into a neck and an arm hanging beside the
/// torso (issue 16 item 4, HUMAN.blend's case in miniature): hips 0, chest 1,
/// neck 2, shoulder 3, elbow 4, wrist 5; the upper-arm link is segment 4
/// (shoulder → elbow, pointing down). Vertices, all with hand-made
/// segmentation and weights:
///  0: torso skin beside the arm, put on the upper-arm link at δ 0.7 (as region
///     growing did on HUMAN.blend) but weighted half chest, half upper arm;
///  1: its neighbour on the chest's link, weighted 0.55 chest, 0.45 upper arm;
///  2: upper-arm skin, weighted wholly on the upper arm, δ 0.5;
///  3: skin on the chest → shoulder link (a link leaving a branching joint),
///     weighted wholly on the shoulder, δ 0.8.
struct ArmBesideTorso {
    Mesh mesh;
    Skeleton skeleton;
    SkinWeights weights;
    Segmentation segmentation;
};

ArmBesideTorso armBesideTorso()
{
    ArmBesideTorso t;
    t.skeleton.names = {"hips", "chest", "neck", "shoulder", "elbow", "wrist"};
    t.skeleton.parents = {-1, 0, 1, 1, 3, 4};
    t.skeleton.bindPositions.resize(6, 3);
    t.skeleton.bindPositions << 0, 1.0, 0, 0, 1.4, 0, 0, 1.7, 0, 0.3, 1.5, 0, 0.3, 1.0, 0, 0.3, 0.5, 0;
    t.skeleton.bindOrientations.assign(6, Eigen::Quaterniond::Identity());
    t.mesh.V.resize(4, 3);
    t.mesh.V << 0.18, 1.15, 0.0, 0.16, 1.15, 0.04, 0.38, 1.25, 0.0, 0.24, 1.49, 0.03;
    t.mesh.N = MatrixX3d::Zero(4, 3);
    t.mesh.N.col(2).setOnes();
    t.mesh.F.resize(1, 3);
    t.mesh.F << 0, 1, 2;
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(4, 6);
    W(0, 1) = 0.5, W(0, 3) = 0.5;
    W(1, 1) = 0.55, W(1, 3) = 0.45;
    W(2, 3) = 1.0;
    W(3, 3) = 1.0;
    t.weights = skinWeightsFromDense(W, 4);
    t.segmentation.bone = {4, 1, 4, 3};
    t.segmentation.delta = {0.7, 0.4, 0.5, 0.8};
    return t;
}

TEST(TwistLbs, TheTwistOfALimbLeavesTorsoSkinOnItsLinkInPlace)
{
    // A 90° twist of the elbow about the upper arm (world −Y: identity bind
    // frames). LBS moves none of these vertices (no weight below the elbow);
    // the thesis's θ·δ turned vertex 0 by 63° about the arm, 0.15 away from
    // its unmoved neighbour 1, whose rest distance is 0.045.
    const ArmBesideTorso t = armBesideTorso();
    Pose p = identityPose(t.skeleton);
    const double theta = kPi / 2;
    p.localRotations[4] = Eigen::AngleAxisd(theta, -Vec3::UnitY());
    const DeformedMesh d =
        deformOnce(findDeformer("twist"), DeformerInput{t.mesh, t.weights, &t.segmentation, t.skeleton}, p);
    EXPECT_LT((d.V.row(0) - t.mesh.V.row(0)).norm(), 1e-6) << "torso skin turned with the arm's twist";
    EXPECT_LT((d.V.row(1) - t.mesh.V.row(1)).norm(), 1e-6);
    // Skin weighted wholly on the limb keeps the thesis's progressive twist.
    const Vec3 arm0 = t.skeleton.bindPositions.row(4).transpose();
    const Vec3 expect = arm0 + Eigen::AngleAxisd(theta * 0.5, -Vec3::UnitY()) * (Vec3(t.mesh.V.row(2).transpose()) - arm0);
    EXPECT_LT((d.V.row(2).transpose() - expect).norm(), 1e-5);
    // The same through the V, N, W entry point (hierarchy from the transforms).
    const PosedSkeleton ps = forwardKinematics(t.skeleton, p);
    const DeformedMesh e = twistLbs(t.mesh.V, t.mesh.N, t.weights, t.segmentation, twistTransforms(t.skeleton, p, ps));
    EXPECT_LT((e.V - d.V).cwiseAbs().maxCoeff(), 1e-6);
    const Segmentation eff = twistSegmentation(t.segmentation, t.weights, t.skeleton);
    EXPECT_EQ(eff.bone, t.segmentation.bone);
    EXPECT_DOUBLE_EQ(eff.delta[0], 0.0);
    EXPECT_NEAR(eff.delta[2], 0.5, 1e-6);
    // Inputs that do not fit are rejected.
    SkinWeights outside = t.weights;
    outside.joints(1, 0) = 6;
    EXPECT_THROW(twistSegmentation(t.segmentation, outside, t.skeleton), InvalidInput);
    Segmentation shortSeg = t.segmentation;
    shortSeg.delta.pop_back();
    EXPECT_THROW(twistSegmentation(shortSeg, t.weights, t.skeleton), InvalidInput);
    TwistTransforms broken = twistTransforms(t.skeleton, p, ps);
    broken.parents = {-1, 0, 1, 1, 5, 4}; // a parent after its child
    EXPECT_THROW(twistLbs(t.mesh.V, t.mesh.N, t.weights, t.segmentation, broken), InvalidInput);
    broken.parents.pop_back();
    EXPECT_THROW(twistLbs(t.mesh.V, t.mesh.N, t.weights, t.segmentation, broken), InvalidInput);
}

TEST(TwistLbs, ALinkLeavingABranchingJointCarriesNoTwist)
{
    // The shoulder turning about the chest → shoulder link is the arm bending
    // against the body (a thigh raised forward about the pelvis link): skin
    // weighted wholly on the shoulder follows it rigidly, as in LBS and DQS,
    // instead of taking θ·δ of it.
    const ArmBesideTorso t = armBesideTorso();
    EXPECT_EQ(twistAxis(t.skeleton, 3), Vec3::Zero());
    EXPECT_EQ(twistAxis(t.skeleton, 2), Vec3::Zero());
    EXPECT_NE(twistAxis(t.skeleton, 4), Vec3::Zero());
    Pose p = identityPose(t.skeleton);
    p.localRotations[3] = Eigen::AngleAxisd(kPi / 2, Vec3(0.3, 0.1, 0).normalized());
    const DeformedMesh d =
        deformOnce(findDeformer("twist"), DeformerInput{t.mesh, t.weights, &t.segmentation, t.skeleton}, p);
    const Eigen::Isometry3d M = forwardKinematics(t.skeleton, p).skinning[3];
    EXPECT_LT((d.V.row(3).transpose() - M * Vec3(t.mesh.V.row(3).transpose())).norm(), 1e-5);
}

TEST(TwistLbs, AJointWhereTheLimbTurnsAwayFromTheLinkCarriesNoTwist)
{
    // re_male's A-pose shoulder: the clavicle runs out and back, the upper arm
    // leaves it 41° downwards; the forearm goes straight on; a hand with a
    // straight finger and a thumb at 70°; a leaf wrist.
    Skeleton k;
    k.names = {"chest", "clavicle", "shoulder", "elbow", "hand", "finger", "thumb"};
    k.parents = {-1, 0, 1, 2, 3, 4, 4};
    const Vec3 chest(0, 1.4, 0), clav(0.02, 1.45, 0), shoulder = clav + 0.18 * Vec3(0.92, -0.06, -0.39).normalized();
    const Vec3 down = Eigen::AngleAxisd(-41.0 * kPi / 180.0, Vec3(0.39, 0, 0.92).normalized()) * Vec3(0.92, -0.06, -0.39).normalized();
    const Vec3 elbow = shoulder + 0.3 * down, hand = elbow + 0.28 * down;
    const Vec3 thumbDir = Eigen::AngleAxisd(70.0 * kPi / 180.0, Vec3(0.39, 0, 0.92).normalized()) * down;
    k.bindPositions.resize(7, 3);
    k.bindPositions << chest.transpose(), clav.transpose(), shoulder.transpose(), elbow.transpose(), hand.transpose(),
        (hand + 0.1 * down).transpose(), (hand + 0.05 * thumbDir).transpose();
    k.bindOrientations.assign(7, Eigen::Quaterniond::Identity());
    EXPECT_EQ(twistAxis(k, 2), Vec3::Zero()) << "the shoulder: the upper arm leaves the clavicle at 41°";
    EXPECT_NE(twistAxis(k, 3), Vec3::Zero()) << "the elbow: the forearm goes on";
    EXPECT_NE(twistAxis(k, 4), Vec3::Zero()) << "the wrist: the middle finger goes on, the thumb does not matter";

    // Raising the arm 90° about the front axis: skin wholly on the clavicle,
    // on the shoulder's link (δ 0.8), stays where LBS leaves it. The
    // decomposition about the clavicle gave the raise a 43° "twist", of which
    // this skin took 0.8 (it moved 0.04, a quarter of the clavicle's length).
    Mesh m;
    m.V.resize(3, 3);
    m.V << (clav + Vec3(0.08, 0.04, 0.0)).transpose(), (clav + Vec3(0.12, -0.03, 0.02)).transpose(),
        (clav + Vec3(0.14, 0.05, -0.04)).transpose();
    m.N = MatrixX3d::Zero(3, 3);
    m.N.col(1).setOnes();
    m.F.resize(1, 3);
    m.F << 0, 1, 2;
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(3, 7);
    W.col(1).setOnes();
    Segmentation seg;
    seg.bone = {2, 2, 2};
    seg.delta = {0.8, 0.8, 0.8};
    Pose p = identityPose(k);
    p.localRotations[2] = Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ());
    const DeformedMesh d = deformOnce(findDeformer("twist"), DeformerInput{m, skinWeightsFromDense(W, 4), &seg, k}, p);
    EXPECT_LT((d.V - m.V).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(TwistLbs, ThreadCountsAgree)
{
    const Limb t = limb(128, 32);
    ASSERT_GT(t.mesh.V.rows(), 8192);
    Pose p = twistPose(t, 2.0);
    p.localRotations[2] = Eigen::AngleAxisd(0.7, Vec3(0.3, 1, 0.2).normalized());
    const DeformedMesh a = deform(t, p, {}, 1);
    const DeformedMesh b = deform(t, p, {}, 2);
    EXPECT_EQ(a.V, b.V);
    EXPECT_EQ(a.N, b.N);
}

} // namespace
} // namespace rig
