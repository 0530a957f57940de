#pragma once
/// @file rig_file.h
/// The rig file: a fitted skeleton (thesis §2.5 result), the end-node labels it
/// was fitted with and the template's name, as JSON:
/// ```
/// { "format": "rigsmith-rig", "version": 1,
///   "joints": [ {"name": "Hips", "parent": -1, "position": [x, y, z], "orientation": [w, x, y, z]}, ... ],
///   "labels": {"head": 108, "lhand": 280, "rhand": 279, "lfoot": 390, "rfoot": 387},
///   "template": "humanoid21" }
/// ```
/// Parents are joint indices (parents[i] < i); positions and orientations are
/// the bind pose in world space (skeleton.h). Labels are node indices of the
/// refined curve skeleton; they are optional (a rig edited by hand has none).

#include "core/rig/skeleton.h"
#include "core/skeleton/end_nodes.h"

#include <optional>
#include <string>
#include <string_view>

namespace rig {

struct RigFile {
    Skeleton skeleton;                   ///< The rig (valid: `validateSkeleton()`).
    std::optional<EndNodeLabels> labels; ///< The end-node labels it was fitted with, if any.
    std::string templateName;            ///< The template it came from ("humanoid21", a BVH file name...), may be empty.
};

/// Writes a rig file atomically (`writeFileAtomically()`: a temporary file in
/// the same folder renamed over `path`), so a crash never leaves a half-written rig. Numbers are
/// written so that they read back exactly.
/// @throws rig::InvalidInput when the skeleton fails `validateSkeleton()`;
///         rig::IoError naming the file when it cannot be written.
void writeRigFile(const RigFile& rig, const std::string& path);

/// Reads a rig file.
/// @throws rig::IoError naming the file when it cannot be read, is not JSON, is
///         not a version-1 rig file, or a field is missing or of the wrong type
///         ("rig.json: joint 3 'Neck': \"position\" must be an array of three
///         numbers"); the skeleton is checked with `validateSkeleton()` and its
///         complaint is reported as an IoError naming the file too.
RigFile readRigFile(const std::string& path);
/// `readRigFile()` of bytes already read; `path` names the file in messages.
RigFile parseRigFile(std::string_view bytes, const std::string& path);

} // namespace rig
