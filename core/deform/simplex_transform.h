#pragma once
/// @file simplex_transform.h
/// The simplex-transformation deformer (seed 002: Yan, Hu, Martin,
/// "Skeleton-Based Shape Deformation Using Simplex Transformations", CGI 2006):
/// no weights. Each triangle follows one bone; a sparse least-squares solve
/// stitches the triangles back into one mesh.
///
///  - Controlling bone (§4.1, §5.1): a bone (link parent → child) may control
///    a triangle when the triangle's centroid lies on the bone's side of all
///    its range planes (through a free end, perpendicular to the bone; at a
///    joint, the bisecting plane with each other bone meeting there). Among
///    those, the smallest effective distance with penalty d = d_eff + n δ wins,
///    n the times the effective line leaves the mesh's solid (counted through
///    a voxel solid of the mesh) and δ twice the mesh's size. d_eff is the
///    distance from the centroid to the bone (our simplification of the
///    paper's interpolated effective line, eq. 2). When every candidate is
///    penalised, the triangle takes the link most of its vertices belong to in
///    the segmentation (the thesis's Ch. 3, standing in for the paper's
///    shortest path), or the nearest bone without one.
///  - Per triangle a tetrahedron (§5.3): a fourth vertex over the centroid
///    along the normal, v4 = c + (v2 − v1) × (v3 − v1) / sqrt(|(v2 − v1) × (v3 − v1)|)
///    (scaled as in Sumner & Popović 2004, so it is commensurate with the
///    triangle), a free unknown of the solve.
///  - Per frame, eq. 6: minimise Σ A_i ‖V_i U_i⁻¹ − R_i‖²_F over the deformed
///    vertex positions (V_i the deformed tetrahedron's edge matrix, U_i the
///    rest one, R_i the linear part of the controlling bone's skinning
///    transform, twist included). The normal equations K X = d (eq. 7)
///    separate into x, y and z with one matrix K that depends only on the rest
///    mesh. Each fourth vertex belongs to one tetrahedron, so K's block over
///    them is diagonal and they are eliminated exactly (Schur complement):
///    the system left is over the mesh's vertices, with the mesh's edges as
///    its sparsity. It is factored once per binding (sparse Cholesky, Eigen's
///    LDLT) and back-substituted for x, y and z together each frame, one pass
///    over the factor per direction (bench/README.md, issue 16).
///  - Translation: the paper fixes one vertex; we add a soft positional term
///    ε Σ_v ‖x_v − M_bone(v) v‖² that pulls every vertex towards its
///    bone's rigid placement with a small weight (`anchorWeight`), which fixes
///    each connected part's position to follow the skeleton and keeps K
///    positive definite; the shape comes from the simplex term.
/// Normals are recomputed from the deformed mesh.

#include "core/deform/deformers.h"

#include <vector>

namespace rig {

struct SimplexOptions {
    /// ε of the positional term, relative to the mean triangle area: small,
    /// so the simplex term decides the shape. > 0. Default 1e-2.
    double anchorWeight = 1e-2;
    /// Voxels along the longest side of the solid that counts the effective
    /// lines' exits (the penalty n δ). Default 64.
    int penaltyResolution = 64;
};

/// The controlling bone of every triangle (§5.1): the child joint of its link
/// (the link moves with the child's parent), as described in the file comment.
/// @throws rig::InvalidInput for an empty mesh or a skeleton without links.
std::vector<int> simplexControlBones(const Mesh& mesh, const Skeleton& skeleton, const Segmentation* segmentation,
                                     int penaltyResolution = 64);

/// Binds the simplex deformer: control bones, tetrahedra, the factored K.
/// @throws rig::InvalidInput for a mesh without triangles, an invalid
///         skeleton, options out of range, or a factorization that fails.
std::unique_ptr<BoundDeformer> bindSimplex(const DeformerInput& input, const SimplexOptions& options = {});

/// The table row of this deformer (core/deform/deformers.h).
DeformerInfo simplexDeformer();

} // namespace rig
