#pragma once
/// @file curve_skeleton.h
/// The geometric skeleton (thesis §2.2 and §2.3): the voxels left by thinning,
/// classified by their 26-neighbours into end, flow and connection nodes, and
/// linked into a graph whose segments run between connection and end nodes.

#include "core/common/progress.h"
#include "core/common/types.h"
#include "core/voxel/voxel_grid.h"

#include <array>
#include <cstdint>
#include <vector>

namespace rig {

/// Node classes of thesis §2.2 (Fig. 2.2), by the number of neighbours.
enum class NodeType : std::uint8_t {
    End = 1,        ///< One neighbour (or none: an isolated node): tips of limbs, the head.
    Flow = 2,       ///< Two neighbours: the inside of a limb.
    Connection = 3, ///< More than two neighbours: junctions (hips, chest).
};

/// The class of a node with `neighbours` neighbours (thesis §2.2).
NodeType nodeTypeFromNeighbours(int neighbours);

/// A curve skeleton as a graph with flat, indexed arrays. Node i is row i of
/// every per-node array. Nodes are stored breadth-first from `root`, so
/// `parents[i] < i` and a forward loop over the nodes visits parents first.
struct CurveSkeleton {
    MatrixX3d positions;               ///< #N by 3 node positions (world units).
    std::vector<double> radii;         ///< #N local radii: distance from the node to the surface (world units).
    std::vector<NodeType> types;       ///< #N node classes, by degree in `edges`.
    MatrixX3i voxels;                  ///< #N by 3 voxel coordinates (a collapsed cluster: its voxel nearest the centroid).
    std::vector<std::uint8_t> voxelStates; ///< #N `VoxelState` of the node's voxel in the solid (Surface or Interior).
    std::vector<std::array<int, 2>> edges; ///< #E undirected edges {a, b}, a < b, sorted.
    /// #N parent of each node in the breadth-first spanning forest from `root`
    /// (other components from their own roots); -1 for component roots.
    /// parents[i] < i. For a tree (a refined skeleton) the edges are exactly
    /// the (parents[i], i) pairs.
    std::vector<int> parents;
    /// The root: the connection node of largest radius (thesis §2.3, "Root node
    /// adjusting"), or the node of largest radius when there is no connection
    /// node; -1 for an empty skeleton. Always 0 when not -1.
    int root = -1;
    /// Maximal chains of nodes between two non-flow nodes: front and back are end
    /// or connection nodes, the nodes between are flow nodes. Oriented so that
    /// front <= back (front is the nearer one to the root). A loop of flow nodes
    /// only is one segment whose front and back are the same node.
    std::vector<std::vector<int>> segments;
    /// Independent cycles (tunnels of the solid): the cycle rank E - V + C of the
    /// graph in which each cluster of touching connection nodes counts as one node.
    int loopCount = 0;
    int componentCount = 0; ///< Connected components.

    int nodeCount() const { return static_cast<int>(radii.size()); }
    int edgeCount() const { return static_cast<int>(edges.size()); }
    int count(NodeType t) const;
    /// Indices of the nodes of type t, ascending.
    std::vector<int> nodesOf(NodeType t) const;
    /// Neighbour lists built from `edges` (#N lists, ascending).
    std::vector<std::vector<int>> adjacency() const;
};

/// Recomputes everything derived from the nodes and edges of `s`: sorts the
/// edges, sets `types`, picks `root`, reorders the nodes breadth-first (all
/// per-node arrays and the edges follow), and fills `parents`, `segments`,
/// `loopCount`, `componentCount`. Reads only positions, radii, voxels,
/// voxelStates and edges, which must have matching sizes (asserted).
CurveSkeleton finalizeCurveSkeleton(CurveSkeleton s);

/// Builds the geometric skeleton of a thinned grid (thesis §2.3, Alg. 2.3.1):
/// one node per solid voxel of `skeleton`, at the voxel centre, an edge between
/// 26-adjacent voxels, the node classes of §2.2, and the radius
/// max(distance - 0.5, 0.5) * voxelSize from `distance`.
///
/// Expects: `skeleton` from `thin()`; `distance` from `distanceToEmpty()` of the
/// solid before thinning (skeleton.voxelCount() values).
/// Throws rig::InvalidInput (naming `rig::buildCurveSkeleton()`) when `distance`
/// has the wrong size.
/// Progress: step "graph"; cancellable.
CurveSkeleton buildCurveSkeleton(const VoxelGrid& skeleton, const std::vector<float>& distance,
                                 const Progress& progress = {});

} // namespace rig
