// Weight painting (core/skin/weight_paint.h, issue 18) on the default
// character (A-pose, default cell: about 22k vertices) with its fitted
// humanoid21 rig and segmentation weights, one thread:
//  - BM_Stroke: a stroke of 1,000 dabs along the left arm (shoulder to hand and
//    back), per tool, brush radius (mm) and mirror; counters: the median, 95th
//    percentile and largest time of one dab (ms), timed dab by dab, and the
//    vertices a dab rewrites (mean);
//  - BM_Painter: building the painter (grid, adjacency, mirror maps);
//  - BM_MirrorAll: "Mirror weights L→R" on the whole character.
// Run: build/bench/weight_paint_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true

#include "core/character/humanoid.h"
#include "core/rig/fit_template.h"
#include "core/rig/template.h"
#include "core/skeleton/end_nodes.h"
#include "core/skeleton/extract.h"
#include "core/skin/segmentation.h"
#include "core/skin/weight_paint.h"
#include "core/skin/weights_gaussian.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace {

using namespace rig;

struct Painted {
    Mesh mesh;
    Skeleton rig;
    SkinWeights weights;
    std::vector<Vec3> stroke; ///< 1,000 surface points.
};

const Painted& painted()
{
    static const Painted p = [] {
        Painted r;
        r.mesh = generateHumanoid().mesh;
        CurveSkeletonResult cs = extractCurveSkeleton(r.mesh);
        r.rig = fitTemplate(cs.refined, suggestEndNodeLabels(cs.refined), builtinTemplate("humanoid21")).skeleton;
        const Segmentation seg = segmentMesh(r.mesh, r.rig, &cs.solid, {.threads = 1});
        r.weights = segmentationWeights(r.mesh, r.rig, seg);
        // The stroke: the surface vertex nearest to points along LeftArm -> LeftHand and back,
        // lifted 5 cm towards +Z (the front of the arm).
        const Vec3 a = r.rig.bindPositions.row(*r.rig.find("LeftArm")).transpose();
        const Vec3 b = r.rig.bindPositions.row(*r.rig.find("LeftHand")).transpose();
        const PointGrid grid(r.mesh.V);
        for (int i = 0; i < 1000; ++i) {
            const double t = i < 500 ? i / 499.0 : (999 - i) / 499.0;
            const Vec3 q = a + t * (b - a) + Vec3(0, 0, 0.05);
            r.stroke.push_back(r.mesh.V.row(*grid.nearest(q)).transpose());
        }
        return r;
    }();
    return p;
}

void BM_Stroke(benchmark::State& state)
{
    const Painted& p = painted();
    const auto tool = static_cast<PaintTool>(state.range(0));
    const double radius = static_cast<double>(state.range(1)) / 1000.0;
    WeightPainter painter(p.mesh, p.rig, p.weights);
    painter.setMirror(state.range(2) != 0);
    const int joint = *p.rig.find("LeftForeArm");
    std::vector<double> ms;
    double rewritten = 0.0;
    for (auto _ : state) {
        state.PauseTiming();
        painter.setWeights(p.weights);
        ms.clear();
        state.ResumeTiming();
        for (const Vec3& c : p.stroke) {
            const auto t0 = std::chrono::steady_clock::now();
            const std::vector<int> r = painter.apply(
                BrushDab{.centre = c, .radius = radius, .strength = 0.1, .tool = tool, .joint = joint, .value = 0.5});
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            rewritten += static_cast<double>(r.size());
        }
    }
    std::sort(ms.begin(), ms.end());
    state.counters["median_ms"] = ms[ms.size() / 2];
    state.counters["p95_ms"] = ms[ms.size() * 95 / 100];
    state.counters["max_ms"] = ms.back();
    state.counters["rewritten"] = rewritten / (1000.0 * static_cast<double>(state.iterations()));
    state.counters["vertices"] = p.mesh.vertexCount();
}

void BM_Painter(benchmark::State& state)
{
    const Painted& p = painted();
    for (auto _ : state)
        benchmark::DoNotOptimize(WeightPainter(p.mesh, p.rig, p.weights));
}

void BM_MirrorAll(benchmark::State& state)
{
    const Painted& p = painted();
    WeightPainter painter(p.mesh, p.rig, p.weights);
    for (auto _ : state)
        painter.mirrorAll(MirrorDirection::LeftToRight);
}

} // namespace

// Tools: 0 Add, 3 Smooth; radius in mm; mirror off / on.
BENCHMARK(BM_Stroke)->ArgsProduct({{0, 3}, {50, 100, 200}, {0, 1}})->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_Painter)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MirrorAll)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
