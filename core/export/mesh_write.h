#pragma once
/// @file mesh_write.h
/// Writing a bare triangle mesh (positions and triangles, no skin) for other
/// tools and for the benches that feed Rigsmith its own inputs: binary PLY
/// (compact, read by Assimp and every mesh tool) or text OBJ (what Pinocchio
/// and most research code read).

#include "core/mesh/mesh.h"

#include <string>

namespace rig {

/// Writes `mesh` as binary little-endian PLY (float x y z, int triangles) or,
/// when `path` ends in .obj, as text OBJ; atomically (a temporary file renamed).
/// @throws rig::IoError naming the file when it cannot be written.
void writeMesh(const std::string& path, const Mesh& mesh);

} // namespace rig
