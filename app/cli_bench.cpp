// The bench commands: bench bar and bench skinning (issue 6).
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

} // namespace rig::app
