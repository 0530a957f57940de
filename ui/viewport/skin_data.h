#pragma once
/// @file skin_data.h
/// What the skinning vertex shader (shaders/mesh.vert) takes, computed in plain
/// C++ (no Qt, no GL) so tests reach it without a GPU: per-vertex influences
/// and segment as vertex attributes, and per pose one texel block per joint
/// for a texture buffer (`samplerBuffer`, RGBA32F). The CPU reference of each
/// deformer is its row of the deformer table (core/deform/deformers.h), used
/// where GL is absent, for deformers without a shader, and by the GPU-vs-CPU
/// test.
///
/// The deformers with a GPU program (`DeformerInfo::gpuProgram`, the shader's
/// `uDeformer`) are those of core/deform, reproduced in the shader:
///  - `Lbs`: linear blend skinning, thesis eq. 4.3 (core/deform/lbs.h);
///  - `Dqs`: dual-quaternion linear blending, Kavan et al. 2008, hemisphere
///    aligned on the most-weighted influence (core/deform/dqs.h);
///  - `Twist`: the thesis's segmentation-based twist-corrected LBS, §4.4
///    eq. 4.4–4.9 (core/deform/twist_lbs.h): p' = DLB(w, ĝ)·H_c·T_c(θ_c δ)·p,
///    the untwisted transforms G_k blended as dual quaternions, as the CPU
///    version does; unsegmented vertices plain LBS.
///
/// Texel layout per joint j (`skinTexelsPerJoint` RGBA32F texels from
/// j·skinTexelsPerJoint), all in bind → posed space:
///   0–2  M_j as three rows (linear part | translation)       LBS, and Twist for unsegmented vertices
///   3–4  dual quaternion of M_j: real (w,x,y,z), dual (w,x,y,z)   DQS
///   5–7  G_j = M_j U_j⁻¹ as three rows                        (Twist with linear blending)
///   8–10 H_j as three rows, translation replaced by h = H_j(b_j)   Twist, segment j
///   11   (b_j, θ_j): axis point and unwrapped twist angle (radians)
///   12   (u_j, identity): unit link axis, 1 when H_j = I and θ_j = 0
///   13–14 dual quaternion of G_j: real, dual                  Twist

#include "core/deform/deformers.h"
#include "core/rig/pose.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <glm/glm.hpp>

#include <span>
#include <string_view>
#include <vector>

namespace rig::ui {

/// Influences of one vertex as the shader reads them (locations 3–6 of mesh.vert).
struct SkinVertex {
    glm::ivec4 joints{0};  ///< Joint indices (unused slots 0).
    glm::vec4 weights{0};  ///< Weights (unused slots 0), summing to 1.
    int segment = -1;      ///< Segment (child joint) of the twist deformer, -1 none.
    float delta = 0.0f;    ///< δ along the segment, [0, 1].
};

inline constexpr int skinTexelsPerJoint = 16;

/// #V shader vertices from the influences and (optionally) the segmentation.
/// Weights with more than 4 influences keep their 4 largest, renormalized (the
/// shader blends 4; the CPU reference then differs for those vertices).
/// `segmentation` null or empty gives segment -1 (the twist deformer is LBS there).
/// @throws rig::InvalidInput when the sizes disagree.
std::vector<SkinVertex> makeSkinVertices(const SkinWeights& weights, const Segmentation* segmentation);

/// What the viewport uploads: the influences and, as the segment fraction, δ·λ
/// of `twistSegmentation()` (core/deform/twist_lbs.h: the twist stays on the
/// limb's skin), so the GPU twist-corrected deformer twists as the CPU one.
/// @throws rig::InvalidInput as above and as `twistSegmentation()`.
std::vector<SkinVertex> makeSkinVertices(const SkinWeights& weights, const Segmentation& segmentation,
                                         const Skeleton& skeleton);

/// The per-pose texels (#J · skinTexelsPerJoint, layout above) of a pose.
/// `unwrappedTwist` as for `twistTransforms()` (empty: wrapped angles).
/// @throws rig::InvalidInput when the pose does not match the skeleton.
std::vector<glm::vec4> makeSkinTexels(const Skeleton& skeleton, const Pose& pose,
                                      std::span<const double> unwrappedTwist = {});

/// The skeleton as posed: bind positions and orientations replaced by the
/// posed ones (for drawing the rig and placing the gizmo).
Skeleton posedSkeleton(const Skeleton& skeleton, const PosedSkeleton& posed);

} // namespace rig::ui
