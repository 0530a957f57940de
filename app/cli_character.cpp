// The character commands: info, skeleton and fit (render, which needs Qt, is in cli_render.cpp).
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
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
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

int cmdInfo(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--up", "--facing"}, {"--json"}, "info");
    const std::string file = needFile(a, "info");
    const OrientationOptions orientation = parseOrientationArgs(a, "info");
    StageTimings stages;
    StageClock clock(stages);
    OrientationResult oriented;
    const LoadedCharacter c = loadOriented(file, orientation, oriented);
    clock.lap("load");
    json j = infoJson(c);
    j["orientation"] = orientationJson(oriented);
    const std::vector<CharacterPart> parts = characterParts(c.imported);
    json partList = json::array();
    for (const CharacterPart& p : parts)
        partList.push_back({{"name", p.name}, {"vertices", p.vertices}, {"triangles", p.triangles},
                            {"components", p.components}, {"material", p.material}});
    j["part_list"] = partList;
    if (a.flag("--json")) {
        std::cout << j.dump(2) << '\n';
    } else {
        const Vec3 size = c.stats.bounds.size();
        std::cout << c.source << '\n'
                  << "  vertices    " << c.stats.vertices << '\n'
                  << "  triangles   " << c.stats.triangles << '\n'
                  << "  parts       " << c.stats.parts << '\n'
                  << "  components  " << c.stats.components << '\n'
                  << "  watertight  " << (c.stats.watertight ? "yes" : "no") << '\n'
                  << "  manifold    " << (c.stats.manifold ? "yes" : "no") << '\n'
                  << "  size        " << size.x() << " x " << size.y() << " x " << size.z() << '\n'
                  << "  up axis     " << c.imported.info.upAxis << (c.imported.info.upAxisGuessed ? " (guessed)" : "")
                  << '\n'
                  << "  orientation " << oriented.summary() << '\n'
                  << "  skeleton    "
                  << (c.imported.skeleton ? std::to_string(c.imported.skeleton->names.size()) + " joints" : "none")
                  << '\n';
        for (size_t k = 0; k < parts.size(); ++k) // the names --bind-part takes
            std::cout << "  part " << std::setw(3) << std::left << k + 1 << "    " << parts[k].name << " ("
                      << parts[k].vertices << " vertices" << (parts[k].material.empty() ? "" : ", " + parts[k].material)
                      << ")\n";
    }
    writeReport(a, "info", file, stages, j);
    return 0;
}

int cmdSkeleton(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--resolution", "--json", "--up", "--facing"}, {}, "skeleton");
    const std::string file = needFile(a, "skeleton");
    const int resolution = parseResolution(a, "skeleton");
    const auto [project, stages] = runSkeletonStage(file, resolution, parseOrientationArgs(a, "skeleton"));
    const CurveSkeletonResult& r = *project.curveSkeleton();
    const CurveSkeleton& s = r.refined;
    const json results = {{"resolution", resolution},
                          {"end_nodes", s.count(NodeType::End)},
                          {"flow_nodes", s.count(NodeType::Flow)},
                          {"connection_nodes", s.count(NodeType::Connection)},
                          {"segments", s.segments.size()},
                          {"loops", r.refineReport.loopsFound},
                          {"loops_broken", r.refineReport.loopsBroken},
                          {"bridged_gaps", r.bridgedGaps},
                          {"surface_voxels", r.surfaceVoxels},
                          {"interior_voxels", r.interiorVoxels},
                          {"skeleton_voxels", r.skeletonVoxels},
                          {"watertight", r.watertight}};
    std::cout << file << " at n = " << resolution << '\n'
              << "  end nodes         " << s.count(NodeType::End) << '\n'
              << "  flow nodes        " << s.count(NodeType::Flow) << '\n'
              << "  connection nodes  " << s.count(NodeType::Connection) << '\n'
              << "  segments          " << s.segments.size() << '\n'
              << "  loops             " << r.refineReport.loopsFound << " (broken " << r.refineReport.loopsBroken
              << ")\n"
              << "  bridged gaps      " << r.bridgedGaps << '\n';
    for (const auto& st : stages)
        std::cout << "  " << st.name << std::string(18 - std::min<size_t>(17, st.name.size()), ' ') << st.seconds
                  << " s\n";
    std::cout << "  total             " << totalSeconds(stages) << " s\n";
    if (const auto out = a.value("--json"))
        writeJsonFile(*out, skeletonJson(s));
    writeReport(a, "skeleton", file, stages, results);
    return 0;
}

int cmdFit(const std::vector<std::string>& raw)
{
    const Args a =
        parse(raw, {"--report", "--resolution", "--ends", "--template", "--fingers", "--out", "--facing", "--up"},
              {"--force", "--strict"}, "fit");
    const std::string file = needFile(a, "fit");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith fit: --out rig.json is required");
    const std::string templateSpec = a.value("--template").value_or("humanoid21");
    RigProject project = projectFromArgs(a, "fit", file);
    StageTimings stages = runPipeline(project, Stage::Rig);
    if (const std::string& w = project.orientationResult().warning; !w.empty())
        std::cerr << "rigsmith: warning: " << w << '\n';
    StageClock clock(stages);
    const CurveSkeleton& s = project.curveSkeleton()->refined;
    const EndNodeLabels labels = project.labels();
    const FitResult& rig = *project.rig();
    const std::shared_ptr<const HumanoidCheck> check = rig::humanoidCheckOf(project);
    const bool labelsGiven = a.value("--ends").value_or("auto") != "auto";
    writeRigFile({rig.skeleton, labels, templateSpec}, *out);
    clock.lap("save");
    json joints = json::array();
    for (int j = 0; j < rig.skeleton.jointCount(); ++j)
        joints.push_back(rig.skeleton.names[j]);
    const std::string fittedWith = templateOfFit(*project.rigTemplate(), rig.skeleton).name; // humanoid51 with fingers
    std::cout << file << ": " << rig.skeleton.jointCount() << "-joint rig from template " << fittedWith << '\n'
              << "  orientation " << project.orientationResult().summary() << '\n'
              << "  labels  " << formatEndNodeLabels(labels) << '\n'
              << "  hips    node " << rig.chains.hips << ", chest node " << rig.chains.chest << '\n'
              << "  wrote   " << *out << '\n';
    if (check)
        std::cout << "  body    " << check->body << '\n';
    json results = {{"out", *out},
                    {"template", templateSpec},
                    {"joints", rig.skeleton.jointCount()},
                    {"joint_names", joints},
                    {"labels", formatEndNodeLabels(labels)},
                    {"end_nodes", s.count(NodeType::End)},
                    {"orientation", orientationJson(project.orientationResult())},
                    {"humanoid", check ? humanoidVerdictJson(*check) : json(nullptr)},
                    {"warnings", fitWarningsJson(project, "fit", check.get(), !labelsGiven)},
                    {"notes", rig.notes}};
    for (const std::string& note : rig.notes)
        std::cout << "  note: " << note << '\n';
    // For the bundled character, the error against the generator's ground truth.
    if (const auto& gt = project.character()->groundTruth) {
        double sum = 0.0, worst = 0.0;
        int n = 0;
        for (int j = 0; j < rig.skeleton.jointCount(); ++j) {
            const auto it = std::find(gt->jointNames.begin(), gt->jointNames.end(), rig.skeleton.names[j]);
            if (it == gt->jointNames.end())
                continue;
            const auto g = static_cast<Eigen::Index>(it - gt->jointNames.begin());
            const double e = (rig.skeleton.bindPositions.row(j) - gt->joints.row(g)).norm() / gt->height;
            sum += e;
            worst = std::max(worst, e);
            ++n;
        }
        if (n > 0) {
            results["mean_joint_error_percent"] = 100.0 * sum / n;
            results["max_joint_error_percent"] = 100.0 * worst;
            std::cout << "  ground truth: mean joint error " << 100.0 * sum / n << "% of height, worst "
                      << 100.0 * worst << "%\n";
        }
    }
    writeReport(a, "fit", file, stages, results);
    return strictExit(a, "fit", results["warnings"]);
}

} // namespace rig::app
