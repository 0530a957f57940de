#pragma once
/// @file lbs.h
/// Linear blend skinning (thesis eq. 4.3): p'_i = Σ_k w_ik M_k p_i, with M_k
/// the skinning transform of joint k (bind space to posed space, `M_δk · M_Lk`
/// in the thesis; `PosedSkeleton::skinning` from forwardKinematics()).
/// Normals are carried by the blended linear part, n'_i = normalize(Σ_k w_ik
/// R_k n_i) (exact for rigid vertices; the usual LBS approximation elsewhere).
///
/// Also the pieces the three deformers (lbs.h, dqs.h, twist_lbs.h) share: the
/// options, the result and the input checks.
///
/// Two forms: the per-frame one deforms a `SkinBinding` (skin_binding.h: the
/// rest mesh and weights prepared once, in float) into a `SkinnedMesh`; the
/// convenience one takes and returns double matrices and binds on every call
/// (for one-off deformations and tests; `out` may alias the input).
///
/// Implementation: the #J transforms are converted once per call to 4×4 float
/// matrices; each vertex blends its k matrices and applies the blend to its
/// position and normal (AVX2 + FMA where the CPU has them, chosen at run time;
/// portable vector code otherwise); vertices are split among persistent
/// worker threads. Arithmetic is in float (what the GPU does).

#include "core/common/types.h"
#include "core/deform/skin_binding.h"
#include "core/skin/skin_weights.h"

#include <span>

namespace rig {

/// Options of the skinning deformers.
struct SkinningOptions {
    int threads = 0; ///< Worker threads for the vertex loop; 0 = hardware concurrency.
};

/// A deformed mesh: positions and normals.
struct DeformedMesh {
    MatrixX3d V; ///< #V by 3 posed positions.
    MatrixX3d N; ///< #V by 3 posed unit normals; empty when no rest normals were given.
};

/// Linear blend skinning of a bound mesh, positions and (when bound with
/// normals) unit normals, into `out` (its storage reused from frame to frame).
/// @param M #J skinning transforms (bind → posed), #J = `b.jointCount`.
/// @throws rig::InvalidInput when the pose has another joint count.
void lbs(const SkinBinding& b, std::span<const Eigen::Isometry3d> M, SkinnedMesh& out,
         const SkinningOptions& options = {});

/// Linear blend skinning of positions and (if N is non-empty) normals.
/// @param V #V by 3 rest positions. @param N #V by 3 rest normals, or empty.
/// @param W influences (see skin_weights.h); joint indices index `M`.
/// @param M #J skinning transforms (bind → posed), e.g. `PosedSkeleton::skinning`.
/// @throws rig::InvalidInput when sizes disagree or a joint index is out of range.
DeformedMesh lbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W,
                 std::span<const Eigen::Isometry3d> M, const SkinningOptions& options = {});

/// The same, writing into `out` (binds on every call: for per-frame use, bind
/// once and call the form above).
void lbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
         DeformedMesh& out, const SkinningOptions& options = {});

/// The double matrices of a deformed mesh (normals only when `normals`).
void toDeformedMesh(const SkinnedMesh& mesh, bool normals, DeformedMesh& out);

/// The checks `bindSkin()` runs: V is #V by 3, N empty or #V by 3, W has #V rows of
/// maxInfluences columns and joint indices in [0, jointCount) (memory safety).
/// Weight values (non-negative, rows summing to 1) are checked once, where the
/// weights are made: `validateSkinWeights()`. `fn` names the caller.
/// @throws rig::InvalidInput.
void validateSkinningInput(const char* fn, const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W,
                           int jointCount);

} // namespace rig
