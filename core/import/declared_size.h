#pragma once
/// @file declared_size.h
/// How many triangles a mesh file holds, from a cheap pre-scan before any
/// reader runs: a 10-million-triangle OBJ was read in full (40 s, 2.2 GB)
/// before the triangle limit refused it (issue 47). The scan reads a header
/// where the format has one and counts lines where it has none:
/// - PLY: the header's "element face N";
/// - STL: a binary file's count (where the file's size agrees with it), an
///   ASCII file's "endfacet" lines;
/// - OBJ: the polygons of its "f" lines, an n-gon counting n - 2 triangles;
/// - glTF (.gltf, .glb): the primitives' index (or position) accessor counts,
///   a triangle list counting count / 3, a strip or fan count - 2;
/// - DirectX .X (text or binary, up to 1 GiB): its Mesh objects' faces
///   (core/import/x_declared.h).
/// Other formats, and files the scan does not understand, are left to the
/// reader (and to the limit it applies after reading).

#include <cstdint>
#include <optional>
#include <string>

namespace rig {

/// What the pre-scan found.
struct DeclaredSize {
    /// Triangles the file holds (or, with `atLeast`, more than this many; for
    /// a PLY, its faces: there are at least as many triangles).
    std::int64_t triangles = 0;
    /// The count stopped at the limit it was given: there are more.
    bool atLeast = false;
    /// Where the count comes from, for messages: "its PLY header declares",
    /// "its OBJ face lines hold", ...
    std::string source;
    /// What is counted, for messages: "triangles", or for a PLY "faces (at
    /// least as many triangles)".
    std::string what = "triangles";
};

/// The triangles `path` holds by a pre-scan (see the file comment); none when
/// the format is not scanned or the file does not look like its format. The
/// count of OBJ and ASCII STL files stops once it passes `stopAbove` (their
/// lines are read; the headers are free), so a file far over a limit costs
/// no more than one at the limit.
/// Expects: `stopAbove` >= 0.
std::optional<DeclaredSize> declaredSize(const std::string& path, std::int64_t stopAbove);

/// Whether a reader that returned `returned` triangles fell short of what the
/// file declares: fewer than half of at least 8 (a reader that misread the
/// file, issue 47: "readers that lie"). On Assimp's test models, the devset
/// and rignet-val the readers return at least the declared count (polygons
/// split, instanced meshes repeated), never fewer.
bool fallsShort(const DeclaredSize& declared, std::int64_t returned);

} // namespace rig
