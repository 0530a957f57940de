#include "core/eval/linear_assignment.h"

#include "core/common/error.h"

#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>

namespace rig {
namespace {

using Pairs = std::vector<std::pair<int, int>>;

double total(const Eigen::MatrixXd& cost, const Pairs& pairs)
{
    double sum = 0.0;
    for (const auto& [r, c] : pairs)
        sum += cost(r, c);
    return sum;
}

/// The least total over every injective map of the shorter side into the
/// longer one (every permutation of the longer side, its first entries used).
double bruteForce(const Eigen::MatrixXd& cost)
{
    const bool tall = cost.rows() > cost.cols();
    const int shorter = static_cast<int>(std::min(cost.rows(), cost.cols()));
    std::vector<int> longer(static_cast<size_t>(std::max(cost.rows(), cost.cols())));
    std::iota(longer.begin(), longer.end(), 0);
    double best = std::numeric_limits<double>::infinity();
    do {
        double sum = 0.0;
        for (int k = 0; k < shorter; ++k)
            sum += tall ? cost(longer[static_cast<size_t>(k)], k) : cost(k, longer[static_cast<size_t>(k)]);
        best = std::min(best, sum);
    } while (std::next_permutation(longer.begin(), longer.end()));
    return best;
}

/// min(n, m) pairs sorted by row, no row or column twice, all in range.
void expectValidAssignment(const Eigen::MatrixXd& cost, const Pairs& pairs)
{
    ASSERT_EQ(pairs.size(), static_cast<size_t>(std::min(cost.rows(), cost.cols())));
    std::set<int> rows, cols;
    for (const auto& [r, c] : pairs) {
        EXPECT_TRUE(r >= 0 && r < cost.rows() && c >= 0 && c < cost.cols());
        rows.insert(r);
        cols.insert(c);
    }
    EXPECT_EQ(rows.size(), pairs.size());
    EXPECT_EQ(cols.size(), pairs.size());
    EXPECT_TRUE(std::is_sorted(pairs.begin(), pairs.end()));
}

/// Random matrices of every shape up to 6 by 6 (fixed seed), real-valued
/// with negatives, and small integers (many ties).
void expectOptimal(int rows, int cols)
{
    std::mt19937 rng(1234u + static_cast<unsigned>(10 * rows + cols));
    std::uniform_real_distribution<double> real(-1.0, 3.0);
    std::uniform_int_distribution<int> small(0, 3);
    for (int trial = 0; trial < 20; ++trial) {
        Eigen::MatrixXd cost(rows, cols);
        for (Eigen::Index i = 0; i < cost.size(); ++i)
            cost(i) = trial % 2 == 0 ? real(rng) : small(rng);
        const Pairs pairs = linearAssignment(cost);
        expectValidAssignment(cost, pairs);
        EXPECT_NEAR(total(cost, pairs), bruteForce(cost), 1e-12) << rows << " by " << cols << ", trial " << trial;
    }
}

TEST(LinearAssignment, NonFiniteEntriesAreRejectedFirst)
{
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity()}) {
        Eigen::MatrixXd cost = Eigen::MatrixXd::Ones(3, 2);
        cost(2, 1) = bad;
        test::expectError<InvalidInput>([&] { linearAssignment(cost); }, "rig::linearAssignment()");
        test::expectError<InvalidInput>([&] { linearAssignment(cost); }, "cost(2, 1)");
    }
}

TEST(LinearAssignment, EmptyMatrixGivesNoPair)
{
    EXPECT_TRUE(linearAssignment(Eigen::MatrixXd(0, 0)).empty());
    EXPECT_TRUE(linearAssignment(Eigen::MatrixXd(0, 4)).empty());
    EXPECT_TRUE(linearAssignment(Eigen::MatrixXd(4, 0)).empty());
}

TEST(LinearAssignment, KnownAnswer)
{
    // SciPy's documentation example: rows 0, 1, 2 to columns 1, 0, 2, total 5.
    Eigen::MatrixXd cost(3, 3);
    cost << 4, 1, 3, 2, 0, 5, 3, 2, 2;
    EXPECT_EQ(linearAssignment(cost), (Pairs{{0, 1}, {1, 0}, {2, 2}}));
    EXPECT_EQ(linearAssignment(Eigen::MatrixXd::Constant(1, 1, -2.5)), (Pairs{{0, 0}}));
}

TEST(LinearAssignment, ConstantCostGivesTheIdentityAsScipyDoes)
{
    EXPECT_EQ(linearAssignment(Eigen::MatrixXd::Zero(4, 4)), (Pairs{{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
    EXPECT_EQ(linearAssignment(Eigen::MatrixXd::Ones(2, 4)), (Pairs{{0, 0}, {1, 1}}));
    EXPECT_EQ(linearAssignment(Eigen::MatrixXd::Ones(4, 2)), (Pairs{{0, 0}, {1, 1}}));
}

TEST(LinearAssignment, RectangularPicksTheCheapestRowsOrColumns)
{
    // Wide: row 0 takes column 2, row 1 column 0. Tall: its transpose.
    Eigen::MatrixXd wide(2, 4);
    wide << 5, 9, 1, 7, 2, 8, 3, 6;
    EXPECT_EQ(linearAssignment(wide), (Pairs{{0, 2}, {1, 0}}));
    EXPECT_EQ(linearAssignment(wide.transpose()), (Pairs{{0, 1}, {2, 0}}));
}

TEST(LinearAssignment, SquareMatchesBruteForce)
{
    for (int n = 1; n <= 6; ++n)
        expectOptimal(n, n);
}

TEST(LinearAssignment, WideMatchesBruteForce)
{
    for (int n = 1; n <= 5; ++n)
        for (int m = n + 1; m <= 6; ++m)
            expectOptimal(n, m);
}

TEST(LinearAssignment, TallMatchesBruteForce)
{
    for (int m = 1; m <= 5; ++m)
        for (int n = m + 1; n <= 6; ++n)
            expectOptimal(n, m);
}

} // namespace
} // namespace rig
