#include "core/eval/linear_assignment.h"

#include "core/common/error.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>

namespace rig {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr double infinity = std::numeric_limits<double>::infinity();

void checkFinite(const Eigen::MatrixXd& cost)
{
    for (Eigen::Index j = 0; j < cost.cols(); ++j)
        for (Eigen::Index i = 0; i < cost.rows(); ++i)
            if (!std::isfinite(cost(i, j)))
                throw InvalidInput("rig::linearAssignment(): cost(" + std::to_string(i) + ", " + std::to_string(j) +
                                   ") is not finite");
}

/// Shortest augmenting paths on an n by m matrix, n <= m: rows are assigned
/// one after the other, each by a Dijkstra search over reduced costs
/// c(i, j) - u(i) - v(j) >= 0 from the new row to a free column, after which
/// the duals u, v are updated so that reduced costs stay non-negative and are
/// zero on the assignment.
class AugmentingPaths {
public:
    explicit AugmentingPaths(const RowMatrix& cost)
        : m_cost(cost), m_u(size(cost.rows()), 0.0), m_v(size(cost.cols()), 0.0), m_distance(size(cost.cols())),
          m_path(size(cost.cols()), -1), m_colOfRow(size(cost.rows()), -1), m_rowOfCol(size(cost.cols()), -1),
          m_rowSeen(size(cost.rows())), m_colSeen(size(cost.cols())), m_remaining(size(cost.cols()))
    {
        assert(cost.rows() <= cost.cols());
    }

    void assignRow(int row)
    {
        double minValue = 0.0;
        const int sink = shortestPath(row, minValue);
        updateDuals(row, minValue);
        augment(row, sink);
    }

    const std::vector<int>& colOfRow() const { return m_colOfRow; }

private:
    static size_t size(Eigen::Index n) { return static_cast<size_t>(n); }

    /// The free column ending the shortest alternating path from `row`; sets
    /// `minValue` to its length. Columns are scanned from the last one and,
    /// among equally short ones, a free column wins, as in SciPy: a constant
    /// matrix then gives the identity.
    int shortestPath(int row, double& minValue)
    {
        const int m = static_cast<int>(m_cost.cols());
        for (int k = 0; k < m; ++k)
            m_remaining[size(k)] = m - 1 - k;
        int remaining = m;
        std::fill(m_rowSeen.begin(), m_rowSeen.end(), false);
        std::fill(m_colSeen.begin(), m_colSeen.end(), false);
        std::fill(m_distance.begin(), m_distance.end(), infinity);
        int i = row;
        while (true) {
            m_rowSeen[size(i)] = true;
            int best = -1;
            double lowest = infinity;
            for (int k = 0; k < remaining; ++k) {
                const int j = m_remaining[size(k)];
                const double r = minValue + m_cost(i, j) - m_u[size(i)] - m_v[size(j)];
                if (r < m_distance[size(j)]) {
                    m_path[size(j)] = i;
                    m_distance[size(j)] = r;
                }
                const double d = m_distance[size(j)];
                if (d < lowest || (d == lowest && m_rowOfCol[size(j)] == -1)) {
                    lowest = d;
                    best = k;
                }
            }
            assert(best >= 0); // finite costs: every column is reachable
            minValue = lowest;
            const int j = m_remaining[size(best)];
            m_colSeen[size(j)] = true;
            m_remaining[size(best)] = m_remaining[size(--remaining)];
            if (m_rowOfCol[size(j)] == -1)
                return j;
            i = m_rowOfCol[size(j)];
        }
    }

    void updateDuals(int row, double minValue)
    {
        m_u[size(row)] += minValue;
        for (size_t i = 0; i < m_u.size(); ++i)
            if (m_rowSeen[i] && static_cast<int>(i) != row)
                m_u[i] += minValue - m_distance[size(m_colOfRow[i])];
        for (size_t j = 0; j < m_v.size(); ++j)
            if (m_colSeen[j])
                m_v[j] -= minValue - m_distance[j];
    }

    /// Flips the alternating path ending at `sink` back to `row`.
    void augment(int row, int sink)
    {
        int j = sink;
        while (true) {
            const int i = m_path[size(j)];
            m_rowOfCol[size(j)] = i;
            std::swap(m_colOfRow[size(i)], j);
            if (i == row)
                return;
        }
    }

    const RowMatrix& m_cost;
    std::vector<double> m_u, m_v, m_distance;
    std::vector<int> m_path, m_colOfRow, m_rowOfCol;
    std::vector<bool> m_rowSeen, m_colSeen;
    std::vector<int> m_remaining;
};

} // namespace

std::vector<std::pair<int, int>> linearAssignment(const Eigen::MatrixXd& cost)
{
    checkFinite(cost);
    if (cost.rows() == 0 || cost.cols() == 0)
        return {};
    const bool transposed = cost.rows() > cost.cols();
    const RowMatrix c = transposed ? RowMatrix(cost.transpose()) : RowMatrix(cost);
    AugmentingPaths solver(c);
    for (int row = 0; row < static_cast<int>(c.rows()); ++row)
        solver.assignRow(row);
    std::vector<std::pair<int, int>> pairs;
    pairs.reserve(solver.colOfRow().size());
    for (size_t r = 0; r < solver.colOfRow().size(); ++r) {
        const int col = solver.colOfRow()[r];
        pairs.emplace_back(transposed ? col : static_cast<int>(r), transposed ? static_cast<int>(r) : col);
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

} // namespace rig
