#pragma once
/// @file project_io.h
/// Between the facade (`RigProject`) and the project file (core/export/project_file.h):
/// saving takes what the project holds plus the front end's state (clip,
/// camera); restoring rebuilds the project by re-running the stages with the
/// saved settings - load the character, compute the curve skeleton at the
/// saved resolution (thesis §2.1-2.3), then apply the saved labels and the
/// saved (edited) joints instead of re-fitting (thesis §2.5 and the manual
/// adjust of Ch. 5) - so that the session reopens as it was left.

#include "core/export/project_file.h"
#include "core/project/rig_project.h"
#include "core/skin/skinning.h"

#include <optional>
#include <string>
#include <vector>

namespace rig {

/// What a front end adds to a project when saving it.
struct ProjectSaveState {
    std::string templateSpec;            ///< The template as the user gave it; empty: the project template's name, else "humanoid21".
    std::string clipPath;                ///< The loaded clip; empty: the project's clip (`RigProject::clip()`), if any.
    std::optional<ProjectCamera> camera; ///< The viewport camera, if any.
    bool includeWeights = false;         ///< Also store the computed weights (when computed).
};

/// The project's state as a project file (the mesh's hash is computed from the file).
/// @throws rig::InvalidInput when no character is loaded; rig::IoError when the mesh file cannot be read.
ProjectFile projectFileFrom(const RigProject& project, const ProjectSaveState& state = {});

/// The weight options as flat settings ("segmentation.method": "3.2.4", "gaussian.a": 1.3, ...).
ProjectWeightSettings weightSettings(const WeightOptions& options);
/// The weight options of flat settings; keys not given keep their defaults, unknown keys are ignored.
/// @throws rig::InvalidInput naming the key for an unknown method or function name.
WeightOptions weightOptionsFrom(const ProjectWeightSettings& settings);

/// A project rebuilt from its file.
struct RestoredProject {
    RigProject project;                     ///< Character, curve skeleton, template, facing, labels, rig, weight options, deformer.
    std::string clipPath;                   ///< The saved clip (the front end loads and retargets it); empty when none.
    std::optional<ProjectCamera> camera;    ///< The saved camera.
    std::optional<SkinWeights> weights;     ///< The saved computed weights, when present and matching the mesh and rig.
    MeshCheck mesh;                         ///< Bundled, Ok or Changed (a changed mesh is restored, with a note).
    std::vector<std::string> notes;         ///< What could not be restored as saved, one line each.
};

/// Rebuilds a project from a file read by `readProjectFile()`. A deformer id
/// this build does not know (a newer build's, a plug-in's) is not an error:
/// the default deformer is used and a note says so.
/// @throws rig::IoError when the mesh is missing (the message of
///         `checkProjectMesh()`: the front end asks the user to locate it, sets
///         `file.meshPath` and calls again); whatever loading the character,
///         the curve skeleton or the template throws.
/// @throws rig::Cancelled when `progress` asks to stop.
RestoredProject restoreProject(const ProjectFile& file, const Progress& progress = {});

/// "+z", "-z", "+x" or "-x" for a facing direction (the inverse of `parseFacing()`): the nearest of the four.
std::string facingName(const Vec3& front);

} // namespace rig
