// What the `rigsmith` commands share (see cli_common.h).
#include "app/cli_common.h"

#include "app/cli.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/eval/bar_experiment.h"
#include "core/eval/skinning_timing.h"
#include "core/project/character_source.h"
#include "core/io/animation_poses.h"
#include "core/io/rig_file.h"
#include "core/io/gltf_export.h"
#include "core/io/project_file.h"
#include "core/project/project_io.h"
#include "core/motion/bvh_file.h"
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
#include "core/rig/fit_checks.h"
#include "core/skin/skinning.h"
#include "core/eval/weight_compare.h"
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
OrientationOptions parseOrientationArgs(const Args& a, const std::string& command, const std::string& defaultUp,
                                        const std::string& defaultFacing)
{
    OrientationOptions o;
    o.up = a.value("--up").value_or(defaultUp);
    o.facing = a.value("--facing").value_or(defaultFacing);
    try {
        validateOrientationOptions(o);
    } catch (const InvalidInput& e) {
        throw Error("rigsmith " + command + ": " + e.what());
    }
    return o;
}

LoadedCharacter loadOriented(const std::string& file, const OrientationOptions& orientation, OrientationResult& result)
{
    LoadedCharacter c = loadCharacter(file);
    result = orientCharacter(c, orientation);
    return c;
}

json fitWarningsJson(const FitResult& rig, const RigTemplate& rigTemplate)
{
    json out = json::array();
    for (const FitWarning& w : checkFit(rig.skeleton, rigTemplate)) {
        std::cout << "  warning: " << w.message << '\n';
        out.push_back({{"kind", w.kind},
                       {"joint", w.joint >= 0 ? json(rig.skeleton.names[static_cast<size_t>(w.joint)]) : json(nullptr)},
                       {"message", w.message}});
    }
    return out;
}

json orientationJson(const OrientationResult& r)
{
    return {{"up", r.fileUp},
            {"up_source", r.upSource},
            {"up_confidence", r.upConfidence},
            {"up_reason", r.upReason},
            {"facing", r.facingSource == "detected" ? r.detectedFront : std::string("given")},
            {"facing_source", r.facingSource},
            {"facing_confidence", r.frontConfidence},
            {"facing_reason", r.frontReason},
            {"turned", r.turned},
            {"summary", r.summary()}};
}

std::pair<RigProject, StageTimings> runSkeletonStage(const std::string& file, int resolution,
                                                     const OrientationOptions& orientation, OrientationResult* result)
{
    StageTimings stages;
    StageClock clock(stages);
    RigProject project;
    OrientationResult r;
    project.setCharacter(std::make_shared<const LoadedCharacter>(loadOriented(file, orientation, r)));
    project.setFront(r.front);
    if (result)
        *result = r;
    clock.lap("load");
    CurveSkeletonOptions options;
    options.voxelize.resolution = resolution;
    project.setCurveSkeletonOptions(options);
    auto result2 = std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(project));
    stages.insert(stages.end(), result2->timings.begin(), result2->timings.end());
    project.setCurveSkeleton(result2);
    return {project, stages};
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

} // namespace rig::app
