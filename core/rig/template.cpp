#include "core/rig/template.h"

#include "core/common/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unordered_map>
#include <unordered_set>

#ifndef RIGSMITH_RESOURCES_DIR
#define RIGSMITH_RESOURCES_DIR "resources"
#endif

namespace rig {
namespace {

using Json = nlohmann::json;

// "mixamorig:Left_Hand" -> "lefthand": the part after the last ':' (namespaces,
// Mixamo prefixes), lower case, letters and digits only.
std::string normalizedName(const std::string& name)
{
    const auto colon = name.find_last_of(':');
    std::string out;
    for (char ch : name.substr(colon == std::string::npos ? 0 : colon + 1))
        if (std::isalnum(static_cast<unsigned char>(ch)))
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

// Spellings of the five chain-end joints in common conventions (CMU,
// MotionBuilder, Mixamo, Unreal "hand_l", Blender "hand.L", "l_hand").
const std::array<std::vector<std::string>, limbCount>& limbNames()
{
    static const std::array<std::vector<std::string>, limbCount> names = {{
        {"head"},
        {"lefthand", "lhand", "handl", "leftwrist", "lwrist", "wristl"},
        {"righthand", "rhand", "handr", "rightwrist", "rwrist", "wristr"},
        {"leftfoot", "lfoot", "footl", "leftankle", "lankle", "anklel"},
        {"rightfoot", "rfoot", "footr", "rightankle", "rankle", "ankler"},
    }};
    return names;
}

struct Tree {
    const std::vector<int>& parents;
    std::vector<int> depth;
    std::vector<std::vector<int>> children;

    explicit Tree(const std::vector<int>& p) : parents(p), depth(p.size(), 0), children(p.size())
    {
        for (size_t i = 1; i < p.size(); ++i) {
            depth[i] = depth[static_cast<size_t>(p[i])] + 1;
            children[static_cast<size_t>(p[i])].push_back(static_cast<int>(i));
        }
    }
    int lca(int a, int b) const
    {
        while (a != b) {
            if (depth[static_cast<size_t>(a)] >= depth[static_cast<size_t>(b)])
                a = parents[static_cast<size_t>(a)];
            else
                b = parents[static_cast<size_t>(b)];
        }
        return a;
    }
    int median(int a, int b, int c) const
    {
        int m = lca(a, b);
        for (int x : {lca(a, c), lca(b, c)})
            if (depth[static_cast<size_t>(x)] > depth[static_cast<size_t>(m)])
                m = x;
        return m;
    }
    bool isAncestorOrSelf(int a, int v) const
    {
        for (; v >= 0; v = parents[static_cast<size_t>(v)])
            if (v == a)
                return true;
        return false;
    }
    // Path from ancestor a down to v, both included.
    std::vector<int> pathDown(int a, int v) const
    {
        std::vector<int> path;
        for (; v != a; v = parents[static_cast<size_t>(v)])
            path.push_back(v);
        path.push_back(a);
        std::reverse(path.begin(), path.end());
        return path;
    }
};

void checkTemplateInput(const std::string& fn, const std::vector<std::string>& names, const std::vector<int>& parents,
                        const MatrixX3d& offsets, const std::vector<EndSite>& endSites)
{
    const size_t n = names.size();
    if (n == 0)
        throw InvalidInput(fn + "has no joints");
    if (parents.size() != n || static_cast<size_t>(offsets.rows()) != n)
        throw InvalidInput(fn + "has " + std::to_string(n) + " names but " + std::to_string(parents.size()) +
                           " parents and " + std::to_string(offsets.rows()) + " offsets");
    std::unordered_set<std::string> seen;
    for (size_t i = 0; i < n; ++i) {
        if (names[i].empty() || !seen.insert(names[i]).second)
            throw InvalidInput(fn + "has " + (names[i].empty() ? "an unnamed joint" : "joint '" + names[i] + "' twice"));
        const int p = parents[i];
        if (i == 0 ? p != -1 : (p < 0 || p >= static_cast<int>(i)))
            throw InvalidInput(fn + "joint '" + names[i] + "' has parent " + std::to_string(p) +
                               "; need one root first and parents before children");
        if (!offsets.row(static_cast<Eigen::Index>(i)).allFinite())
            throw InvalidInput(fn + "joint '" + names[i] + "' has a NaN or infinite offset");
    }
    for (const EndSite& e : endSites)
        if (e.joint < 0 || e.joint >= static_cast<int>(n) || !e.offset.allFinite())
            throw InvalidInput(fn + "has an End Site on joint " + std::to_string(e.joint) +
                               " (out of range or non-finite)");
}

/// Tip of each joint: its End Site (the longest one), else the joint itself.
std::vector<Vec3> jointTips(const RigTemplate& t, const std::vector<EndSite>& endSites)
{
    std::vector<Vec3> tip(t.names.size());
    for (size_t i = 0; i < tip.size(); ++i)
        tip[i] = t.restPositions.row(static_cast<Eigen::Index>(i)).transpose();
    for (const EndSite& e : endSites) {
        const Vec3 rest = t.restPositions.row(e.joint).transpose();
        if (e.offset.norm() >= (tip[static_cast<size_t>(e.joint)] - rest).norm())
            tip[static_cast<size_t>(e.joint)] = rest + e.offset;
    }
    return tip;
}

/// Step 1: the chain-end joints given explicitly, then those found by name (-1 elsewhere).
std::array<int, limbCount> endsByName(const std::string& fn, const RigTemplate& t,
                                      const std::array<int, limbCount>& limbJoints)
{
    const size_t n = t.names.size();
    std::array<int, limbCount> ends = limbJoints;
    for (int l = 0; l < limbCount; ++l) {
        if (ends[static_cast<size_t>(l)] >= static_cast<int>(n))
            throw InvalidInput(fn + "has no joint " + std::to_string(ends[static_cast<size_t>(l)]) + " for " +
                               std::string(limbKey(static_cast<Limb>(l))));
        if (ends[static_cast<size_t>(l)] >= 0)
            continue;
        const auto& spellings = limbNames()[static_cast<size_t>(l)];
        for (size_t i = 0; i < n && ends[static_cast<size_t>(l)] < 0; ++i)
            if (std::find(spellings.begin(), spellings.end(), normalizedName(t.names[i])) != spellings.end())
                ends[static_cast<size_t>(l)] = static_cast<int>(i);
    }
    return ends;
}

/// Step 2: the chain ends by topology over the extremities (leaves) of the
/// rest pose: the head highest, the feet the lowest two on the branches that
/// meet the head's path at the hips, the hands the outermost on ±X above.
std::array<int, limbCount> endsByTopology(const Tree& tree, const std::vector<Vec3>& tip, size_t& leafCount)
{
    std::vector<int> leaves;
    for (size_t i = 0; i < tip.size(); ++i)
        if (tree.children[i].empty())
            leaves.push_back(static_cast<int>(i));
    leafCount = leaves.size();
    auto y = [&](int j) { return tip[static_cast<size_t>(j)].y(); };
    auto x = [&](int j) { return tip[static_cast<size_t>(j)].x(); };
    std::array<int, limbCount> found = {-1, -1, -1, -1, -1};
    if (leaves.empty())
        return found;
    std::sort(leaves.begin(), leaves.end(), [&](int a, int b) { return y(a) > y(b); });
    const int head = leaves.front();
    found[0] = head;
    if (leaves.size() < 2)
        return found;
    const int f1 = leaves.back();
    const int hip = tree.lca(f1, head);
    int f2 = -1;
    for (auto it = leaves.rbegin() + 1; it != leaves.rend(); ++it)
        if (*it != head && tree.lca(f1, *it) == hip && tree.lca(*it, head) == hip) {
            f2 = *it;
            break;
        }
    if (f2 < 0)
        return found;
    found[3] = x(f1) >= x(f2) ? f1 : f2;
    found[4] = x(f1) >= x(f2) ? f2 : f1;
    int lh = -1, rh = -1;
    for (int j : leaves) {
        if (j == head || tree.lca(j, head) == hip)
            continue;
        if (lh < 0 || x(j) > x(lh))
            lh = j;
        if (rh < 0 || x(j) < x(rh))
            rh = j;
    }
    if (lh >= 0 && rh >= 0 && lh != rh && x(lh) > x(rh)) {
        found[1] = lh;
        found[2] = rh;
    }
    return found;
}

/// Steps 1–2: every chain end, by name where names say, by topology elsewhere
/// (never reusing a joint a name found), each end distinct.
std::array<int, limbCount> chainEnds(const std::string& fn, const RigTemplate& t, const Tree& tree,
                                     const std::vector<Vec3>& tip, const std::array<int, limbCount>& limbJoints)
{
    std::array<int, limbCount> ends = endsByName(fn, t, limbJoints);
    if (!std::all_of(ends.begin(), ends.end(), [](int j) { return j >= 0; })) {
        size_t leafCount = 0;
        const std::array<int, limbCount> found = endsByTopology(tree, tip, leafCount);
        for (int l = 0; l < limbCount; ++l)
            if (ends[static_cast<size_t>(l)] < 0 &&
                std::find(ends.begin(), ends.end(), found[static_cast<size_t>(l)]) == ends.end())
                ends[static_cast<size_t>(l)] = found[static_cast<size_t>(l)];
        const std::array<const char*, limbCount> chainNames = {"head", "left arm", "right arm", "left leg", "right leg"};
        for (int l = 0; l < limbCount; ++l)
            if (ends[static_cast<size_t>(l)] < 0)
                throw InvalidInput(fn + "has no " + chainNames[static_cast<size_t>(l)] +
                                   " chain: no joint is named like " + limbNames()[static_cast<size_t>(l)].front() +
                                   ", and its rest pose (" + std::to_string(leafCount) +
                                   " extremities) has no head, two arms and two legs");
    }
    for (int a = 0; a < limbCount; ++a)
        for (int b = a + 1; b < limbCount; ++b)
            if (ends[static_cast<size_t>(a)] == ends[static_cast<size_t>(b)])
                throw InvalidInput(fn + "uses joint '" + t.names[static_cast<size_t>(ends[static_cast<size_t>(a)])] +
                                   "' for both " + std::string(limbKey(static_cast<Limb>(a))) + " and " +
                                   std::string(limbKey(static_cast<Limb>(b))));
    return ends;
}

/// Step 3: each chain runs on to the deepest extremity below its end joint
/// (the longest rest path: fingertips rather than the thumb).
void extendToDeepest(const RigTemplate& t, const Tree& tree, const std::vector<Vec3>& tip,
                     std::array<int, limbCount>& ends)
{
    const size_t n = t.names.size();
    std::vector<double> reach(n, 0.0); // longest rest path below each joint, to a tip
    for (size_t i = n; i-- > 0;) {
        reach[i] = std::max(reach[i], (tip[i] - Vec3(t.restPositions.row(static_cast<Eigen::Index>(i)).transpose())).norm());
        if (t.parents[i] >= 0) {
            const auto p = static_cast<size_t>(t.parents[i]);
            reach[p] = std::max(reach[p], t.offsets.row(static_cast<Eigen::Index>(i)).norm() + reach[i]);
        }
    }
    for (int& e : ends)
        while (!tree.children[static_cast<size_t>(e)].empty()) {
            int best = -1;
            for (int c : tree.children[static_cast<size_t>(e)])
                if (best < 0 || t.offsets.row(c).norm() + reach[static_cast<size_t>(c)] >
                                    t.offsets.row(best).norm() + reach[static_cast<size_t>(best)])
                    best = c;
            e = best;
        }
}

/// Step 4: hips and chest as in root.h, medians of the chain ends.
void findBody(const std::string& fn, const Tree& tree, const std::array<int, limbCount>& ends, RigTemplate& t)
{
    const int head = ends[0];
    t.hips = tree.median(ends[3], ends[4], head);
    t.chest = tree.median(ends[1], ends[2], head);
    if (!tree.isAncestorOrSelf(t.hips, t.chest) || !tree.isAncestorOrSelf(t.chest, head) || t.chest == head ||
        t.hips == ends[3] || t.hips == ends[4] || t.chest == ends[1] || t.chest == ends[2])
        throw InvalidInput(fn + "does not have a body: its arms (" + t.names[static_cast<size_t>(ends[1])] + ", " +
                           t.names[static_cast<size_t>(ends[2])] + ") do not branch off the spine between its hips ('" +
                           t.names[static_cast<size_t>(t.hips)] + "') and head ('" +
                           t.names[static_cast<size_t>(head)] + "')");
}

/// One chain's joints and their normalized arc lengths, measured from `start`
/// to the chain's tip.
void assignChain(RigTemplate& t, const std::vector<Vec3>& tip, Chain chain, const std::vector<int>& joints, int start)
{
    auto rest = [&](int j) -> Vec3 { return t.restPositions.row(j).transpose(); };
    const auto c = static_cast<size_t>(chain);
    t.chainJoints[c] = joints;
    t.chainTips[c] = tip[static_cast<size_t>(joints.back())];
    std::vector<double> arc(joints.size(), 0.0);
    Vec3 previous = rest(start);
    double length = 0.0;
    for (size_t k = 0; k < joints.size(); ++k) {
        length += (rest(joints[k]) - previous).norm();
        previous = rest(joints[k]);
        arc[k] = length;
    }
    length += (t.chainTips[c] - previous).norm();
    t.chainLengths[c] = length;
    for (size_t k = 0; k < joints.size(); ++k) {
        t.chains[static_cast<size_t>(joints[k])] = chain;
        t.chainPositions[static_cast<size_t>(joints[k])] = length > 0.0 ? arc[k] / length : 0.0;
    }
}

/// Step 5: the spine (hips to head), the arms (below the chest) and the legs
/// (from the hips); joints above the hips count as the spine's start.
void assignChains(const std::string& fn, const Tree& tree, const std::vector<Vec3>& tip,
                  const std::array<int, limbCount>& ends, RigTemplate& t)
{
    t.chains.assign(t.names.size(), Chain::None);
    t.chainPositions.assign(t.names.size(), -1.0);
    assignChain(t, tip, Chain::Spine, tree.pathDown(t.hips, ends[0]), t.hips);
    for (Limb l : {Limb::LeftHand, Limb::RightHand}) {
        std::vector<int> path = tree.pathDown(t.chest, ends[static_cast<size_t>(l)]);
        path.erase(path.begin()); // the chain starts at the shoulder, below the chest
        assignChain(t, tip, chainOf(l), path, path.front());
    }
    for (Limb l : {Limb::LeftFoot, Limb::RightFoot}) {
        std::vector<int> path = tree.pathDown(t.hips, ends[static_cast<size_t>(l)]);
        path.erase(path.begin()); // the hips are on the spine; the leg measures from them
        assignChain(t, tip, chainOf(l), path, t.hips);
    }
    for (int v = t.parents[static_cast<size_t>(t.hips)]; v >= 0; v = t.parents[static_cast<size_t>(v)]) {
        t.chains[static_cast<size_t>(v)] = Chain::Spine;
        t.chainPositions[static_cast<size_t>(v)] = 0.0;
    }
    if (t.chainLengths[0] <= 0.0)
        throw InvalidInput(fn + "has a spine of zero length from its hips to its head");
}

} // namespace

RigTemplate makeTemplate(std::string name, std::vector<std::string> names, std::vector<int> parents,
                         MatrixX3d offsets, const std::vector<EndSite>& endSites,
                         const std::array<int, limbCount>& limbJoints)
{
    const std::string fn = "rig::makeTemplate(): template '" + name + "' ";
    checkTemplateInput(fn, names, parents, offsets, endSites);
    RigTemplate t;
    t.name = std::move(name);
    t.names = std::move(names);
    t.parents = std::move(parents);
    t.offsets = std::move(offsets);
    t.restPositions.resize(t.offsets.rows(), 3);
    for (Eigen::Index r = 0; r < t.offsets.rows(); ++r) {
        t.restPositions.row(r) = t.offsets.row(r);
        if (t.parents[static_cast<size_t>(r)] >= 0)
            t.restPositions.row(r) += t.restPositions.row(t.parents[static_cast<size_t>(r)]);
    }
    const Tree tree(t.parents);
    const std::vector<Vec3> tip = jointTips(t, endSites);
    std::array<int, limbCount> ends = chainEnds(fn, t, tree, tip, limbJoints);
    extendToDeepest(t, tree, tip, ends);
    findBody(fn, tree, ends, t);
    assignChains(fn, tree, tip, ends, t);
    t.tips = tip;
    return t;
}

RigTemplate templateFromSkeleton(const Skeleton& s, std::string name)
{
    validateSkeleton(s);
    MatrixX3d offsets = s.bindPositions;
    for (int j = 1; j < s.jointCount(); ++j)
        offsets.row(j) = s.bindPositions.row(j) - s.bindPositions.row(s.parents[static_cast<size_t>(j)]);
    return makeTemplate(std::move(name), s.names, s.parents, std::move(offsets));
}

RigTemplate loadTemplate(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw IoError(path + ": cannot open the template file");
    Json doc;
    try {
        doc = Json::parse(in);
    } catch (const Json::exception& e) {
        throw IoError(path + ": not valid JSON: " + e.what());
    }
    auto fail = [&](const std::string& what) { return IoError(path + ": " + what); };
    auto vec3 = [&](const Json& v, const std::string& what) {
        if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
            throw fail(what + " must be an array of three numbers");
        return Vec3(v[0].get<double>(), v[1].get<double>(), v[2].get<double>());
    };
    if (!doc.is_object() || doc.value("format", "") != "rigsmith-template")
        throw fail("not a rig template (\"format\" must be \"rigsmith-template\")");
    if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"].get<int>() != 1)
        throw fail("unsupported template version (this build reads version 1)");
    if (!doc.contains("joints") || !doc["joints"].is_array() || doc["joints"].empty())
        throw fail("\"joints\" must be a non-empty array");
    std::string name = doc.contains("name") && doc["name"].is_string() ? doc["name"].get<std::string>()
                                                                         : std::filesystem::path(path).stem().string();
    std::vector<std::string> names;
    std::vector<int> parents;
    std::unordered_map<std::string, int> index;
    const Json& joints = doc["joints"];
    MatrixX3d offsets(static_cast<Eigen::Index>(joints.size()), 3);
    for (size_t i = 0; i < joints.size(); ++i) {
        const Json& j = joints[i];
        if (!j.is_object() || !j.contains("name") || !j["name"].is_string())
            throw fail("joint " + std::to_string(i) + " has no \"name\" string");
        const std::string jn = j["name"].get<std::string>();
        int parent = -1;
        if (j.contains("parent") && !j["parent"].is_null()) {
            if (!j["parent"].is_string() || !index.count(j["parent"].get<std::string>()))
                throw fail("joint '" + jn + "': its \"parent\" must name a joint listed before it");
            parent = index[j["parent"].get<std::string>()];
        }
        if (!j.contains("offset"))
            throw fail("joint '" + jn + "' has no \"offset\"");
        offsets.row(static_cast<Eigen::Index>(i)) = vec3(j["offset"], "joint '" + jn + "': \"offset\"").transpose();
        index.emplace(jn, static_cast<int>(i));
        names.push_back(jn);
        parents.push_back(parent);
    }
    std::vector<EndSite> endSites;
    if (doc.contains("endSites")) {
        if (!doc["endSites"].is_array())
            throw fail("\"endSites\" must be an array");
        for (const Json& e : doc["endSites"]) {
            if (!e.is_object() || !e.contains("joint") || !e["joint"].is_string() ||
                !index.count(e["joint"].get<std::string>()))
                throw fail("each End Site needs a \"joint\" naming a joint");
            endSites.push_back({index[e["joint"].get<std::string>()], vec3(e.value("offset", Json()), "End Site \"offset\"")});
        }
    }
    std::array<int, limbCount> limbs = {-1, -1, -1, -1, -1};
    if (doc.contains("limbs")) {
        if (!doc["limbs"].is_object())
            throw fail("\"limbs\" must be an object like {\"head\": \"Head\", \"lhand\": \"LeftHand\", ...}");
        for (const auto& [key, value] : doc["limbs"].items()) {
            const std::string& name = key; // clang 14 cannot capture a structured binding
            const auto limb = std::find_if(allLimbs.begin(), allLimbs.end(), [&](Limb l) { return limbKey(l) == name; });
            if (limb == allLimbs.end())
                throw fail("unknown limb \"" + key + "\" in \"limbs\" (head, lhand, rhand, lfoot, rfoot)");
            if (!value.is_string() || !index.count(value.get<std::string>()))
                throw fail("\"limbs\": \"" + key + "\" must name a joint");
            limbs[static_cast<size_t>(*limb)] = index[value.get<std::string>()];
        }
    }
    return makeTemplate(std::move(name), std::move(names), std::move(parents), std::move(offsets), endSites, limbs);
}

std::string templateDirectory()
{
    if (const char* env = std::getenv("RIGSMITH_RESOURCES_DIR"); env != nullptr && *env != '\0')
        return std::string(env) + "/templates";
    return std::string(RIGSMITH_RESOURCES_DIR) + "/templates";
}

RigTemplate builtinTemplate(const std::string& name)
{
    const std::string path = templateDirectory() + "/" + name + ".json";
    if (name.empty() || name.find_first_of("/\\") != std::string::npos || !std::filesystem::exists(path))
        throw IoError("rig::builtinTemplate(): no bundled template '" + name + "' (looked for " + path + ")");
    return loadTemplate(path);
}

} // namespace rig
