#include "core/eval/skin_metrics.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

#include <vector>

namespace rig {
namespace {

using RowSparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// A bar along +Y (4 vertices at y = 0, 1, 2, 3 on x = 0 and a twin at x = 0.5
/// each: 8 vertices), two joints at y = 0 and y = 1.5.
struct Bar {
    Mesh mesh;
    Skeleton skeleton;
};

Bar bar()
{
    Bar b;
    b.mesh.V.resize(8, 3);
    for (int i = 0; i < 4; ++i) {
        b.mesh.V.row(i) << 0.0, double(i), 0.0;
        b.mesh.V.row(4 + i) << 0.5, double(i), 0.0;
    }
    b.mesh.F.resize(6, 3);
    for (int i = 0; i < 3; ++i) {
        b.mesh.F.row(2 * i) << i, i + 1, 4 + i;
        b.mesh.F.row(2 * i + 1) << i + 1, 5 + i, 4 + i;
    }
    b.skeleton.names = {"root", "tip"};
    b.skeleton.parents = {-1, 0};
    b.skeleton.bindPositions.resize(2, 3);
    b.skeleton.bindPositions << 0, 0, 0, 0, 1.5, 0;
    b.skeleton.bindOrientations.assign(2, Eigen::Quaterniond::Identity());
    return b;
}

/// Every vertex half on each joint.
RowSparse halves(int n)
{
    RowSparse R(n, 2);
    for (int i = 0; i < n; ++i) {
        R.insert(i, 0) = 0.5;
        R.insert(i, 1) = 0.5;
    }
    R.makeCompressed();
    return R;
}

SkinWeights rigidOnRoot(int n)
{
    SkinWeights w;
    w.maxInfluences = 1;
    w.joints.setZero(n, 1);
    w.weights.setOnes(n, 1);
    return w;
}

SkinWeights halvesAsList(int n)
{
    SkinWeights w;
    w.maxInfluences = 2;
    w.joints.resize(n, 2);
    w.weights.resize(n, 2);
    for (int i = 0; i < n; ++i) {
        w.joints.row(i) << 0, 1;
        w.weights.row(i) << 0.5f, 0.5f;
    }
    return w;
}

TEST(SkinMetrics, RefusesWeightsOfAnotherSize)
{
    const Bar b = bar();
    EXPECT_THROW(skinMetrics(b.mesh, b.skeleton, rigidOnRoot(7), halves(8), {}), InvalidInput);
    EXPECT_THROW(skinMetrics(b.mesh, b.skeleton, rigidOnRoot(8), halves(7), {}), InvalidInput);
}

TEST(SkinMetrics, RefusesAWeldMapOutsideTheMesh)
{
    const Bar b = bar();
    const std::vector<int> weld = {0, 1, 8};
    EXPECT_THROW(skinMetrics(b.mesh, b.skeleton, rigidOnRoot(8), halves(8), weld), InvalidInput);
}

TEST(SkinMetrics, RefusesOptionsOutOfRange)
{
    const Bar b = bar();
    EXPECT_THROW(skinMetrics(b.mesh, b.skeleton, rigidOnRoot(8), halves(8), {}, {.threshold = 0.0}), InvalidInput);
    EXPECT_THROW(skinMetrics(b.mesh, b.skeleton, rigidOnRoot(8), halves(8), {}, {.poses = 0}), InvalidInput);
}

TEST(SkinMetrics, TheReferenceItselfScoresPerfectly)
{
    const Bar b = bar();
    const SkinMetrics m = skinMetrics(b.mesh, b.skeleton, halvesAsList(8), halves(8), {});
    EXPECT_EQ(m.vertices, 8);
    EXPECT_NEAR(m.l1, 0.0, 1e-12);
    EXPECT_DOUBLE_EQ(m.precision, 100.0);
    EXPECT_DOUBLE_EQ(m.recall, 100.0);
    EXPECT_NEAR(m.deformationMax, 0.0, 1e-9);
    EXPECT_EQ(m.poses, 20);
}

TEST(SkinMetrics, RigidWeightsAgainstHalvesHaveKnownScores)
{
    // Per vertex |1 - .5| + |0 - .5| = 1; computed influences 8, all in the
    // reference (precision 100 %); reference influences 16 (recall 50 %).
    const Bar b = bar();
    const SkinMetrics m = skinMetrics(b.mesh, b.skeleton, rigidOnRoot(8), halves(8), {});
    EXPECT_NEAR(m.l1, 1.0, 1e-12);
    EXPECT_NEAR(m.precision, 100.0, 1e-12);
    EXPECT_NEAR(m.recall, 50.0, 1e-12);
    EXPECT_EQ(m.unweighted, 0);
    EXPECT_GT(m.deformationMean, 0.0);
    EXPECT_GE(m.deformationMax, m.deformationMean);
}

TEST(SkinMetrics, ScoresTheFileVerticesThroughTheWeldMap)
{
    // Five file vertices, two of them the welded vertex 0: the rigid root row
    // counts twice there. Welded vertex 0 weighted like the reference, the others rigid.
    const Bar b = bar();
    SkinWeights w = halvesAsList(8);
    for (int i = 1; i < 8; ++i)
        w.weights.row(i) << 1.0f, 0.0f;
    const std::vector<int> weld = {0, 0, 1, 2, 3};
    const SkinMetrics m = skinMetrics(b.mesh, b.skeleton, w, halves(8), weld);
    EXPECT_EQ(m.vertices, 5);
    EXPECT_NEAR(m.l1, 3.0 / 5.0, 1e-12); // three rigid rows of L1 1
    EXPECT_NEAR(m.recall, 100.0 * 7.0 / 10.0, 1e-12);
    const Eigen::MatrixXd W = skinWeightsForFileVertices(w, 2, weld);
    ASSERT_EQ(W.rows(), 5);
    EXPECT_DOUBLE_EQ(W(1, 1), 0.5);
    EXPECT_DOUBLE_EQ(W(2, 0), 1.0);
}

TEST(SkinMetrics, TheFileVertexMatrixKeepsAnEmptyRowEmpty)
{
    SkinWeights w = halvesAsList(3);
    w.weights.row(1) << 0.0f, 0.0f;
    const Eigen::MatrixXd W = skinWeightsForFileVertices(w, 2, {});
    EXPECT_EQ((W.rowwise().sum().array() <= 0.0).count(), 1);
    EXPECT_THROW(skinWeightsForFileVertices(w, 1, {}), InvalidInput); // joint 1 of a one-joint skeleton
}

TEST(SkinMetrics, AnArtistsExactThresholdWeightReadBackJustUnderItStillCounts)
{
    // An artist's quantised 0.05 renormalised on import: 0.04999999.
    const Bar b = bar();
    RowSparse R(8, 2);
    for (int i = 0; i < 8; ++i) {
        R.insert(i, 0) = 0.95000001;
        R.insert(i, 1) = 0.04999999;
    }
    const SkinMetrics m = skinMetrics(b.mesh, b.skeleton, rigidOnRoot(8), R, {});
    EXPECT_NEAR(m.recall, 50.0, 1e-12); // 16 reference influences, 8 of them computed
}

TEST(SkinMetrics, TheDeformationIsInPercentOfTheLongestSide)
{
    // Scaling everything by 10 leaves every score unchanged.
    Bar b = bar();
    const SkinMetrics m1 = skinMetrics(b.mesh, b.skeleton, rigidOnRoot(8), halves(8), {});
    b.mesh.V *= 10.0;
    b.skeleton.bindPositions *= 10.0;
    const SkinMetrics m10 = skinMetrics(b.mesh, b.skeleton, rigidOnRoot(8), halves(8), {});
    EXPECT_NEAR(m1.deformationMean, m10.deformationMean, 1e-9);
    EXPECT_NEAR(m1.deformationMax, m10.deformationMax, 1e-9);
}

} // namespace
} // namespace rig
