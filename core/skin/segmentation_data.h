#pragma once
/// @file segmentation_data.h
/// The per-vertex segmentation the twist-corrected deformer needs (thesis
/// §3.1 and §4.4 step 1): the link ("segment") each vertex lies on and the
/// vertex's position δ along it.
///
/// Links are named by their child joint: segment c is the link from joint
/// parents[c] (δ = 0) to joint c (δ = 1). Naming links by the child makes them
/// unique even where a joint has several children (hips, chest). δ is the
/// thesis's δ function (eq. 3.1), δ = (p − a)·(b − a) / ‖b − a‖², clamped to
/// [0, 1]; it is the fraction of the child joint's twist a vertex receives
/// (thesis §4.4: θ' = θ·δ).
///
/// The segmentation algorithms of thesis §3.2 (region growing etc.) produce
/// this structure; `segmentationFromNearestLink()` below is the simple
/// projection-based one, enough for tubes, bars and tests.

#include "core/common/types.h"
#include "core/rig/skeleton.h"

#include <vector>

namespace rig {

struct Segmentation {
    /// #V segment per vertex: the child joint c of the link (parents[c], c).
    /// 0 (the root) means "the root's own region": no link, no partial twist.
    /// -1 means unsegmented: the twist deformer falls back to plain LBS there.
    std::vector<int> bone;
    /// #V position along the link, δ ∈ [0, 1] (0 at parents[c], 1 at c).
    std::vector<double> delta;

    int vertexCount() const { return static_cast<int>(bone.size()); }
};

/// The δ function of thesis eq. 3.1 for a point p and a link a → b, unclamped
/// (eq. 3.4: negative before a, above 1 beyond b). 0 for a degenerate link.
double linkDelta(const Vec3& p, const Vec3& a, const Vec3& b);

/// Assigns every vertex to the link whose segment [a, b] is nearest (distance
/// l of thesis eq. 3.5 with δ clamped to [0, 1]; ties go to the lower joint
/// index) and stores the clamped δ. A skeleton with a single joint gives every
/// vertex segment 0 with δ = 0. O(#V · #J).
/// Expects V finite, #V by 3; the skeleton valid.
/// @throws rig::InvalidInput for an invalid skeleton or non-finite vertices.
Segmentation segmentationFromNearestLink(const MatrixX3d& V, const Skeleton& skeleton);

/// Checks sizes (#V entries in both arrays), bone indices in [-1, #J) and δ
/// finite in [0, 1].
/// @throws rig::InvalidInput naming the first offending vertex.
void validateSegmentation(const Segmentation& seg, int vertexCount, int jointCount);

} // namespace rig
