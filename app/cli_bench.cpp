// The bench commands: bench bar and bench skinning (issue 6), bench
// deform-quality (issue 16).
#include "app/cli_common.h"

#include "app/cli.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/eval/bar_experiment.h"
#include "core/deform/twist_lbs.h"
#include "core/eval/deform_quality.h"
#include "core/project/pipeline.h"
#include "core/deform/deformers.h"
#include "core/eval/skinning_timing.h"
#include "core/project/character_source.h"
#include "core/import/animation_poses.h"
#include "core/export/rig_file.h"
#include "core/export/gltf_export.h"
#include "core/export/project_file.h"
#include "core/project/project_io.h"
#include "core/motion/bvh_file.h"
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
#include "core/skin/skinning.h"
#include "core/eval/weight_compare.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include <nlohmann/json.hpp>


#include <algorithm>
#include <cctype>
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
    std::printf("%-9s", "step");
    for (const DeformerInfo& d : deformers())
        std::printf(" %20s", d.shortTitle.c_str());
    std::printf("\n");
    json steps = json::array(), thesis = json::array();
    for (const BarVolumeStep& s : t.steps) {
        std::printf("%-9s", s.rotation.c_str());
        json row = {{"step", s.rotation}};
        for (const DeformerInfo& d : deformers()) {
            const auto th = s.thesis.find(d.id);
            if (th != s.thesis.end())
                std::printf(" %8.2f [%8.2f]", s.error.at(d.id), th->second);
            else
                std::printf(" %8.2f %10s", s.error.at(d.id), "");
            row[d.id] = s.error.at(d.id);
        }
        std::printf("\n");
        steps.push_back(row);
        json thesisRow = {{"step", s.rotation}};
        for (const auto& [id, v] : s.thesis)
            thesisRow[id] = v;
        thesis.push_back(thesisRow);
    }
    std::printf("Candy wrapper (j2 twisted %.0f deg, smallest ring radius / rest):", c.twistDegrees);
    json candy = json::object(), continuity = {{"step_degrees", k.stepDegrees}, {"max_degrees", k.maxDegrees}};
    for (const auto& [id, r] : c.smallestRadius) {
        std::printf(" %s %.3f", id.c_str(), r);
        candy[id] = r;
    }
    std::printf("\nTwist sweep 0..%.0f deg in %.0f deg steps, largest step / (sqrt 2 * 1 deg):\n", k.maxDegrees,
                k.stepDegrees);
    auto series = [](const ContinuitySeries& s) { return json{{"max_ratio", s.maxRatio}, {"at_degrees", s.atDegrees}}; };
    for (const DeformerInfo& d : deformers()) {
        const ContinuitySeries& u = k.series.at(d.id);
        const ContinuitySeries& w = k.wrapped.at(d.id);
        std::printf("  %-22s %.2f at %.0f deg", d.title.c_str(), u.maxRatio, u.atDegrees);
        continuity[d.id] = series(u);
        // Only deformers that read the unwrapped twist differ with wrapped angles.
        if (w.maxRatio != u.maxRatio || w.atDegrees != u.atDegrees) {
            std::printf(" (wrapped angle: %.2f at %.0f deg)", w.maxRatio, w.atDegrees);
            continuity[d.id + "_wrapped"] = series(w);
        }
        std::printf("\n");
    }
    writeReport(a, "bench", "bar", stages,
                {{"rest_volume", t.restVolume},
                 {"volume_error_percent", steps},
                 {"thesis_volume_error_percent", thesis},
                 {"candy_wrapper", candy},
                 {"continuity", continuity}});
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
    json wall = json::object(), cpu = json::object(), bind = json::object();
    const double first = t.deformers.empty() ? 1.0 : t.deformers.front().wall;
    for (const DeformerTiming& d : t.deformers) {
        std::string title = d.title; // lower case in a sentence: "twist-corrected lbs"
        std::transform(title.begin(), title.end(), title.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        std::printf("  %-8s %-22s %7.2f (%7.2f)  %.2fx %s, bound in %.3f s\n", d.id.c_str(), title.c_str(), d.wall,
                    d.cpu, d.wall / first, t.deformers.front().id.c_str(), d.bindSeconds);
        wall[d.id] = d.wall;
        cpu[d.id] = d.cpu;
        bind[d.id] = d.bindSeconds;
    }
    json floors = json::object();
    for (const DeformerTiming& f : t.floors) {
        const auto d = std::find_if(t.deformers.begin(), t.deformers.end(), [&](const DeformerTiming& x) { return x.id == f.id; });
        std::printf("  %-31s %7.2f (%7.2f)", f.title.c_str(), f.wall, f.cpu);
        if (d != t.deformers.end() && f.wall > 0.0)
            std::printf("  %s at %.2fx its floor", d->id.c_str(), d->wall / f.wall);
        std::printf("\n");
        floors[f.id] = f.wall;
    }
    writeReport(a, "bench", "skinning", stages,
                {{"vertices", t.vertices},
                 {"floor_ns_per_vertex", floors},
                 {"threads", t.threads},
                 {"ns_per_vertex", wall},
                 {"cpu_ns_per_vertex", cpu},
                 {"bind_seconds", bind}});
    return 0;
}

namespace {

/// Prints the deformation table (one line per deformer and pose) and returns the report rows.
json printDeformQuality(const std::vector<DeformQuality>& rows)
{
    std::printf("  %-8s %-26s %9s %8s %8s %8s %10s\n", "deformer", "pose", "stretched", "flipped", "stretch",
                "volume", "intersect");
    json out = json::array();
    for (const DeformQuality& q : rows) {
        std::printf("  %-8s %-26s %9d %8d %7.2fx %7.1f%% %10d\n", q.deformer.c_str(), q.pose.c_str(), q.stretched,
                    q.flipped, q.maxStretch, 100.0 * q.maxVolumeChange, q.intersections);
        out.push_back({{"deformer", q.deformer},
                       {"pose", q.pose},
                       {"stretched", q.stretched},
                       {"flipped", q.flipped},
                       {"max_stretch", q.maxStretch},
                       {"max_volume_change", q.maxVolumeChange},
                       {"intersections", q.intersections}});
    }
    return out;
}

/// Per deformer: the sums over the poses (stretched, flipped, intersections)
/// and the worst stretch and volume change.
json summarizeDeformQuality(const std::vector<DeformQuality>& rows)
{
    std::map<std::string, DeformQuality> total;
    for (const DeformQuality& q : rows) {
        DeformQuality& t = total[q.deformer];
        t.deformer = q.deformer;
        t.stretched += q.stretched;
        t.flipped += q.flipped;
        t.intersections += q.intersections;
        t.maxStretch = std::max(t.maxStretch, q.maxStretch);
        t.maxVolumeChange = std::max(t.maxVolumeChange, q.maxVolumeChange);
    }
    std::printf("  totals over %zu poses:\n", rows.size() / std::max<size_t>(total.size(), 1));
    json out = json::object();
    for (const auto& [id, t] : total) {
        std::printf("  %-8s stretched %6d  flipped %6d  worst stretch %6.2fx  worst volume change %6.1f%%  "
                    "intersecting pairs %6d\n",
                    id.c_str(), t.stretched, t.flipped, t.maxStretch, 100.0 * t.maxVolumeChange, t.intersections);
        out[id] = {{"stretched", t.stretched}, {"flipped", t.flipped}, {"max_stretch", t.maxStretch},
                   {"max_volume_change", t.maxVolumeChange}, {"intersections", t.intersections}};
    }
    return out;
}

/// Per row with a stretched triangle: its vertices' segment, δ, the partial
/// twist fraction δ·λ of the twist-corrected deformer (twist_lbs.h) and weights
/// (what the deformers were told about them).
void explainWorstTriangles(const std::vector<DeformQuality>& rows, const DeformerInput& in)
{
    const Segmentation twist = twistSegmentation(*in.segmentation, in.weights, in.skeleton);
    for (const DeformQuality& q : rows) {
        if (q.stretched == 0 || q.worstTriangle < 0)
            continue;
        std::printf("  %-8s %-26s worst triangle %d:\n", q.deformer.c_str(), q.pose.c_str(), q.worstTriangle);
        for (int c = 0; c < 3; ++c) {
            const int v = in.mesh.F(q.worstTriangle, c);
            const int bone = in.segmentation->bone[static_cast<size_t>(v)];
            std::printf("      vertex %d: segment %s, delta %.2f, twist fraction %.2f, weights", v,
                        bone >= 0 ? in.skeleton.names[static_cast<size_t>(bone)].c_str() : "(none)",
                        in.segmentation->delta[static_cast<size_t>(v)], twist.delta[static_cast<size_t>(v)]);
            for (int k = 0; k < in.weights.maxInfluences && in.weights.weights(v, k) > 0; ++k)
                std::printf(" %s %.2f", in.skeleton.names[static_cast<size_t>(in.weights.joints(v, k))].c_str(),
                            in.weights.weights(v, k));
            std::printf("\n");
        }
    }
}

} // namespace

/// `rigsmith bench deform-quality FILE`: the auto rig's skin under every
/// deformer in the test poses of core/eval/deform_quality.h.
int cmdBenchDeformQuality(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--resolution", "--ends", "--template", "--fingers", "--facing", "--up", "--weights",
                               "--weight-params", "--deformers"},
                         {"--force", "--use-file-skeleton", "--explain", "--flip-against-bone"}, "bench deform-quality");
    if (a.positional.size() != 2)
        throw Error("rigsmith bench deform-quality: expected one character file (or 'default')");
    const std::string file = a.positional[1];
    RigProject project = projectFromArgs(a, "bench deform-quality", file);
    WeightOptions weights;
    weights.method = findWeightMethod(a.value("--weights").value_or(weights.method)).id;
    applyWeightParams(a, "bench deform-quality", weights);
    project.setWeightOptions(weights);
    StageTimings stages = runPipeline(project, Stage::Weights);
    StageClock clock(stages);
    std::vector<std::string> ids;
    std::stringstream list(a.value("--deformers").value_or(""));
    for (std::string id; std::getline(list, id, ',');)
        ids.push_back(findDeformer(id).id);
    const SkinningResult& s = *project.skinning();
    const DeformerInput input{project.character()->imported.mesh, s.weights, &s.segmentation, project.rig()->skeleton};
    DeformQualityOptions measure;
    measure.flipAgainstBone = a.flag("--flip-against-bone");
    const std::vector<DeformQuality> rows = measureDeformers(input, project.rig()->front, ids, measure);
    clock.lap("measure");
    if (a.flag("--explain"))
        explainWorstTriangles(rows, input);
    std::printf("%s: %d vertices, %d triangles, %s weights\n", file.c_str(), input.mesh.vertexCount(),
                static_cast<int>(input.mesh.F.rows()), weights.method.c_str());
    const json table = printDeformQuality(rows);
    const json totals = summarizeDeformQuality(rows);
    writeReport(a, "bench", "deform-quality", stages, {{"file", file}, {"weights", weights.method},
                                                       {"rows", table}, {"totals", totals}});
    return 0;
}

int cmdBench(const std::vector<std::string>& raw)
{
    const std::string what = raw.empty() ? "" : raw[0];
    if (what == "bar")
        return cmdBenchBar(raw);
    if (what == "skinning")
        return cmdBenchSkinning(raw);
    if (what == "deform-quality")
        return cmdBenchDeformQuality(raw);
    if (what == "weights")
        return cmdBenchWeights(raw);
    throw Error("rigsmith bench: expected 'bar', 'skinning', 'deform-quality' or 'weights' (see rigsmith --help)");
}

} // namespace rig::app
