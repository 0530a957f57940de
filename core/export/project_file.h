#pragma once
/// @file project_file.h
/// The project file (`.rsproj`): everything needed to reopen a session as it
/// was left, as JSON. Version 1:
/// ```
/// { "format": "rigsmith-project", "version": 1,
///   "mesh": {"path": "../meshes/hero.fbx", "absolute_path": "/home/a/meshes/hero.fbx",
///            "hash": "fnv1a64:0123456789abcdef", "bytes": 123456},
///   "skeleton": {"resolution": 155},
///   "facing": "+z",
///   "template": "humanoid21",
///   "labels": {"head": 108, "lhand": 280, "rhand": 279, "lfoot": 390, "rfoot": 387},
///   "rig": [ {"name": "Hips", "parent": -1, "position": [x, y, z], "orientation": [w, x, y, z]}, ... ],
///   "weights": {"method": "gaussian", "segmentation.method": "3.2.4", "gaussian.a": 1.3, ...},
///   "parts": [ {"index": 2, "name": "Helmet", "joint": "Head"}, ... ],
///   "deformer": "twist",
///   "clip": {"path": "walk.bvh", "absolute_path": "/home/a/walk.bvh"},
///   "camera": {"target": [x, y, z], "yaw": 0.5, "pitch": 0.2, "distance": 3.0},
///   "computed_weights": {"influences": 4, "joints": [j00, j01, ...], "weights": [w00, w01, ...]},
///   "autosave_of": "/home/a/hero.rsproj" }
/// ```
/// Only "format", "version" and "mesh" are required. The bundled character has
/// "path": "default" (or "default:POSE") and no hash. Paths are written
/// relative to the project file's folder when the file is inside it or at most
/// two folders up (so a project moved with its mesh still opens), else
/// absolute, with the absolute path beside (so a project moved alone still
/// opens); the reader returns the relative one resolved against the project's
/// folder when it exists, else the absolute one. "rig" is the fitted skeleton
/// after the artist's joint edits (bind positions and orientations in world
/// space, as in the rig file, core/export/rig_file.h). "weights" holds the weight
/// method and its parameters as flat "group.name" keys with string or number
/// values (core/project/project_io.h converts them to and from
/// `WeightOptions`); keys this build does not know are kept. "parts" binds parts
/// of the character (`characterParts()` order, the name as a check) rigidly to
/// a rig joint (core/skin/part_binding.h). "deformer" is the id of the deformer
/// the character is posed with (core/deform/deformers.h), written when not
/// "lbs"; absent: "lbs". "computed_weights"
/// are optional: #V rows of `influences` joint indices and weights, row-major.
/// Numbers are written so that they read back exactly. "autosave_of" marks an
/// autosave (see `ProjectFile::autosaveOf`).
///
/// The reader is strict (core/export/strict_json.h): a NUL byte or anything after
/// the JSON value is refused, and every integer is range-checked as the JSON
/// number it is ("version": 4294967297 is a newer version, not 1).
///
/// The mesh's content hash is FNV-1a 64 over the file's bytes: on opening,
/// `checkProjectMesh()` says whether the mesh is still there and unchanged, so
/// the UI can ask the user to locate it.

#include "core/rig/skeleton.h"
#include "core/skeleton/end_nodes.h"
#include "core/skin/part_binding.h"
#include "core/skin/skin_weights.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace rig {

/// The viewport camera of a project (orbit around a target).
struct ProjectCamera {
    Vec3 target = Vec3::Zero();
    double yaw = 0.0;      ///< Radians.
    double pitch = 0.0;    ///< Radians.
    double distance = 1.0; ///< From the target, in scene units.
};

/// The weight method and parameters as flat "group.name" keys (see the file comment).
struct ProjectWeightSettings {
    std::string method = "gaussian";             ///< `weightMethodName()`: "gaussian" or "heat".
    std::map<std::string, std::string> names;    ///< Text parameters ("segmentation.method": "3.2.4").
    std::map<std::string, double> numbers;       ///< Numeric parameters ("gaussian.a": 1.3).
};

struct ProjectFile {
    /// The source mesh: a path (absolute, or relative to the working folder) or
    /// "default" / "default:POSE" for the bundled character.
    std::string meshPath;
    /// FNV-1a 64 of the mesh file's bytes; 0 for the bundled character.
    std::uint64_t meshHash = 0;
    std::uint64_t meshBytes = 0;   ///< Size of the mesh file in bytes.
    int resolution = 155;          ///< Voxel resolution n of the curve skeleton (thesis §5.1).
    std::string facing = "+z";     ///< The character's facing direction (`parseFacing()`).
    /// How the load stood the character up and turned it (`OrientationOptions`,
    /// core/project/character_orientation.h): the saved joints are in that frame.
    /// "orientation" in the file; absent in projects of version 1 files: "file", "+z".
    std::string orientationUp = "file";
    std::string orientationFacing = "+z";
    /// "orientation": {"file_silent": "shape" | "import guess"}: under "file", a
    /// mesh file that declares no up axis stood up by its shape (written since
    /// stop 36) or left in import's guess (absent: projects saved before, whose
    /// joints are in that frame; `OrientationOptions::shapeWhereFileIsSilent`).
    bool orientationShapeWhereSilent = true;
    std::string templateSpec = "humanoid21"; ///< The rig template (`resolveTemplate()`).
    /// How the fit places fingers (core/rig/fingers.h): "none", "auto" or
    /// "shape", and the fingers per hand (-1: as the mesh shows, else 0-5).
    /// "fingers": {"mode": ..., "count": ...} in the file, written when not "none".
    std::string fingerMode = "none";
    int fingerCount = -1;
    std::optional<EndNodeLabels> labels;     ///< End-node labels, when labelled.
    std::optional<Skeleton> rig;             ///< The rig after joint edits, when fitted.
    ProjectWeightSettings weights;           ///< Weight method and parameters.
    std::vector<PartBinding> partBindings;   ///< Parts bound rigidly to a joint.
    /// The deformer the character is posed with (an id of core/deform/deformers.h,
    /// not checked here: `restoreProject()` falls back on an unknown one).
    std::string deformer = "lbs";
    std::string clipPath;                    ///< The loaded BVH clip; empty when none.
    std::optional<ProjectCamera> camera;     ///< The viewport camera, when saved from the UI.
    std::optional<SkinWeights> computedWeights; ///< The computed weights, when saved with them.
    /// Set in an autosave: the project file it stands for, absolute (empty: a
    /// session never saved). A recovery reopens the autosave as that project,
    /// unsaved ("autosave_of" in the file).
    std::optional<std::string> autosaveOf;
};

/// Writes a project file atomically: to a temporary file in the same folder,
/// flushed and synced, then renamed over `path`; a crash or a full disk leaves
/// the previous file as it was. Paths are made relative to `path`'s folder
/// where possible (see the file comment). A project of a newer version at
/// `path` is never overwritten. After the save, temporary files of earlier
/// saves of `path` that were killed ("hero.rsproj.tmp.XXXXXX", older than this
/// save) are removed.
/// @throws rig::IoError "PATH: not overwritten: it was written by a newer Rigsmith ..."
/// @throws rig::InvalidInput naming `rig::writeProjectFile()` when the rig
///         fails `validateSkeleton()` or the computed weights are malformed;
///         rig::IoError naming the file when it cannot be written.
void writeProjectFile(const ProjectFile& project, const std::string& path);

/// Throws when `path` holds a project of a newer version than this build
/// writes (what `writeProjectFile()` refuses to overwrite): commands that end
/// with a save check it first, before the work.
/// @throws rig::IoError "PATH: not overwritten: it was written by a newer Rigsmith ...".
void checkProjectWritable(const std::string& path);

/// Reads a project file; never writes to it. Paths come back resolved (see the file comment).
/// @throws rig::IoError naming the file when it cannot be read, is not JSON
///         (corrupt or truncated: "hero.rsproj: not valid JSON (truncated or
///         corrupt?) ..."), is not a project file, has a newer version
///         ("written by a newer Rigsmith"), or a field is missing or of the
///         wrong type (the field is named).
ProjectFile readProjectFile(const std::string& path);
/// `readProjectFile()` of bytes already read; `path` names the file in messages
/// and resolves relative paths.
ProjectFile parseProjectFile(std::string_view bytes, const std::string& path);

/// FNV-1a 64 of a file's bytes. @throws rig::IoError naming the file when it cannot be read.
std::uint64_t fileHash(const std::string& path);
/// FNV-1a 64 of bytes (offset basis 14695981039346656037, prime 1099511628211).
std::uint64_t fnv1a64(std::string_view bytes);

/// Whether a project's mesh is still where it was, as it was.
enum class MeshStatus {
    Bundled, ///< The bundled character ("default..."): nothing to check.
    Ok,      ///< The file exists and its hash matches.
    Missing, ///< The file is gone (ask the user to locate it).
    Changed, ///< The file exists but its bytes differ (ask whether to re-rig or locate the original).
};

struct MeshCheck {
    MeshStatus status = MeshStatus::Ok;
    std::string message; ///< One line for the user, naming the file; empty when Ok or Bundled.
};

/// Checks the mesh of a project read by `readProjectFile()`.
MeshCheck checkProjectMesh(const ProjectFile& project);

} // namespace rig
