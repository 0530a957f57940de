#pragma once
/// @file cli_common.h
/// Private to app/: what the `rigsmith` commands share (argument parsing,
/// the JSON report, the stages every command starts with).

#include "core/common/timing.h"
#include "core/export/gltf_export.h"
#include "core/project/character_source.h"
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
#include "core/skin/skinning.h"
#include "core/eval/weight_compare.h"
#include "core/rig/humanoid_check.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rig::app {

using json = nlohmann::json;

/// Parsed `--key value` options and positional arguments.
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;
    std::vector<std::string> flags;
    bool flag(const std::string& f) const { return std::find(flags.begin(), flags.end(), f) != flags.end(); }
    std::optional<std::string> value(const std::string& k) const
    {
        auto it = values.find(k);
        return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
};

/// Splits `raw` into positional arguments, `--key value` options (`valueOptions`)
/// and flags; an unknown option is an error naming `command`.
Args parse(const std::vector<std::string>& raw, const std::vector<std::string>& valueOptions,
           const std::vector<std::string>& flagOptions, const std::string& command);

/// The one positional FILE of a command.
std::string needFile(const Args& a, const std::string& command);

/// `v` with `decimals` digits after the point ("%.*f"), "-" when not finite (a table's empty cell).
std::string fixedOrDash(double v, int decimals);

/// Writes `j` (indented) to `path`. @throws rig::IoError naming the file.
void writeJsonFile(const std::string& path, const json& j);

/// [{"name", "seconds"}] of the stages.
json stagesJson(const StageTimings& stages);

/// The common report schema: command, input, stages, total_seconds, then results.
void writeReport(const Args& a, const std::string& command, const std::string& input, const StageTimings& stages,
                 const json& results);

/// The mesh statistics of `rigsmith info`.
json infoJson(const LoadedCharacter& c);

/// `--resolution N` (the voxelizer's default when absent).
int parseResolution(const Args& a, const std::string& command);

/// "end", "flow" or "connection".
const char* nodeTypeName(NodeType t);

/// Nodes, edges and segments of a curve skeleton (`rigsmith skeleton --json`).
json skeletonJson(const CurveSkeleton& s);

/// `--up` and `--facing` (core/project/character_orientation.h), with the
/// command's defaults. @throws rig::Error naming the command for a bad value.
OrientationOptions parseOrientationArgs(const Args& a, const std::string& command, const std::string& defaultUp = "file",
                                        const std::string& defaultFacing = "+z");

/// Loads a character and orients it (`orientCharacter()`); `result` receives what was done.
LoadedCharacter loadOriented(const std::string& file, const OrientationOptions& orientation, OrientationResult& result);

/// The report's "humanoid" object of a check: {"looks_humanoid", "body" (the
/// body found among the skeleton's ends, or why none was), "confidence",
/// "reasons"}.
json humanoidVerdictJson(const HumanoidCheck& check);

/// Checks the project's fitted rig (core/rig/fit_checks.h) and, with the
/// humanoid check of its curve skeleton (`check`; null where none was made)
/// and where Rigsmith chose the labels (`labelsChosen`), that check's doubts (a body chosen with
/// little confidence, ends on the ground beside the feet:
/// `HumanoidCheck::doubts`, kinds "doubtful_body", "extra_ground_ends"); when
/// the humanoid check was overridden (`--force`: the project does not require
/// a humanoid) and refuses the figure, the reason overridden (kind
/// "forced_not_humanoid"); prints each warning on stderr ("rigsmith COMMAND:
/// warning: ...") and returns them
/// as the report's "warnings" array.
json fitWarningsJson(const RigProject& project, const std::string& command, const HumanoidCheck* check,
                     bool labelsChosen);

/// `--strict` (fit, rig): 3 when `warnings` is not empty (saying so on
/// stderr), else 0. What was asked is written before: the warnings name what to check.
int strictExit(const Args& a, const std::string& command, const json& warnings);

/// The report's "orientation" object.
json orientationJson(const OrientationResult& r);

/// A project that loads `file` in `orientation` (its front the given facing)
/// and builds its curve skeleton at `resolution`; no stage run yet.
RigProject projectFor(const std::string& file, int resolution, const OrientationOptions& orientation);

/// Prints the load's warnings (import, orientation) on stderr as "rigsmith: warning: ...".
void printLoadWarnings(const RigProject& project);

/// Runs core's load and curve-skeleton stages on `projectFor()`'s project,
/// printing the load's warnings in between; returns it with the stages' timings.
std::pair<RigProject, StageTimings> runSkeletonStage(const std::string& file, int resolution,
                                                     const OrientationOptions& orientation = {},
                                                     OrientationResult* result = nullptr);

/// `--method` of `rigsmith weights`: a weight method, or "file" (the file's own weights).
std::optional<std::string> parseWeightsMethodArg(const std::string& m);

/// Applies `--weight-params ID.KEY=VALUE[,ID.KEY=VALUE…]` to `options`: ID a
/// weight method of the table, or "segmentation". The value of a choice may be
/// its name. @throws rig::Error naming the item, the key and the accepted range.
void applyWeightParams(const Args& a, const std::string& command, WeightOptions& options);

/// `--fingers none|auto|shape|N|auto:N|shape:N` (core/rig/fingers.h): the
/// mode and the fingers per hand (N in 0-5; N alone is auto with N fingers, 0
/// is none); absent: none. @throws rig::Error naming the command.
FingerOptions parseFingersArg(const Args& a, const std::string& command);

/// A project set up from the common options of the pipeline commands: FILE,
/// --resolution, --template, --fingers, --facing, --ends (labels; "auto": suggested)
/// and --use-file-skeleton (absent options keep their defaults); without
/// --force the rig stage refuses a figure that does not look like a humanoid.
/// @throws rig::Error for malformed values.
RigProject projectFromArgs(const Args& a, const std::string& command, const std::string& file);

/// Applies `--bind-part PART=JOINT[,PART=JOINT…]`: PART a part's name as
/// `rigsmith info` lists it, or its number (1-based); JOINT a joint of the rig
/// template. Loads the character first (the parts are the file's).
/// @throws rig::Error naming an unknown part (with the parts there are).
void applyPartBindingArgs(const Args& a, const std::string& command, RigProject& project);

/// The report's parts table (core/skin/part_binding.h): per part its
/// vertices, binding, dominant joint and its share, mean influences, rigid.
json partsJson(const RigProject& project);

/// The weights file of `rigsmith weights` (format rigsmith-weights, version 1). `vertices` are the
/// welded vertices; with `file` (a character read from a file), "source_meshes" lists the file's
/// meshes in file order, each with "welded": per vertex of the file's mesh, in the file's order,
/// the index into "vertices" whose weights it takes (so they apply to the original file).
json weightsJson(const std::string& source, const std::string& method, const std::string& segmentation,
                 bool fileSkeleton, const Skeleton& s, const SkinWeights& w, const Segmentation* seg,
                 const SourceAsset* file = nullptr);

/// Unreached vertices, rigid parts and bleeding of a weights result.
json diagnosticsJson(const WeightDiagnostics& d, const Skeleton& s);

/// The results of `rigsmith retarget` (thesis Ch. 5, issue 7): frames, fps, foot contact.
json retargetJson(const RetargetedClip& r, const Skeleton& target);

/// The joint mapping of a retargeted clip, target joint → source joint.
json mappingJson(const RetargetMapping& m);

/// The mesh a rig is exported with: the imported character's (welded, +Y up, skeleton space).
const Mesh& rigExportMesh(const RigProject& project);

/// Reads a clip and retargets it onto the project's rig (every `step`-th frame).
LoadedClip retargetClipFile(const RigProject& project, const std::string& clipPath, int step);

/// `--frame-step K` (a whole number >= 1; 1 when absent).
int parseFrameStepOption(const Args& a, const std::string& command);

/// Refuses, before any work, an --out the export cannot write: a wrong extension or a missing folder.
void checkExportTarget(const std::string& out, const std::string& command);

/// The export options of `rig` and `export`: --clips A.bvh,B.bvh (more clips, each its own
/// animation), --no-clip (none, not even the project's), --frames FIRST:LAST, --units
/// source|metres, --no-root-motion, --names PRESET (the joints' names, core/rig/bone_names.h).
struct ExportFlags {
    std::vector<std::string> extraClips;
    bool noClip = false;
    bool metres = false;
    std::string names = "rigsmith";
    GltfExportOptions gltf;
};

/// The value options and flags ExportFlags reads, for parse().
inline const std::vector<std::string> exportValueOptions = {"--clips", "--frames", "--units", "--names"};
inline const std::vector<std::string> exportFlagOptions = {"--no-clip", "--no-root-motion"};

/// Reads ExportFlags from `a`. @throws rig::Error naming `command` for a malformed value.
ExportFlags parseExportFlags(const Args& a, const std::string& command);

/// Writes the export (.glb, .gltf, or .bvh of the retargeted clip) and returns its size in bytes.
/// A glTF gets `clip` (unless --no-clip) and each of --clips retargeted onto the rig, as separate
/// animations. Textures the export had to leave out are named on stderr.
std::uintmax_t writeRigExport(const std::string& out, const RigProject& project, const Skeleton& skeleton,
                           const SkinWeights& weights, const std::optional<RetargetedClip>& clip,
                           const std::string& command, const ExportFlags& flags = {});

// The commands (argv after the command word); each returns the exit code.
int cmdInfo(const std::vector<std::string>& raw);
int cmdSkeleton(const std::vector<std::string>& raw);
int cmdFit(const std::vector<std::string>& raw);
int cmdRender(int argc, char** argv, const std::vector<std::string>& raw);
int cmdWeights(const std::vector<std::string>& raw);
int cmdCompareWeights(const std::vector<std::string>& raw);
int cmdEvaluate(const std::vector<std::string>& raw);
int cmdBenchBar(const std::vector<std::string>& raw);
int cmdBenchSkinning(const std::vector<std::string>& raw);
int cmdBenchWeights(const std::vector<std::string>& raw);
int cmdBench(const std::vector<std::string>& raw);
int cmdRetarget(const std::vector<std::string>& raw);
int cmdRig(const std::vector<std::string>& raw);
int cmdExport(const std::vector<std::string>& raw);

} // namespace rig::app
