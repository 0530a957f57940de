#pragma once
/// @file dqs.h
/// Dual-quaternion skinning: Kavan, Collins, Žára, O'Sullivan, "Geometric
/// skinning with approximate dual quaternion blending", ACM TOG 27(4), 2008
/// (DLB, dual-quaternion linear blending; thesis §4.1 reviews it).
///
/// Each rigid skinning transform M_k becomes a unit dual quaternion
/// q̂_k = q_k + ε q_k⁰ with q_k⁰ = ½ (0, t_k) q_k. Per vertex the k influences
/// are blended linearly, b̂ = Σ_k s_k w_k q̂_k, where the sign s_k = ±1 puts
/// every q_k in the hemisphere of the vertex's most-weighted influence
/// (q and −q are the same rotation; without this the blend takes the long way
/// and can cancel). b̂ is normalized by ‖b_0‖ and applied as a rigid motion to
/// the position and (rotation only) to the normal.
///
/// Implementation: float, AVX2 + FMA where available (one 256-bit FMA per
/// influence; the blend applied as v + 2 v₀ × (v₀ × v + w₀ v) + t). The
/// hemisphere signs are not tested per vertex: the binding (skin_binding.h)
/// points each influence slot at a (pivot, joint) entry of a per-frame table
/// of aligned dual quaternions.
///
/// No candy-wrapper collapse (a pure twist stays a rotation about the bone
/// axis) but a bulge in bends, and a jump where the relative twist between two
/// blended influences crosses 180° (the hemisphere flips): thesis §4.4, and
/// see bar_experiment.h for the measured figures.

#include "core/deform/lbs.h"

namespace rig {

/// Dual-quaternion skinning of a bound mesh (positions and, when bound with
/// them, normals) into `out`, its storage reused from frame to frame.
/// @throws rig::InvalidInput when the pose has another joint count than the
/// binding or a transform is not rigid.
void dqs(const SkinBinding& b, std::span<const Eigen::Isometry3d> M, SkinnedMesh& out,
         const SkinningOptions& options = {});

/// Dual-quaternion skinning of positions and (if N is non-empty) normals
/// (binds on every call).
/// @param V #V by 3 rest positions. @param N #V by 3 rest normals, or empty.
/// @param W influences; joint indices index `M`.
/// @param M #J rigid skinning transforms (bind → posed), e.g. `PosedSkeleton::skinning`.
/// @throws rig::InvalidInput when sizes disagree, a joint index is out of
/// range, or a transform is not rigid (its linear part not a rotation ± 1e-6).
DeformedMesh dqs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W,
                 std::span<const Eigen::Isometry3d> M, const SkinningOptions& options = {});

/// The same, writing into `out`.
void dqs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
         DeformedMesh& out, const SkinningOptions& options = {});

/// The unit dual quaternion of a rigid transform, as 8 numbers
/// (w, x, y, z | w⁰, x⁰, y⁰, z⁰), real part with w >= 0. What a DQS vertex
/// shader takes per joint.
/// @throws rig::InvalidInput when the transform is not rigid.
Eigen::Matrix<double, 8, 1> dualQuaternion(const Eigen::Isometry3d& M);

} // namespace rig
