// The weight commands: weights and compare-weights (issue 5).
#include "app/cli_common.h"

#include "app/cli.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/eval/bar_experiment.h"
#include "core/eval/skinning_timing.h"
#include "core/project/character_source.h"
#include "core/import/animation_poses.h"
#include "core/export/rig_file.h"
#include "core/export/weights_file.h"
#include "core/export/gltf_export.h"
#include "core/export/project_file.h"
#include "core/project/pipeline.h"
#include "core/project/project_io.h"
#include "core/motion/bvh_file.h"
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
#include "core/skin/deform_joints.h"
#include "core/skin/skinning.h"
#include "core/eval/weight_compare.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include <nlohmann/json.hpp>


#include <charconv>
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

int cmdWeights(const std::vector<std::string>& raw)
{
    const Args a = parse(raw,
                         {"--report", "--resolution", "--ends", "--template", "--fingers", "--out", "--facing", "--up", "--method",
                          "--segmentation", "--weight-params", "--deform-joints", "--bind-part"},
                         {"--use-file-skeleton", "--force"}, "weights");
    const std::string file = needFile(a, "weights");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith weights: --out OUT.json is required");
    const std::string methodName = a.value("--method").value_or(WeightOptions{}.method);
    const std::optional<std::string> method = parseWeightsMethodArg(methodName);
    WeightOptions options;
    options.method = method.value_or(options.method);
    options.segmentation.method = parseSegmentationMethod(a.value("--segmentation").value_or("3.2.4"));
    applyWeightParams(a, "weights", options);
    const bool useFileSkeleton = a.flag("--use-file-skeleton");
    if (!method && !useFileSkeleton)
        throw Error("rigsmith weights: --method file copies the file's own weights; it needs --use-file-skeleton");

    RigProject project = projectFromArgs(a, "weights", file);
    StageTimings stages;
    if (method) {
        project.setWeightOptions(options);
        applyPartBindingArgs(a, "weights", project);
        stages = runPipeline(project, Stage::Weights);
    } else { // the file's own weights: nothing to voxelize or fit
        stages = runStages(project, Stage::Load, Stage::Load);
        runStage(project, Stage::Rig, {}, &stages);
    }
    const Mesh& mesh = project.character()->imported.mesh;
    const Skeleton& skeleton = project.rig()->skeleton;
    const SkinningResult* result = method ? project.skinning().get() : nullptr;
    SkinWeights fileWeights;
    if (!method) {
        StageClock clock(stages);
        fileWeights = skinWeightsFromReference(project.character()->imported.skeleton->W);
        clock.lap("weights");
    }
    StageClock clock(stages);
    const SkinWeights& weights = result ? result->weights : fileWeights;
    writeJsonFile(*out, weightsJson(file, methodName, method ? std::string(segmentationMethodName(options.segmentation.method)) : "",
                                    useFileSkeleton, skeleton, weights, result ? &result->segmentation : nullptr,
                                    &project.character()->imported.source));
    clock.lap("save");

    std::cout << file << ": " << methodName << " weights for " << mesh.vertexCount() << " vertices and "
              << skeleton.jointCount() << " joints (" << (useFileSkeleton ? "the file's skeleton" : "fitted rig")
              << ")\n";
    json results = {{"out", *out},
                    {"method", methodName},
                    {"skeleton", useFileSkeleton ? "file" : "fitted"},
                    {"vertices", mesh.vertexCount()},
                    {"joints", skeleton.jointCount()}};
    if (result) {
        const WeightDiagnostics& d = result->diagnostics;
        std::cout << "  segmentation        " << segmentationMethodName(options.segmentation.method) << '\n'
                  << "  unreached vertices  " << d.unreachedVertices << '\n'
                  << "  rigid parts         " << d.rigidParts.size() << '\n'
                  << "  bleeding vertices   " << d.bleedingVertices << '\n'
                  << "  far-reached         " << d.farReachingVertices << '\n'
                  << "  bones moving none   " << d.bonesWithoutVertices.size() << '\n';
        for (const std::string& m : d.messages)
            std::cout << "  note: " << m << '\n';
        results["segmentation"] = segmentationMethodName(options.segmentation.method);
        // The method's row: its title and every parameter's value (defaults included).
        const WeightMethod& row = findWeightMethod(options.method);
        json parameters = json::object();
        for (const MethodParameter& p : row.parameters)
            parameters[p.key] = parameterValue(row.parameters, options.valuesOf(row.id), p.key, row.id);
        results["method_title"] = row.title;
        results["method_parameters"] = parameters;
        results["diagnostics"] = diagnosticsJson(d, skeleton);
        results["parts"] = partsJson(project);
    }
    for (const auto& st : stages)
        std::cout << "  " << st.name << std::string(20 - std::min<size_t>(19, st.name.size()), ' ') << st.seconds
                  << " s\n";
    std::cout << "  wrote " << *out << '\n';
    writeReport(a, "weights", file, stages, results);
    return 0;
}

int cmdCompareWeights(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--up", "--facing"}, {}, "compare-weights");
    if (a.positional.size() != 2)
        throw Error("rigsmith compare-weights: expected FILE (a rigged file) and OUT.json (from rigsmith weights)");
    const std::string& file = a.positional[0];
    const std::string& weightsPath = a.positional[1];
    StageTimings stages;
    StageClock clock(stages);
    OrientationResult oriented;
    const LoadedCharacter c = loadOriented(file, parseOrientationArgs(a, "compare-weights"), oriented);
    clock.lap("load");
    if (!c.imported.skeleton)
        throw Error("rigsmith compare-weights: '" + file + "' has no skeleton and weights to compare with");
    const FitResult rig = rigFromImportedSkeleton(*c.imported.skeleton);
    const auto W = readWeightsFile(weightsPath, rig.skeleton, c.imported.mesh.vertexCount());
    const SkinWeights weights = skinWeightsFromReference(W);
    clock.lap("read");
    // The file's own animation where it has one (its longest, at most 200
    // frames evenly spaced: every channel of every joint and root), else random poses.
    constexpr int maxFrames = 200;
    std::vector<std::vector<Eigen::Affine3d>> frames;
    std::string poseSource = std::to_string(WeightCompareOptions{}.randomPoses) + " random poses";
    if (const auto k = longestAnimation(*c.imported.skeleton)) {
        const ImportedAnimation& anim = c.imported.skeleton->animations[static_cast<size_t>(*k)];
        frames = animationSkinning(*c.imported.skeleton, anim, maxFrames);
        poseSource = "file animation '" + anim.name + "' (" + std::to_string(frames.size()) + " frames";
        if (anim.frameCount() > maxFrames)
            poseSource += " of " + std::to_string(anim.frameCount());
        poseSource += ")";
    }
    const WeightComparison r = compareWeightsAnimated(c.imported.mesh, rig.skeleton, weights, c.imported.skeleton->W,
                                              std::span<const std::vector<Eigen::Affine3d>>(frames));
    clock.lap("compare");
    std::ostringstream f; // fixed decimals: "0.0000 / 100.00% / 100.00% / 0.0000" for identical weights
    f << std::fixed << std::setprecision(4) << r.meanL1 << ' ' << r.meanDistancePercent << ' ' << r.maxDistancePercent
      << std::setprecision(2) << ' ' << 100.0 * r.precision << ' ' << 100.0 * r.recall;
    std::string l1, meanD, maxD, prec, rec;
    std::istringstream(f.str()) >> l1 >> meanD >> maxD >> prec >> rec;
    std::cout << weightsPath << " against the weights of " << file << " (" << r.comparedVertices << " vertices, "
              << rig.skeleton.jointCount() << " joints)\n"
              << "  mean L1 difference per vertex  " << l1 << '\n'
              << "  precision                      " << prec << "%\n"
              << "  recall                         " << rec << "%\n"
              << "  mean vertex distance           " << meanD << "% of height\n"
              << "  max vertex distance            " << maxD << "% of height\n"
              << "  over " << (r.randomPoses ? poseSource + " (+-45 deg)" : poseSource) << '\n';
    if (r.unweightedReference > 0)
        std::cout << "  " << r.unweightedReference << " vertices have no weights in the file and are left out\n";
    writeReport(a, "compare-weights", file, stages,
                {{"weights", weightsPath},
                 {"mean_l1", r.meanL1},
                 {"precision", r.precision},
                 {"recall", r.recall},
                 {"mean_distance_percent", r.meanDistancePercent},
                 {"max_distance_percent", r.maxDistancePercent},
                 {"poses", r.poses},
                 {"random_poses", r.randomPoses},
                 {"pose_source", poseSource},
                 {"compared_vertices", r.comparedVertices},
                 {"unweighted_vertices", r.unweightedReference}});
    return 0;
}

} // namespace rig::app
