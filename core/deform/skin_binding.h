#pragma once
/// @file skin_binding.h
/// A skinned mesh prepared once for per-frame deformation: what the CPU
/// deformers (lbs.h, dqs.h, twist_lbs.h) read every frame, made when the
/// weights (or the segmentation) change, never per frame. The same idea as a
/// vertex buffer on the GPU: float data laid out for the kernels, checked once.
///
/// What preparing buys per frame (bench/notes/deformers.md, issue 6):
///  - the rest position and normal of a vertex are one 32-byte record,
///    (x, y, z, 1 | nx, ny, nz, 0) in float: one load, no conversion;
///  - the influences are sorted by decreasing weight (slot 0 is the pivot
///    DQS aligns its hemisphere on) and their joint indices range-checked;
///  - DQS: each influence slot points into a per-frame table of
///    hemisphere-aligned dual quaternions keyed by (pivot joint, joint), so
///    the sign of Kavan et al.'s hemisphere test is computed once per key and
///    frame, not per vertex;
///  - twist-corrected LBS (thesis §4.4): each segmented vertex keeps its arm
///    about its link axis, r = (p − b) − ((p − b)·u) u and u × r (and the same
///    for the normal), so the partial twist of eq. 4.9 is
///    p_t = p + (cos φ − 1) r + sin φ (u × r): two multiply-adds per vertex;
///    the segment base H_c joins the influences' dual quaternions in a table
///    keyed by (segment, pivot, joint): DLB(w, ĝ)·H_c = DLB(w, ĝ ⊗ ĥ_c).
///
/// The deformers' outputs are `SkinnedMesh`: the same 32-byte record per
/// vertex, posed (what a renderer uploads).

#include "core/common/types.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <array>
#include <cstdint>
#include <vector>

namespace rig {

/// One vertex record: position (w = 1 at rest) then normal (w = 0).
struct alignas(32) PackedVertex {
    float p[4];
    float n[4];
};

struct SkinBinding {
    int vertexCount = 0;
    int jointCount = 0;   ///< The pose must have exactly this many joints.
    int influences = 0;   ///< k, slots per vertex.
    bool hasNormals = false;
    std::vector<PackedVertex> rest;      ///< #V rest records (normal zero when there are none).
    // Per influence slot, #V·k each, slot 0 the most weighted. The kernels
    // address tables by float offsets (no index scaling in the vertex loop).
    std::vector<std::int32_t> jointOffset; ///< 16 × joint index (a 4×4 float matrix per joint).
    std::vector<float> weights;            ///< Weights, decreasing within a vertex.
    std::vector<std::int32_t> dqOffset;    ///< 8 × index into `dqKeys` (a dual quaternion per entry).
    std::vector<std::array<std::int32_t, 2>> dqKeys; ///< (pivot joint, joint) per DQS table entry.

    // Twist-corrected LBS; empty until `bindTwist()`.
    std::vector<std::int32_t> segment;   ///< #V link (child joint) per vertex, −1 unsegmented.
    std::vector<float> delta;            ///< #V δ in [0, 1].
    std::vector<PackedVertex> arm;       ///< #V r (position | normal) about the vertex's link axis.
    std::vector<PackedVertex> armCross;  ///< #V u × r (position | normal).
    std::vector<std::int32_t> twistOffset; ///< #V·k, 8 × index into `twistKeys` (segmented vertices).
    std::vector<std::array<std::int32_t, 3>> twistKeys; ///< (segment, pivot, joint) per table entry.
    MatrixX3d axisPoint, axisDirection;  ///< #J b_c and unit u_c the arms were taken about.

    bool hasTwist() const { return !segment.empty(); }
};

/// Prepares V (rest positions), N (rest normals or empty) and W (influences
/// for a skeleton of `jointCount` joints) for the deformers.
/// @throws rig::InvalidInput when sizes disagree, a joint index is out of
/// range or a position is not finite (validateSkinningInput() of lbs.h).
SkinBinding bindSkin(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, int jointCount);

/// Adds what the twist-corrected deformer needs: the segmentation (link and
/// δ per vertex) and the bind-space link axes it twists about, `axisPoint`
/// (#J by 3, b_c) and `axisDirection` (#J by 3, unit u_c or zero), as in
/// `TwistTransforms` (twist_lbs.h).
/// @throws rig::InvalidInput on size mismatches or an invalid segmentation.
void bindTwist(SkinBinding& binding, const Segmentation& segmentation, const MatrixX3d& axisPoint,
               const MatrixX3d& axisDirection);

/// A deformed mesh as the deformers write it: one posed record per vertex
/// (position w lane 0, normal w lane 0; normal zero when the binding has none).
struct SkinnedMesh {
    std::vector<PackedVertex> vertices;

    int vertexCount() const { return static_cast<int>(vertices.size()); }
    Vec3 position(int i) const
    {
        const float* p = vertices[static_cast<size_t>(i)].p;
        return {p[0], p[1], p[2]};
    }
    Vec3 normal(int i) const
    {
        const float* n = vertices[static_cast<size_t>(i)].n;
        return {n[0], n[1], n[2]};
    }
};

/// Recomputes the normals of a deformed mesh from its triangles `F`
/// (area-weighted face normals, unit length): for deformers that move
/// vertices without rotating their normals (simplex, rigid-blended).
void recomputeNormals(const MatrixX3i& F, SkinnedMesh& mesh);

} // namespace rig
