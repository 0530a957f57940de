#include "core/mesh/point_grid.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace rig {
namespace {

MatrixX3d gridTestPoints(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    MatrixX3d P(n, 3);
    for (int i = 0; i < n; ++i)
        P.row(i) << u(rng), 0.3 * u(rng), 2.0 * u(rng);
    return P;
}

TEST(PointGrid, RejectsNonFinitePointsAndBadCellSize)
{
    MatrixX3d P = gridTestPoints(10, 1);
    P(4, 1) = std::nan("");
    EXPECT_THROW(PointGrid{P}, InvalidInput);
    EXPECT_THROW(PointGrid(gridTestPoints(10, 1), 0.0), InvalidInput);
}

TEST(PointGrid, BallQueryFindsExactlyThePointsWithinTheRadius)
{
    const MatrixX3d P = gridTestPoints(5000, 2);
    const PointGrid grid(P);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-2.5, 2.5);
    std::vector<int> found;
    for (int q = 0; q < 200; ++q) {
        const Vec3 c(u(rng), u(rng), u(rng));
        const double r = 0.02 + 0.5 * std::abs(u(rng));
        grid.pointsWithin(c, r, found);
        std::sort(found.begin(), found.end());
        std::vector<int> brute;
        for (int i = 0; i < P.rows(); ++i)
            if ((P.row(i).transpose() - c).norm() <= r)
                brute.push_back(i);
        ASSERT_EQ(found, brute) << "query " << q;
    }
    grid.pointsWithin(Vec3::Zero(), -1.0, found);
    EXPECT_TRUE(found.empty());
    grid.pointsWithin(Vec3(std::nan(""), 0, 0), 1.0, found);
    EXPECT_TRUE(found.empty());
}

TEST(PointGrid, NearestMatchesBruteForceInsideAndOutsideTheBox)
{
    const MatrixX3d P = gridTestPoints(3000, 4);
    const PointGrid grid(P);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-6.0, 6.0);
    for (int q = 0; q < 300; ++q) {
        const Vec3 x(u(rng), u(rng), u(rng));
        int best = -1;
        double bestD = std::numeric_limits<double>::infinity();
        for (int i = 0; i < P.rows(); ++i) {
            const double d = (P.row(i).transpose() - x).squaredNorm();
            if (d < bestD) {
                bestD = d;
                best = i;
            }
        }
        const auto found = grid.nearest(x);
        ASSERT_TRUE(found.has_value());
        EXPECT_EQ(*found, best) << "query " << q;
    }
    EXPECT_FALSE(PointGrid(MatrixX3d(0, 3)).nearest(Vec3::Zero()).has_value());
}

} // namespace
} // namespace rig
