#include "core/export/rig_file.h"

#include "core/common/error.h"
#include "core/common/atomic_write.h"
#include "core/export/strict_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

namespace rig {
namespace {

using Json = nlohmann::json;

} // namespace

void writeRigFile(const RigFile& rig, const std::string& path)
{
    validateSkeleton(rig.skeleton);
    const Skeleton& s = rig.skeleton;
    Json joints = Json::array();
    for (int j = 0; j < s.jointCount(); ++j) {
        const auto& q = s.bindOrientations[static_cast<size_t>(j)];
        joints.push_back({{"name", s.names[static_cast<size_t>(j)]},
                          {"parent", s.parents[static_cast<size_t>(j)]},
                          {"position", {s.bindPositions(j, 0), s.bindPositions(j, 1), s.bindPositions(j, 2)}},
                          {"orientation", {q.w(), q.x(), q.y(), q.z()}}});
    }
    Json doc = {{"format", "rigsmith-rig"}, {"version", 1}, {"joints", joints}, {"template", rig.templateName}};
    if (rig.labels) {
        Json labels = Json::object();
        for (Limb l : allLimbs)
            labels[std::string(limbKey(l))] = (*rig.labels)[l];
        doc["labels"] = labels;
    }
    writeFileAtomically(path, doc.dump(2) + "\n", "the rig file"); // nlohmann writes doubles in round-trip form
}

RigFile readRigFile(const std::string& path)
{
    return parseRigFile(readFileBytes(path, "rig file"), path);
}

RigFile parseRigFile(std::string_view bytes, const std::string& path)
{
    const Json doc = parseStrictJson(bytes, path);
    auto fail = [&](const std::string& what) { return IoError(path + ": " + what); };
    if (!doc.is_object() || !doc.contains("format") || doc["format"] != "rigsmith-rig")
        throw fail("not a rig file (\"format\" must be \"rigsmith-rig\")");
    if (!doc.contains("version") || !doc["version"].is_number_unsigned() || doc["version"].get<std::uint64_t>() != 1)
        throw fail("unsupported rig file version " + jsonValueText(doc.contains("version") ? doc["version"] : Json()) +
                   " (this build reads version 1)");
    if (!doc.contains("joints") || !doc["joints"].is_array() || doc["joints"].empty())
        throw fail("\"joints\" must be a non-empty array");

    RigFile rig;
    Skeleton& s = rig.skeleton;
    const Json& joints = doc["joints"];
    const auto n = static_cast<Eigen::Index>(joints.size());
    s.bindPositions.resize(n, 3);
    for (Eigen::Index j = 0; j < n; ++j) {
        const Json& joint = joints[static_cast<size_t>(j)];
        std::string where = "joint " + std::to_string(j);
        if (!joint.is_object() || !joint.contains("name") || !joint["name"].is_string())
            throw fail(where + ": \"name\" must be a string");
        where += " '" + joint["name"].get<std::string>() + "'";
        if (!joint.contains("parent"))
            throw fail(where + ": \"parent\" is missing (-1 for the root)");
        const auto parent = jsonInteger(joint["parent"], -1, std::numeric_limits<int>::max(), path,
                                        where + ": \"parent\" (-1 for the root)");
        auto numbers = [&](const char* key, size_t count) {
            const Json& v = joint.contains(key) ? joint[key] : Json();
            if (!v.is_array() || v.size() != count ||
                !std::all_of(v.begin(), v.end(), [](const Json& x) { return x.is_number(); }))
                throw fail(where + ": \"" + key + "\" must be an array of " + std::to_string(count) + " numbers");
            std::vector<double> out;
            for (const Json& x : v)
                out.push_back(x.get<double>());
            return out;
        };
        const auto p = numbers("position", 3);
        const auto q = numbers("orientation", 4);
        s.names.push_back(joint["name"].get<std::string>());
        s.parents.push_back(static_cast<int>(parent));
        s.bindPositions.row(j) = Vec3(p[0], p[1], p[2]).transpose();
        s.bindOrientations.emplace_back(q[0], q[1], q[2], q[3]);
    }
    try {
        validateSkeleton(s);
    } catch (const InvalidInput& e) {
        throw fail(e.what());
    }
    if (doc.contains("labels") && !doc["labels"].is_null()) {
        const Json& l = doc["labels"];
        if (!l.is_object())
            throw fail("\"labels\" must be an object like {\"head\": 12, \"lhand\": 40, ...}");
        EndNodeLabels labels;
        for (Limb limb : allLimbs) {
            const std::string key(limbKey(limb));
            if (!l.contains(key))
                throw fail("\"labels\": \"" + key + "\" must be a node index (a non-negative integer); it is missing");
            labels[limb] = static_cast<int>(jsonInteger(l[key], 0, std::numeric_limits<int>::max(), path,
                                                        "\"labels\": \"" + key + "\" (a node index)"));
        }
        rig.labels = labels;
    }
    if (doc.contains("template")) {
        if (!doc["template"].is_string())
            throw fail("\"template\" must be a string");
        rig.templateName = doc["template"].get<std::string>();
    }
    return rig;
}

} // namespace rig
