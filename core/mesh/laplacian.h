#pragma once
/// @file laplacian.h
/// The cotangent Laplacian of a triangle mesh and its vertex areas (seed 003,
/// "Eq. chaleur : Laplacien", eq. 4: ω_ij = cot α_ij + cot β_ij; Meyer, Desbrun,
/// Schröder & Barr 2003; Pinsall & Polthier 1993).
///
/// L is the #V by #V symmetric matrix with, for every edge (i, j),
///   L_ij = ½ (cot α_ij + cot β_ij)          (α, β: the angles opposite the edge)
///   L_ii = −Σ_j L_ij,
/// so every row sums to 0 and L is negative semi-definite on a connected mesh
/// (constants are its kernel). The Laplace-Beltrami operator of a function u
/// given at the vertices is Δu = A⁻¹ L u with A the diagonal of vertex areas
/// (`vertexAreas()`): the "area-weighted" Laplacian of bone heat
/// (weights_heat.h), which multiplies its equation by A to stay symmetric.
///
/// Robustness. A triangle with a repeated vertex index contributes nothing.
/// A cotangent is cos / |sin| computed from the edge vectors, with |sin|
/// clamped below by `minSine` and the result clamped to ±`maxCotangent`, so a
/// zero-area (collinear or needle) triangle gives large but finite weights,
/// never NaN or inf. Obtuse triangles give negative cotangents, as they should
/// (L is then not an M-matrix; the heat system stays positive definite).

#include "core/common/types.h"

#include <Eigen/SparseCore>

namespace rig {

struct CotangentOptions {
    /// Lower bound of the sine in cot θ = cos θ / sin θ (both from the unit edge
    /// directions). An angle at a zero-length edge has cotangent 0.
    double minSine = 1e-8;
    /// Cotangents are clamped to [−maxCotangent, maxCotangent] (a 0.06-degree angle).
    double maxCotangent = 1e3;
};

/// The cotangent Laplacian L (see the file comment), #V by #V, symmetric, rows summing to 0.
/// @param V #V by 3 positions. @param F #F by 3 vertex indices.
/// @throws rig::InvalidInput (naming `rig::cotangentLaplacian()`) for non-finite
///         positions or a triangle index outside [0, #V).
Eigen::SparseMatrix<double> cotangentLaplacian(const MatrixX3d& V, const MatrixX3i& F,
                                               const CotangentOptions& options = {});

/// Barycentric vertex areas: a third of the area of every triangle around a
/// vertex (#V entries, summing to the surface area; 0 for isolated vertices).
/// @throws rig::InvalidInput as `cotangentLaplacian()`.
Eigen::VectorXd vertexAreas(const MatrixX3d& V, const MatrixX3i& F);

/// The cotangent of the angle at vertex `at` of triangle (at, b, c), clamped as above.
double clampedCotangent(const Vec3& at, const Vec3& b, const Vec3& c, const CotangentOptions& options = {});

} // namespace rig
