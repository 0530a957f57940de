// rigsmith evaluate over many files (issue 38): summary.json and summary.md
// from the per-file reports, one table set per group.
#include "app/cli_evaluate_batch.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace rig::app {
namespace {

namespace fs = std::filesystem;

/// Mean, median and count of a list of values.
struct Stat {
    std::vector<double> v;
    void add(const json& x)
    {
        if (x.is_number() && std::isfinite(x.get<double>()))
            v.push_back(x.get<double>());
    }
    double mean() const
    {
        double s = 0;
        for (double x : v)
            s += x;
        return v.empty() ? NAN : s / double(v.size());
    }
    double median() const
    {
        if (v.empty())
            return NAN;
        std::vector<double> s = v;
        std::sort(s.begin(), s.end());
        const size_t n = s.size();
        return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }
    json meanJson() const { return v.empty() ? json(nullptr) : json(mean()); }
};

json readReport(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        return json{{"outcome", {{"kind", "missing"}, {"message", "no report"}}}};
    try {
        return json::parse(in);
    } catch (const std::exception& e) {
        return json{{"outcome", {{"kind", "error"}, {"message", std::string("unreadable report: ") + e.what()}}}};
    }
}

std::set<std::string> readIds(const std::string& path)
{
    std::ifstream in(path);
    std::set<std::string> ids;
    for (std::string line; std::getline(in, line);) {
        line.erase(line.find_last_not_of(" \t\r") + 1);
        line.erase(0, line.find_first_not_of(" \t"));
        if (!line.empty() && line[0] != '#')
            ids.insert(fs::path(line).stem().string());
    }
    return ids;
}

bool rigWritten(const std::string& kind)
{
    return kind == "rigged" || kind == "warned";
}

/// The standard skeleton figures: over the rigs written, and IoU over every
/// file with a reference counting a missing rig as 0.
json skeletonTable(const std::vector<const json*>& reports)
{
    std::map<std::string, Stat> s;
    Stat iouAll, jointError, ends;
    int mirrored = 0; // of the rigs in `ends`, those whose artist names sides from the front
    int scored = 0, withReference = 0;
    for (const json* r : reports) {
        const std::string kind = (*r)["outcome"].value("kind", "error");
        const json sk = r->contains("standard") ? (*r)["standard"].value("skeleton", json(nullptr)) : json(nullptr);
        const bool reference = r->contains("artist_joints") && !(*r)["artist_joints"].is_null();
        withReference += reference;
        if (reference)
            iouAll.v.push_back(rigWritten(kind) && sk.is_object() ? sk["iou"].get<double>() : 0.0);
        if (!rigWritten(kind) || !sk.is_object())
            continue;
        ++scored;
        for (const char* k : {"cd_j2j", "cd_j2b", "cd_b2b", "iou", "precision", "recall"})
            s[k].add(sk[k]);
        jointError.add((*r)["mean_joint_error_percent"]);
        // Over the rigs whose five ends the artist's joints identify (a label
        // is "?" where the artist's skeleton maps no joint to that end).
        int known = 0;
        for (const json& l : (*r)["end_labels"])
            known += !l["right"].is_null();
        if (known == 5) {
            ends.v.push_back((*r)["end_labels_right"].get<int>() == 5 ? 1.0 : 0.0);
            mirrored += r->value("artist_sides_mirrored", false) ? 1 : 0;
        }
    }
    json t = {{"rigs_scored", scored}, {"files_with_reference", withReference},
              {"iou_all_missing_as_0", iouAll.meanJson()},
              {"mean_joint_error_percent_of_height", jointError.meanJson()},
              {"five_ends_right_fraction", ends.meanJson()},
              {"five_ends_known", ends.v.size()},
              {"five_ends_artist_sides_mirrored", mirrored}};
    for (auto& [k, st] : s)
        t[k] = st.meanJson();
    return t;
}

json skinningTable(const std::vector<const json*>& reports)
{
    std::map<std::string, std::map<std::string, Stat>> by;
    std::map<std::string, int> errors, unweighted;
    int noReference = 0;
    for (const json* r : reports) {
        if (!r->contains("standard") || !(*r)["standard"]["skinning"].is_array()) {
            noReference += r->contains("standard");
            continue;
        }
        for (const json& m : (*r)["standard"]["skinning"]) {
            const std::string id = m.value("method", "?");
            if (m.contains("error")) {
                ++errors[id];
                continue;
            }
            for (const char* k : {"precision", "recall", "l1", "deformation_mean", "deformation_max"})
                by[id][k].add(m[k]);
            unweighted[id] += m.value("unweighted", 0);
        }
    }
    json rows = json::array();
    for (auto& [id, s] : by) {
        const double p = s["precision"].mean(), rc = s["recall"].mean();
        rows.push_back({{"method", id},
                        {"characters", s["precision"].v.size()},
                        {"precision", p},
                        {"recall", rc},
                        {"f1", 2 * p * rc / std::max(p + rc, 1e-12)},
                        {"l1", s["l1"].meanJson()},
                        {"deformation_mean", s["deformation_mean"].meanJson()},
                        {"deformation_max_mean", s["deformation_max"].meanJson()},
                        {"unweighted_vertices", unweighted[id]},
                        {"errors", errors[id]}});
    }
    return {{"methods", rows}, {"no_reference", noReference}};
}

json outcomeTable(const std::vector<const json*>& reports)
{
    std::map<std::string, int> kinds, reasons;
    std::vector<std::string> failures;
    for (const json* r : reports) {
        const json& o = (*r)["outcome"];
        const std::string kind = o.value("kind", "error");
        ++kinds[kind];
        if (o.contains("reason_kinds") && kind != "rigged" && kind != "warned")
            for (const json& k : o["reason_kinds"])
                ++reasons[k.get<std::string>()];
        if (kind == "error" || kind == "crashed" || kind == "timeout" || kind == "missing")
            failures.push_back(r->value("input", "?") + ": " + o.value("message", ""));
    }
    return {{"counts", kinds}, {"refusal_and_failure_reasons", reasons}, {"process_failures", failures}};
}

json stageTable(const std::vector<const json*>& reports)
{
    std::map<std::string, Stat> stages;
    Stat total;
    for (const json* r : reports) {
        total.add(r->value("total_seconds", json(nullptr)));
        if (r->contains("stages"))
            for (const json& s : (*r)["stages"])
                stages[s.value("name", "?")].add(s["seconds"]);
    }
    json t = {{"total", {{"median", total.median()}, {"mean", total.mean()}}}};
    for (auto& [k, s] : stages)
        t[k] = {{"median", s.median()}, {"mean", s.mean()}, {"files", s.v.size()}};
    return t;
}

json groupSummary(const std::vector<const json*>& reports)
{
    return {{"files", reports.size()},
            {"outcomes", outcomeTable(reports)},
            {"skeleton", skeletonTable(reports)},
            {"skinning", skinningTable(reports)},
            {"seconds", stageTable(reports)}};
}

double get(const json& j, const char* k)
{
    return j.contains(k) && j[k].is_number() ? j[k].get<double>() : NAN;
}

void markdownGroup(std::ostream& md, const std::string& name, const json& g)
{
    md << "\n## " << name << " (" << g["files"].get<int>() << " files)\n\nOutcomes:";
    for (auto& [k, v] : g["outcomes"]["counts"].items())
        md << " " << k << " " << v.get<int>() << ";";
    md << "\n";
    if (!g["outcomes"]["refusal_and_failure_reasons"].empty()) {
        md << "\n| refusal or failure reason | files |\n|---|---|\n";
        for (auto& [k, v] : g["outcomes"]["refusal_and_failure_reasons"].items())
            md << "| " << k << " | " << v.get<int>() << " |\n";
    }
    if (!g["outcomes"]["process_failures"].empty()) {
        md << "\nFiles not evaluated (crash, time-out, error):\n\n";
        for (const json& f : g["outcomes"]["process_failures"])
            md << "- " << f.get<std::string>() << "\n";
    }
    const json& s = g["skeleton"];
    md << "\nSkeleton (RigNet's metrics, normalised frame; over the " << s["rigs_scored"].get<int>()
       << " rigs written):\n\n| CD-J2J | CD-J2B | CD-B2B | IoU % | precision % | recall % | IoU %, missing rig = 0 ("
       << s["files_with_reference"].get<int>() << ") | joint error % of height | five ends right (of those the artist's joints identify) |\n"
       << "|---|---|---|---|---|---|---|---|---|\n| " << fixedOrDash(get(s, "cd_j2j"), 2) << " | " << fixedOrDash(get(s, "cd_j2b"), 2)
       << " | " << fixedOrDash(get(s, "cd_b2b"), 2) << " | " << fixedOrDash(get(s, "iou"), 1) << " | " << fixedOrDash(get(s, "precision"), 1)
       << " | " << fixedOrDash(get(s, "recall"), 1) << " | " << fixedOrDash(get(s, "iou_all_missing_as_0"), 1) << " | "
       << fixedOrDash(get(s, "mean_joint_error_percent_of_height"), 2) << " | "
       << fixedOrDash(100 * get(s, "five_ends_right_fraction"), 1) << "% (" << s["five_ends_known"].get<int>() << ") |\n";
    if (const int m = s.value("five_ends_artist_sides_mirrored", 0); m > 0)
        md << "\nOf the rigs whose ends the artist's joints identify, " << m
           << " name their sides as seen from the front (the artist's left wrist and ankle on the character's "
              "right): judged by the character's own sides.\n";
    md << "\nSkinning on the artist's skeleton (" << g["skinning"]["no_reference"].get<int>()
       << " files without reference):\n\n| method | characters | precision % | recall % | F1 | L1 | deformation mean % "
          "| mean of max % | unweighted vertices | errors |\n|---|---|---|---|---|---|---|---|---|---|\n";
    for (const json& m : g["skinning"]["methods"])
        md << "| " << m["method"].get<std::string>() << " | " << m["characters"].get<int>() << " | "
           << fixedOrDash(get(m, "precision"), 1) << " | " << fixedOrDash(get(m, "recall"), 1) << " | " << fixedOrDash(get(m, "f1"), 1) << " | "
           << fixedOrDash(get(m, "l1"), 3) << " | " << fixedOrDash(get(m, "deformation_mean"), 3) << " | "
           << fixedOrDash(get(m, "deformation_max_mean"), 2) << " | " << m["unweighted_vertices"].get<int>() << " | "
           << m["errors"].get<int>() << " |\n";
    md << "\nSeconds per file: median " << fixedOrDash(get(g["seconds"]["total"], "median"), 3) << ", mean "
       << fixedOrDash(get(g["seconds"]["total"], "mean"), 3) << "\n";
}

} // namespace

json summarizeEvaluateReports(const std::string& dir, const std::vector<std::string>& ids,
                              const std::vector<std::string>& groups, const json& run)
{
    std::vector<json> reports;
    reports.reserve(ids.size());
    for (const std::string& id : ids)
        reports.push_back(readReport(dir + "/" + id + ".json"));
    std::vector<std::pair<std::string, std::vector<const json*>>> sets = {{"all", {}}};
    for (const json& r : reports)
        sets[0].second.push_back(&r);
    for (const std::string& g : groups) {
        const std::set<std::string> members = readIds(g);
        std::vector<const json*> in;
        for (size_t k = 0; k < ids.size(); ++k)
            if (members.count(ids[k]))
                in.push_back(&reports[k]);
        sets.emplace_back(fs::path(g).stem().string(), in);
    }
    json summary = {{"run", run}, {"groups", json::object()}};
    std::ostringstream md;
    md << "# rigsmith evaluate: " << ids.size() << " files\n\n" << run.value("wall_seconds", 0.0) << " s wall, "
       << run.value("jobs", 1) << " jobs; options " << run.value("options", json::array()).dump() << "\n";
    for (const auto& [name, members] : sets) {
        summary["groups"][name] = groupSummary(members);
        markdownGroup(md, name, summary["groups"][name]);
    }
    writeJsonFile(dir + "/summary.json", summary);
    std::ofstream(dir + "/summary.md") << md.str();
    return summary;
}

} // namespace rig::app
