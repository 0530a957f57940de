#pragma once
/// @file skin_metrics.h
/// The standard benchmark's skinning scores (Xu et al., "RigNet: Neural
/// Rigging for Articulated Characters", SIGGRAPH 2020, §6.2; the definitions
/// of `../shared/rignet-val/README.md`), computed over the *file's* vertices in
/// the file's order so that they equal the reference scorer's
/// (`reference/score.py weights`):
///
///  - L1 = (1/#Vf) Σ_i Σ_j |w_ij − r_ij| over every file vertex i (0…2);
///  - precision and recall of influences: a joint influences a vertex at
///    weight >= 0.05 (no tolerance: the weights compared are the doubles that
///    `skinWeightsForFileVertices()` writes; the reference's from 1e-6 below,
///    as import renormalises the file's float weights and can move an exact
///    0.05 of an artist's quantised weights just under it), pooled over
///    (vertex, joint) pairs: |W ∩ R| / |W| and |W ∩ R| / |R| (0 when the
///    set is empty);
///  - the deformation error: linear blend skinning (thesis eq. 4.3) of the
///    reference skeleton in `poses` random poses (each joint turned by up to
///    ±`maxDegrees` about a random axis, `randomPoses()` of weight_compare.h
///    with `seed`: the product's own generator, not numpy's, so these two
///    figures differ from the scorer's by the draw of the poses only), once
///    with each weight set; mean and max vertex distance over the file's
///    vertices in % of the longest side of the rest mesh's bounding box. A
///    vertex without computed weight stays at rest (as the scorer leaves it).
///
/// The welded mesh the pipeline works on maps to the file's vertices through
/// `ImportInfo::weldMap`; both weight sets are taken at each file vertex's
/// welded twin.

#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/skin_weights.h"

#include <Eigen/SparseCore>

#include <cstdint>
#include <span>

namespace rig {

struct SkinMetricsOptions {
    double threshold = 0.05;   ///< Influence threshold, (0, 1].
    int poses = 20;            ///< Random poses for the deformation error, >= 1.
    double maxDegrees = 45.0;  ///< Largest local rotation of a pose, [0, 180].
    std::uint32_t seed = 0;    ///< Seed of the poses.
};

struct SkinMetrics {
    int vertices = 0;               ///< File vertices scored.
    double l1 = 0.0;                ///< Mean Σ_j |w − r| per vertex, [0, 2].
    double precision = 0.0;         ///< Percent.
    double recall = 0.0;            ///< Percent.
    int unweighted = 0;             ///< File vertices whose computed weights are all zero.
    double deformationMean = 0.0;   ///< % of the longest side.
    double deformationMax = 0.0;    ///< % of the longest side.
    int poses = 0;
};

/// The computed weights as a dense #Vf by #J matrix over the file's vertices:
/// row i is the welded vertex `weldMap[i]`'s influence list (float weights
/// widened to double). Empty `weldMap`: the welded vertices themselves.
/// @throws rig::InvalidInput when a weld index is outside the weights.
Eigen::MatrixXd skinWeightsForFileVertices(const SkinWeights& weights, int jointCount, std::span<const int> weldMap);

/// The scores above of `weights` against `reference` (#V by #J on the welded
/// vertices of `mesh`, as `ImportedSkeleton::W`) for `skeleton` (the
/// reference's own), over the file vertices of `weldMap` (empty: the welded
/// vertices).
/// @throws rig::InvalidInput (naming `rig::skinMetrics()`) when sizes disagree,
///         an index of `weldMap` is out of range or an option is out of range.
SkinMetrics skinMetrics(const Mesh& mesh, const Skeleton& skeleton, const SkinWeights& weights,
                        const Eigen::SparseMatrix<double, Eigen::RowMajor>& reference,
                        std::span<const int> weldMap, const SkinMetricsOptions& options = {});

} // namespace rig
