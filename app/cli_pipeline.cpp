// The pipeline commands: retarget, rig and export (issues 7 and 8).
#include "app/cli_common.h"

#include "app/cli.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/eval/bar_experiment.h"
#include "core/eval/skinning_timing.h"
#include "core/project/character_source.h"
#include "core/import/animation_poses.h"
#include "core/export/rig_file.h"
#include "core/export/gltf_export.h"
#include "core/export/project_file.h"
#include "core/project/pipeline.h"
#include "core/project/project_io.h"
#include "core/motion/bvh_file.h"
#include "core/motion/clip_file.h"
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
#include "core/skin/deform_joints.h"
#include "core/skin/skinning.h"
#include "core/eval/weight_compare.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include <nlohmann/json.hpp>


#include <charconv>
#include <chrono>
#include <iomanip>
#include <cstdio>
#include <cstring>
#include <tuple>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <optional>
#include <span>


namespace rig::app {

int cmdRetarget(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--out", "--rest", "--step"}, {"--no-names", "--no-ground"}, "retarget");
    if (a.positional.size() != 2)
        throw Error("rigsmith retarget: expected RIG.json and CLIP (a .bvh, or a rigged, animated file) (see rigsmith --help)");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith retarget: --out OUT.bvh or OUT.json is required");
    std::string ext = std::filesystem::path(*out).extension().string();
    for (char& c : ext)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    if (ext != ".bvh" && ext != ".json")
        throw Error("rigsmith retarget: --out must end in .bvh or .json, got '" + *out + "'");
    RetargetOptions o;
    o.rest = parseRetargetRest(a.value("--rest").value_or("auto"));
    o.useNames = !a.flag("--no-names");
    o.keepFeetOnGround = !a.flag("--no-ground");
    if (const auto step = a.value("--step")) {
        const auto [end, ec] = std::from_chars(step->data(), step->data() + step->size(), o.frameStep);
        if (ec != std::errc() || end != step->data() + step->size() || o.frameStep < 1)
            throw Error("rigsmith retarget: --step must be a whole number >= 1, got '" + *step + "'");
    }
    const std::string& rigPath = a.positional[0];
    const std::string& clipPath = a.positional[1];
    StageTimings stages;
    StageClock clock(stages);
    const RigFile rig = readRigFile(rigPath);
    RetargetedClip r;
    int sourceJoints = 0;
    if (isBvhPath(clipPath)) {
        // Read and retarget a block of frames at a time (issue 47): 10^6
        // frames of 96 channels are never whole (768 MB), only the target's
        // flat poses are. The read and retarget stages are the sums over the blocks.
        using Clock = std::chrono::steady_clock;
        Clock::time_point t = Clock::now();
        double readSeconds = 0.0, retargetSeconds = 0.0;
        const auto lap = [&t](double& sum) {
            const Clock::time_point now = Clock::now();
            sum += std::chrono::duration<double>(now - t).count();
            t = now;
        };
        BvhFrameReader reader(clipPath);
        Motion head = reader.hierarchy(); // with the first block: frame 0 may be the rest pose
        reader.read(head.frames, 4096);
        sourceJoints = head.jointCount();
        lap(readSeconds);
        const RetargetMapping mapping = mapSkeletons(head, rig.skeleton, o);
        double mapSeconds = 0.0;
        lap(mapSeconds);
        ClipRetargeter retargeter(head, rig.skeleton, mapping, o, reader.declaredFrames());
        retargeter.add(head.frames);
        lap(retargetSeconds);
        for (MotionFrames& block = head.frames;;) {
            const Eigen::Index n = reader.read(block, 4096);
            lap(readSeconds);
            if (n == 0)
                break;
            retargeter.add(block);
            lap(retargetSeconds);
        }
        r = retargeter.finish();
        lap(retargetSeconds);
        clock.add({{"read", readSeconds}, {"map", mapSeconds}, {"retarget", retargetSeconds}});
    } else {
        Motion clip = readClipFile(clipPath).motion;
        sourceJoints = clip.jointCount();
        clock.lap("read");
        const RetargetMapping mapping = mapSkeletons(clip, rig.skeleton, o);
        clock.lap("map");
        r = retargetClip(clip, rig.skeleton, mapping, o);
        clock.lap("retarget");
    }
    r.name = std::filesystem::path(clipPath).stem().string();
    if (ext == ".bvh")
        writeRetargetedBvh(r, rig.skeleton, *out); // frame by frame: never the whole motion
    else
        writeJsonFile(*out, retargetJson(r, rig.skeleton));
    clock.lap("write");

    std::vector<std::string> unmapped;
    for (int j = 0; j < rig.skeleton.jointCount(); ++j)
        if (r.mapping.joints[static_cast<size_t>(j)].sources.empty())
            unmapped.push_back(rig.skeleton.names[static_cast<size_t>(j)]);
    const double retargetSeconds = stages[2].seconds;
    const double perFrameMs = r.frames.empty() ? 0.0 : 1000.0 * retargetSeconds / static_cast<double>(r.frames.size());
    std::cout << formatMappingTable(r.mapping);
    std::cout << clipPath << ": " << r.frames.size() << " frames at " << 1.0 / r.frameTime << " fps onto "
              << rig.skeleton.jointCount() << " joints (" << r.mapping.mappedCount() << " mapped, " << unmapped.size()
              << " unmapped), rest " << retargetRestName(r.mapping.restUsed) << '\n'
              << "  root translation scale " << r.mapping.translationScale << '\n'
              << "  foot-ground error " << 100.0 * r.footErrorAfter << "% of height on " << r.contactFrames
              << " contact frames (" << 100.0 * r.footErrorBefore << "% before the feet correction)\n"
              << "  stages:";
    for (const auto& s : stages)
        std::cout << ' ' << s.name << ' ' << 1000.0 * s.seconds << " ms";
    std::cout << " (" << perFrameMs * 1000.0 << " us/frame)\n"
              << "  wrote " << *out << '\n';
    writeReport(a, "retarget", clipPath,
                stages,
                {{"rig", rigPath},
                 {"out", *out},
                 {"frames", r.frames.size()},
                 {"fps", 1.0 / r.frameTime},
                 {"rest", std::string(retargetRestName(r.mapping.restUsed))},
                 {"rest_requested", std::string(retargetRestName(o.rest))},
                 {"mapping_messages", r.mapping.messages},
                 {"source_joints", sourceJoints},
                 {"target_joints", rig.skeleton.jointCount()},
                 {"mapped_joints", r.mapping.mappedCount()},
                 {"unmapped_joints", unmapped},
                 {"translation_scale", r.mapping.translationScale},
                 {"contact_frames", r.contactFrames},
                 {"foot_ground_error_percent", 100.0 * r.footErrorAfter},
                 {"foot_ground_error_before_correction_percent", 100.0 * r.footErrorBefore},
                 {"retarget_ms_per_frame", perFrameMs},
                 {"mapping", mappingJson(r.mapping)}});
    return 0;
}

int cmdRig(const std::vector<std::string>& raw)
{
    std::vector<std::string> values = {"--report", "--resolution", "--ends", "--template", "--fingers", "--out", "--facing",
                                       "--up", "--weights", "--deform-joints", "--segmentation", "--weight-params",
                                       "--clip", "--frame-step", "--project", "--bind-part", "--rest"};
    std::vector<std::string> flags = {"--save-weights", "--use-file-skeleton", "--force", "--strict"};
    values.insert(values.end(), exportValueOptions.begin(), exportValueOptions.end());
    flags.insert(flags.end(), exportFlagOptions.begin(), exportFlagOptions.end());
    const Args a = parse(raw, values, flags, "rig");
    const ExportFlags exportFlags = parseExportFlags(a, "rig");
    const std::string file = needFile(a, "rig");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith rig: --out character.glb is required");
    checkExportTarget(*out, "rig");
    if (const auto projectPath = a.value("--project"))
        checkProjectWritable(*projectPath); // a newer project is refused before the work, not after
    if (a.flag("--use-file-skeleton") && a.value("--ends"))
        throw Error("rigsmith rig: --use-file-skeleton and --ends exclude each other (the file's skeleton needs no labels)");
    const std::string templateSpec = a.value("--template").value_or("humanoid21");
    WeightOptions weightOptions;
    weightOptions.method = findWeightMethod(a.value("--weights").value_or(weightOptions.method)).id;
    if (const auto s = a.value("--segmentation"))
        weightOptions.segmentation.method = parseSegmentationMethod(*s);
    applyWeightParams(a, "rig", weightOptions);
    RigProject project = projectFromArgs(a, "rig", file);
    project.setWeightOptions(weightOptions);
    applyPartBindingArgs(a, "rig", project);
    RetargetOptions retarget;
    retarget.frameStep = parseFrameStepOption(a, "rig");
    retarget.rest = parseRetargetRest(a.value("--rest").value_or("auto"));
    project.setRetargetOptions(retarget);
    const std::string clipPath = a.value("--clip").value_or("");
    project.setClipPath(clipPath);
    StageTimings stages = runPipeline(project, Stage::Clip);
    if (const std::string& w = project.orientationResult().warning; !w.empty())
        std::cerr << "rigsmith: warning: " << w << '\n';
    StageClock clock(stages);
    const EndNodeLabels labels = project.labels();
    const Skeleton& skeleton = project.rig()->skeleton;
    std::optional<RetargetedClip> clip;
    if (project.clip())
        clip = project.clip()->retargeted;
    const auto bytes = writeRigExport(*out, project, skeleton, project.skinning()->weights, clip, "rig", exportFlags);
    clock.lap("export");
    if (const auto projectPath = a.value("--project")) {
        ProjectSaveState state;
        state.templateSpec = templateSpec;
        state.clipPath = clipPath;
        state.includeWeights = a.flag("--save-weights");
        writeProjectFile(projectFileFrom(project, state), *projectPath);
        clock.lap("save project");
    }
    const WeightDiagnostics& d = project.skinning()->diagnostics;
    std::cout << file << ": " << skeleton.jointCount() << "-joint rig, " << weightOptions.method
              << " weights, " << rigExportMesh(project).vertexCount() << " vertices";
    if (const ImportedCharacter& c = project.character()->imported; !c.source.empty())
        std::cout << " (" << c.info.fileVertices << " vertices as the file has them, in " << c.source.meshes.size()
                  << " meshes, written so)";
    if (clip)
        std::cout << ", clip " << clip->name << " (" << clip->frames.size() << " frames at "
                  << 1.0 / clip->frameTime << " fps, source rest pose " << retargetRestName(clip->mapping.restUsed)
                  << ", " << clip->mapping.mappedCount() << " of " << skeleton.jointCount() << " joints driven)";
    std::cout << "\n  orientation " << project.orientationResult().summary();
    std::cout << "\n  labels  " << (a.flag("--use-file-skeleton") ? std::string("(the file's skeleton)") : formatEndNodeLabels(labels)) << "\n  wrote   " << *out << " (" << bytes
              << " bytes)\n";
    for (const auto& m : d.messages)
        std::cout << "  note    " << m << '\n';
    if (clip)
        for (const auto& m : clip->mapping.messages)
            std::cout << "  clip    " << m << '\n';
    const std::shared_ptr<const HumanoidCheck> check =
        a.flag("--use-file-skeleton") ? nullptr : rig::humanoidCheckOf(project);
    const bool labelsGiven = a.value("--ends").value_or("auto") != "auto";
    json results = {{"out", *out},
                    {"orientation", orientationJson(project.orientationResult())},
                    {"out_bytes", bytes},
                    {"template", templateSpec},
                    {"joints", skeleton.jointCount()},
                    {"vertices", rigExportMesh(project).vertexCount()},
                    {"file_vertices", project.character()->imported.info.fileVertices},
                    {"labels", formatEndNodeLabels(labels)},
                    {"humanoid", check ? humanoidVerdictJson(*check) : json(nullptr)},
                    {"warnings", a.flag("--use-file-skeleton") ? json::array()
                                 : fitWarningsJson(project, "rig", check.get(), !labelsGiven)},
                    {"weights", weightOptions.method},
                    {"unreached_vertices", d.unreachedVertices},
                    {"bleeding_vertices", d.bleedingVertices},
                    {"rigid_parts", d.rigidParts.size()},
                    {"frames", clip ? clip->frames.size() : 0},
                    {"frame_time", clip ? clip->frameTime : 0.0},
                    {"clip_rest", clip ? json(std::string(retargetRestName(clip->mapping.restUsed))) : json(nullptr)},
                    {"clip_mapping", clip ? mappingJson(clip->mapping) : json(nullptr)},
                    {"clip_messages", clip ? json(clip->mapping.messages) : json::array()}};
    if (const auto projectPath = a.value("--project"))
        results["project"] = *projectPath;
    results["parts"] = partsJson(project);
    writeReport(a, "rig", file, stages, results);
    return strictExit(a, "rig", results["warnings"]);
}

int cmdExport(const std::vector<std::string>& raw)
{
    std::vector<std::string> values = {"--report", "--out", "--frame-step"};
    values.insert(values.end(), exportValueOptions.begin(), exportValueOptions.end());
    const Args a = parse(raw, values, exportFlagOptions, "export");
    const ExportFlags exportFlags = parseExportFlags(a, "export");
    if (a.positional.size() != 1)
        throw Error("rigsmith export: expected one PROJECT file (.rsproj)");
    const std::string projectPath = a.positional[0];
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith export: --out character.glb or --out clip.bvh is required");
    checkExportTarget(*out, "export");
    const int step = parseFrameStepOption(a, "export");
    StageTimings stages;
    StageClock clock(stages);
    const ProjectFile file = readProjectFile(projectPath);
    RestoredProject restored = [&] {
        try {
            return restoreProject(file);
        } catch (const InvalidInput& e) {
            throw InvalidInput(projectPath + ": " + e.what());
        }
    }();
    clock.lap("restore");
    for (const auto& note : restored.notes)
        std::cerr << "rigsmith export: note: " << note << '\n';
    RigProject& project = restored.project;
    if (!project.rig())
        throw Error("rigsmith export: " + projectPath + " has no rig yet; rig it first (rigsmith rig, or the app)");
    const Skeleton& skeleton = project.rig()->skeleton;
    if (restored.weights) { // the saved (maybe painted) weights: the weights stage has nothing to do
        SkinningResult saved;
        saved.weights = *restored.weights;
        project.setSkinning(std::make_shared<const SkinningResult>(std::move(saved)));
    }
    RetargetOptions retarget = project.retargetOptions();
    retarget.frameStep = step;
    project.setRetargetOptions(retarget);
    project.setClipPath(restored.clipPath);
    const StageTimings computed = runStages(project, Stage::Weights, Stage::Clip);
    stages.insert(stages.end(), computed.begin(), computed.end());
    std::optional<RetargetedClip> clip;
    if (project.clip())
        clip = project.clip()->retargeted;
    const auto bytes = writeRigExport(*out, project, skeleton, project.skinning()->weights, clip, "export", exportFlags);
    clock.lap("export");
    std::cout << projectPath << ": wrote " << *out << " (" << bytes << " bytes, " << skeleton.jointCount()
              << " joints" << (clip ? ", " + std::to_string(clip->frames.size()) + " frames" : std::string()) << ")\n";
    writeReport(a, "export", projectPath, stages,
                {{"out", *out}, {"out_bytes", bytes}, {"joints", skeleton.jointCount()},
                 {"frames", clip ? clip->frames.size() : 0}, {"mesh", file.meshPath}});
    return 0;
}

} // namespace rig::app
