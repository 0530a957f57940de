#pragma once
/// @file character_source.h
/// Where a character comes from: a file, or the bundled procedural humanoid.
/// Every command that takes FILE also accepts `default` (the A-pose humanoid)
/// and `default:POSE` (t, a, arms-down, knees-bent, sitting, reach, twist),
/// optionally dressed: `default+skirt`, `default:t+robe` (issue 14).

#include "core/character/humanoid.h"
#include "core/common/progress.h"
#include "core/import/guarded_import.h"
#include "core/import/mesh_import.h"
#include "core/mesh/mesh_queries.h"

#include <optional>
#include <string>

namespace rig {

/// A loaded character: what import produced, and for the bundled character its
/// ground truth.
struct LoadedCharacter {
    std::string source;                 ///< As given: a path, "default" or "default:POSE".
    std::string displayName;            ///< File name, or "Default character (A-pose)".
    ImportedCharacter imported;         ///< Mesh, optional skeleton, import info.
    std::optional<Humanoid> groundTruth;///< Set for the bundled character.
    MeshStats stats;                    ///< Vertices, triangles, parts, watertight... of `imported.mesh`.
};

/// True for "default" and "default:..." specs.
bool isDefaultCharacterSpec(const std::string& spec);

/// Loads a character from a spec: a file path, "default" or "default:POSE".
/// Files are read in the importer process (`importCharacterGuarded()`, with
/// `guardedImportDefaults()` unless `guard` is given).
/// @throws rig::InvalidInput for an unknown pose name (listing the valid ones).
/// @throws whatever `importCharacterGuarded()` throws for files: the reader's
///         own errors, and a crash, a timeout or the memory cap of the importer.
LoadedCharacter loadCharacter(const std::string& spec, const Progress& progress = {});
LoadedCharacter loadCharacter(const std::string& spec, const GuardedImportOptions& guard,
                              const Progress& progress = {});

} // namespace rig
