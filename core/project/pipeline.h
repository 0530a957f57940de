#pragma once
/// @file pipeline.h
/// The pipeline, sequenced once: the stages in order, which result a project
/// still lacks, and running stages on a project. The GUI (ui::Document, on its
/// worker thread) and the CLI commands call these; neither orders stages nor
/// compares stage names of its own.
///
///   load → skeleton → rig → weights → clip → export
///
///  - load: the character of `RigProject::characterSpec()` (core/import, Assimp);
///  - skeleton: voxelize, fill, thin, graph, refine (thesis §2.1–2.3);
///  - rig: end-node labels (the project's, else suggested, thesis §2.5) and
///    the template fit, or the file's own skeleton (`RigSource`);
///  - weights: segmentation and the weight method of the table (thesis Ch. 3–4);
///  - clip: the project's BVH clip retargeted onto the rig (thesis Ch. 5);
///  - export: writing files (glTF, BVH); run by the front ends on request,
///    never by `nextStage()`.
///
/// A setter of `RigProject` clears the results its edit makes stale (a new
/// character clears everything after it; a new rig clears the weights and
/// makes the clip stale), so "what is stale" is "what is missing".

#include "core/common/timing.h"
#include "core/project/rig_project.h"

#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace rig {

/// The stages, in pipeline order.
enum class Stage { Load, Skeleton, Rig, Weights, Clip, Export };

/// Every stage in order.
std::span<const Stage> allStages();
/// Stable id: "load", "skeleton", "rig", "weights", "clip", "export" (reports, signals).
std::string_view stageId(Stage stage);
/// For people: "Load character", "Curve skeleton", "Rig", "Segmentation + weights", …
std::string_view stageTitle(Stage stage);
/// The stage with id `id`, if any.
std::optional<Stage> findStage(std::string_view id);

/// The first stage up to `last` whose result `project` lacks (Export is never
/// returned); none when everything up to `last` is there, or nothing can run
/// (no character spec). Stages whose input is absent (no clip path) are skipped.
std::optional<Stage> nextStage(const RigProject& project, Stage last = Stage::Clip);

/// Computes stage `stage` on `project` (the results before it must exist)
/// and stores the result, appending the stage's timings to `timings`.
/// @throws rig::InvalidInput when an earlier result is missing or for Export,
///         and whatever the stage throws (rig::Cancelled on cancel).
void runStage(RigProject& project, Stage stage, const Progress& progress = {}, StageTimings* timings = nullptr);

/// Runs every missing stage up to and including `last`, in order.
/// @throws as `runStage()`. Returns the timings of the stages that ran.
StageTimings runPipeline(RigProject& project, Stage last = Stage::Clip, const Progress& progress = {});

/// Runs the missing stages among `first`..`last`, in order; the results
/// before `first` are not computed (a stage that needs one throws).
/// @throws as `runStage()`. Returns the timings of the stages that ran.
StageTimings runStages(RigProject& project, Stage first, Stage last, const Progress& progress = {});

/// The rig stage could not rig the character with the labels it chose
/// itself (no labels set). `what()` is `verdict` + `detail`.
class AutoRigFailed : public InvalidInput {
public:
    AutoRigFailed(std::string verdict, std::string detail, std::string reason)
        : InvalidInput(verdict + detail), verdict(std::move(verdict)), detail(std::move(detail)),
          reason(std::move(reason))
    {
    }
    std::string verdict; ///< "This does not look like a humanoid (…). " when the check says so, else "".
    std::string detail;  ///< What was found and what to do.
    std::string reason;  ///< The labelling's or the fit's own message (reports count it).
};

/// The humanoid check of `project`'s character and curve skeleton
/// (core/rig/humanoid_check.h), computed once and kept in the project;
/// null without a curve skeleton. The rig stage calls it before fitting.
std::shared_ptr<const HumanoidCheck> humanoidCheckOf(RigProject& project);

/// Whether `a` and `b` hold the same inputs of `stage`: the results of the
/// stages before it (by identity) and its options. A front end that saw a
/// stage fail runs it again by itself only once its inputs changed.
bool sameStageInputs(const RigProject& a, const RigProject& b, Stage stage);

/// Copies into `target` the results of the stages `from`..`to` that
/// `computed` holds, where `started` is `target` as it was when the stages
/// started (on a copy). Stops at the first stage whose inputs `target` has
/// changed meanwhile (another load, a rig edit, new weight options): that
/// result would be stale. Returns the stages applied.
std::vector<Stage> applyResults(RigProject& target, const RigProject& computed, const RigProject& started, Stage from,
                                Stage to);

} // namespace rig
