#pragma once
/// @file linear_assignment.h
/// The linear (sum) assignment problem on a rectangular cost matrix: pick
/// min(n, m) entries, no two in the same row or column, of least total cost.
/// It is what `scipy.optimize.linear_sum_assignment` solves, and it gives the
/// same pairs, ties included: the same shortest-augmenting-path method
/// (Crouse, "On implementing 2D rectangular assignment algorithms", IEEE
/// Trans. Aerospace and Electronic Systems 52(4), 2016), which scans the free
/// columns in the same order.
///
/// The Hungarian method (Kuhn, "The Hungarian method for the assignment
/// problem", Naval Research Logistics Quarterly 2, 1955) in the
/// shortest-augmenting-path form of Jonker & Volgenant ("A shortest augmenting
/// path algorithm for dense and sparse linear assignment problems",
/// Computing 38, 1987): one Dijkstra-like search on reduced costs per row,
/// O(n² m) for n <= m; a tall matrix is solved transposed.

#include <Eigen/Core>

#include <utility>
#include <vector>

namespace rig {

/// The minimum-cost assignment of the rows of `cost` (n by m) to its columns.
/// Returns min(n, m) (row, column) pairs sorted by row: every row is assigned
/// when n <= m, every column when n > m. An empty matrix (n or m zero) gives
/// no pair. Any finite costs, negative ones included.
/// Expects every entry finite.
/// @throws rig::InvalidInput (naming `rig::linearAssignment()`) when an entry
///         is NaN or infinite.
std::vector<std::pair<int, int>> linearAssignment(const Eigen::MatrixXd& cost);

} // namespace rig
