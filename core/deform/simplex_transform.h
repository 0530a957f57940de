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
///    over the factor per direction (bench/notes/deformers.md, issue 16).
///  - Hinge joints blend the rotations (our addition, not the paper's): at a
///    joint with one link in and one out (elbow, knee, wrist, shoulder) a
///    triangle within w = `jointBlend` × the shorter of the two links of the
///    joint's plane takes R_i = nlerp(R_bone, R_neighbour, t), t = ½ (1 − d/w)
///    (d: the centroid's distance from the plane through the joint,
///    perpendicular to its own link, into that link; ½ on the plane, 0 at w).
///    With the paper's hard switch the stitch folds the inner side of a bend:
///    in the 120° elbow and knee bends of HUMAN.blend, the default character
///    and the four devset characters 12–36 folded triangles and 77–422
///    intersecting pairs per character; with the blend (w = ½) and a weaker
///    positional term (`anchorWeight`) none (bench/notes/deformers.md, stop 33).
///    Branching joints (hips, chest) keep the switch. Equal rotations blend
///    to themselves: the rest pose and rigid motions of the whole skeleton
///    are still reproduced exactly.
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
    /// so the simplex term decides the shape. > 0. Default 3e-4: with it the
    /// 120° elbow and knee bends of HUMAN.blend, the default character and the
    /// devset characters fold nothing, and a slender tube bent 120° neither
    /// folds nor leaves its bones two links away (0.13 % of a link) at 60 and
    /// at 240 rings. The former 1e-2 held a finely meshed limb near each
    /// bone's rigid placement and undid the hinge blend (the tube: 38 folded
    /// triangles); 1e-3 folded the 240-ring tube. A stronger term keeps more
    /// of a bar's volume under the thesis's large twists (bench/notes/deformers.md,
    /// stop 33).
    double anchorWeight = 3e-4;
    /// Voxels along the longest side of the solid that counts the effective
    /// lines' exits (the penalty n δ). Default 64.
    int penaltyResolution = 64;
    /// The hinge blend's half-width, as a fraction of the shorter link at the
    /// joint; 0 keeps the paper's hard switch between bones. In [0, 1].
    /// Default ½ (0.3 and 1 measured too: bench/notes/deformers.md, stop 33).
    double jointBlend = 0.5;
};

/// One triangle's rotation at a hinge joint: between R_follow and R_other, t of the way
/// (normalized linear interpolation of their quaternions).
struct SimplexJointBlend {
    int other = -1; ///< The joint whose rotation it turns towards; -1: none.
    double t = 0.0; ///< 0: its own bone's rotation; ½ on the joint's plane.
};

/// The hinge blends of every triangle (see the file comment), for the
/// triangles' controlling joints `follow` (simplexControlBones()) and the
/// blend's half-width `jointBlend` (SimplexOptions). All "none" for 0.
std::vector<SimplexJointBlend> simplexJointBlends(const Mesh& mesh, const Skeleton& skeleton,
                                                  const std::vector<int>& follow, double jointBlend);

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
