#pragma once
/// @file mesh.h
/// The triangle mesh every stage works on: flat indexed arrays, +Y up, the
/// character facing +Z, metres where the source says so.

#include "core/common/types.h"

#include <string>
#include <vector>

namespace rig {

/// An indexed triangle mesh with one part id per vertex.
struct Mesh {
    MatrixX3d V;                       ///< #V by 3 vertex positions.
    MatrixX3i F;                       ///< #F by 3 vertex indices, counter-clockwise seen from outside.
    MatrixX3d N;                       ///< #V by 3 unit vertex normals (may be empty until computed).
    std::vector<int> part;             ///< #V part ids, indices into `partNames`.
    std::vector<std::string> partNames;///< One name per part (the file's mesh or node names).

    int vertexCount() const { return static_cast<int>(V.rows()); }
    int triangleCount() const { return static_cast<int>(F.rows()); }
    int partCount() const { return static_cast<int>(partNames.size()); }
};

} // namespace rig
