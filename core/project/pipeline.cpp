#include "core/project/pipeline.h"

#include "core/common/error.h"
#include "core/import/mesh_import.h"
#include "core/rig/humanoid_check.h"
#include "core/skin/deform_joints.h"

#include <array>

namespace rig {
namespace {

struct StageRow {
    Stage stage;
    std::string_view id;
    std::string_view title;
};

constexpr std::array<StageRow, 6> kStages{{
    {Stage::Load, "load", "Load character"},
    {Stage::Skeleton, "skeleton", "Curve skeleton"},
    {Stage::Rig, "rig", "Rig"},
    {Stage::Weights, "weights", "Segmentation + weights"},
    {Stage::Clip, "clip", "Clip (read + retarget)"},
    {Stage::Export, "export", "Export"},
}};

constexpr std::array<Stage, 6> kOrder{Stage::Load, Stage::Skeleton, Stage::Rig, Stage::Weights, Stage::Clip,
                                      Stage::Export};

const StageRow& row(Stage stage)
{
    for (const StageRow& r : kStages)
        if (r.stage == stage)
            return r;
    throw InvalidInput("rig::stageId(): not a stage"); // unreachable: every enumerator has a row
}

/// Whether the project holds an up-to-date result of `stage`.
bool hasResult(const RigProject& p, Stage stage)
{
    switch (stage) {
    case Stage::Load: return p.character() != nullptr;
    case Stage::Skeleton: return p.curveSkeleton() != nullptr;
    case Stage::Rig: return p.rig() != nullptr;
    case Stage::Weights: return p.skinningCurrent();
    case Stage::Clip: return p.clip() != nullptr && p.clipRig() == p.rig();
    case Stage::Export: return true; // files are written on request
    }
    return false;
}

/// Whether the stage has anything to do for this project at all.
bool wanted(const RigProject& p, Stage stage)
{
    switch (stage) {
    case Stage::Load: return !p.characterSpec().empty() || p.character();
    case Stage::Skeleton: return true; // the fit's curve skeleton; the voxel solid for every rig
    case Stage::Rig:
    case Stage::Weights: return true;
    case Stage::Clip: return !p.clipPath().empty();
    case Stage::Export: return false;
    }
    return false;
}

void needResult(const RigProject& p, Stage before, Stage stage)
{
    if (!hasResult(p, before))
        throw InvalidInput("rig::runStage(): the " + std::string(stageId(stage)) + " stage needs the " +
                           std::string(stageId(before)) + " stage's result first");
}

/// The load stage: the character (lap "load"), oriented as the project asks
/// (lap "orient"; facing "auto" turns it to face +Z, and the project's front follows).
void loadOriented(RigProject& p, const Progress& progress, StageClock& clock)
{
    LoadedCharacter c = loadCharacter(p.characterSpec(), progress);
    clock.lap("load");
    const OrientationResult r = orientCharacter(c, p.orientation());
    clock.lap("orient");
    p.setCharacter(std::make_shared<const LoadedCharacter>(std::move(c)));
    p.setOrientationResult(r);
    if (p.orientation().facing == "auto")
        p.setFront(r.front);
}

/// The weights stage; on a file's own skeleton, the joints that deform only
/// (tags, IK goals and attachments get no weight: core/skin/deform_joints.h);
/// then the parts the artist bound to a bone (core/skin/part_binding.h).
SkinningResult skinWithDeformJoints(const RigProject& p, const Progress& progress)
{
    SkinningResult r = computeSkinning(p, progress);
    const auto& imported = p.character()->imported.skeleton;
    const Skeleton& s = p.rig()->skeleton;
    if (p.rigSource() == RigSource::FileSkeleton && imported)
        r.weights = restrictToDeformJoints(r.weights, s, deformJoints(p.deformJoints(), s, &imported->W));
    if (!p.partBindings().empty()) {
        const auto parts = partVertices(p.character()->imported);
        r.weights = bindPartsRigidly(std::move(r.weights), s, parts, p.partBindings());
        r.segmentation = segmentPartsRigidly(std::move(r.segmentation), s, parts, p.partBindings());
        for (const PartBinding& b : p.partBindings())
            r.diagnostics.messages.push_back("Part '" + b.partName + "' is bound to " + b.joint + " (set by you).");
    }
    return r;
}

/// The labels of `suggestLabels()`, after the humanoid check when the project
/// asks for it; too few skeleton ends are reported with their cause (flat, a
/// line, in pieces: core/rig/humanoid_check.h).
EndNodeLabels suggestedLabels(RigProject& p)
{
    const LoadedCharacter& c = *p.character();
    const CurveSkeleton& s = p.curveSkeleton()->refined;
    if (p.requireHumanoid()) {
        // Before the fit: a quadruped's fit fails with a message about hands and feet, not the real cause.
        const HumanoidCheck& check = *humanoidCheckOf(p);
        if (!check.looksHumanoid())
            throw InvalidInput(c.source + ": " + check.message() + " Rig it anyway with --force.");
    }
    try {
        return suggestLabels(p);
    } catch (const InvalidInput& e) {
        const std::string cause = explainTooFewEnds(c.imported.mesh, s);
        if (cause.empty())
            throw;
        throw InvalidInput(std::string(e.what()) + " (" + cause + ")");
    }
}

/// The fit of the labels Rigsmith chose itself (`--ends auto`, the window's
/// first rig) failed: what was found and what to do. The fit's own message
/// ends "check the labels", which blamed a user who had set none (issue 14).
/// "This does not look like a humanoid (…). " when the humanoid check says so, else "".
std::string verdictPrefix(const RigProject& p)
{
    const HumanoidCheck* check = p.humanoidCheck().get();
    return check && !check->looksHumanoid() ? check->message() + " " : std::string();
}

AutoRigFailed autoLabelsFailed(const RigProject& p, const EndNodeLabels& labels, const std::string& original)
{
    std::string reason = original;
    if (const auto k = reason.find("(): "); k != std::string::npos && k < 48)
        reason.erase(0, k + 4); // the function's name
    for (const char* advice : {"; check", "; the labels do not describe"})
        if (const auto k = reason.find(advice); k != std::string::npos)
            reason.erase(k);
    const CurveSkeleton& s = p.curveSkeleton()->refined;
    const std::string detail =
        p.character()->source + ": the five skeleton ends chosen automatically (" +
        formatEndNodeLabels(labels) + ") do not make a head, two arms and two legs: " + reason + ". The skeleton has " +
        std::to_string(s.count(NodeType::End)) +
        " ends. If this is an upright humanoid, choose the five yourself (in the window: the Rig dock; on the "
        "command line: --ends head=ID,lhand=ID,rhand=ID,lfoot=ID,rfoot=ID with end node numbers from "
        "'rigsmith skeleton FILE --json S.json'), or try another --resolution or --up";
    return AutoRigFailed(verdictPrefix(p), detail, original);
}

/// The rig stage: the file's skeleton, or the labels (the project's, else
/// suggested: lap "label") and the template fit (lap "fit").
void runRig(RigProject& p, StageClock& clock)
{
    if (p.rigSource() == RigSource::FileSkeleton) {
        const auto& skeleton = p.character()->imported.skeleton;
        if (!skeleton)
            throw InvalidInput(p.characterSpec() +
                               " has no skeleton of its own; fit one instead (leave out --use-file-skeleton)");
        p.setRig({}, std::make_shared<const FitResult>(rigFromImportedSkeleton(*skeleton)));
        clock.lap("file skeleton");
        return;
    }
    needResult(p, Stage::Skeleton, Stage::Rig);
    humanoidCheckOf(p); // before the fit: there for the report when the fit fails
    const bool labelled = p.requestedLabels() != EndNodeLabels{};
    EndNodeLabels labels;
    try {
        labels = labelled ? p.requestedLabels() : suggestedLabels(p);
    } catch (const InvalidInput& e) {
        if (labelled || p.requireHumanoid())
            throw; // the refusal names its own cause
        throw AutoRigFailed(verdictPrefix(p), e.what(), e.what());
    }
    clock.lap("label");
    try {
        p.setRig(labels, std::make_shared<const FitResult>(fitRig(p, labels)));
    } catch (const InvalidInput& e) {
        if (labelled)
            throw; // the user's own labels: the fit's message, "check the labels", is for them
        throw autoLabelsFailed(p, labels, e.what());
    }
    clock.lap("fit");
}

void runClip(RigProject& p, const Progress& progress)
{
    needResult(p, Stage::Rig, Stage::Clip);
    // A clip already read is retargeted again (keeping the artist's mapping edits).
    const auto& clip = p.clip();
    auto loaded = clip && clip->path == p.clipPath()
                      ? std::make_shared<const LoadedClip>(retargetLoadedClip(p, *clip, p.retargetOptions(), progress))
                      : std::make_shared<const LoadedClip>(loadClip(p, p.clipPath(), p.retargetOptions(), progress));
    p.setClip(loaded);
}

/// Whether `target` still has the inputs `stage` was computed from: the
/// results of earlier stages (`computed`) and the options it had when the
/// stages started (`started`).
bool inputsMatch(const RigProject& target, const RigProject& computed, const RigProject& started, Stage stage)
{
    switch (stage) {
    case Stage::Load: return target.characterSpec() == started.characterSpec();
    case Stage::Skeleton: return target.character() == computed.character();
    case Stage::Rig:
        return target.character() == computed.character() && target.curveSkeleton() == computed.curveSkeleton() &&
               target.requestedLabels() == started.requestedLabels() && target.rigTemplate() == started.rigTemplate() &&
               target.fingerOptions() == started.fingerOptions() &&
               target.front() == started.front() && target.rigSource() == started.rigSource();
    case Stage::Weights:
        return target.rig() == computed.rig() && target.weightOptionsRevision() == started.weightOptionsRevision();
    case Stage::Clip: return target.rig() == computed.rig() && target.clipPath() == started.clipPath();
    case Stage::Export: return false;
    }
    return false;
}

void apply(RigProject& target, const RigProject& computed, Stage stage)
{
    switch (stage) {
    case Stage::Load: // the inputs the load was asked with, then its result
        target.setCharacterSpec(computed.characterSpec());
        target.setOrientation(computed.orientation());
        target.setClipPath(computed.clipPath());
        target.setCharacter(computed.character());
        target.setOrientationResult(computed.orientationResult());
        target.setFront(computed.front());
        return;
    case Stage::Skeleton:
        target.setCurveSkeletonOptions(computed.curveSkeletonOptions());
        target.setCurveSkeleton(computed.curveSkeleton());
        return;
    case Stage::Rig:
        target.setHumanoidCheck(computed.humanoidCheck());
        target.setRig(computed.labels(), computed.rig());
        return;
    case Stage::Weights: target.setSkinning(computed.skinning()); return;
    case Stage::Clip: target.setClip(computed.clip()); return;
    case Stage::Export: return;
    }
}

} // namespace

std::span<const Stage> allStages() { return kOrder; }

std::string_view stageId(Stage stage) { return row(stage).id; }

std::string_view stageTitle(Stage stage) { return row(stage).title; }

std::optional<Stage> findStage(std::string_view id)
{
    for (const StageRow& r : kStages)
        if (r.id == id)
            return r.stage;
    return std::nullopt;
}

std::optional<Stage> nextStage(const RigProject& project, Stage last)
{
    if (!wanted(project, Stage::Load))
        return std::nullopt;
    for (const Stage s : kOrder) {
        if (s > last || s == Stage::Export)
            break;
        if (wanted(project, s) && !hasResult(project, s))
            return s;
    }
    return std::nullopt;
}

void runStage(RigProject& p, Stage stage, const Progress& progress, StageTimings* timings)
{
    StageTimings local;
    StageClock clock(timings ? *timings : local);
    switch (stage) {
    case Stage::Load:
        if (p.characterSpec().empty())
            throw InvalidInput("rig::runStage(): nothing to load; open a character first");
        loadOriented(p, progress, clock);
        return;
    case Stage::Skeleton: {
        needResult(p, Stage::Load, stage);
        auto result = std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(p, progress));
        clock.add(result->timings);
        p.setCurveSkeleton(result);
        return;
    }
    case Stage::Rig:
        needResult(p, Stage::Load, stage);
        runRig(p, clock);
        return;
    case Stage::Weights: {
        needResult(p, Stage::Rig, stage);
        auto skinning = std::make_shared<const SkinningResult>(skinWithDeformJoints(p, progress));
        clock.add(skinning->timings); // segment, weights, diagnostics
        p.setSkinning(skinning);
        return;
    }
    case Stage::Clip:
        runClip(p, progress);
        clock.lap("retarget");
        return;
    case Stage::Export:
        throw InvalidInput("rig::runStage(): export writes a file; the front ends run it on request");
    }
}

StageTimings runPipeline(RigProject& project, Stage last, const Progress& progress)
{
    return runStages(project, Stage::Load, last, progress);
}

StageTimings runStages(RigProject& project, Stage first, Stage last, const Progress& progress)
{
    StageTimings timings;
    for (const Stage s : kOrder)
        if (s >= first && s <= last && s != Stage::Export && wanted(project, s) && !hasResult(project, s))
            runStage(project, s, progress, &timings);
    return timings;
}

std::shared_ptr<const HumanoidCheck> humanoidCheckOf(RigProject& p)
{
    if (!p.humanoidCheck() && p.character() && p.curveSkeleton()) {
        const LoadedCharacter& c = *p.character();
        p.setHumanoidCheck(std::make_shared<const HumanoidCheck>(
            checkHumanoid(c.imported.mesh, p.curveSkeleton()->refined, c.imported.info.format)));
    }
    return p.humanoidCheck();
}

bool sameStageInputs(const RigProject& a, const RigProject& b, Stage stage)
{
    switch (stage) {
    case Stage::Load: return a.characterSpec() == b.characterSpec() && a.orientation() == b.orientation();
    case Stage::Skeleton:
        return a.character() == b.character() &&
               a.curveSkeletonOptions().voxelize.resolution == b.curveSkeletonOptions().voxelize.resolution;
    default: return inputsMatch(a, b, b, stage);
    }
}

std::vector<Stage> applyResults(RigProject& target, const RigProject& computed, const RigProject& started, Stage from,
                                Stage to)
{
    std::vector<Stage> applied;
    for (const Stage s : kOrder) {
        if (s < from || s > to || s == Stage::Export)
            continue;
        if (!wanted(computed, s))
            continue;
        if (!hasResult(computed, s) || !inputsMatch(target, computed, started, s))
            break;
        apply(target, computed, s);
        applied.push_back(s);
    }
    return applied;
}

} // namespace rig
