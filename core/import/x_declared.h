#pragma once
/// @file x_declared.h
/// The triangles a DirectX .X file's Mesh objects declare, from a walk of its
/// tokens without Assimp (issue 47: "readers that lie"). Each `Mesh` data
/// object (not the `template Mesh` declaration) starts with nVertices, the
/// vertices (3 numbers each), nFaces and the faces (a corner count k then k
/// indices), as the DirectX file format reference defines the template; a
/// face of k corners holds k - 2 triangles.
///
/// Both encodings with 32- or 64-bit floats are walked: text ("xof 0303txt
/// 0032": numbers separated by ',' and ';', '//' and '#' comments) and binary
/// ("bin": 16-bit tokens, integer and float lists carrying the numbers). A
/// compressed file ("tzip", "bzip") and anything the walk does not follow (a
/// name where a number should be, a count past the file's end) give no count:
/// the reader decides.

#include <cstdint>
#include <optional>
#include <string_view>

namespace rig {

/// Sum of the Mesh objects' triangles in the .X file `bytes` (whole file,
/// header included); none when the file is compressed, not a .X file or its
/// mesh data cannot be followed (see the file comment).
std::optional<std::int64_t> xDeclaredTriangles(std::string_view bytes);

} // namespace rig
