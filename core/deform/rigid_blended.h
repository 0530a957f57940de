#pragma once
/// @file rigid_blended.h
/// Rigid skinning with smoothly blended joints (seed 004: Vasilakis & Fudos,
/// "Skeleton-based rigid skinning for character animation"): every vertex
/// follows one bone rigidly (its link of the segmentation, thesis Ch. 3; no
/// weights), and near a joint the two rigid placements are blended along a
/// rational quadratic Bézier curve so the joint bends smoothly.
///
/// The blend (our reading of the fragment the specification holds, which
/// names the construction but not its control points): at a joint J between
/// a parent link (moving with M_p) and its only child link (moving with M_c),
/// a vertex v within the blend zone has its two rigid placements
/// P0 = M_p v and P2 = M_c v. Both are rotations of v about the joint, so
/// |P0 − J| = |P2 − J| = r. The curve
///
///     B(u) = ((1−u)² P0 + 2u(1−u) w P1 + u² P2) / ((1−u)² + 2u(1−u) w + u²)
///
/// with the joint-anchored middle control point P1 = J + ((P0 − J) + (P2 − J)) / (1 + cos θ)
/// and weight w = cos(θ/2), θ the angle P0 J P2, is the exact circular arc
/// of radius r about the joint from P0 to P2: the skin near a bent joint
/// turns about the joint like a hinge instead of cutting the chord (LBS's
/// collapse), so the inner side does not pass through itself. u runs from 0
/// at `blendZone` radii into the parent link, through 0.5 at the joint, to 1
/// at `blendZone` radii into the child link. Joints with several children
/// (the chest, the hips) do not blend: their vertices stay rigid.
/// Normals are the deformed mesh's (area-weighted face normals). Only the
/// vertices of triangles that do not move rigidly with one bone (blend zones,
/// borders between bones) recompute theirs each frame; elsewhere the one-ring
/// moves rigidly and the rest normal, turned, is the same. An interior
/// manifold vertex sums Σ (p_r − p) × (p_r' − p) over consecutive vertices of
/// its ordered one-ring (twice its triangles' area vectors) in one pass; a
/// boundary or non-manifold vertex sums its triangles' normals.
///
/// Speed (bench/notes/deformers.md, issue 16). Both placements are rotations of
/// d = v − b_h about the joint, so |P0 − J| = |P2 − J| = |d| is known at bind
/// time and the arc needs one inverse square root and one division per vertex
/// (the formula in rigid_blended.cpp). The blend zones' vertices are grouped
/// by hinge, eight per block, and placed eight at a time with AVX2 + FMA when
/// the CPU has them (the two rotations broadcast per block, the results
/// transposed into records); fans of equal size have their normals computed
/// two at a time, one per 128-bit half. The portable float loops are the
/// fallback. Work runs on the deformers' persistent thread pool
/// (skinning_kernels.h). On `rigsmith bench skinning`'s tube, where every
/// vertex is in a blend zone: 1.3-1.5 times LBS's time per vertex.

#include "core/deform/deformers.h"

namespace rig {

struct RigidBlendOptions {
    /// Half-width of a joint's blend zone along the limb, in multiples of the
    /// limb's radius R at the joint (the median distance of the vertices around
    /// the joint from it). 0: plain rigid skinning.
    /// Default 1.5: the zone turns skin at distance ρ from the bend axis by
    /// θ over 2·blendZone·R of the limb, so the skin's length along the limb
    /// scales by 1 − ρθ/(2·blendZone·R) on the inner side, and folds (turns
    /// over) where that is negative. At the 120° (θ = 2.09) skin at
    /// ρ = R needs blendZone > 1.05; 1.5 keeps the inner side unfolded out to
    /// ρ = 1.43 R. Measured (bench/notes/deformers.md, issue 16): the folded triangles
    /// of the 120° elbow and knee bends on HUMAN.blend, the default character
    /// and the devset fall from 5–31 per character to 0–14, the intersecting
    /// pairs from 71–285 to 0–110; 2.0 folds fewer still but stretches more.
    double blendZone = 1.5;
};

/// Binds the rigid-blended deformer: per vertex its bone (segmentation link)
/// and, within a blend zone, the joint and its parameter u.
/// @throws rig::InvalidInput without a segmentation, for sizes that disagree,
///         or a negative `blendZone`.
std::unique_ptr<BoundDeformer> bindRigidBlended(const DeformerInput& input, const RigidBlendOptions& options = {});

/// The table row of this deformer (core/deform/deformers.h).
DeformerInfo rigidBlendedDeformer();

} // namespace rig
