#include "core/eval/skeleton_metrics.h"

#include "core/common/error.h"

#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace rig {
namespace {

/// The reference scorer's self-test geometry (score.py `selftest`): a closed
/// box x, z ∈ [−0.1, 0.1], y ∈ [0, 1] (already in the normalised frame), and
/// a bar of three joints up its axis.
struct Box {
    MatrixX3d V;
    MatrixX3i F;
};

Box box()
{
    Box b;
    b.V.resize(8, 3);
    int i = 0;
    for (double x : {-0.1, 0.1})
        for (double y : {0.0, 1.0})
            for (double z : {-0.1, 0.1})
                b.V.row(i++) << x, y, z;
    b.F.resize(12, 3);
    b.F << 0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3;
    return b;
}

MatrixX3d joints(std::initializer_list<Vec3> points)
{
    MatrixX3d J(static_cast<Eigen::Index>(points.size()), 3);
    Eigen::Index i = 0;
    for (const Vec3& p : points)
        J.row(i++) = p.transpose();
    return J;
}

MatrixX3d bar()
{
    return joints({Vec3(0, 0.1, 0), Vec3(0, 0.5, 0), Vec3(0, 0.9, 0)});
}
const std::vector<int> barParents{-1, 0, 1};

/// The shape diameter of a joint on the box's axis with a vertical bone: its
/// 14 rays run horizontally at angles 2πk/14 and meet the square wall of
/// half-width 0.1 at 0.1 / max(|cos|, |sin|).
double boxDiameter()
{
    double sum = 0.0;
    for (int k = 0; k < 14; ++k) {
        const double a = 2.0 * std::numbers::pi * k / 14.0;
        sum += 0.1 / std::max(std::abs(std::cos(a)), std::abs(std::sin(a)));
    }
    return sum / 14.0;
}

MatrixX3d shifted(const MatrixX3d& J, double dx)
{
    MatrixX3d out = J;
    out.col(0).array() += dx;
    return out;
}

SkeletonMetrics scoreOnBox(const MatrixX3d& P, const std::vector<int>& pp, const MatrixX3d& Q,
                           const std::vector<int>& qp)
{
    const Box b = box();
    return skeletonMetrics(P, pp, Q, qp, b.V, b.F);
}

void expectSame(const SkeletonMetrics& a, const SkeletonMetrics& b, double tolerance)
{
    EXPECT_EQ(a.predictedJoints, b.predictedJoints);
    EXPECT_EQ(a.referenceJoints, b.referenceJoints);
    EXPECT_NEAR(a.cdJ2J, b.cdJ2J, tolerance);
    EXPECT_NEAR(a.cdJ2B, b.cdJ2B, tolerance);
    EXPECT_NEAR(a.cdB2B, b.cdB2B, tolerance);
    EXPECT_NEAR(a.iou, b.iou, tolerance);
    EXPECT_NEAR(a.precision, b.precision, tolerance);
    EXPECT_NEAR(a.recall, b.recall, tolerance);
    EXPECT_NEAR(a.meanShapeDiameter, b.meanShapeDiameter, tolerance);
}

TEST(SkeletonMetrics, InvalidInputsAreRejectedFirst)
{
    const Box b = box();
    const MatrixX3d J = bar();
    const auto expectRejected = [&](const MatrixX3d& P, const std::vector<int>& pp, const MatrixX3d& Q,
                                    const std::vector<int>& qp, const MatrixX3d& V, const MatrixX3i& F,
                                    const std::string& fragment) {
        test::expectError<InvalidInput>([&] { skeletonMetrics(P, pp, Q, qp, V, F); }, "rig::skeletonMetrics()");
        test::expectError<InvalidInput>([&] { skeletonMetrics(P, pp, Q, qp, V, F); }, fragment);
    };
    expectRejected(MatrixX3d(0, 3), {}, J, barParents, b.V, b.F, "predicted skeleton has no joint");
    expectRejected(J, barParents, MatrixX3d(0, 3), {}, b.V, b.F, "reference skeleton has no joint");
    expectRejected(J, {-1, 0}, J, barParents, b.V, b.F, "3 joints but 2 parents");
    expectRejected(J, barParents, J, {-1, 0, 1, 2}, b.V, b.F, "3 joints but 4 parents");
    expectRejected(J, {-1, 2, 1}, J, barParents, b.V, b.F, "predicted joint 1 has parent 2");
    expectRejected(J, barParents, J, {-1, 1, 1}, b.V, b.F, "reference joint 1 has parent 1");
    expectRejected(J, {-2, 0, 1}, J, barParents, b.V, b.F, "has parent -2");
    expectRejected(J, barParents, J, barParents, MatrixX3d(0, 3), MatrixX3i(0, 3), "the mesh is empty");
    expectRejected(J, barParents, J, barParents, b.V, MatrixX3i(0, 3), "the mesh is empty");
    MatrixX3i outside = b.F;
    outside(5, 2) = 8;
    expectRejected(J, barParents, J, barParents, b.V, outside, "outside the 8 vertices");
    outside(5, 2) = -1;
    expectRejected(J, barParents, J, barParents, b.V, outside, "outside the 8 vertices");
    MatrixX3d nan = J;
    nan(2, 1) = std::numeric_limits<double>::quiet_NaN();
    expectRejected(nan, barParents, J, barParents, b.V, b.F, "predicted joint 2 has a non-finite");
    expectRejected(J, barParents, nan, barParents, b.V, b.F, "reference joint 2 has a non-finite");
    MatrixX3d V = b.V;
    V(3, 0) = std::numeric_limits<double>::infinity();
    expectRejected(J, barParents, J, barParents, V, b.F, "vertex 3 has a non-finite");
    const MatrixX3d point = MatrixX3d::Zero(3, 3);
    expectRejected(J, barParents, J, barParents, point, MatrixX3i::Zero(1, 3), "zero size");

    const std::vector<int> tooFew{-1, 0};
    test::expectError<InvalidInput>([&] { localShapeDiameter(J, tooFew, b.V, b.F); }, "rig::localShapeDiameter()");
    test::expectError<InvalidInput>([&] { localShapeDiameter(J, barParents, b.V, MatrixX3i(0, 3)); },
                                    "the mesh is empty");
}

TEST(SkeletonMetrics, ShapeDiameterOfTheBarInTheBox)
{
    const Box b = box();
    const Eigen::VectorXd lsd = localShapeDiameter(bar(), barParents, b.V, b.F);
    ASSERT_EQ(lsd.size(), 3);
    for (Eigen::Index j = 0; j < 3; ++j) {
        EXPECT_NEAR(lsd(j), boxDiameter(), 1e-12); // the middle joint's 28 rays are its bones' 14, twice
        EXPECT_NEAR(lsd(j), 0.5 * (0.1 + 0.1 * std::sqrt(2.0)), 0.03); // score.py's self-test bound
    }
    // Units as given: twice the box, twice the diameter.
    EXPECT_NEAR(localShapeDiameter(2.0 * bar(), barParents, 2.0 * b.V, b.F)(1), 2.0 * boxDiameter(), 1e-12);
}

TEST(SkeletonMetrics, ShapeDiameterFallsBackToTheNearestTriangle)
{
    // A lone joint has no ray. The triangles nearest by centroid are the eight
    // of the side walls (centroid distance² 0.01 + 1/36 + 1/900 each), and
    // every corner of each lies at √(0.1² + 0.5² + 0.1²) = √0.27 from it.
    const Box b = box();
    const Eigen::VectorXd lone = localShapeDiameter(joints({Vec3(0, 0.5, 0)}), std::vector<int>{-1}, b.V, b.F);
    EXPECT_NEAR(lone(0), std::sqrt(0.27), 1e-12);
    // Rays that all miss (a joint outside the box, bone along y, rays in the
    // xz plane pointing away or grazing) fall back the same way.
    const MatrixX3d outside = joints({Vec3(0, 1.5, 0), Vec3(0, 2.0, 0)});
    const Eigen::VectorXd far = localShapeDiameter(outside, std::vector<int>{-1, 0}, b.V, b.F);
    // Nearest centroid to (0, 1.5, 0): the top cap's two triangles, at
    // (±0.1/3, 1, ±0.1/3); its corners lie at √(0.1² + 0.5² + 0.1²).
    EXPECT_NEAR(far(0), std::sqrt(0.27), 1e-12);
}

TEST(SkeletonMetrics, ZeroLengthBoneCastsRaysAsIfAlongY)
{
    const Box b = box();
    const Eigen::VectorXd lsd =
        localShapeDiameter(joints({Vec3(0, 0.5, 0), Vec3(0, 0.5, 0)}), std::vector<int>{-1, 0}, b.V, b.F);
    EXPECT_NEAR(lsd(0), boxDiameter(), 1e-12);
    EXPECT_NEAR(lsd(1), boxDiameter(), 1e-12);
}

TEST(SkeletonMetrics, IdenticalSkeletonsScorePerfectly)
{
    const SkeletonMetrics m = scoreOnBox(bar(), barParents, bar(), barParents);
    EXPECT_EQ(m.predictedJoints, 3);
    EXPECT_EQ(m.referenceJoints, 3);
    EXPECT_NEAR(m.cdJ2J, 0.0, 1e-12);
    EXPECT_NEAR(m.cdJ2B, 0.0, 1e-12);
    EXPECT_NEAR(m.cdB2B, 0.0, 1e-12);
    EXPECT_EQ(m.iou, 100.0);
    EXPECT_EQ(m.precision, 100.0);
    EXPECT_EQ(m.recall, 100.0);
    EXPECT_NEAR(m.meanShapeDiameter, 100.0 * boxDiameter(), 1e-10);
}

TEST(SkeletonMetrics, ShiftWithinToleranceCostsItsLength)
{
    // Every joint 0.05 sideways: every distance, joint or bone, is 0.05.
    const SkeletonMetrics m = scoreOnBox(shifted(bar(), 0.05), barParents, bar(), barParents);
    EXPECT_NEAR(m.cdJ2J, 5.0, 1e-9);
    EXPECT_NEAR(m.cdJ2B, 5.0, 1e-9);
    EXPECT_NEAR(m.cdB2B, 5.0, 1e-9);
    EXPECT_EQ(m.iou, 100.0); // 0.05 < 0.1119 = the tolerance
    EXPECT_EQ(m.precision, 100.0);
    EXPECT_EQ(m.recall, 100.0);
}

TEST(SkeletonMetrics, ShiftBeyondToleranceMatchesNothing)
{
    const SkeletonMetrics m = scoreOnBox(shifted(bar(), 0.5), barParents, bar(), barParents);
    EXPECT_NEAR(m.cdJ2J, 50.0, 1e-9);
    EXPECT_EQ(m.iou, 0.0);
    EXPECT_EQ(m.precision, 0.0);
    EXPECT_EQ(m.recall, 0.0);
}

TEST(SkeletonMetrics, DifferentJointCountsByHand)
{
    // Predicted: P0 = (0.03, 0.1, 0), P1 = (0.03, 0.86, 0), one bone.
    // Reference: the bar R0, R1, R2 at y = 0.1, 0.5, 0.9 on the axis, tolerance
    // τ = boxDiameter() ≈ 0.1119 at each.
    // Distances: P0: R0 0.03, R1 √0.1609 ≈ 0.401, R2 √0.6409 ≈ 0.801;
    //            P1: R0 √0.5785 ≈ 0.761, R1 √0.1305 ≈ 0.361, R2 √(0.03² + 0.04²) = 0.05.
    // CD-J2J = ½ ((0.03 + 0.05)/2 + (0.03 + √0.1305 + 0.05)/3) ≈ 0.0935413.
    // CD-J2B: P0, P1 lie 0.03 off the reference bones; R0, R1 lie 0.03 off the
    //   predicted bone, R2 0.05 from its end P1: ½ (0.03 + 0.11/3) = 1/30.
    // CD-B2B: the predicted bone runs parallel to both reference bones, 0.03
    //   away, overlapping each: ½ (0.03 + 0.03) = 0.03.
    // Matching: (P0, R0) and (P1, R2), total 0.08; both within τ:
    //   IoU = 2·2 / (2 + 3) = 80 %; precision: P0's nearest is R0, P1's R2,
    //   both within τ: 100 %; recall: R0 and R2 matched and within τ, R1
    //   unmatched: 2/3.
    const MatrixX3d P = joints({Vec3(0.03, 0.1, 0), Vec3(0.03, 0.86, 0)});
    const SkeletonMetrics m = scoreOnBox(P, {-1, 0}, bar(), barParents);
    EXPECT_EQ(m.predictedJoints, 2);
    EXPECT_EQ(m.referenceJoints, 3);
    EXPECT_NEAR(m.cdJ2J, 50.0 * (0.04 + (0.08 + std::sqrt(0.1305)) / 3.0), 1e-10);
    EXPECT_NEAR(m.cdJ2B, 100.0 / 30.0, 1e-10);
    EXPECT_NEAR(m.cdB2B, 3.0, 1e-10);
    EXPECT_NEAR(m.iou, 80.0, 1e-12);
    EXPECT_NEAR(m.precision, 100.0, 1e-12);
    EXPECT_NEAR(m.recall, 200.0 / 3.0, 1e-12);
    EXPECT_NEAR(m.meanShapeDiameter, 100.0 * boxDiameter(), 1e-10);
}

TEST(SkeletonMetrics, NoBoneLeavesBoneDistancesUndefined)
{
    // One predicted joint at R1: matched to it (cost 0); R0 and R1 unmatched.
    const SkeletonMetrics m = scoreOnBox(joints({Vec3(0, 0.5, 0)}), {-1}, bar(), barParents);
    EXPECT_TRUE(std::isnan(m.cdJ2B));
    EXPECT_TRUE(std::isnan(m.cdB2B));
    EXPECT_NEAR(m.cdJ2J, 50.0 * (0.0 + 0.8 / 3.0), 1e-10);
    EXPECT_NEAR(m.iou, 50.0, 1e-12);
    EXPECT_NEAR(m.precision, 100.0, 1e-12);
    EXPECT_NEAR(m.recall, 100.0 / 3.0, 1e-12);
}

TEST(SkeletonMetrics, InvariantUnderTranslationAndUniformScale)
{
    const Box b = box();
    const MatrixX3d P = joints({Vec3(0.03, 0.1, 0.01), Vec3(0.03, 0.86, -0.02)});
    const SkeletonMetrics before = skeletonMetrics(P, std::vector<int>{-1, 0}, bar(), barParents, b.V, b.F);
    const Eigen::RowVector3d t(12.0, -3.5, 0.25);
    const double s = 7.3;
    const auto move = [&](const MatrixX3d& X) { return MatrixX3d((s * X).rowwise() + t); };
    const SkeletonMetrics after =
        skeletonMetrics(move(P), std::vector<int>{-1, 0}, move(bar()), barParents, move(b.V), b.F);
    expectSame(before, after, 1e-9);
}

} // namespace
} // namespace rig
