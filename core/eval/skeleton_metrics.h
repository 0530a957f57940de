#pragma once
/// @file skeleton_metrics.h
/// The skeleton scores of the standard auto-rigging benchmark, in the
/// convention of Xu et al., "RigNet: Neural Rigging for Articulated
/// Characters", SIGGRAPH 2020 (and the evaluation code of its release),
/// computed as the benchmark's reference scorer does
/// (`../shared/rignet-val/reference/score.py`, `skeleton_metrics`), so that
/// the two agree to round-off.
///
/// Both skeletons and the mesh are first moved into RigNet's normalised frame,
/// computed from the mesh vertices V: x and z centred on the bounding box,
/// lowest vertex at y = 0, longest bounding-box side = 1. Then, with P the
/// predicted joints, Q the reference joints, a bone the segment from a joint
/// to its parent:
///
///  - CD-J2J = ½ (mean_{p∈P} min_{q∈Q} |p − q| + mean_{q∈Q} min_{p∈P} |p − q|);
///  - CD-J2B = ½ (mean over P of the distance to the nearest reference bone +
///    mean over Q of the distance to the nearest predicted bone);
///  - CD-B2B = ½ (mean over predicted bones of the segment-to-segment distance
///    to the nearest reference bone + the same from the reference side);
///  - the tolerance τ_q of a reference joint q is its local shape diameter
///    (`localShapeDiameter()`);
///  - joints are matched one to one by `linearAssignment()` on the Euclidean
///    cost |p − q| (min(#P, #Q) pairs);
///    IoU = 2 · #{matched (p, q) : |p − q| < τ_q} / (#P + #Q);
///    precision = #{matched p : |p − q*(p)| < τ_{q*(p)}, q*(p) the reference
///    joint nearest to p} / #P;
///    recall = #{matched q : |p*(q) − q| < τ_q, p*(q) the predicted joint
///    nearest to q} / #Q.
///    (Only matched joints can count: an unmatched joint lowers precision or
///    recall even when it lies within tolerance.)
///
/// Distances are reported ×100 (% of the longest side, the papers' 10⁻²
/// units); IoU, precision and recall in %.
///
/// Skeletons are flat arrays: joint i's parent is `parents[i]`, -1 for a
/// root, always below i (so a bone is (parents[c], c) for every non-root c).

#include "core/common/types.h"

#include <Eigen/Core>

#include <limits>
#include <span>

namespace rig {

struct SkeletonMetrics {
    int predictedJoints = 0; ///< #P.
    int referenceJoints = 0; ///< #Q.
    double cdJ2J = 0.0;      ///< ×100.
    /// ×100; NaN when either skeleton has no bone.
    double cdJ2B = std::numeric_limits<double>::quiet_NaN();
    /// ×100; NaN when either skeleton has no bone.
    double cdB2B = std::numeric_limits<double>::quiet_NaN();
    double iou = 0.0;       ///< Percent.
    double precision = 0.0; ///< Percent.
    double recall = 0.0;    ///< Percent.
    /// Mean local shape diameter of the reference joints, ×100, in the
    /// normalised frame (score.py's `lsd_mean`).
    double meanShapeDiameter = 0.0;
};

/// The local shape diameter of each joint: the mean distance to the first
/// surface hit (Möller–Trumbore, hits at t > 1e-9 on triangles whose
/// |det| > 1e-12) of the 14 rays cast from the joint perpendicular to each
/// bone it belongs to (rays at angles 2πk/14 in the plane normal to the bone,
/// from the frame u = b × a / |b × a|, w = b × u, b the unit bone direction,
/// a = x̂ unless |b_x| >= 0.9, then ŷ; a zero-length bone counts as along ŷ).
/// A joint whose rays all miss, or that has no bone, gets instead the mean
/// distance to the three vertices of the triangle whose centroid is nearest.
/// Works in the units given (no normalisation).
/// `joints` #J by 3, `parents` #J, `V` #V by 3, `F` #F by 3; returns #J.
/// Expects `parents[i]` in [-1, i), F's indices within V, everything finite,
/// at least one vertex and one triangle.
/// @throws rig::InvalidInput (naming `rig::localShapeDiameter()`) otherwise.
Eigen::VectorXd localShapeDiameter(const MatrixX3d& joints, std::span<const int> parents, const MatrixX3d& V,
                                   const MatrixX3i& F);

/// The scores above of `predicted` against `reference` on the mesh (V, F),
/// after moving all three into the normalised frame computed from V.
/// `predicted` #P by 3 with `predictedParents` #P; `reference` #Q by 3 with
/// `referenceParents` #Q; `V` #V by 3; `F` #F by 3.
/// Expects non-empty skeletons with parents in [-1, i), a mesh with at least
/// one triangle, F's indices within V, a bounding box of non-zero size and
/// every coordinate finite.
/// @throws rig::InvalidInput (naming `rig::skeletonMetrics()` and the fault)
///         otherwise.
SkeletonMetrics skeletonMetrics(const MatrixX3d& predicted, std::span<const int> predictedParents,
                                const MatrixX3d& reference, std::span<const int> referenceParents, const MatrixX3d& V,
                                const MatrixX3i& F);

} // namespace rig
