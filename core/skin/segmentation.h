#pragma once
/// @file segmentation.h
/// Mesh segmentation per bone (thesis 001, Ch. 3): each vertex is assigned to
/// one link of the rig ("segment", named by its child joint c, from
/// parents[c] to c) and gets its position δ along it (thesis eq. 3.1, clamped
/// to [0, 1]). The result is `rig::Segmentation` (segmentation_data.h), which
/// the segmentation-based weights (weights_gaussian.h, thesis Alg. 4.2.1) and
/// the twist-corrected deformer (twist_lbs.h, thesis §4.4) consume.
///
/// Three algorithms, selectable:
///  - `NearestLink`, thesis Alg. 3.2.1: the nearest joint (list LJd, Euclidean
///    distance) against the nearest link whose region holds the vertex
///    (list Lld: 0 < δ < 1, distance l of eq. 3.5); the closer wins. A joint
///    stands for the link that starts at it ("SetSeg": the link where the
///    joint is point a); a leaf joint for its own end segment (δ = 1).
///  - `LineOfSight`, thesis Alg. 3.2.2: the same comparison, but a joint or link
///    only counts first if the straight line from the vertex to it stays in
///    the voxel solid (lists dL1 joints and dL2 links with a solid line; dL3
///    and dL4 the others, the fallback when dL1 and dL2 are empty), followed by
///    the hierarchical post-process `PostProcAssg(Vtx, hLevel)`: the vertex
///    moves to a link up to hLevel levels up or down the hierarchy from its
///    link when that one is nearer.
///  - `RegionGrow` (default), thesis Alg. 3.2.4 ("watershed based"):
///    1. region growing: per link, from a seed vertex with 0 < δ < 1 (the one
///       nearest to the link, one per connected part of the mesh), breadth-first
///       over the mesh edges through the link's candidates: δ > 0 and either
///       δ < 1 or, for δ ≥ 1, outside the influence space (0 < δ < 1) of every
///       child link; a leaf's link also takes everything beyond its end;
///    2. belonging test: among a vertex's candidate links, those whose vector
///       from the link's nearest point to the vertex makes more than 90° with
///       the vertex's weighted normal (the mean of its normal and its
///       1-ring's) are discarded, except end segments (leaf links); the vertex
///       takes the nearest remaining link;
///    3. region merge: per link, the connected subsets of its vertices; the
///       largest stays, every other subset (a "false positive") joins the
///       neighbouring region it shares the most edges with.
///    Additions for real meshes (not in the thesis): the largest subset is
///    taken per connected part of the mesh, so a region may legitimately span
///    several parts; a small separate part (eyes, teeth; see
///    `SegmentationOptions::rigidPartSize`) goes whole to the link that owns
///    most of it; a vertex past the end of an inner link (its nearest point
///    is the end joint) goes to the link starting at that joint, as a joint
///    does in Alg. 3.2.1 ("SetSeg": the heel goes with the foot), except at a
///    limb hinge (both links at least 4 times longer than thick) whose first
///    link ends thicker than the second starts, measured on the outer side of
///    the bend (the front of a bent knee stays on the thigh, the tip of a bent
///    elbow on the upper arm); a vertex no region reached (no candidate, or
///    all discarded) takes the nearest link it can see through the solid
///    (Alg. 3.2.2 without the post-process), or the Alg. 3.2.1 answer when
///    there is no solid.
///    Growth is O(#V) per link (the thesis's implementation is O(S·#V²)).
///
/// Every vertex gets a link: the result never holds -1. A skeleton's
/// zero-length links have no region (δ is undefined) and get no vertices.

#include "core/common/progress.h"
#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/voxel/voxel_grid.h"

namespace rig {

/// The segmentation algorithms of thesis §3.2.
enum class SegmentationMethod {
    NearestLink, ///< Thesis Alg. 3.2.1: nearest joint or link with the δ function.
    LineOfSight, ///< Thesis Alg. 3.2.2: as 3.2.1 through the voxel solid, plus the hLevel post-process.
    RegionGrow,  ///< Thesis Alg. 3.2.4: region growing, belonging test, region merge (default).
};

struct SegmentationOptions {
    SegmentationMethod method = SegmentationMethod::RegionGrow; ///< Thesis Alg. 3.2.4 by default.
    /// hLevel of the post-process of Alg. 3.2.2 (thesis §3.3 suggests 1 or 2):
    /// how many levels up and down the hierarchy from a vertex's link the
    /// nearer link is searched. 0 disables the post-process. Used by LineOfSight.
    int hierarchyLevel = 1;
    /// Belonging test of Alg. 3.2.4: a candidate link is discarded when the
    /// angle between the vertex's weighted normal and the vector from the link
    /// to the vertex exceeds this (degrees, thesis: 90).
    double maxNormalAngleDegrees = 90.0;
    /// Belonging test of Alg. 3.2.4, our addition: a candidate link farther
    /// from the vertex than this many times its nearest link is discarded too
    /// (0 or less: off). A link's candidates reach everything beyond its end
    /// that no child link covers, so a short link pointing at the body (a
    /// thumb in an A-pose) was a candidate up at the shoulder and the hips,
    /// and won the vertices whose near links the normal test had discarded:
    /// 1-2 vertices each on the devset's players with fingers, 5-97 times as
    /// far from the thumb as from their own bones, whose Gaussian weights then
    /// put the hand on 5-10 vertices there. Such a vertex goes to the fallback
    /// (the nearest link it sees through the solid) instead.
    double maxCandidateDistanceRatio = 3.0;
    /// Region merge of Alg. 3.2.4 (thesis: on).
    bool mergeRegions = true;
    /// A connected part of the mesh whose bounding-box diagonal is below this
    /// fraction of the whole mesh's diagonal (eyes, teeth, buttons) goes whole
    /// to one link: the one owning most of its vertices (RegionGrow only;
    /// 0 disables). Default 0.05.
    double rigidPartSize = 0.05;
    /// Worker threads of the per-vertex loops; 0 = hardware concurrency.
    int threads = 0;
};

/// Segments `mesh` per link of `skeleton` (see the file comment).
///
/// @param mesh #V vertices, #F triangles; N is used when it has #V rows,
///   computed otherwise. Triangles are only needed by RegionGrow (vertices of
///   no triangle are handled like unreached ones).
/// @param skeleton the rig, in the mesh's space (bind positions), at least 2 joints.
/// @param solid the filled voxel solid of the mesh (`CurveSkeletonResult::solid`).
///   Required by LineOfSight; RegionGrow uses it for unreached vertices when
///   given; NearestLink ignores it. May be null otherwise.
/// @returns bone (link child joint, never -1) and δ ∈ [0, 1] per vertex.
/// @throws rig::InvalidInput for an empty mesh, non-finite coordinates, face
///   indices out of range, an invalid skeleton or one with fewer than 2
///   joints, LineOfSight without a solid (or with an empty one), or bad options.
/// @throws rig::Cancelled when the progress's cancel flag is set.
/// Progress: step "segment", from 0 to 1.
Segmentation segmentMesh(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                         const SegmentationOptions& options = {}, const Progress& progress = {});

} // namespace rig
