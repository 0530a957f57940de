// What the `rigsmith` commands share (see cli_common.h).
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
#include "core/export/weights_file.h"
#include "core/rig/bone_names.h"
#include "core/rig/humanoid_check.h"
#include "core/project/project_io.h"
#include "core/motion/bvh_file.h"
#include "core/motion/retarget.h"
#include "core/project/pipeline.h"
#include "core/project/rig_project.h"
#include "core/skin/part_binding.h"
#include "core/rig/fit_checks.h"
#include "core/skin/skinning.h"
#include "core/eval/weight_compare.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include <nlohmann/json.hpp>


#include <algorithm>
#include <charconv>
#include <sstream>
#include <iomanip>
#include <cmath>
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
              {"skeleton_joints", c.imported.skeleton ? c.imported.skeleton->names.size() : 0},
              {"import_warnings", c.imported.info.warnings}};
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
    for (const std::string& w : c.imported.info.warnings) // far from the origin, lost precision
        std::cerr << "rigsmith: warning: " << w << '\n';
    result = orientCharacter(c, orientation);
    if (!result.warning.empty())
        std::cerr << "rigsmith: warning: " << result.warning << '\n';
    return c;
}

std::string fixedOrDash(double v, int decimals)
{
    if (!std::isfinite(v))
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

json humanoidVerdictJson(const HumanoidCheck& check)
{
    return {{"looks_humanoid", check.looksHumanoid()},
            {"body", check.body},
            {"confidence", check.bodyConfidence},
            {"reasons", check.reasons}};
}

json fitWarningsJson(const RigProject& project, const std::string& command, const HumanoidCheck* check,
                     bool labelsChosen)
{
    json out = json::array();
    const FitResult& rig = *project.rig();
    const RigTemplate fittedWith = templateOfFit(*project.rigTemplate(), rig.skeleton); // humanoid51 with fingers
    for (const FitWarning& w : fitWarnings(rig, fittedWith))
        out.push_back({{"kind", w.kind},
                       {"joint", w.joint >= 0 ? json(rig.skeleton.names[static_cast<size_t>(w.joint)]) : json(nullptr)},
                       {"message", w.message}});
    if (check && labelsChosen)
        for (const HumanoidDoubt& d : check->doubts)
            out.push_back({{"kind", d.kind}, {"joint", nullptr}, {"message", d.message}});
    if (check && !project.requireHumanoid() && !check->looksHumanoid())
        out.push_back({{"kind", "forced_not_humanoid"},
                       {"joint", nullptr},
                       {"message", "--force overrode the humanoid check on " + project.character()->source + ": " +
                                       check->message()}});
    for (const json& w : out)
        std::cerr << "rigsmith " << command << ": warning: " << w["message"].get<std::string>() << '\n';
    return out;
}

int strictExit(const Args& a, const std::string& command, const json& warnings)
{
    if (!a.flag("--strict") || warnings.empty())
        return 0;
    std::cerr << "rigsmith " << command << ": --strict: " << warnings.size() << " warning"
              << (warnings.size() == 1 ? "" : "s") << " (above); exit code 3\n";
    return 3;
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
            {"warning", r.warning},
            {"summary", r.summary()}};
}

RigProject projectFor(const std::string& file, int resolution, const OrientationOptions& orientation)
{
    RigProject project;
    project.setCharacterSpec(file);
    project.setOrientation(orientation);
    if (orientation.facing != "auto") // "auto": the load turns the character to face +Z
        project.setFront(parseFacing(orientation.facing));
    CurveSkeletonOptions options;
    options.voxelize.resolution = resolution;
    project.setCurveSkeletonOptions(options);
    return project;
}

void printLoadWarnings(const RigProject& project)
{
    for (const std::string& w : project.character()->imported.info.warnings) // far from the origin, lost precision
        std::cerr << "rigsmith: warning: " << w << '\n';
    if (const std::string& w = project.orientationResult().warning; !w.empty())
        std::cerr << "rigsmith: warning: " << w << '\n';
}

std::pair<RigProject, StageTimings> runSkeletonStage(const std::string& file, int resolution,
                                                     const OrientationOptions& orientation, OrientationResult* result)
{
    RigProject project = projectFor(file, resolution, orientation);
    StageTimings stages = runStages(project, Stage::Load, Stage::Load);
    printLoadWarnings(project); // before the long stage
    if (result)
        *result = project.orientationResult();
    const StageTimings skeleton = runStages(project, Stage::Skeleton, Stage::Skeleton);
    stages.insert(stages.end(), skeleton.begin(), skeleton.end());
    return {project, stages};
}

void applyWeightParams(const Args& a, const std::string& command, WeightOptions& options)
{
    const auto list = a.value("--weight-params");
    if (!list)
        return;
    ParameterValues segmentation = segmentationValues(options.segmentation);
    std::stringstream items(*list);
    for (std::string item; std::getline(items, item, ',');) {
        const size_t dot = item.find('.'), eq = item.find('=');
        if (dot == std::string::npos || eq == std::string::npos || eq < dot)
            throw Error("rigsmith " + command + ": --weight-params item '" + item +
                        "' must read METHOD.KEY=VALUE (e.g. heat.heatConstant=0.5)");
        const std::string id = item.substr(0, dot), key = item.substr(dot + 1, eq - dot - 1), text = item.substr(eq + 1);
        const std::vector<MethodParameter>& parameters =
            id == "segmentation" ? segmentationParameters() : findWeightMethod(id).parameters;
        const auto p = std::find_if(parameters.begin(), parameters.end(), [&](const auto& q) { return q.key == key; });
        double value = 0.0;
        if (p != parameters.end() && !p->choices.empty() &&
            std::find(p->choices.begin(), p->choices.end(), text) != p->choices.end())
            value = double(std::find(p->choices.begin(), p->choices.end(), text) - p->choices.begin());
        else if (const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
                 ec != std::errc() || end != text.data() + text.size())
            throw Error("rigsmith " + command + ": --weight-params " + item + ": '" + text + "' is not a number");
        ParameterValues& target = id == "segmentation" ? segmentation : options.parameters[id];
        target[key] = value;
        checkParameters(parameters, target, id); // names an unknown key or a value out of range
    }
    options.segmentation = segmentationOptions(segmentation);
}

FingerOptions parseFingersArg(const Args& a, const std::string& command)
{
    FingerOptions o;
    const std::string text = a.value("--fingers").value_or("none");
    const size_t colon = text.find(':');
    std::string mode = text.substr(0, colon), count = colon == std::string::npos ? "" : text.substr(colon + 1);
    if (mode.size() == 1 && mode[0] >= '0' && mode[0] <= '9') {
        count = mode;
        mode = "auto";
    }
    try {
        o.mode = parseFingerMode(mode);
    } catch (const InvalidInput& e) {
        throw Error("rigsmith " + command + ": --fingers: " + e.what() + ", optionally with :N (0-5 fingers per hand)");
    }
    if (!count.empty()) {
        if (count.size() != 1 || count[0] < '0' || count[0] > '5')
            throw Error("rigsmith " + command + ": --fingers " + text + ": the finger count must be 0 to 5");
        o.count = count[0] - '0';
        if (o.count == 0)
            o.mode = FingerMode::None;
    }
    return o;
}

RigProject projectFromArgs(const Args& a, const std::string& command, const std::string& file)
{
    RigProject project;
    project.setCharacterSpec(file);
    CurveSkeletonOptions skeletonOptions;
    skeletonOptions.voxelize.resolution = parseResolution(a, command);
    project.setCurveSkeletonOptions(skeletonOptions);
    project.setRigTemplate(std::make_shared<const RigTemplate>(resolveTemplate(a.value("--template").value_or("humanoid21"))));
    project.setFingerOptions(parseFingersArg(a, command));
    const OrientationOptions orientation = parseOrientationArgs(a, command);
    project.setOrientation(orientation);
    if (orientation.facing != "auto") // "auto": the load turns the character to face +Z
        project.setFront(parseFacing(orientation.facing));
    project.setDeformJoints(a.value("--deform-joints").value_or("auto"));
    project.setRequireHumanoid(!a.flag("--force"));
    if (a.flag("--use-file-skeleton"))
        project.setRigSource(RigSource::FileSkeleton);
    else if (const std::string ends = a.value("--ends").value_or("auto"); ends != "auto")
        project.setLabels(parseEndNodeLabels(ends));
    return project;
}

void applyPartBindingArgs(const Args& a, const std::string& command, RigProject& project)
{
    const auto list = a.value("--bind-part");
    if (!list)
        return;
    runStages(project, Stage::Load, Stage::Load);
    const std::vector<CharacterPart> parts = characterParts(project.character()->imported);
    std::vector<PartBinding> bindings;
    std::stringstream items(*list);
    for (std::string item; std::getline(items, item, ',');) {
        const size_t eq = item.rfind('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            throw Error("rigsmith " + command + ": --bind-part item '" + item + "' must be PART=JOINT (e.g. Helmet=Head)");
        const std::string name = item.substr(0, eq);
        auto at = std::find_if(parts.begin(), parts.end(), [&](const CharacterPart& p) { return p.name == name; });
        if (at == parts.end() && std::all_of(name.begin(), name.end(), ::isdigit) && name.size() < 9 &&
            std::stoi(name) >= 1 && std::stoi(name) <= static_cast<int>(parts.size()))
            at = parts.begin() + (std::stoi(name) - 1);
        if (at == parts.end()) {
            std::string names;
            for (const CharacterPart& p : parts)
                names += (names.empty() ? "'" : ", '") + p.name + "'";
            throw Error("rigsmith " + command + ": --bind-part: the character has no part '" + name +
                        "'; its parts are " + names + " (or their numbers 1-" + std::to_string(parts.size()) + ")");
        }
        bindings.push_back({static_cast<int>(at - parts.begin()), at->name, item.substr(eq + 1)});
    }
    project.setPartBindings(bindings);
}

json partsJson(const RigProject& project)
{
    const ImportedCharacter& c = project.character()->imported;
    std::vector<std::string> names;
    for (const CharacterPart& p : characterParts(c))
        names.push_back(p.name);
    json rows = json::array();
    for (const PartWeights& r : partWeights(project.skinning()->weights, project.rig()->skeleton, partVertices(c),
                                            names, project.partBindings()))
        rows.push_back({{"name", r.name},
                        {"vertices", r.vertices},
                        {"binding", r.boundTo.empty() ? std::string("automatic") : r.boundTo},
                        {"dominant_joint", r.dominantJoint},
                        {"dominant_share", r.dominantShare},
                        {"mean_influences", r.meanInfluences},
                        {"rigid", r.rigid}});
    return rows;
}

/// `--method` of `rigsmith weights`: a weight method, or "file" (the file's own weights).
std::optional<std::string> parseWeightsMethodArg(const std::string& m)
{
    if (m == "file")
        return std::nullopt;
    return findWeightMethod(m).id;
}

/// The weights file of `rigsmith weights` (format rigsmith-weights, version 1).
json weightsJson(const std::string& source, const std::string& method, const std::string& segmentation,
                 bool fileSkeleton, const Skeleton& s, const SkinWeights& w, const Segmentation* seg,
                 const SourceAsset* file)
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
    json out = {{"format", "rigsmith-weights"},
                {"version", 1},
                {"source", source},
                {"method", method},
                {"segmentation", segmentation},
                {"skeleton", fileSkeleton ? "file" : "fitted"},
                {"max_influences", w.maxInfluences},
                {"joints", joints},
                {"vertex_count", w.vertexCount()},
                {"vertices", vertices}};
    if (file && !file->empty()) {
        json meshes = json::array();
        for (const SourceMesh& m : file->meshes)
            meshes.push_back({{"name", m.name}, {"node", m.nodeName}, {"vertex_count", m.vertexCount()}, {"welded", m.welded}});
        out["source_meshes"] = meshes;
    }
    return out;
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
    json far = json::array();
    for (const FarReach& f : d.farReach) {
        json around = json::array();
        for (int j : f.around)
            around.push_back(s.names[static_cast<size_t>(j)]);
        far.push_back({{"bone", s.names[static_cast<size_t>(f.joint)]},
                       {"vertices", f.vertices},
                       {"farthest", f.farthest},
                       {"around", around}});
    }
    json unmoved = json::array();
    for (int j : d.bonesWithoutVertices)
        unmoved.push_back(s.names[static_cast<size_t>(j)]);
    return {{"unreached_vertices", d.unreachedVertices},
            {"rigid_parts", parts},
            {"bleeding_vertices", d.bleedingVertices},
            {"far_reaching_vertices", d.farReachingVertices},
            {"far_reach", far},
            {"bones_without_vertices", unmoved},
            {"messages", d.messages}};
}

/// `rigsmith retarget RIG.json CLIP.bvh --out OUT.bvh|OUT.json`: thesis Ch. 5 (issue 7).
json retargetJson(const RetargetedClip& r, const Skeleton& target)
{
    json frames = json::array();
    for (size_t f = 0; f < r.frames.size(); ++f) {
        json rotations = json::array();
        for (const auto& q : r.frames.rotationsOf(f))
            rotations.push_back({q.w(), q.x(), q.y(), q.z()});
        const Vec3& t = r.frames.rootTranslations[f];
        frames.push_back({{"root_translation", {t.x(), t.y(), t.z()}}, {"rotations", rotations}});
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
                        {"sources", sources},
                        {"note", m.joints[i].note}});
    }
    return rows;
}

/// The mesh the pipeline rigs: the imported character's (welded, +Y up, skeleton space); the
/// export writes the file's own meshes (SourceAsset) where the character has them.
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
    if (ext != ".glb" && ext != ".gltf" && ext != ".bvh")
        throw Error("rigsmith " + command +
                    ": --out must end in .glb (glTF 2.0 binary), .gltf (glTF 2.0 with its images beside it) or .bvh "
                    "(the retargeted clip), got '" + out + "'");
    const std::filesystem::path folder = std::filesystem::absolute(out).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        throw IoError(out + ": cannot write there (no such folder: " + folder.string() + ")");
}

ExportFlags parseExportFlags(const Args& a, const std::string& command)
{
    ExportFlags f;
    f.noClip = a.flag("--no-clip");
    f.gltf.rootTranslation = !a.flag("--no-root-motion");
    if (const auto list = a.value("--clips")) {
        std::stringstream in(*list);
        for (std::string item; std::getline(in, item, ',');)
            if (!item.empty())
                f.extraClips.push_back(item);
    }
    if (const auto frames = a.value("--frames")) {
        const auto colon = frames->find(':');
        int first = 0, last = -1;
        bool ok = colon != std::string::npos;
        if (ok) {
            const std::string a0 = frames->substr(0, colon), a1 = frames->substr(colon + 1);
            auto number = [&](const std::string& t, int& v) {
                const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
                return ec == std::errc() && ptr == t.data() + t.size() && v >= 0;
            };
            ok = (a0.empty() || number(a0, first)) && (a1.empty() || number(a1, last)) && (last < 0 || first <= last);
        }
        if (!ok)
            throw Error("rigsmith " + command + ": --frames must be FIRST:LAST (frame numbers from 0, FIRST <= LAST; "
                        "either may be left out), got '" + *frames + "'");
        f.gltf.firstFrame = first;
        f.gltf.lastFrame = last;
    }
    const std::string units = a.value("--units").value_or("source");
    if (units != "source" && units != "metres" && units != "meters")
        throw Error("rigsmith " + command + ": --units must be source or metres, got '" + units + "'");
    f.metres = units != "source";
    f.names = a.value("--names").value_or("rigsmith");
    try {
        validateBoneNamePreset(f.names);
    } catch (const InvalidInput& e) {
        throw Error("rigsmith " + command + ": --names: " + e.what());
    }
    return f;
}

std::uintmax_t writeRigExport(const std::string& out, const RigProject& project, const Skeleton& rigSkeleton,
                           const SkinWeights& weights, const std::optional<RetargetedClip>& clip,
                           const std::string& command, const ExportFlags& flags)
{
    const Skeleton skeleton = withBoneNames(rigSkeleton, flags.names); // the engine's names (--names)
    std::string ext = std::filesystem::path(out).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".bvh") {
        if (!clip)
            throw Error("rigsmith " + command + ": " + out + ": a BVH export needs a clip (--clip CLIP.bvh, or a project with one)");
        writeRetargetedBvh(*clip, skeleton, out);
    } else if (ext == ".glb" || ext == ".gltf") {
        const ImportedCharacter& character = project.character()->imported;
        GltfExportOptions options = flags.gltf;
        if (flags.metres) {
            if (character.info.metresPerUnit > 0)
                options.scale = character.info.metresPerUnit;
            else
                std::cerr << "rigsmith " << command << ": warning: " << project.character()->displayName
                          << " does not say its units; --units metres keeps them as they are\n";
        }
        std::vector<RetargetedClip> extra;
        for (const std::string& path : flags.extraClips)
            extra.push_back(retargetClipFile(project, path, 1).retargeted);
        // The glTF writer takes lists of poses: copies of the flat clips for the export.
        std::vector<std::vector<Pose>> poses;
        if (clip && !flags.noClip)
            poses.push_back(toPoses(clip->frames));
        for (const RetargetedClip& c : extra)
            poses.push_back(toPoses(c.frames));
        std::vector<GltfClip> clips;
        size_t k = 0;
        if (clip && !flags.noClip)
            clips.push_back({clip->name.empty() ? "clip" : clip->name, poses[k++], clip->frameTime});
        for (const RetargetedClip& c : extra)
            clips.push_back({c.name, poses[k++], c.frameTime});
        const GltfExportReport report = exportCharacterGltf(out, character, skeleton, weights, clips, options);
        for (const std::string& w : report.warnings)
            std::cerr << "rigsmith " << command << ": warning: " << w << '\n';
    } else {
        throw Error("rigsmith " + command + ": --out must end in .glb, .gltf or .bvh, got '" + out + "'");
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(out, ec);
    return ec ? 0 : size;
}

} // namespace rig::app
