#include "core/export/project_file.h"

#include "core/common/error.h"
#include "core/common/atomic_write.h"
#include "core/export/strict_json.h"
#include "core/voxel/voxelize.h" // kMinVoxelResolution, kMaxVoxelResolution

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <sys/stat.h>
#include <time.h>

namespace rig {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

constexpr std::uint64_t kProjectVersion = 1; ///< The version this build reads and writes.
constexpr int kMaxStoredInfluences = 64;     ///< "computed_weights": "influences" above this is corrupt.

/// The bundled character: "default", "default:POSE", "default+skirt", "default:t+props" (no file to hash).
bool isBundled(const std::string& spec)
{
    return spec == "default" || spec.rfind("default:", 0) == 0 || spec.rfind("default+", 0) == 0;
}

std::string hashText(std::uint64_t h)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "fnv1a64:%016" PRIx64, h);
    return buf;
}

/// The folder of the project file, absolute.
fs::path projectFolder(const std::string& projectPath)
{
    return fs::absolute(fs::path(projectPath)).lexically_normal().parent_path();
}

/// {"path": relative to the project folder (when it can be expressed), "absolute_path": absolute}.
Json pathJson(const std::string& path, const std::string& projectPath)
{
    if (isBundled(path))
        return {{"path", path}};
    const fs::path abs = fs::absolute(fs::path(path)).lexically_normal();
    const fs::path rel = abs.lexically_relative(projectFolder(projectPath));
    // Relative when the file is near the project (inside its folder, or at most two folders up);
    // a path climbing to the root ("../../usr/share/...") is clearer absolute.
    int up = 0;
    for (const auto& part : rel)
        up += part == "..";
    const bool near = !rel.empty() && up <= 2;
    return {{"path", near ? rel.generic_string() : abs.string()}, {"absolute_path", abs.string()}};
}

/// The path to use: the relative one if it exists, else the absolute one, else the relative one resolved.
std::string resolvePath(const Json& j, const std::string& projectPath)
{
    const std::string path = j.at("path").get<std::string>();
    if (isBundled(path))
        return path;
    const fs::path p(path);
    const fs::path resolved = p.is_absolute() ? p : (projectFolder(projectPath) / p).lexically_normal();
    std::error_code ec;
    if (fs::exists(resolved, ec))
        return resolved.string();
    if (j.contains("absolute_path") && j["absolute_path"].is_string()) {
        const std::string abs = j["absolute_path"].get<std::string>();
        if (fs::exists(abs, ec))
            return abs;
    }
    return resolved.string(); // missing either way: checkProjectMesh() reports it
}

Json skeletonJson(const Skeleton& s)
{
    Json joints = Json::array();
    for (int j = 0; j < s.jointCount(); ++j) {
        const auto& q = s.bindOrientations[static_cast<size_t>(j)];
        joints.push_back({{"name", s.names[static_cast<size_t>(j)]},
                          {"parent", s.parents[static_cast<size_t>(j)]},
                          {"position", {s.bindPositions(j, 0), s.bindPositions(j, 1), s.bindPositions(j, 2)}},
                          {"orientation", {q.w(), q.x(), q.y(), q.z()}}});
    }
    return joints;
}

/// Reads typed fields, throwing IoErrors that name the file and the field.
struct Reader {
    std::string path;

    IoError fail(const std::string& what) const { return IoError(path + ": " + what); }

    std::vector<double> numbers(const Json& v, const std::string& where, size_t count) const
    {
        if (!v.is_array() || v.size() != count ||
            !std::all_of(v.begin(), v.end(), [](const Json& x) { return x.is_number(); }))
            throw fail(where + " must be an array of " + std::to_string(count) + " numbers");
        std::vector<double> out;
        for (const Json& x : v)
            out.push_back(x.get<double>());
        return out;
    }
    const Json& field(const Json& o, const char* key, const std::string& where) const
    {
        if (!o.contains(key))
            throw fail(where + ": \"" + key + "\" is missing");
        return o[key];
    }
    std::string text(const Json& o, const char* key, const std::string& where) const
    {
        const Json& v = field(o, key, where);
        if (!v.is_string())
            throw fail(where + ": \"" + key + "\" must be a string");
        return v.get<std::string>();
    }
    double number(const Json& o, const char* key, const std::string& where) const
    {
        const Json& v = field(o, key, where);
        if (!v.is_number())
            throw fail(where + ": \"" + key + "\" must be a number");
        return v.get<double>();
    }
    /// A whole number in [lo, hi], range-checked as the JSON number it is (never narrowed).
    int integer(const Json& o, const char* key, const std::string& where, int lo = std::numeric_limits<int>::min(),
                int hi = std::numeric_limits<int>::max()) const
    {
        return static_cast<int>(jsonInteger(field(o, key, where), lo, hi, path, where + ": \"" + key + "\""));
    }

    Skeleton skeleton(const Json& joints) const
    {
        if (!joints.is_array() || joints.empty())
            throw fail("\"rig\" must be a non-empty array of joints");
        Skeleton s;
        const auto n = static_cast<Eigen::Index>(joints.size());
        s.bindPositions.resize(n, 3);
        for (Eigen::Index j = 0; j < n; ++j) {
            const Json& joint = joints[static_cast<size_t>(j)];
            std::string where = "rig joint " + std::to_string(j);
            if (!joint.is_object())
                throw fail(where + " must be an object");
            const std::string name = text(joint, "name", where);
            where += " '" + name + "'";
            const int parent = integer(joint, "parent", where, -1);
            const auto p = numbers(field(joint, "position", where), where + ": \"position\"", 3);
            const auto q = numbers(field(joint, "orientation", where), where + ": \"orientation\"", 4);
            s.names.push_back(name);
            s.parents.push_back(parent);
            s.bindPositions.row(j) = Vec3(p[0], p[1], p[2]).transpose();
            s.bindOrientations.emplace_back(q[0], q[1], q[2], q[3]);
        }
        try {
            validateSkeleton(s);
        } catch (const InvalidInput& e) {
            throw fail(std::string("\"rig\": ") + e.what());
        }
        return s;
    }
};

/// The version of the project already at `path`, when there is one that says so
/// (unreadable or corrupt files, and other formats, give nothing: they may be overwritten).
std::optional<std::string> existingNewerVersion(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const Json doc = Json::parse(buffer.str(), nullptr, false);
    if (!doc.is_object() || !doc.contains("format") || doc["format"] != "rigsmith-project" || !doc.contains("version"))
        return std::nullopt;
    const Json& v = doc["version"];
    const bool newer = (v.is_number_unsigned() && v.get<std::uint64_t>() > kProjectVersion) ||
                       (v.is_number_float() && v.get<double>() > static_cast<double>(kProjectVersion));
    return newer ? std::optional<std::string>(jsonValueText(v)) : std::nullopt;
}

/// Seconds since the epoch (with nanoseconds) of a file's last change; nothing when it cannot be read.
std::optional<timespec> modificationTime(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    return st.st_mtim;
}

bool before(const timespec& a, const timespec& b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

/// Removes the temporary files "NAME.tmp.XXXXXX" that `writeFileAtomically()` left
/// beside `path` when a save was killed, if they are older than `than` (the start
/// of the save that just succeeded: a newer one may belong to a save under way).
void removeStaleTemporaries(const std::string& path, const timespec& than)
{
    const fs::path target = fs::absolute(fs::path(path));
    const std::string prefix = target.filename().string() + ".tmp.";
    std::error_code ec;
    for (fs::directory_iterator it(target.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() != prefix.size() + 6 || name.compare(0, prefix.size(), prefix) != 0)
            continue;
        std::error_code fileEc;
        if (!it->is_regular_file(fileEc))
            continue;
        const auto t = modificationTime(it->path().string());
        if (t && before(*t, than))
            fs::remove(it->path(), fileEc); // best effort: the save itself succeeded
    }
}

} // namespace

std::uint64_t fnv1a64(std::string_view bytes)
{
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

std::uint64_t fileHash(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw IoError(path + ": cannot open the file to compute its hash");
    std::uint64_t h = 14695981039346656037ull;
    std::vector<char> buf(1 << 16);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        const std::streamsize n = in.gcount();
        for (std::streamsize i = 0; i < n; ++i) {
            h ^= static_cast<unsigned char>(buf[static_cast<size_t>(i)]);
            h *= 1099511628211ull;
        }
    }
    if (in.bad())
        throw IoError(path + ": read error while computing its hash");
    return h;
}

void checkProjectWritable(const std::string& path)
{
    if (const auto newer = existingNewerVersion(path))
        throw IoError(path + ": not overwritten: it was written by a newer Rigsmith (project version " + *newer +
                      "; this build writes version " + std::to_string(kProjectVersion) +
                      "); save under another name or update Rigsmith");
}

void writeProjectFile(const ProjectFile& p, const std::string& path)
{
    const std::string fn = "rig::writeProjectFile()";
    checkProjectWritable(path);
    timespec started {};
    ::clock_gettime(CLOCK_REALTIME, &started);
    Json doc = {{"format", "rigsmith-project"}, {"version", kProjectVersion}};
    Json mesh = pathJson(p.meshPath, path);
    if (!isBundled(p.meshPath)) {
        mesh["hash"] = hashText(p.meshHash);
        mesh["bytes"] = p.meshBytes;
    }
    doc["mesh"] = mesh;
    doc["skeleton"] = {{"resolution", p.resolution}};
    doc["facing"] = p.facing;
    doc["orientation"] = {{"up", p.orientationUp},
                          {"facing", p.orientationFacing},
                          {"file_silent", p.orientationShapeWhereSilent ? "shape" : "import guess"}};
    doc["template"] = p.templateSpec;
    if (p.fingerMode != "none")
        doc["fingers"] = {{"mode", p.fingerMode}, {"count", p.fingerCount}};
    if (p.deformer != "lbs")
        doc["deformer"] = p.deformer;
    if (p.labels) {
        Json labels = Json::object();
        for (Limb l : allLimbs)
            labels[std::string(limbKey(l))] = (*p.labels)[l];
        doc["labels"] = labels;
    }
    if (p.rig) {
        try {
            validateSkeleton(*p.rig);
        } catch (const InvalidInput& e) {
            throw InvalidInput(fn + ": the rig is invalid (" + e.what() + "); not saved to " + path);
        }
        doc["rig"] = skeletonJson(*p.rig);
    }
    Json weights = {{"method", p.weights.method}};
    for (const auto& [k, v] : p.weights.names)
        weights[k] = v;
    for (const auto& [k, v] : p.weights.numbers)
        weights[k] = v;
    doc["weights"] = weights;
    if (!p.partBindings.empty()) {
        Json parts = Json::array();
        for (const PartBinding& b : p.partBindings)
            parts.push_back({{"index", b.part}, {"name", b.partName}, {"joint", b.joint}});
        doc["parts"] = parts;
    }
    if (!p.clipPath.empty())
        doc["clip"] = pathJson(p.clipPath, path);
    if (p.camera) {
        const ProjectCamera& c = *p.camera;
        doc["camera"] = {{"target", {c.target.x(), c.target.y(), c.target.z()}},
                         {"yaw", c.yaw},
                         {"pitch", c.pitch},
                         {"distance", c.distance}};
    }
    if (p.computedWeights) {
        const SkinWeights& w = *p.computedWeights;
        if (w.joints.rows() != w.weights.rows() || w.joints.cols() != w.weights.cols() || w.joints.cols() < 1)
            throw InvalidInput(fn + ": the computed weights' joint and weight arrays differ in size; not saved to " +
                               path);
        Json J = Json::array(), W = Json::array();
        for (Eigen::Index r = 0; r < w.joints.rows(); ++r)
            for (Eigen::Index c = 0; c < w.joints.cols(); ++c) {
                J.push_back(w.joints(r, c));
                W.push_back(w.weights(r, c));
            }
        doc["computed_weights"] = {{"influences", w.joints.cols()}, {"joints", J}, {"weights", W}};
    }
    if (p.autosaveOf)
        doc["autosave_of"] = p.autosaveOf->empty() ? std::string() : fs::absolute(*p.autosaveOf).lexically_normal().string();
    writeFileAtomically(path, doc.dump(1) + "\n", "the project file");
    removeStaleTemporaries(path, started);
}

ProjectFile readProjectFile(const std::string& path)
{
    return parseProjectFile(readFileBytes(path, "project file"), path);
}

ProjectFile parseProjectFile(std::string_view bytes, const std::string& path)
{
    const Reader r{path};
    const Json doc = parseStrictJson(bytes, path);
    if (!doc.is_object() || !doc.contains("format") || doc["format"] != "rigsmith-project")
        throw r.fail("not a Rigsmith project (\"format\" must be \"rigsmith-project\")");
    const Json& version = doc.contains("version") ? doc["version"] : Json();
    if (!version.is_number_unsigned() || version.get<std::uint64_t>() < 1)
        throw r.fail("\"version\" must be a positive whole number, got " + jsonValueText(version));
    if (version.get<std::uint64_t>() > kProjectVersion)
        throw r.fail("written by a newer Rigsmith (project version " + jsonValueText(version) +
                     "; this build reads version " + std::to_string(kProjectVersion) + "): update Rigsmith to open it");

    ProjectFile p;
    const Json& mesh = r.field(doc, "mesh", "project");
    if (!mesh.is_object())
        throw r.fail("\"mesh\" must be an object like {\"path\": \"hero.fbx\", \"hash\": \"fnv1a64:...\"}");
    r.text(mesh, "path", "\"mesh\"");
    p.meshPath = resolvePath(mesh, path);
    if (!isBundled(p.meshPath)) {
        const std::string h = r.text(mesh, "hash", "\"mesh\"");
        unsigned long long value = 0;
        char tail = 0;
        if (h.rfind("fnv1a64:", 0) != 0 || h.size() != 24 || std::sscanf(h.c_str() + 8, "%16llx%c", &value, &tail) != 1)
            throw r.fail("\"mesh\": \"hash\" must be \"fnv1a64:\" and 16 hex digits");
        p.meshHash = value;
        if (mesh.contains("bytes")) {
            if (!mesh["bytes"].is_number_unsigned())
                throw r.fail("\"mesh\": \"bytes\" must be a non-negative whole number, got " +
                             jsonValueText(mesh["bytes"]));
            p.meshBytes = mesh["bytes"].get<std::uint64_t>();
        }
    }
    if (doc.contains("skeleton")) {
        if (!doc["skeleton"].is_object())
            throw r.fail("\"skeleton\" must be an object like {\"resolution\": 155}");
        p.resolution = r.integer(doc["skeleton"], "resolution", "\"skeleton\"", kMinVoxelResolution, kMaxVoxelResolution);
    }
    if (doc.contains("facing"))
        p.facing = r.text(doc, "facing", "project");
    if (doc.contains("orientation")) {
        const Json& o = doc["orientation"];
        if (!o.is_object())
            throw r.fail("\"orientation\" must be an object like {\"up\": \"auto\", \"facing\": \"+z\"}");
        p.orientationUp = r.text(o, "up", "\"orientation\"");
        p.orientationFacing = r.text(o, "facing", "\"orientation\"");
        p.orientationShapeWhereSilent = false; // saved before stop 36 unless it says
        if (o.contains("file_silent")) {
            const std::string silent = r.text(o, "file_silent", "\"orientation\"");
            if (silent != "shape" && silent != "import guess")
                throw r.fail("\"orientation\" \"file_silent\" must be \"shape\" or \"import guess\", got \"" + silent +
                             "\"");
            p.orientationShapeWhereSilent = silent == "shape";
        }
    } else {
        p.orientationShapeWhereSilent = false; // a version 1 project from before "orientation"
    }
    if (doc.contains("template"))
        p.templateSpec = r.text(doc, "template", "project");
    if (doc.contains("fingers")) {
        const Json& f = doc["fingers"];
        if (!f.is_object())
            throw r.fail("\"fingers\" must be an object like {\"mode\": \"auto\", \"count\": -1}");
        p.fingerMode = r.text(f, "mode", "\"fingers\"");
        p.fingerCount = r.integer(f, "count", "\"fingers\"", -1, 5);
    }
    if (doc.contains("deformer"))
        p.deformer = r.text(doc, "deformer", "project");
    if (doc.contains("labels") && !doc["labels"].is_null()) {
        const Json& l = doc["labels"];
        if (!l.is_object())
            throw r.fail("\"labels\" must be an object like {\"head\": 12, \"lhand\": 40, ...}");
        EndNodeLabels labels;
        for (Limb limb : allLimbs) {
            const std::string key(limbKey(limb));
            if (l.contains(key))
                labels[limb] = r.integer(l, key.c_str(), "\"labels\"", -1); // -1: not labelled
        }
        p.labels = labels;
    }
    if (doc.contains("rig") && !doc["rig"].is_null())
        p.rig = r.skeleton(doc["rig"]);
    if (doc.contains("weights")) {
        const Json& w = doc["weights"];
        if (!w.is_object())
            throw r.fail("\"weights\" must be an object like {\"method\": \"gaussian\", \"gaussian.a\": 1.3}");
        p.weights.method = r.text(w, "method", "\"weights\"");
        for (auto it = w.begin(); it != w.end(); ++it) {
            if (it.key() == "method")
                continue;
            if (it->is_string())
                p.weights.names[it.key()] = it->get<std::string>();
            else if (it->is_number())
                p.weights.numbers[it.key()] = it->get<double>();
            else
                throw r.fail("\"weights\": \"" + it.key() + "\" must be a string or a number");
        }
    }
    if (doc.contains("parts") && !doc["parts"].is_null()) {
        const Json& parts = doc["parts"];
        if (!parts.is_array())
            throw r.fail("\"parts\" must be an array like [{\"index\": 2, \"name\": \"Helmet\", \"joint\": \"Head\"}]");
        for (const Json& b : parts) {
            if (!b.is_object())
                throw r.fail("\"parts\": each entry must be an object like {\"index\": 2, \"name\": \"Helmet\", \"joint\": \"Head\"}");
            p.partBindings.push_back({r.integer(b, "index", "\"parts\"", 0), r.text(b, "name", "\"parts\""),
                                      r.text(b, "joint", "\"parts\"")});
        }
    }
    if (doc.contains("clip") && !doc["clip"].is_null()) {
        if (!doc["clip"].is_object())
            throw r.fail("\"clip\" must be an object like {\"path\": \"walk.bvh\"}");
        r.text(doc["clip"], "path", "\"clip\"");
        p.clipPath = resolvePath(doc["clip"], path);
    }
    if (doc.contains("camera") && !doc["camera"].is_null()) {
        const Json& c = doc["camera"];
        if (!c.is_object())
            throw r.fail("\"camera\" must be an object like {\"target\": [0, 1, 0], \"yaw\": 0, ...}");
        ProjectCamera cam;
        const auto t = r.numbers(r.field(c, "target", "\"camera\""), "\"camera\": \"target\"", 3);
        cam.target = Vec3(t[0], t[1], t[2]);
        cam.yaw = r.number(c, "yaw", "\"camera\"");
        cam.pitch = r.number(c, "pitch", "\"camera\"");
        cam.distance = r.number(c, "distance", "\"camera\"");
        p.camera = cam;
    }
    if (doc.contains("computed_weights") && !doc["computed_weights"].is_null()) {
        const Json& c = doc["computed_weights"];
        const std::string where = "\"computed_weights\"";
        if (!c.is_object())
            throw r.fail(where + " must be an object");
        const int k = r.integer(c, "influences", where, 1, kMaxStoredInfluences);
        const Json& J = r.field(c, "joints", where);
        const Json& W = r.field(c, "weights", where);
        if (k < 1 || !J.is_array() || !W.is_array() || J.size() != W.size() || J.size() % static_cast<size_t>(k) != 0)
            throw r.fail(where + ": \"joints\" and \"weights\" must be arrays of the same length, a multiple of "
                                 "\"influences\"");
        SkinWeights sw;
        sw.maxInfluences = k;
        const auto rows = static_cast<Eigen::Index>(J.size() / static_cast<size_t>(k));
        sw.joints.resize(rows, k);
        sw.weights.resize(rows, k);
        for (size_t i = 0; i < J.size(); ++i) {
            const auto joint = jsonInteger(J[i], 0, std::numeric_limits<int>::max(), path,
                                           where + ": \"joints\" entry " + std::to_string(i));
            if (!W[i].is_number())
                throw r.fail(where + ": \"weights\" entry " + std::to_string(i) + " must be a number, got " +
                             jsonValueText(W[i]));
            sw.joints(static_cast<Eigen::Index>(i) / k, static_cast<Eigen::Index>(i) % k) = static_cast<int>(joint);
            sw.weights(static_cast<Eigen::Index>(i) / k, static_cast<Eigen::Index>(i) % k) = W[i].get<float>();
        }
        p.computedWeights = std::move(sw);
    }
    if (doc.contains("autosave_of") && !doc["autosave_of"].is_null())
        p.autosaveOf = r.text(doc, "autosave_of", "project");
    return p;
}

MeshCheck checkProjectMesh(const ProjectFile& p)
{
    if (isBundled(p.meshPath))
        return {MeshStatus::Bundled, {}};
    std::error_code ec;
    if (!fs::is_regular_file(p.meshPath, ec))
        return {MeshStatus::Missing, p.meshPath + ": the project's mesh is missing; locate it to open the project"};
    const std::uint64_t h = fileHash(p.meshPath);
    if (h != p.meshHash)
        return {MeshStatus::Changed, p.meshPath + ": the mesh changed since the project was saved (content hash " +
                                         hashText(h) + ", saved " + hashText(p.meshHash) +
                                         "); the saved rig may not fit it"};
    return {MeshStatus::Ok, {}};
}

} // namespace rig
