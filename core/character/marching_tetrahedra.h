#pragma once
/// @file marching_tetrahedra.h
/// Polygonizes the zero level set of a scalar field sampled on a regular grid
/// by marching tetrahedra over the Kuhn (Freudenthal) decomposition of every
/// grid cube into six tetrahedra around its main diagonal.
///
/// Why tetrahedra and not marching cubes: the Kuhn decomposition uses the same
/// diagonal in every cube, so the tetrahedra form one simplicial complex that
/// tiles space, and the zero set of the piecewise-linear interpolant over it is
/// a closed 2-manifold whenever no sample is exactly zero and the grid boundary
/// is outside. Marching cubes needs ambiguity tables to promise the same.
///
/// References: A. Doi, A. Koide, "An efficient method of triangulating
/// equi-valued surfaces by using tetrahedral cells", IEICE Trans. E74-D(1),
/// 1991; H. Freudenthal, "Simplizialzerlegungen von beschränkter Flachheit",
/// Annals of Math. 43(3), 1942 (the cube decomposition).

#include "core/common/types.h"

#include <vector>

namespace rig {

/// Samples of a scalar field on a regular grid. Grid point (i, j, k) lies at
/// world position `(origin + (i, j, k)) * cellSize`: the origin is an integer
/// lattice coordinate, so two grids with the same cell size put their shared
/// points at bit-identical positions. Negative values are inside.
struct GridSamples {
    Vec3i origin = Vec3i::Zero(); ///< Lattice coordinates of point (0, 0, 0).
    Vec3i dims = Vec3i::Zero();   ///< Points per axis (>= 2 each for a non-empty grid).
    double cellSize = 0.0;        ///< Spacing of the points, > 0.
    /// dims.prod() values, x fastest: value(i, j, k) = values[i + dims.x() * (j + dims.y() * k)].
    std::vector<float> values;
    /// Optional, dims.y() * dims.z() entries each (or empty: every point may be
    /// inside): the points of row (j, k) with x index outside
    /// [rowBegin[j + dims.y() * k], rowEnd[...]) are promised to be positive, so
    /// the polygonizer can skip them. rowBegin > rowEnd marks an all-positive row.
    std::vector<int> rowBegin;
    std::vector<int> rowEnd;

    /// Linear index of point (i, j, k).
    Eigen::Index index(int i, int j, int k) const
    {
        return i + Eigen::Index(dims.x()) * (j + Eigen::Index(dims.y()) * k);
    }
    /// World position of point (i, j, k).
    Vec3 position(int i, int j, int k) const
    {
        return Vec3(double(origin.x() + i), double(origin.y() + j), double(origin.z() + k)) * cellSize;
    }
};

/// A triangle soup welded per grid edge.
struct IsoSurface {
    MatrixX3d V; ///< #V by 3 vertex positions, one per grid edge crossed by the surface.
    MatrixX3i F; ///< #F by 3 vertex indices, counter-clockwise seen from the positive side.
};

/// Extracts the zero level set of `grid` as a triangle mesh.
///
/// A sample that is exactly 0 counts as positive (as if nudged by +epsilon),
/// so no vertex sits on a grid point. On each crossed edge the vertex is placed
/// by linear interpolation, with the parameter clamped to [0.01, 0.99]: a vertex
/// never coincides with a grid point, so every triangle has three distinct
/// vertices and positive area (the three lie on distinct edges of one
/// tetrahedron, strictly inside them), and the output has no degenerate
/// triangles to remove.
///
/// Guarantees: when every sample on the grid's boundary is positive, the result
/// is closed, manifold and consistently oriented, with normals pointing from
/// negative to positive values (outward for a signed distance). Vertices are
/// numbered in the order the cubes are visited (x fastest), so the output is
/// deterministic.
///
/// *Expects* `cellSize > 0`, `values.size() == dims.prod()`, and
/// `rowBegin`/`rowEnd` empty or of size dims.y() * dims.z().
/// Throws `rig::InvalidInput` when a boundary sample is negative (the surface
/// would be cut open by the grid).
IsoSurface marchingTetrahedra(const GridSamples& grid);

} // namespace rig
