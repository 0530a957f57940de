#pragma once
/// @file point_grid.h
/// A uniform grid over a fixed set of points (a mesh's vertices) for the two
/// queries interactive tools make many times per second: every point within a
/// ball (a paint brush), and the point nearest to a position (the mirror map
/// of core/skin/weight_mirror.h). Cells are stored as compressed rows (CSR)
/// over a dense box of about one cell per point, so a query costs the cells it
/// overlaps plus the points in them, independent of the point count.

#include "core/common/types.h"

#include <optional>
#include <vector>

namespace rig {

class PointGrid {
public:
    PointGrid() = default;

    /// Indexes the rows of P (#P by 3). `pointsPerCell` sets the cell size:
    /// the box volume divided by #P, times it (default 2), cube-rooted; never
    /// below 1e-9 of the box diagonal, and at most 2^21 cells.
    /// Expects finite coordinates.
    /// @throws rig::InvalidInput naming the first non-finite point, or when
    /// pointsPerCell is not positive and finite.
    explicit PointGrid(const MatrixX3d& P, double pointsPerCell = 2.0);

    /// Indices of the points within `radius` of `centre` (|p - centre| <= radius),
    /// appended to `out` (cleared first), in no particular order. A negative or
    /// non-finite radius or centre finds nothing.
    void pointsWithin(const Vec3& centre, double radius, std::vector<int>& out) const;

    /// The point nearest to `q` (ties: lowest index); std::nullopt for an empty grid
    /// or a non-finite q.
    std::optional<int> nearest(const Vec3& q) const;

    int pointCount() const { return static_cast<int>(m_P.rows()); }
    const MatrixX3d& points() const { return m_P; }
    double cellSize() const { return m_cell; }

private:
    Vec3i cellOf(const Vec3& p) const;
    int cellIndex(int x, int y, int z) const { return (z * m_dims.y() + y) * m_dims.x() + x; }

    MatrixX3d m_P;
    Vec3 m_origin = Vec3::Zero();
    double m_cell = 1.0;
    Vec3i m_dims = Vec3i::Zero();
    std::vector<int> m_start; ///< #cells + 1 offsets into m_items.
    std::vector<int> m_items; ///< Point indices, cell after cell.
};

} // namespace rig
