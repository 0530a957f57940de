#include "core/mesh/laplacian.h"

#include "core/common/error.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace rig {
namespace {

TEST(Laplacian, InvalidInputsAreRejectedFirst)
{
    MatrixX3d V(3, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0;
    MatrixX3i F(1, 3);
    F << 0, 1, 3; // vertex 3 does not exist
    EXPECT_THROW(cotangentLaplacian(V, F), InvalidInput);
    EXPECT_THROW(vertexAreas(V, F), InvalidInput);
    F << 0, 1, -1;
    EXPECT_THROW(cotangentLaplacian(V, F), InvalidInput);
    F << 0, 1, 2;
    V(1, 0) = std::nan("");
    EXPECT_THROW(cotangentLaplacian(V, F), InvalidInput);
}

TEST(Laplacian, CotangentsOfAKnownTriangle)
{
    // A right isosceles triangle: 90 degrees at the origin, 45 at the others.
    const Vec3 o(0, 0, 0), x(1, 0, 0), y(0, 1, 0);
    EXPECT_NEAR(clampedCotangent(o, x, y), 0.0, 1e-12);
    EXPECT_NEAR(clampedCotangent(x, o, y), 1.0, 1e-12);
    // 30-60-90: cot 30 = sqrt(3), cot 60 = 1 / sqrt(3); obtuse 120 degrees: -1 / sqrt(3).
    const Vec3 a(0, 0, 0), b(std::sqrt(3.0), 0, 0), c(0, 1, 0);
    EXPECT_NEAR(clampedCotangent(b, a, c), std::sqrt(3.0), 1e-12);
    EXPECT_NEAR(clampedCotangent(c, a, b), 1.0 / std::sqrt(3.0), 1e-12);
    const double t = 2.0 * std::numbers::pi / 3.0;
    EXPECT_NEAR(clampedCotangent(o, x, Vec3(std::cos(t), std::sin(t), 0)), -1.0 / std::sqrt(3.0), 1e-12);

    MatrixX3d V(3, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0;
    MatrixX3i F(1, 3);
    F << 0, 1, 2;
    const Eigen::MatrixXd L = cotangentLaplacian(V, F);
    // Edge (1, 2) is opposite the right angle: weight 0; edges (0, 1) and (0, 2)
    // are opposite 45-degree angles: weight cot(45) / 2.
    EXPECT_NEAR(L(1, 2), 0.0, 1e-12);
    EXPECT_NEAR(L(0, 1), 0.5, 1e-12);
    EXPECT_NEAR(L(0, 2), 0.5, 1e-12);
    EXPECT_NEAR(L(0, 0), -1.0, 1e-12);
    const Eigen::VectorXd A = vertexAreas(V, F);
    for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(A(i), 0.5 / 3.0, 1e-12);
}

TEST(Laplacian, RowsSumToZeroAndTheMatrixIsSymmetric)
{
    const Mesh m = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1, 0), 0.2, 16, 6, 6);
    const Eigen::SparseMatrix<double> L = cotangentLaplacian(m.V, m.F);
    const Eigen::MatrixXd D = L;
    EXPECT_LT((D - D.transpose()).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((D * Eigen::VectorXd::Ones(D.cols())).cwiseAbs().maxCoeff(), 1e-10);
    // Negative semi-definite: u^T L u < 0 for a non-constant u.
    const Eigen::VectorXd u = m.V.col(1);
    EXPECT_LT(u.dot(D * u), 0.0);
    // Linear precision on a flat patch: the Laplacian of a linear function
    // vanishes at interior vertices.
    MatrixX3d P(5, 3);
    P << 0, 0, 0, 1, 0, 0, 0.2, 1, 0, -1, 0.1, 0, 0.1, -1, 0;
    MatrixX3i T(4, 3);
    T << 0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 1;
    const Eigen::SparseMatrix<double> Lp = cotangentLaplacian(P, T);
    const Eigen::VectorXd lx = Lp * Eigen::VectorXd(P.col(0));
    const Eigen::VectorXd ly = Lp * Eigen::VectorXd(P.col(1));
    EXPECT_NEAR(lx(0), 0.0, 1e-12);
    EXPECT_NEAR(ly(0), 0.0, 1e-12);
    // Areas sum to the surface area.
    EXPECT_NEAR(vertexAreas(P, T).sum(), 0.5 + 0.51 + 0.495 + 0.5, 1e-12);
}

TEST(Laplacian, DegenerateTrianglesGiveFiniteWeights)
{
    MatrixX3d V(5, 3);
    V << 0, 0, 0, 1, 0, 0, 2, 0, 0, 1, 1, 0, 1, 0, 0; // 0-1-2 collinear, 4 coincides with 1
    MatrixX3i F(4, 3);
    F << 0, 1, 2, 0, 2, 3, 1, 1, 3, 1, 4, 3;
    const Eigen::MatrixXd L = cotangentLaplacian(V, F);
    EXPECT_TRUE(L.allFinite());
    EXPECT_LT((L * Eigen::VectorXd::Ones(5)).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_TRUE(vertexAreas(V, F).allFinite());
}

} // namespace
} // namespace rig
