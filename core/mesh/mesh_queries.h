#pragma once
/// @file mesh_queries.h
/// Read-only measurements of a mesh: bounds, normals, edge topology.

#include "core/mesh/mesh.h"

#include <vector>

namespace rig {

/// Bounding box of the vertices. Empty box for an empty mesh.
Box3 boundingBox(const Mesh& mesh);

/// Area-weighted unit vertex normals, #V by 3. Vertices of no (or only
/// degenerate) triangles get (0, 1, 0).
MatrixX3d vertexNormals(const MatrixX3d& V, const MatrixX3i& F);

/// Edge topology summary.
struct EdgeTopology {
    int edges = 0;             ///< Number of distinct undirected edges.
    int boundaryEdges = 0;     ///< Edges used by exactly one triangle (holes).
    int nonManifoldEdges = 0;  ///< Edges used by more than two triangles.
    int inconsistentEdges = 0; ///< Edges whose two triangles traverse them in the same direction.
    int degenerateTriangles = 0; ///< Triangles with a repeated vertex index.
    /// Closed: every edge has exactly two triangles (no holes, no fins).
    bool watertight() const { return boundaryEdges == 0 && nonManifoldEdges == 0 && degenerateTriangles == 0; }
    /// Watertight and consistently oriented.
    bool closedManifold() const { return watertight() && inconsistentEdges == 0; }
};

/// Counts boundary, non-manifold and inconsistently oriented edges. O(#F log #F).
EdgeTopology edgeTopology(const MatrixX3i& F);

/// Number of connected components of the triangles (vertices sharing an index
/// are connected). Isolated vertices are not counted.
int connectedComponents(const Mesh& mesh);

/// Per vertex of [0, vertexCount) its connected component of the triangles F
/// (union-find), numbered 0, 1, … in the order of their lowest vertex; an
/// isolated vertex is a component of its own. `count` gets their number.
std::vector<int> vertexComponents(int vertexCount, const MatrixX3i& F, int& count);

/// Summary statistics shown in the status bar and by `rigsmith info`.
struct MeshStats {
    int vertices = 0;
    int triangles = 0;
    int parts = 0;
    int components = 0;
    bool watertight = false;
    bool manifold = false;
    Box3 bounds;
};

MeshStats meshStats(const Mesh& mesh);

} // namespace rig
