#pragma once
/// @file character_stream.h
/// The binary stream that carries an imported character from the importer
/// process (app/rigsmith_import.cpp, core/import/guarded_import.h) back to the
/// application: every field of `ImportedCharacter` (mesh, file skeleton, skin
/// weights, animations, import info), in native byte order (both ends are
/// the same build on the same machine).
///
/// Layout: the magic "RSCHAR01", then the fields in a fixed order, then the
/// end mark "RSEND". Counts are 64-bit and checked against the bytes left
/// before anything is allocated, so a truncated or corrupt stream (a child
/// killed while writing) is refused with a message, never trusted.
///
/// Adding a field to `ImportedCharacter` or one of its parts: one line in the
/// matching `fields()` of character_stream.cpp (the static_asserts there fail
/// the build until it is added) and one in tests/core/character_stream_test.cpp.

#include "core/import/mesh_import.h"

#include <string>
#include <string_view>

namespace rig {

/// Appends the stream of `character` to `out`.
void appendCharacterStream(const ImportedCharacter& character, std::string& out);

/// Reads a stream written by `appendCharacterStream()` (the whole of `bytes`).
/// @throws rig::IoError "SOURCE: the importer's stream is truncated or corrupt (...)"
///         when it is cut short, has a wrong mark, impossible counts or trailing bytes.
ImportedCharacter readCharacterStream(std::string_view bytes, const std::string& source);

} // namespace rig
