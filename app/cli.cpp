#include "app/cli.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/deform/bar_experiment.h"
#include "core/deform/skinning_timing.h"
#include "core/project/character_source.h"
#include "core/io/animation_poses.h"
#include "core/io/rig_file.h"
#include "core/io/gltf_export.h"
#include "core/io/project_file.h"
#include "core/project/project_io.h"
#include "core/motion/bvh_file.h"
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
#include "core/skin/skinning.h"
#include "core/skin/weight_compare.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"
#include "ui/render_offscreen.h"

#include <nlohmann/json.hpp>

#include <QGuiApplication>

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
namespace {

using json = nlohmann::json;

const std::vector<std::string> commands = {"info", "render", "skeleton", "fit", "rig", "export", "retarget", "bench", "weights", "compare-weights"};

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

Args parse(const std::vector<std::string>& raw, const std::vector<std::string>& valueOptions,
           const std::vector<std::string>& flagOptions, const std::string& command)
{
    Args a;
    for (size_t i = 0; i < raw.size(); ++i) {
        const std::string& s = raw[i];
        if (s.rfind("--", 0) == 0) {
            if (std::find(valueOptions.begin(), valueOptions.end(), s) != valueOptions.end()) {
                if (i + 1 >= raw.size())
                    throw Error("rigsmith " + command + ": " + s + " needs a value");
                a.values[s] = raw[++i];
            } else if (std::find(flagOptions.begin(), flagOptions.end(), s) != flagOptions.end()) {
                a.flags.push_back(s);
            } else {
                throw Error("rigsmith " + command + ": unknown option " + s + " (see rigsmith --help)");
            }
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

std::string needFile(const Args& a, const std::string& command)
{
    if (a.positional.size() != 1)
        throw Error("rigsmith " + command + ": expected one FILE (a path, 'default' or 'default:POSE')");
    return a.positional[0];
}

void writeJsonFile(const std::string& path, const json& j)
{
    std::ofstream out(path);
    if (!out)
        throw IoError("cannot write '" + path + "': check that the folder exists and is writable");
    out << j.dump(2) << '\n';
    if (!out)
        throw IoError("cannot write '" + path + "': disk full or I/O error");
}

json stagesJson(const StageTimings& stages)
{
    json a = json::array();
    for (const auto& s : stages)
        a.push_back({{"name", s.name}, {"seconds", s.seconds}});
    return a;
}

/// The common report schema: command, input, stages, total_seconds, then results.
void writeReport(const Args& a, const std::string& command, const std::string& input, const StageTimings& stages,
                 const json& results)
{
    const auto path = a.value("--report");
    if (!path)
        return;
    json r = {{"command", command}, {"input", input}, {"stages", stagesJson(stages)},
              {"total_seconds", totalSeconds(stages)}};
    for (auto it = results.begin(); it != results.end(); ++it)
        r[it.key()] = it.value();
    writeJsonFile(*path, r);
}

json infoJson(const LoadedCharacter& c)
{
    const MeshStats& s = c.stats;
    const Vec3 size = s.bounds.size();
    json j = {{"file", c.source},
              {"format", c.imported.info.format},
              {"vertices", s.vertices},
              {"triangles", s.triangles},
              {"parts", s.parts},
              {"components", s.components},
              {"watertight", s.watertight},
              {"manifold", s.manifold},
              {"size", {size.x(), size.y(), size.z()}},
              {"up_axis", c.imported.info.upAxis},
              {"up_axis_guessed", c.imported.info.upAxisGuessed},
              {"skeleton_joints", c.imported.skeleton ? c.imported.skeleton->names.size() : 0}};
    return j;
}

int cmdInfo(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report"}, {"--json"}, "info");
    const std::string file = needFile(a, "info");
    StageTimings stages;
    StageClock clock(stages);
    const LoadedCharacter c = loadCharacter(file);
    clock.lap("load");
    const json j = infoJson(c);
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
                  << "  skeleton    "
                  << (c.imported.skeleton ? std::to_string(c.imported.skeleton->names.size()) + " joints" : "none")
                  << '\n';
    }
    writeReport(a, "info", file, stages, j);
    return 0;
}

int parseResolution(const Args& a, const std::string& command)
{
    const auto r = a.value("--resolution");
    if (!r)
        return VoxelizeOptions{}.resolution;
    int n = 0;
    const auto [ptr, ec] = std::from_chars(r->data(), r->data() + r->size(), n);
    if (ec != std::errc() || ptr != r->data() + r->size())
        throw Error("rigsmith " + command + ": --resolution must be a whole number, got '" + *r + "'");
    return n; // the range is checked by the voxelizer, with its own message
}

const char* nodeTypeName(NodeType t)
{
    switch (t) {
    case NodeType::End: return "end";
    case NodeType::Flow: return "flow";
    case NodeType::Connection: return "connection";
    }
    return "?";
}

json skeletonJson(const CurveSkeleton& s)
{
    json nodes = json::array();
    for (int i = 0; i < s.nodeCount(); ++i)
        nodes.push_back({{"id", i},
                         {"type", nodeTypeName(s.types[i])},
                         {"position", {s.positions(i, 0), s.positions(i, 1), s.positions(i, 2)}},
                         {"radius", s.radii[i]},
                         {"parent", s.parents[i]}});
    json edges = json::array();
    for (const auto& e : s.edges)
        edges.push_back({e[0], e[1]});
    return {{"root", s.root}, {"nodes", nodes}, {"edges", edges}, {"segments", s.segments}};
}

/// Loads a character and runs the curve-skeleton stage, recording the stages.
std::pair<RigProject, StageTimings> runSkeletonStage(const std::string& file, int resolution)
{
    StageTimings stages;
    StageClock clock(stages);
    RigProject project;
    project.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter(file)));
    clock.lap("load");
    CurveSkeletonOptions options;
    options.voxelize.resolution = resolution;
    project.setCurveSkeletonOptions(options);
    auto result = std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(project));
    stages.insert(stages.end(), result->timings.begin(), result->timings.end());
    project.setCurveSkeleton(result);
    return {project, stages};
}

int cmdSkeleton(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--resolution", "--json"}, {}, "skeleton");
    const std::string file = needFile(a, "skeleton");
    const int resolution = parseResolution(a, "skeleton");
    const auto [project, stages] = runSkeletonStage(file, resolution);
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
    const Args a = parse(raw, {"--report", "--resolution", "--ends", "--template", "--out", "--facing"}, {}, "fit");
    const std::string file = needFile(a, "fit");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith fit: --out rig.json is required");
    const std::string templateSpec = a.value("--template").value_or("humanoid21");
    auto [project, stages] = runSkeletonStage(file, parseResolution(a, "fit"));
    StageClock clock(stages);
    project.setRigTemplate(std::make_shared<const RigTemplate>(resolveTemplate(templateSpec)));
    project.setFront(parseFacing(a.value("--facing").value_or("+z")));
    const CurveSkeleton& s = project.curveSkeleton()->refined;
    const std::string endsSpec = a.value("--ends").value_or("auto");
    const EndNodeLabels labels = endsSpec == "auto" ? suggestLabels(project) : parseEndNodeLabels(endsSpec);
    clock.lap("label");
    const FitResult rig = fitRig(project, labels);
    clock.lap("fit");
    writeRigFile({rig.skeleton, labels, templateSpec}, *out);
    clock.lap("save");
    json joints = json::array();
    for (int j = 0; j < rig.skeleton.jointCount(); ++j)
        joints.push_back(rig.skeleton.names[j]);
    std::cout << file << ": " << rig.skeleton.jointCount() << "-joint rig from template " << templateSpec << '\n'
              << "  labels  " << formatEndNodeLabels(labels) << '\n'
              << "  hips    node " << rig.chains.hips << ", chest node " << rig.chains.chest << '\n'
              << "  wrote   " << *out << '\n';
    json results = {{"out", *out},
                    {"template", templateSpec},
                    {"joints", rig.skeleton.jointCount()},
                    {"joint_names", joints},
                    {"labels", formatEndNodeLabels(labels)},
                    {"end_nodes", s.count(NodeType::End)}};
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
    return 0;
}

/// `--method` of `rigsmith weights`: a weight method, or "file" (the file's own weights).
std::optional<WeightMethod> parseWeightsMethodArg(const std::string& m)
{
    if (m == "file")
        return std::nullopt;
    return parseWeightMethod(m);
}

/// The weights file of `rigsmith weights` (format rigsmith-weights, version 1).
json weightsJson(const std::string& source, const std::string& method, const std::string& segmentation,
                 bool fileSkeleton, const Skeleton& s, const SkinWeights& w, const Segmentation* seg)
{
    json joints = json::array();
    for (int j = 0; j < s.jointCount(); ++j)
        joints.push_back({{"name", s.names[j]},
                          {"parent", s.parents[j]},
                          {"position", {s.bindPositions(j, 0), s.bindPositions(j, 1), s.bindPositions(j, 2)}}});
    json vertices = json::array();
    for (int i = 0; i < w.vertexCount(); ++i) {
        json js = json::array(), ws = json::array();
        for (int k = 0; k < w.maxInfluences; ++k)
            if (w.weights(i, k) > 0.0f) {
                js.push_back(w.joints(i, k));
                ws.push_back(w.weights(i, k));
            }
        json v = {{"joints", js}, {"weights", ws}};
        if (seg) {
            v["bone"] = seg->bone[i];
            v["delta"] = seg->delta[i];
        }
        vertices.push_back(std::move(v));
    }
    return {{"format", "rigsmith-weights"},
            {"version", 1},
            {"source", source},
            {"method", method},
            {"segmentation", segmentation},
            {"skeleton", fileSkeleton ? "file" : "fitted"},
            {"max_influences", w.maxInfluences},
            {"joints", joints},
            {"vertex_count", w.vertexCount()},
            {"vertices", vertices}};
}

json diagnosticsJson(const WeightDiagnostics& d, const Skeleton& s)
{
    json parts = json::array();
    for (const RigidPart& p : d.rigidParts)
        parts.push_back({{"part", p.part},
                         {"name", p.name},
                         {"bone", s.names[static_cast<size_t>(p.bone)]},
                         {"vertices", p.vertexCount},
                         {"reason", p.reason}});
    return {{"unreached_vertices", d.unreachedVertices},
            {"rigid_parts", parts},
            {"bleeding_vertices", d.bleedingVertices},
            {"messages", d.messages}};
}

int cmdWeights(const std::vector<std::string>& raw)
{
    const Args a = parse(raw,
                         {"--report", "--resolution", "--ends", "--template", "--out", "--facing", "--method",
                          "--segmentation"},
                         {"--use-file-skeleton"}, "weights");
    const std::string file = needFile(a, "weights");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith weights: --out OUT.json is required");
    const std::string methodName = a.value("--method").value_or("gaussian");
    const std::optional<WeightMethod> method = parseWeightsMethodArg(methodName);
    WeightOptions options;
    options.method = method.value_or(WeightMethod::Segmentation);
    options.segmentation.method = parseSegmentationMethod(a.value("--segmentation").value_or("3.2.4"));
    const int resolution = parseResolution(a, "weights");
    const bool useFileSkeleton = a.flag("--use-file-skeleton");
    if (!method && !useFileSkeleton)
        throw Error("rigsmith weights: --method file copies the file's own weights; it needs --use-file-skeleton");

    StageTimings stages;
    RigProject project;
    std::optional<FitResult> fileRig;
    VoxelGrid solid;
    if (useFileSkeleton) {
        StageClock clock(stages);
        project.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter(file)));
        clock.lap("load");
        const auto& imported = project.character()->imported;
        if (!imported.skeleton)
            throw Error("rigsmith weights: '" + file +
                        "' has no skeleton; drop --use-file-skeleton to extract and fit one");
        fileRig = rigFromImportedSkeleton(*imported.skeleton);
        clock.lap("file_skeleton");
        if (method) { // the solid, for visibility (heat) and line of sight (3.2.2)
            VoxelizeOptions v;
            v.resolution = resolution;
            const VoxelGrid surface = voxelizeSurface(imported.mesh, v);
            clock.lap("voxelize");
            solid = fillInterior(surface, imported.mesh).grid;
            clock.lap("fill");
        }
    } else {
        std::tie(project, stages) = runSkeletonStage(file, resolution);
        StageClock clock(stages);
        project.setRigTemplate(std::make_shared<const RigTemplate>(resolveTemplate(a.value("--template").value_or("humanoid21"))));
        project.setFront(parseFacing(a.value("--facing").value_or("+z")));
        const std::string endsSpec = a.value("--ends").value_or("auto");
        const EndNodeLabels labels = endsSpec == "auto" ? suggestLabels(project) : parseEndNodeLabels(endsSpec);
        clock.lap("label");
        project.setRig(labels, std::make_shared<const FitResult>(fitRig(project, labels)));
        clock.lap("fit");
    }
    const Mesh& mesh = project.character()->imported.mesh;
    const Skeleton& skeleton = fileRig ? fileRig->skeleton : project.rig()->skeleton;

    std::optional<SkinningResult> result;
    SkinWeights fileWeights;
    if (method) {
        project.setWeightOptions(options);
        result = fileRig ? computeSkinning(mesh, skeleton, &solid, options) : computeSkinning(project);
        stages.insert(stages.end(), result->timings.begin(), result->timings.end());
    } else {
        StageClock clock(stages);
        fileWeights = skinWeightsFromReference(project.character()->imported.skeleton->W);
        clock.lap("weights");
    }
    StageClock clock(stages);
    const SkinWeights& weights = result ? result->weights : fileWeights;
    writeJsonFile(*out, weightsJson(file, methodName, method ? std::string(segmentationMethodName(options.segmentation.method)) : "",
                                    useFileSkeleton, skeleton, weights, result ? &result->segmentation : nullptr));
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
                  << "  bleeding vertices   " << d.bleedingVertices << '\n';
        for (const std::string& m : d.messages)
            std::cout << "  note: " << m << '\n';
        results["segmentation"] = segmentationMethodName(options.segmentation.method);
        results["diagnostics"] = diagnosticsJson(d, skeleton);
    }
    for (const auto& st : stages)
        std::cout << "  " << st.name << std::string(20 - std::min<size_t>(19, st.name.size()), ' ') << st.seconds
                  << " s\n";
    std::cout << "  wrote " << *out << '\n';
    writeReport(a, "weights", file, stages, results);
    return 0;
}

/// Reads a rigsmith-weights file as a #V by #J matrix over `skeleton`'s joints (matched by name).
Eigen::SparseMatrix<double, Eigen::RowMajor> readWeightsFile(const std::string& path, const Skeleton& skeleton,
                                                             int vertexCount)
{
    std::ifstream in(path);
    if (!in)
        throw IoError("cannot read '" + path + "': no such file or not readable");
    json j;
    try {
        in >> j;
    } catch (const json::exception& e) {
        throw IoError("'" + path + "' is not valid JSON: " + e.what());
    }
    try {
        if (j.value("format", "") != "rigsmith-weights")
            throw IoError("'" + path + "' is not a weights file (format must be rigsmith-weights; write one with "
                          "rigsmith weights)");
        std::vector<int> map;
        for (const auto& joint : j.at("joints")) {
            const std::string name = joint.at("name").get<std::string>();
            const auto k = skeleton.find(name);
            if (!k)
                throw InvalidInput("'" + path + "' weights joint '" + name +
                                   "', which the file's skeleton does not have; compute the weights with "
                                   "rigsmith weights FILE --use-file-skeleton");
            map.push_back(*k);
        }
        const auto& vertices = j.at("vertices");
        if (static_cast<int>(vertices.size()) != vertexCount)
            throw InvalidInput("'" + path + "' has " + std::to_string(vertices.size()) + " vertices, the mesh " +
                               std::to_string(vertexCount) + "; was it computed for this file?");
        std::vector<Eigen::Triplet<double>> t;
        for (int i = 0; i < vertexCount; ++i) {
            const auto& js = vertices[static_cast<size_t>(i)].at("joints");
            const auto& ws = vertices[static_cast<size_t>(i)].at("weights");
            if (js.size() != ws.size())
                throw InvalidInput("'" + path + "': vertex " + std::to_string(i) +
                                   " has different numbers of joints and weights");
            for (size_t k = 0; k < js.size(); ++k) {
                const int jj = js[k].get<int>();
                if (jj < 0 || jj >= static_cast<int>(map.size()))
                    throw InvalidInput("'" + path + "': vertex " + std::to_string(i) + " uses joint " +
                                       std::to_string(jj) + ", outside the joint list");
                t.emplace_back(i, map[static_cast<size_t>(jj)], ws[k].get<double>());
            }
        }
        Eigen::SparseMatrix<double, Eigen::RowMajor> W(vertexCount, skeleton.jointCount());
        W.setFromTriplets(t.begin(), t.end());
        return W;
    } catch (const json::exception& e) {
        throw IoError("'" + path + "' is not a valid weights file: " + e.what());
    }
}

int cmdCompareWeights(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report"}, {}, "compare-weights");
    if (a.positional.size() != 2)
        throw Error("rigsmith compare-weights: expected FILE (a rigged file) and OUT.json (from rigsmith weights)");
    const std::string& file = a.positional[0];
    const std::string& weightsPath = a.positional[1];
    StageTimings stages;
    StageClock clock(stages);
    const LoadedCharacter c = loadCharacter(file);
    clock.lap("load");
    if (!c.imported.skeleton)
        throw Error("rigsmith compare-weights: '" + file + "' has no skeleton and weights to compare with");
    const FitResult rig = rigFromImportedSkeleton(*c.imported.skeleton);
    const auto W = readWeightsFile(weightsPath, rig.skeleton, c.imported.mesh.vertexCount());
    const SkinWeights weights = skinWeightsFromReference(W);
    clock.lap("read");
    // The file's own animation where it has one (its longest, at most 200
    // frames evenly spaced), else random poses.
    constexpr int maxFrames = 200;
    std::vector<Pose> frames;
    std::string poseSource = std::to_string(WeightCompareOptions{}.randomPoses) + " random poses";
    if (const auto k = longestAnimation(*c.imported.skeleton)) {
        const ImportedAnimation& anim = c.imported.skeleton->animations[static_cast<size_t>(*k)];
        frames = animationPoses(rig.skeleton, *c.imported.skeleton, anim, maxFrames);
        poseSource = "file animation '" + anim.name + "' (" + std::to_string(frames.size()) + " frames";
        if (anim.frameCount() > maxFrames)
            poseSource += " of " + std::to_string(anim.frameCount());
        poseSource += ")";
    }
    const WeightComparison r = compareWeights(c.imported.mesh, rig.skeleton, weights, c.imported.skeleton->W, frames);
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

int cmdRender(int argc, char** argv, const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--out", "--size", "--view", "--resolution", "--clip"},
                         {"--wireframe", "--skeleton", "--voxels", "--xray"}, "render");
    const std::string file = needFile(a, "render");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith render: --out shot.png is required");
    int w = 1280, h = 720;
    if (auto size = a.value("--size")) {
        char x = 0;
        std::istringstream ss(*size);
        if (!(ss >> w >> x >> h) || (x != 'x' && x != 'X') || w < 16 || h < 16 || w > 8192 || h > 8192)
            throw Error("rigsmith render: --size must be WxH between 16x16 and 8192x8192, got '" + *size + "'");
    }
    const auto view = ui::parseViewPreset(QString::fromStdString(a.value("--view").value_or("three-quarter")));
    if (!view)
        throw Error("rigsmith render: --view must be front, side, top or three-quarter");
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
        throw Error("rigsmith render: no display; run it under xvfb-run (xvfb-run -a rigsmith render ...)");

    ui::RenderOptions options;
    options.wireframe = a.flag("--wireframe");
    std::optional<double> clip;
    if (const auto c = a.value("--clip")) {
        double t = -1;
        std::istringstream ss(*c);
        if (!(ss >> t) || t < 0 || t > 1)
            throw Error("rigsmith render: --clip takes a position from 0 (front) to 1 (back), got '" + *c + "'");
        clip = t;
    }
    const bool needSkeleton = a.flag("--skeleton") || a.flag("--voxels");
    RigProject project;
    StageTimings stages;
    if (needSkeleton) {
        std::tie(project, stages) = runSkeletonStage(file, parseResolution(a, "render"));
    } else {
        StageClock clock(stages);
        project.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter(file)));
        clock.lap("load");
    }
    StageClock clock(stages);
    const Mesh& mesh = project.character()->imported.mesh;
    ui::SkeletonDrawData skeletonDraw;
    std::vector<ui::VoxelPoint> voxels;
    ui::OffscreenOverlays overlays;
    if (const auto& sk = project.curveSkeleton()) {
        options.skeleton = a.flag("--skeleton");
        skeletonDraw = ui::makeSkeletonDrawData(sk->refined, float(1.8 * sk->solid.voxelSize));
        overlays.skeleton = &skeletonDraw;
        if (a.flag("--voxels")) {
            options.voxels = true;
            voxels = ui::makeVoxelPoints(sk->solid, true);
            overlays.voxels = &voxels;
            overlays.voxelSize = float(sk->solid.voxelSize);
        }
    }
    if (a.flag("--xray"))
        options.meshOpacity = 0.3f;
    if (clip) {
        const Box3 box = boundingBox(mesh);
        options.clip = true;
        options.clipPlane = glm::vec4(0.0f, 0.0f, -1.0f, float(box.max.z() + *clip * (box.min.z() - box.max.z())));
    }
    QGuiApplication app(argc, argv);
    QString error;
    const QImage image = ui::renderOffscreen(mesh, QSize(w, h), *view, options, &error, overlays);
    if (image.isNull())
        throw Error("rigsmith render: " + error.toStdString());
    clock.lap("render");
    if (!image.save(QString::fromStdString(*out)))
        throw IoError("cannot write '" + *out + "': check the folder exists, is writable and the name ends in .png");
    clock.lap("save");
    std::cout << "wrote " << *out << " (" << w << "x" << h << ")\n";
    writeReport(a, "render", file, stages, {{"out", *out}, {"width", w}, {"height", h}});
    return 0;
}

/// `rigsmith bench bar|skinning`: the deformers' figures of issue 6.
int cmdBenchBar(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report"}, {}, "bench bar");
    if (a.positional.size() != 1)
        throw Error("rigsmith bench bar: unexpected argument '" + a.positional.back() + "'");
    StageTimings stages;
    StageClock clock(stages);
    const BarVolumeTable t = barVolumeExperiment();
    clock.lap("volume");
    const CandyWrapper c = barCandyWrapper(180.0);
    clock.lap("candy_wrapper");
    const TwistContinuity k = barTwistContinuity(720.0, 1.0);
    clock.lap("continuity");
    std::printf("Bar 2 x 8 x 2 (thesis 4.4), rest volume %.4f\n", t.restVolume);
    std::printf("Volume error %% = (V0 - V) * 100 / V0, thesis Table 4.2 in brackets\n");
    std::printf("%-9s %20s %20s %20s\n", "step", "LBS", "DQS", "twist-corrected");
    json steps = json::array(), thesis = json::array();
    for (const BarVolumeStep& s : t.steps) {
        std::printf("%-9s %8.2f [%8.2f] %8.2f [%8.2f] %8.2f [%8.2f]\n", s.rotation.c_str(), s.lbs, s.thesisLbs, s.dqs,
                    s.thesisDqs, s.twist, s.thesisTwist);
        steps.push_back({{"step", s.rotation}, {"lbs", s.lbs}, {"dqs", s.dqs}, {"twist", s.twist}});
        thesis.push_back({{"step", s.rotation}, {"lbs", s.thesisLbs}, {"dqs", s.thesisDqs}, {"twist", s.thesisTwist}});
    }
    std::printf("Candy wrapper (j2 twisted %.0f deg, smallest ring radius / rest): LBS %.3f, DQS %.3f, "
                "twist-corrected %.3f\n",
                c.twistDegrees, c.lbs, c.dqs, c.twist);
    std::printf("Twist sweep 0..%.0f deg in %.0f deg steps, largest step / (sqrt 2 * 1 deg):\n", k.maxDegrees,
                k.stepDegrees);
    std::printf("  LBS %.2f at %.0f deg, DQS %.2f at %.0f deg, twist-corrected %.2f at %.0f deg "
                "(wrapped angle: %.2f at %.0f deg)\n",
                k.lbs.maxRatio, k.lbs.atDegrees, k.dqs.maxRatio, k.dqs.atDegrees, k.twist.maxRatio, k.twist.atDegrees,
                k.twistWrapped.maxRatio, k.twistWrapped.atDegrees);
    auto series = [](const ContinuitySeries& s) { return json{{"max_ratio", s.maxRatio}, {"at_degrees", s.atDegrees}}; };
    writeReport(a, "bench", "bar", stages,
                {{"rest_volume", t.restVolume},
                 {"volume_error_percent", steps},
                 {"thesis_volume_error_percent", thesis},
                 {"candy_wrapper", {{"lbs", c.lbs}, {"dqs", c.dqs}, {"twist", c.twist}}},
                 {"continuity",
                  {{"step_degrees", k.stepDegrees}, {"max_degrees", k.maxDegrees}, {"lbs", series(k.lbs)},
                   {"dqs", series(k.dqs)}, {"twist", series(k.twist)}, {"twist_wrapped", series(k.twistWrapped)}}}});
    return 0;
}

int cmdBenchSkinning(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--vertices", "--threads", "--repetitions"}, {}, "bench skinning");
    if (a.positional.size() != 1)
        throw Error("rigsmith bench skinning: unexpected argument '" + a.positional.back() + "'");
    auto number = [&](const char* key, int fallback, int lo) {
        const auto v = a.value(key);
        if (!v)
            return fallback;
        int x = 0;
        const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), x);
        if (ec != std::errc() || end != v->data() + v->size() || x < lo)
            throw Error(std::string("rigsmith bench skinning: ") + key + " needs an integer >= " +
                        std::to_string(lo) + ", got '" + *v + "'");
        return x;
    };
    SkinningTimingOptions o;
    o.vertices = number("--vertices", o.vertices, 200);
    o.threads = number("--threads", o.threads, 0);
    o.repetitions = number("--repetitions", o.repetitions, 1);
    StageTimings stages;
    StageClock clock(stages);
    const SkinningTimings t = timeSkinning(o);
    clock.lap("time");
    std::printf("%d vertices, 4 influences, positions + normals, %d thread(s): median ns/vertex, wall clock "
                "(process CPU time)\n",
                t.vertices, t.threads);
    std::printf("  LBS              %7.2f (%7.2f)\n", t.lbs, t.lbsCpu);
    std::printf("  DQS              %7.2f (%7.2f)  %.2fx LBS\n", t.dqs, t.dqsCpu, t.dqs / t.lbs);
    std::printf("  twist-corrected  %7.2f (%7.2f)  %.2fx LBS\n", t.twist, t.twistCpu, t.twist / t.lbs);
    writeReport(a, "bench", "skinning", stages,
                {{"vertices", t.vertices},
                 {"threads", t.threads},
                 {"ns_per_vertex", {{"lbs", t.lbs}, {"dqs", t.dqs}, {"twist", t.twist}}},
                 {"cpu_ns_per_vertex", {{"lbs", t.lbsCpu}, {"dqs", t.dqsCpu}, {"twist", t.twistCpu}}}});
    return 0;
}

int cmdBench(const std::vector<std::string>& raw)
{
    const std::string what = raw.empty() ? "" : raw[0];
    if (what == "bar")
        return cmdBenchBar(raw);
    if (what == "skinning")
        return cmdBenchSkinning(raw);
    throw Error("rigsmith bench: expected 'bar' or 'skinning' (see rigsmith --help)");
}


/// `rigsmith retarget RIG.json CLIP.bvh --out OUT.bvh|OUT.json`: thesis Ch. 5 (issue 7).
json retargetJson(const RetargetedClip& r, const Skeleton& target)
{
    json frames = json::array();
    for (const Pose& p : r.frames) {
        json rotations = json::array();
        for (const auto& q : p.localRotations)
            rotations.push_back({q.w(), q.x(), q.y(), q.z()});
        frames.push_back({{"root_translation", {p.rootTranslation.x(), p.rootTranslation.y(), p.rootTranslation.z()}},
                          {"rotations", rotations}});
    }
    json joints = json::array();
    for (int j = 0; j < target.jointCount(); ++j)
        joints.push_back({{"name", target.names[static_cast<size_t>(j)]}, {"parent", target.parents[static_cast<size_t>(j)]}});
    return {{"format", "rigsmith-clip"},
            {"version", 1},
            {"name", r.name},
            {"frame_time", r.frameTime},
            {"rotation_convention", "local rotations [w, x, y, z] in each joint's bind frame (rig::Pose); root "
                                    "translation in world space from the bind position"},
            {"joints", joints},
            {"frames", frames}};
}

json mappingJson(const RetargetMapping& m)
{
    json rows = json::array();
    for (size_t i = 0; i < m.joints.size(); ++i) {
        json sources = json::array();
        for (const auto& s : m.joints[i].sources)
            sources.push_back({{"joint", m.sourceNames[static_cast<size_t>(s.joint)]}, {"weight", s.weight}});
        rows.push_back({{"target", m.targetNames[i]},
                        {"level", m.targetLevels[i]},
                        {"match", std::string(retargetMatchName(m.joints[i].match))},
                        {"sources", sources}});
    }
    return rows;
}

int cmdRetarget(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--out", "--rest", "--step"}, {"--no-names", "--no-ground"}, "retarget");
    if (a.positional.size() != 2)
        throw Error("rigsmith retarget: expected RIG.json and CLIP.bvh (see rigsmith --help)");
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
    o.rest = parseRetargetRest(a.value("--rest").value_or("frame0"));
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
    const Motion clip = readBvh(clipPath);
    clock.lap("read");
    const RetargetMapping mapping = mapSkeletons(clip, rig.skeleton, o);
    clock.lap("map");
    RetargetedClip r = retargetClip(clip, rig.skeleton, mapping, o);
    r.name = std::filesystem::path(clipPath).stem().string();
    clock.lap("retarget");
    if (ext == ".bvh")
        writeBvh(retargetedMotion(r, rig.skeleton), *out);
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
              << " unmapped), rest " << retargetRestName(o.rest) << '\n'
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
                 {"rest", std::string(retargetRestName(o.rest))},
                 {"source_joints", clip.jointCount()},
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

/// The mesh a rig is exported with: the imported character's (welded, +Y up, skeleton space).
const Mesh& rigExportMesh(const RigProject& project) { return project.character()->imported.mesh; }

/// Reads a clip and retargets it onto the project's rig (every `step`-th frame).
LoadedClip retargetClipFile(const RigProject& project, const std::string& clipPath, int step)
{
    RetargetOptions options;
    options.frameStep = step;
    LoadedClip clip = loadClip(project, clipPath, options);
    clip.retargeted.name = clip.name.empty() ? std::filesystem::path(clipPath).stem().string() : clip.name;
    return clip;
}

int parseFrameStepOption(const Args& a, const std::string& command)
{
    const auto s = a.value("--frame-step");
    if (!s)
        return 1;
    int n = 0;
    const auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), n);
    if (ec != std::errc() || ptr != s->data() + s->size() || n < 1)
        throw Error("rigsmith " + command + ": --frame-step must be a whole number >= 1, got '" + *s + "'");
    return n;
}

/// Refuses, before any work, an --out the export cannot write: a wrong extension or a missing folder.
void checkExportTarget(const std::string& out, const std::string& command)
{
    std::string ext = std::filesystem::path(out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext != ".glb" && ext != ".bvh")
        throw Error("rigsmith " + command +
                    ": --out must end in .glb (glTF 2.0 binary) or .bvh (the retargeted clip), got '" + out + "'");
    const std::filesystem::path folder = std::filesystem::absolute(out).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        throw IoError(out + ": cannot write there (no such folder: " + folder.string() + ")");
}

/// Writes the export (.glb, or .bvh of the retargeted clip) and returns its size in bytes.
std::uintmax_t writeRigExport(const std::string& out, const RigProject& project, const Skeleton& skeleton,
                           const SkinWeights& weights, const std::optional<RetargetedClip>& clip,
                           const std::string& command)
{
    std::string ext = std::filesystem::path(out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".bvh") {
        if (!clip)
            throw Error("rigsmith " + command + ": " + out + ": a BVH export needs a clip (--clip CLIP.bvh, or a project with one)");
        writeBvh(retargetedMotion(*clip, skeleton), out);
    } else if (ext == ".glb") {
        GltfExportOptions options;
        if (clip)
            options.animationName = clip->name.empty() ? "clip" : clip->name;
        const std::vector<Pose> none;
        exportGltf(out, rigExportMesh(project), skeleton, weights, clip ? std::span<const Pose>(clip->frames) : none,
                   clip ? clip->frameTime : 0.0, options);
    } else {
        throw Error("rigsmith " + command + ": --out must end in .glb (glTF 2.0 binary) or .bvh (the retargeted clip), got '" + out + "'");
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(out, ec);
    return ec ? 0 : size;
}

int cmdRig(const std::vector<std::string>& raw)
{
    const Args a = parse(raw,
                         {"--report", "--resolution", "--ends", "--template", "--out", "--facing", "--weights",
                          "--segmentation", "--clip", "--frame-step", "--project"},
                         {"--save-weights", "--use-file-skeleton"}, "rig");
    const std::string file = needFile(a, "rig");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith rig: --out character.glb is required");
    checkExportTarget(*out, "rig");
    if (a.flag("--use-file-skeleton") && a.value("--ends"))
        throw Error("rigsmith rig: --use-file-skeleton and --ends exclude each other (the file's skeleton needs no labels)");
    const std::string templateSpec = a.value("--template").value_or("humanoid21");
    WeightOptions weightOptions;
    weightOptions.method = parseWeightMethod(a.value("--weights").value_or("gaussian"));
    if (const auto s = a.value("--segmentation"))
        weightOptions.segmentation.method = parseSegmentationMethod(*s);
    const int step = parseFrameStepOption(a, "rig");
    auto [project, stages] = runSkeletonStage(file, parseResolution(a, "rig"));
    StageClock clock(stages);
    project.setRigTemplate(std::make_shared<const RigTemplate>(resolveTemplate(templateSpec)));
    project.setFront(parseFacing(a.value("--facing").value_or("+z")));
    EndNodeLabels labels;
    if (a.flag("--use-file-skeleton")) {
        const auto& imported = project.character()->imported.skeleton;
        if (!imported)
            throw Error("rigsmith rig: " + file + " has no skeleton of its own; leave out --use-file-skeleton to fit one");
        project.setRig(labels, std::make_shared<const FitResult>(rigFromImportedSkeleton(*imported)));
        clock.lap("file skeleton");
    } else {
        const std::string endsSpec = a.value("--ends").value_or("auto");
        labels = endsSpec == "auto" ? suggestLabels(project) : parseEndNodeLabels(endsSpec);
        clock.lap("label");
        project.setRig(labels, std::make_shared<const FitResult>(fitRig(project, labels)));
        clock.lap("fit");
    }
    const Skeleton& skeleton = project.rig()->skeleton;
    project.setWeightOptions(weightOptions);
    auto skinning = std::make_shared<const SkinningResult>(computeSkinning(project));
    clock.add(skinning->timings); // segment, weights, diagnostics
    project.setSkinning(skinning);
    std::optional<RetargetedClip> clip;
    const std::string clipPath = a.value("--clip").value_or("");
    if (!clipPath.empty()) {
        auto loaded = std::make_shared<const LoadedClip>(retargetClipFile(project, clipPath, step));
        clip = loaded->retargeted;
        project.setClip(loaded);
        clock.lap("retarget");
    }
    const auto bytes = writeRigExport(*out, project, skeleton, project.skinning()->weights, clip, "rig");
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
    std::cout << file << ": " << skeleton.jointCount() << "-joint rig, " << weightMethodName(weightOptions.method)
              << " weights, " << rigExportMesh(project).vertexCount() << " vertices";
    if (clip)
        std::cout << ", clip " << clip->name << " (" << clip->frames.size() << " frames at "
                  << 1.0 / clip->frameTime << " fps)";
    std::cout << "\n  labels  " << (a.flag("--use-file-skeleton") ? std::string("(the file's skeleton)") : formatEndNodeLabels(labels)) << "\n  wrote   " << *out << " (" << bytes
              << " bytes)\n";
    for (const auto& m : d.messages)
        std::cout << "  note    " << m << '\n';
    json results = {{"out", *out},
                    {"out_bytes", bytes},
                    {"template", templateSpec},
                    {"joints", skeleton.jointCount()},
                    {"vertices", rigExportMesh(project).vertexCount()},
                    {"labels", formatEndNodeLabels(labels)},
                    {"weights", weightMethodName(weightOptions.method)},
                    {"unreached_vertices", d.unreachedVertices},
                    {"bleeding_vertices", d.bleedingVertices},
                    {"rigid_parts", d.rigidParts.size()},
                    {"frames", clip ? clip->frames.size() : 0},
                    {"frame_time", clip ? clip->frameTime : 0.0}};
    if (const auto projectPath = a.value("--project"))
        results["project"] = *projectPath;
    writeReport(a, "rig", file, stages, results);
    return 0;
}

int cmdExport(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--out", "--frame-step"}, {}, "export");
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
    RestoredProject restored = restoreProject(file);
    clock.lap("restore");
    for (const auto& note : restored.notes)
        std::cerr << "rigsmith export: note: " << note << '\n';
    RigProject& project = restored.project;
    if (!project.rig())
        throw Error("rigsmith export: " + projectPath + " has no rig yet; rig it first (rigsmith rig, or the app)");
    const Skeleton& skeleton = project.rig()->skeleton;
    SkinWeights weights;
    if (restored.weights) {
        weights = *restored.weights;
    } else {
        project.setSkinning(std::make_shared<const SkinningResult>(computeSkinning(project)));
        weights = project.skinning()->weights;
        clock.lap("weights");
    }
    std::optional<RetargetedClip> clip;
    if (!restored.clipPath.empty()) {
        clip = retargetClipFile(project, restored.clipPath, step).retargeted;
        clock.lap("retarget");
    }
    const auto bytes = writeRigExport(*out, project, skeleton, weights, clip, "export");
    clock.lap("export");
    std::cout << projectPath << ": wrote " << *out << " (" << bytes << " bytes, " << skeleton.jointCount()
              << " joints" << (clip ? ", " + std::to_string(clip->frames.size()) + " frames" : std::string()) << ")\n";
    writeReport(a, "export", projectPath, stages,
                {{"out", *out}, {"out_bytes", bytes}, {"joints", skeleton.jointCount()},
                 {"frames", clip ? clip->frames.size() : 0}, {"mesh", file.meshPath}});
    return 0;
}

} // namespace

std::string usage()
{
    return R"(Rigsmith: rig a character mesh.

Usage:
  rigsmith [FILE]                 open the app (on FILE, or on the default character)
  rigsmith info FILE [--json]     mesh statistics: vertices, triangles, parts, watertight, size
  rigsmith render FILE --out shot.png [--size WxH] [--view front|side|top|three-quarter] [--wireframe]
                  [--skeleton] [--voxels] [--xray] [--clip T] [--resolution N]
                                  render the viewport to a PNG (needs a display: use xvfb-run);
                                  --skeleton/--voxels run the curve-skeleton stage and draw it,
                                  --xray makes the mesh see-through, --clip T cuts it at T in [0, 1]
  rigsmith skeleton FILE [--resolution N] [--json OUT.json]
                                  voxelize, thin and build the geometric skeleton (default n = 155):
                                  node counts by type, segments, loops, bridged gaps, stage timings
  rigsmith fit FILE --out rig.json [--ends auto | --ends head=ID,lhand=ID,rhand=ID,lfoot=ID,rfoot=ID]
               [--template humanoid21|FILE.bvh|FILE.json] [--resolution N] [--facing +z|-z|+x|-x]
                                  label the end nodes (auto: head highest, feet lowest, left = up x facing,
                                  +X for the default +Z), fit the template skeleton and write the rig file
  rigsmith weights FILE --out OUT.json [--method gaussian|heat|file] [--segmentation 3.2.1|3.2.2|3.2.4]
                 [--use-file-skeleton] [--ends auto|...] [--template T] [--facing F] [--resolution N]
                                  segment the mesh and compute skinning weights (thesis Alg. 4.2.1, or bone heat)
                                  for the fitted rig, or with --use-file-skeleton for the file's own skeleton;
                                  --method file writes the file's own weights; prints the diagnostics
  rigsmith compare-weights FILE OUT.json
                                  compare weights from 'rigsmith weights --use-file-skeleton' with FILE's own:
                                  mean L1 per vertex, precision and recall (weight >= 0.05), mean and max
                                  vertex distance in % of height by LBS over the frames of FILE's longest
                                  animation (at most 200, evenly spaced), or over 20 random poses (+-45 deg)
                                  when it has none
  rigsmith bench bar             the thesis bar experiment (4.4): volume error per step and deformer beside
                                  Table 4.2, the candy-wrapper figure and the 0-720 deg twist continuity
  rigsmith bench skinning [--vertices N] [--threads T] [--repetitions R]
                                  median ns/vertex of LBS, DQS and twist-corrected LBS (4 influences,
                                  positions + normals; default 100000 vertices, 1 thread)
  rigsmith retarget RIG.json CLIP.bvh --out OUT.bvh|OUT.json [--rest frame0|zero] [--step N]
                  [--no-names] [--no-ground]
                                  retarget a BVH clip onto the rig (thesis Ch. 5): prints the joint mapping,
                                  frames, fps, foot-ground error and stage timings; writes a BVH of the rig's
                                  skeleton or JSON (per-frame local quaternions and root translation)
  rigsmith rig FILE --out character.glb|clip.bvh [--ends auto|head=ID,...] [--weights gaussian|heat]
               [--segmentation 3.2.1|3.2.2|3.2.4] [--clip CLIP.bvh] [--frame-step K] [--resolution N]
               [--template T] [--facing +z|-z|+x|-x] [--use-file-skeleton] [--project P.rsproj [--save-weights]]
                                  the whole pipeline headless: skeleton, labels, fit, weights, the clip
                                  retargeted onto the rig, exported as glTF 2.0 binary (mesh, skin,
                                  animation) or as BVH; --project also saves the session
  rigsmith export PROJECT.rsproj --out character.glb|clip.bvh [--frame-step K]
                                  restore a saved project (mesh, rig edits, weight options, clip) and export it
  rigsmith --help | --version

FILE is a path to any format Assimp reads (FBX, OBJ, glTF, Collada, ...), or
'default' for the bundled character, or 'default:POSE' with POSE one of
t, a, arms-down, knees-bent, sitting, reach, twist.

Every command takes --report R.json and writes
  {"command", "input", "stages": [{"name", "seconds"}], "total_seconds", ...results}.
Errors: one line on stderr and a non-zero exit code.
)";
}

bool isCliInvocation(const std::vector<std::string>& args)
{
    if (args.empty())
        return false;
    const std::string& first = args[0];
    if (first == "--screenshot")
        return false;
    if (first.rfind("-", 0) == 0 || std::find(commands.begin(), commands.end(), first) != commands.end())
        return true;
    // A single existing file (or a default spec) opens in the GUI; anything
    // else is a mistyped command, answered by the CLI with a clear message.
    std::error_code ec;
    return args.size() > 1 || !(isDefaultCharacterSpec(first) || std::filesystem::exists(first, ec));
}

int runCli(int argc, char** argv, const std::vector<std::string>& args)
{
    try {
        const std::string& command = args.at(0);
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        if (command == "--help" || command == "-h") {
            std::cout << usage();
            return 0;
        }
        if (command == "--version") {
            std::cout << "rigsmith " << RIGSMITH_VERSION << '\n';
            return 0;
        }
        if (command == "info")
            return cmdInfo(rest);
        if (command == "render")
            return cmdRender(argc, argv, rest);
        if (command == "skeleton")
            return cmdSkeleton(rest);
        if (command == "fit")
            return cmdFit(rest);
        if (command == "rig")
            return cmdRig(rest);
        if (command == "export")
            return cmdExport(rest);
        if (command == "weights")
            return cmdWeights(rest);
        if (command == "compare-weights")
            return cmdCompareWeights(rest);
        if (command == "retarget")
            return cmdRetarget(rest);
        if (command == "bench")
            return cmdBench(rest);
        std::cerr << "rigsmith: '" << command << "' is neither a command nor a file (see rigsmith --help)\n";
        return 2;
    } catch (const Cancelled&) {
        std::cerr << "rigsmith: cancelled\n";
        return 130;
    } catch (const std::bad_alloc&) {
        std::cerr << "rigsmith: out of memory (the input is too large for this machine)\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "rigsmith: " << e.what() << '\n';
        return 1;
    }
}

} // namespace rig::app
