#pragma once
/// @file refine.h
/// Refinement of the geometric skeleton (thesis §2.3, "Geometric skeleton
/// refinement"): deleting loops and redundant nodes, root node adjusting, and
/// window smoothing.

#include "core/skeleton/curve_skeleton.h"

#include <span>

namespace rig {

struct RefineOptions {
    /// A branch from an end node to a junction is a noise spur (thesis Fig. 2.3)
    /// when its length is below `spurLength` times the junction's radius, i.e.
    /// when it barely leaves the junction's maximal ball.
    double spurLength = 1.5;
    /// Branches of at most this many nodes (the junction excluded) are always spurs.
    int minBranchNodes = 2;
    /// Keep only the largest connected component (by node count). Off: every
    /// component is kept and refined.
    bool keepLargestComponent = true;
    /// Break every loop at its weakest edge (the edge of smallest radius,
    /// through a maximum spanning tree). Off: loops are only reported.
    bool breakLoops = true;
    /// Remove up to this many nodes from each branch tip while the tip's voxel
    /// is a Surface voxel (its centre may lie just outside the mesh), so that end
    /// nodes lie inside the mesh.
    int trimSurfaceTips = 3;
    /// Half-width, in nodes, of the moving average applied to the flow nodes of
    /// each segment (end and connection nodes stay); 0: no smoothing.
    int smoothingWindow = 2;
};

/// What refinement did, for the UI's report and `rigsmith skeleton --report`.
struct RefineReport {
    int clustersCollapsed = 0; ///< Clusters of touching connection voxels merged into one node.
    int componentsDropped = 0; ///< Components removed by `keepLargestComponent`.
    int loopsFound = 0;        ///< Independent loops after collapsing clusters.
    int loopsBroken = 0;       ///< Edges cut to break them.
    int tipsTrimmed = 0;       ///< Surface nodes removed from branch tips.
    int spursRemoved = 0;      ///< Noise branches removed.
};

struct RefinedSkeleton {
    CurveSkeleton skeleton; ///< A tree when loops are broken and one component is kept.
    RefineReport report;
};

/// Refines a geometric skeleton from `buildCurveSkeleton`, in this order:
///  1. collapse each cluster of touching connection nodes into one node at the
///     cluster's centroid with the cluster's largest radius;
///  2. keep the largest component (optional);
///  3. find loops and break each at its weakest edge (optional), an edge at a
///     node flagged in `contacts` (contacts.h) before any other;
///  4. trim Surface-voxel tips, then remove spurs (shortest relative to its
///     junction's radius first, never leaving a junction with fewer than 3 branches);
///  5. root at the connection node of largest radius (`finalizeCurveSkeleton`);
///  6. smooth the flow nodes of every segment with a moving window.
/// Expects: a skeleton from `buildCurveSkeleton` or `finalizeCurveSkeleton`.
/// Throws rig::InvalidInput (naming `rig::refineCurveSkeleton()`) for negative
/// options.
/// `contacts` is empty or one flag per node of `skeleton`.
RefinedSkeleton refineCurveSkeleton(const CurveSkeleton& skeleton, const RefineOptions& options = {},
                                    std::span<const char> contacts = {});

} // namespace rig
