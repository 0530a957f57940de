#pragma once
/// @file skin_weights.h
/// The per-vertex influence list every deformer takes (LBS, DQS, twist-corrected
/// LBS; CPU and GPU): at most `maxInfluences` (joint, weight) pairs per vertex,
/// stored as two #V by k row-major arrays so that one vertex's influences are
/// contiguous and upload to the GPU as-is (ivec4 / vec4 for k = 4).
///
/// Invariants (checked by `validateSkinWeights()`): weights are finite and
/// non-negative, each row sums to 1 (± 1e-6), joint indices lie in [0, #J).
/// Unused slots carry weight 0 and joint 0. The builders sort each row by
/// decreasing weight, so slot 0 is the most influential joint (DQS aligns its
/// hemisphere on it).
///
/// The weights are those of the LBS equation p'_i = Σ_k w_ik M_k p_i (thesis
/// eq. 4.3), normalized per thesis eq. 4.2.

#include "core/mesh/mesh.h"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <string>
#include <vector>

namespace rig {

struct SkinWeights {
    int maxInfluences = 4; ///< k, the number of slots per vertex (columns of both arrays).
    /// #V by k joint indices, in [0, #J); 0 in unused slots.
    Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> joints;
    /// #V by k weights, rows sum to 1, sorted by decreasing weight; 0 in unused slots.
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> weights;

    int vertexCount() const { return static_cast<int>(joints.rows()); }
};

/// Builds the influence lists from a dense #V by #J weight matrix: per vertex
/// keeps the `maxInfluences` largest positive weights (ties: lower joint index
/// first), drops the rest and renormalizes the kept ones to sum to 1 (the
/// standard continuous limit: the dropped mass is spread proportionally).
/// Expects maxInfluences >= 1; W finite and non-negative; every row with a
/// positive entry.
/// @throws rig::InvalidInput naming the first offending vertex.
SkinWeights skinWeightsFromDense(const Eigen::MatrixXd& W, int maxInfluences = 4);

/// Same as `skinWeightsFromDense()` for a sparse #V by #J matrix (explicit
/// zeros are ignored).
/// @throws rig::InvalidInput as above.
SkinWeights skinWeightsFromSparse(const Eigen::SparseMatrix<double>& W, int maxInfluences = 4);

/// The dense #V by #J matrix of the influence lists (for display, tests, export).
/// @throws rig::InvalidInput when a joint index is outside [0, jointCount).
Eigen::MatrixXd denseWeights(const SkinWeights& w, int jointCount);

/// Checks the invariants above against a mesh of `vertexCount` vertices and a
/// skeleton of `jointCount` joints.
/// @throws rig::InvalidInput naming the function's caller-facing problem and
/// the first offending vertex.
void validateSkinWeights(const SkinWeights& w, int vertexCount, int jointCount);

/// A connected part of the mesh bound rigidly to one bone instead of by the
/// weight method (eyes, teeth, props; parts no bone reaches).
struct RigidPart {
    int part = -1;           ///< Connected-component index (components numbered by lowest vertex index).
    std::string name;        ///< The mesh part name (`Mesh::partNames`) of most of its vertices, or "component N".
    int bone = -1;           ///< The joint it is bound to.
    int vertexCount = 0;     ///< Number of vertices.
    /// Why: "no bone visible", "too small (N vertices)", "degenerate (no area)",
    /// "small part (moves rigidly)" or "solve failed (degenerate geometry)".
    std::string reason;
    std::vector<int> vertices; ///< Its vertex indices, ascending (for highlighting).
};

/// `RigidPart::name` of the connected component `component` with `vertices`:
/// the mesh part (`Mesh::partNames`) most of them belong to, else "component N".
std::string pieceName(const Mesh& mesh, const std::vector<int>& vertices, int component);

} // namespace rig
