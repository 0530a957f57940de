#pragma once
/// @file root.h
/// Root assignment (thesis §2.5, "Root assignment"): once the five end nodes are
/// labelled, every node off the labelled branches is deleted, the connection
/// nodes that remain are the non-articulated parts (hips and chest), and the hips
/// become the root. The result is the thesis's set of segments (§2.4) as node
/// paths, ready for the "Scaling segments" fit (core/rig/fit_template.h).
///
/// The thesis distinguishes two cases. With two connection nodes the hips are
/// the one that starts fewer segments (two feet against the chest's head and
/// two hands). With three, the two nearer ones are the chest and the third the
/// hips. Both are special cases of one rule that holds for any number of
/// connection nodes (after pruning: one to three), which is what is computed:
///   hips  = the median of {left foot, right foot, head} in the tree: the node
///           where the two feet's paths and the path to the head meet;
///   chest = the median of {left hand, right hand, head}: where the arms join
///           the path to the head.
/// (In a tree the median of three nodes is the unique node on all three paths
/// between them.) With two connection nodes these are exactly the thesis's
/// choice; with three (the shoulders or the legs branching at two nearby
/// junctions) the hips are where the legs meet, whichever pair is nearer; with
/// one (a star), hips and chest coincide and the spine segment is one node.

#include "core/skeleton/curve_skeleton.h"
#include "core/skeleton/end_nodes.h"

#include <array>
#include <vector>

namespace rig {

/// The labelled, pruned skeleton as segments. All node indices refer to the
/// input `CurveSkeleton` (nothing is renumbered, so the UI can draw them over
/// the refined skeleton it already shows).
struct LimbChains {
    int hips = -1;  ///< The root of the rig: the connection node where the legs meet.
    int chest = -1; ///< The connection node where the arms meet the spine (== hips for a star).
    /// Hips to chest, both included (one node when they coincide).
    std::vector<int> spine;
    /// Per `Limb`, the segment from its connection node to its end node, both
    /// included: the head starts at the chest, each hand where its arm joins the
    /// spine (the chest, or a shoulder junction between hips and chest), the feet
    /// at the hips.
    std::array<std::vector<int>, limbCount> limbs;
    /// #N: true for the nodes kept by pruning (on a path between two labelled ends).
    std::vector<bool> kept;
    /// The connection nodes of the pruned tree (three or more kept neighbours), ascending.
    std::vector<int> connectionNodes;

    const std::vector<int>& limb(Limb l) const { return limbs[static_cast<size_t>(l)]; }
};

/// Prunes `skeleton` to the branches of the labelled end nodes and assigns the
/// root (hips) and the chest (see the file comment).
///
/// Expects: a refined skeleton (a tree; for a graph with loops its
/// breadth-first spanning tree `parents` is used).
/// Throws rig::InvalidInput from `validateLabels()` for bad labels, and (naming
/// `rig::assignRoot()`) when the labels contradict the body's topology: the
/// hands do not join the spine above the hips (for example hands labelled as
/// feet), so no chest lies between the hips and the head; an arm joins at the
/// hips below a separate chest (a tail labelled as a hand); or a limb's path
/// runs through another limb.
LimbChains assignRoot(const CurveSkeleton& skeleton, const EndNodeLabels& labels);

/// Path between two nodes of the same tree component along `parents`, from `a`
/// to `b` inclusive. Expects valid indices in one component (asserted).
std::vector<int> treePath(const CurveSkeleton& skeleton, int a, int b);

/// Arc length of a node path: the sum of the distances between consecutive nodes
/// (thesis §2.5, "the distance of the geometrical skeleton segment").
double pathLength(const CurveSkeleton& skeleton, const std::vector<int>& path);

} // namespace rig
