#pragma once
/// @file vertex_adjacency.h
/// Which vertices share an edge, as compressed rows (CSR): the neighbours of
/// vertex v are nbr[start[v]] ... nbr[start[v + 1] - 1], in increasing order,
/// each once. Used by the region growing and merge of thesis Alg. 3.2.4 and the
/// smoothing of the segmentation weights (core/skin).

#include "core/common/types.h"

#include <vector>

namespace rig {

struct VertexAdjacency {
    std::vector<int> start; ///< #V + 1 offsets into `nbr`.
    std::vector<int> nbr;   ///< The neighbours, row after row.
    int degree(int v) const { return start[static_cast<size_t>(v) + 1] - start[static_cast<size_t>(v)]; }
};

/// The adjacency of `n` vertices over the triangles F (#F by 3, indices in
/// [0, n)); degenerate edges (a triangle repeating a vertex) are skipped.
VertexAdjacency vertexAdjacency(int n, const MatrixX3i& F);

} // namespace rig
