// The bench commands: bench bar and bench skinning (issue 6).
#include "app/cli_common.h"

#include "app/cli.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/eval/bar_experiment.h"
#include "core/deform/deformers.h"
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
#include "core/skin/skinning.h"
#include "core/eval/weight_compare.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"
#include "ui/render_offscreen.h"

#include <nlohmann/json.hpp>

#include <QGuiApplication>

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
    writeReport(a, "bench", "skinning", stages,
                {{"vertices", t.vertices},
                 {"threads", t.threads},
                 {"ns_per_vertex", wall},
                 {"cpu_ns_per_vertex", cpu},
                 {"bind_seconds", bind}});
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

} // namespace rig::app
