#include "core/skin/skin_weights.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rig {
namespace {

TEST(SkinWeights, InvalidInputsAreRejectedFirst)
{
    Eigen::MatrixXd W(2, 3);
    W << 0.5, 0.5, 0, 1, 0, 0;
    EXPECT_THROW(skinWeightsFromDense(W, 0), InvalidInput);
    Eigen::MatrixXd neg = W;
    neg(0, 1) = -0.1;
    EXPECT_THROW(skinWeightsFromDense(neg, 4), InvalidInput);
    Eigen::MatrixXd nan = W;
    nan(1, 2) = std::nan("");
    EXPECT_THROW(skinWeightsFromDense(nan, 4), InvalidInput);
    Eigen::MatrixXd zeroRow = W;
    zeroRow.row(1).setZero();
    EXPECT_THROW(skinWeightsFromDense(zeroRow, 4), InvalidInput);

    const SkinWeights ok = skinWeightsFromDense(W, 2);
    EXPECT_NO_THROW(validateSkinWeights(ok, 2, 3));
    EXPECT_THROW(validateSkinWeights(ok, 3, 3), InvalidInput); // vertex count
    EXPECT_THROW(validateSkinWeights(ok, 2, 1), InvalidInput); // joint index out of range
    SkinWeights bad = ok;
    bad.weights(0, 0) = 0.7f;
    EXPECT_THROW(validateSkinWeights(bad, 2, 3), InvalidInput); // sum != 1
    bad = ok;
    bad.weights(0, 0) = 1.5f;
    bad.weights(0, 1) = -0.5f;
    EXPECT_THROW(validateSkinWeights(bad, 2, 3), InvalidInput); // negative
    bad = ok;
    bad.maxInfluences = 3;
    EXPECT_THROW(validateSkinWeights(bad, 2, 3), InvalidInput); // columns
    EXPECT_THROW(denseWeights(ok, 1), InvalidInput);
}

TEST(SkinWeights, DenseKeepsTheLargestAndRenormalizes)
{
    Eigen::MatrixXd W(1, 6);
    W << 0.05, 0.4, 0.1, 0.3, 0.15, 0.0;
    const SkinWeights s = skinWeightsFromDense(W, 3);
    ASSERT_EQ(s.maxInfluences, 3);
    EXPECT_EQ(s.joints(0, 0), 1);
    EXPECT_EQ(s.joints(0, 1), 3);
    EXPECT_EQ(s.joints(0, 2), 4);
    EXPECT_NEAR(s.weights(0, 0), 0.4 / 0.85, 1e-7);
    EXPECT_NEAR(s.weights(0, 1), 0.3 / 0.85, 1e-7);
    EXPECT_NEAR(s.weights(0, 2), 0.15 / 0.85, 1e-7);
    EXPECT_NO_THROW(validateSkinWeights(s, 1, 6));
}

TEST(SkinWeights, UnusedSlotsAreZeroWeightOnJointZero)
{
    Eigen::MatrixXd W(2, 4);
    W << 0, 0, 2, 0, 0, 1, 0, 3;
    const SkinWeights s = skinWeightsFromDense(W, 4);
    EXPECT_EQ(s.joints(0, 0), 2);
    EXPECT_FLOAT_EQ(s.weights(0, 0), 1.0f);
    for (int k = 1; k < 4; ++k) {
        EXPECT_EQ(s.joints(0, k), 0);
        EXPECT_EQ(s.weights(0, k), 0.0f);
    }
    EXPECT_EQ(s.joints(1, 0), 3);
    EXPECT_FLOAT_EQ(s.weights(1, 0), 0.75f);
    EXPECT_NO_THROW(validateSkinWeights(s, 2, 4));
    // Round trip through the dense form (already normalized rows come back).
    const Eigen::MatrixXd D = denseWeights(s, 4);
    EXPECT_NEAR(D(1, 1), 0.25, 1e-7);
    EXPECT_NEAR(D(1, 3), 0.75, 1e-7);
}

TEST(SkinWeights, SparseMatchesDense)
{
    Eigen::MatrixXd W = Eigen::MatrixXd::Random(20, 7).cwiseAbs();
    W(3, 2) = 0.0;
    const Eigen::SparseMatrix<double> S = W.sparseView();
    const SkinWeights a = skinWeightsFromDense(W, 4);
    const SkinWeights b = skinWeightsFromSparse(S, 4);
    EXPECT_EQ(a.joints, b.joints);
    EXPECT_TRUE(a.weights.isApprox(b.weights));
    for (Eigen::Index i = 0; i < W.rows(); ++i)
        EXPECT_NEAR(a.weights.row(i).cast<double>().sum(), 1.0, 1e-6);
    Eigen::SparseMatrix<double> negative = S;
    negative.coeffRef(0, 0) = -1.0;
    EXPECT_THROW(skinWeightsFromSparse(negative, 4), InvalidInput);
}

} // namespace
} // namespace rig
