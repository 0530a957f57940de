#pragma once
/// @file atomic_write.h
/// Writing a file so that it is either whole or not there: a temporary in the
/// same folder, written, flushed, fsync'ed and renamed over the target. Every
/// writer of Rigsmith's files uses it (glTF, BVH, projects, rigs, weights,
/// meshes); killed writes leave temporaries that the next write in the folder
/// sweeps when they are a day old (issue 47). Lives in core/common, below
/// every stage that writes (it was in io/gltf_export.h, which made core/motion
/// depend on the export, issue 43).

#include <functional>
#include <string>
#include <string_view>

namespace rig {

/// Writes `bytes` to `path` atomically (temporary file "NAME.tmp.XXXXXX" in the
/// same folder, write, flush, fsync, rename; the temporary is removed on
/// failure); a `path` that exists and is not a regular file is written
/// directly. `what` names the kind of file in messages ("the glTF file").
/// First sweeps the folder: `removeStaleTemporaries(path)`.
/// @throws rig::IoError naming `path` and the cause (no such folder, permission
///         denied, disk full).
void writeFileAtomically(const std::string& path, std::string_view bytes, const std::string& what);

/// `writeFileAtomically()` of a file produced piece by piece, so that a large
/// one is never whole in memory (a BVH of 10^6 frames is over 1 GB of text):
/// `next(piece)` fills the cleared `piece` with the next bytes and returns
/// false after the last. What `next` throws is rethrown, the temporary removed.
void writeFileAtomically(const std::string& path, const std::function<bool(std::string&)>& next,
                         const std::string& what);

/// Whether `name` (a file name, no folder) is one of `writeFileAtomically()`'s
/// temporaries: "NAME.EXT.tmp.XXXXXX", EXT a kind of file Rigsmith writes
/// (glb, gltf, bvh, rsproj, json, obj, ply, png, jpg, jpeg, webp, bin) and
/// XXXXXX six letters or digits (mkstemp's).
bool isAtomicTemporaryName(std::string_view name);

/// Removes from `path`'s folder the temporaries of `writeFileAtomically()`
/// (`isAtomicTemporaryName()`) that a killed write left behind: regular files
/// of this user last modified more than `maxAgeSeconds` ago (a younger one may
/// belong to a write under way). Nothing else is touched; errors are ignored
/// (best effort). Returns how many were removed.
int removeStaleTemporaries(const std::string& path, double maxAgeSeconds = 86400.0);

} // namespace rig
