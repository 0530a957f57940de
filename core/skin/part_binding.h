#pragma once
/// @file part_binding.h
/// Binding a part of the character to one bone, and the weights seen per part.
///
/// Helmets, eyes, weapons and jewellery should move rigidly with one bone;
/// a weight method that diffuses over the surface (heat, geodesic voxel) or
/// blends by distance (Gaussian) spreads such a part over its neighbours'
/// bones. The artist picks a bone per part in the parts list
/// (`characterParts()`, core/import/mesh_import.h); the weights stage then gives
/// every vertex of the part weight 1 on that bone, after whichever method
/// computed the rest, so every method honours it. The same parts list is what
/// the weights report summarizes (`partWeights()`).

#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <span>
#include <string>
#include <vector>

namespace rig {

/// One part bound to one bone.
struct PartBinding {
    int part = -1;        ///< Index into the character's parts (`characterParts()` order).
    std::string partName; ///< The part's name when it was bound (a saved project checks it on load).
    std::string joint;    ///< The rig joint whose bone carries the whole part.

    bool operator==(const PartBinding&) const = default;
};

/// `weights` with every vertex of each bound part carried by its joint alone
/// (weight 1, one influence). A later binding of a vertex wins (a vertex two
/// parts share). `partVertices[k]` lists the (welded) vertices of part k.
/// @throws rig::InvalidInput naming the part when its index is outside the
///         parts list or its joint is not in `skeleton` ("bind part 'Helmet':
///         the rig has no joint 'Head2'; pick one of the rig's joints").
SkinWeights bindPartsRigidly(SkinWeights weights, const Skeleton& skeleton,
                             const std::vector<std::vector<int>>& partVertices,
                             std::span<const PartBinding> bindings);

/// `segmentation` with every vertex of each bound part at the tip of its
/// joint's link (segment = the joint, δ = 1; the root's own region for the
/// root), so that the twist-corrected deformer moves it by exactly the
/// joint's transform, as its weight 1 says (core/deform/twist_lbs.h: a vertex
/// of link (a, c) at δ takes a's twists and θ_c·δ).
/// @throws rig::InvalidInput as `bindPartsRigidly()`.
Segmentation segmentPartsRigidly(Segmentation segmentation, const Skeleton& skeleton,
                                 const std::vector<std::vector<int>>& partVertices,
                                 std::span<const PartBinding> bindings);

/// How one part is weighted (a row of the weights report's parts table).
struct PartWeights {
    std::string name;          ///< The part's name.
    int vertices = 0;          ///< Its (welded) vertices.
    std::string boundTo;       ///< The joint it is bound to, empty when automatic.
    std::string dominantJoint; ///< The joint carrying most of its weight.
    double dominantShare = 0;  ///< That joint's share of the part's total weight, in [0, 1].
    double meanInfluences = 0; ///< Mean number of joints with weight > 0 per vertex.
    bool rigid = false;        ///< Every vertex has weight >= 0.999 on the dominant joint.
};

/// The parts table of the weights report, one row per part, in parts order.
/// `names[k]` names part k; bindings give `boundTo`.
/// Expects weights valid for the skeleton and vertex indices within them.
std::vector<PartWeights> partWeights(const SkinWeights& weights, const Skeleton& skeleton,
                                     const std::vector<std::vector<int>>& partVertices,
                                     const std::vector<std::string>& names, std::span<const PartBinding> bindings);

} // namespace rig
