// Timings of the segmentation (thesis Alg. 3.2.1, 3.2.2, 3.2.4), of the
// segmentation-based weights (Alg. 4.2.1) and of bone heat (Baran & Popović
// 2007, core/skin/weights_heat.h) on one thread, on the humanoid
// (A-pose) with its fitted humanoid21 rig and its voxel solid at n = 155, at
// polygonizer cells giving about 10k, 22k (the default character), 50k,
// 100k and 200k vertices.
// Medians: --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include "core/character/humanoid.h"
#include "core/rig/fit_template.h"
#include "core/rig/template.h"
#include "core/skeleton/end_nodes.h"
#include "core/skeleton/extract.h"
#include "core/skin/segmentation.h"
#include "core/skin/weights_gaussian.h"
#include "core/skin/weights_heat.h"

#include <benchmark/benchmark.h>

#include <map>

namespace {

using namespace rig;

// Polygonizer cell sizes (metres at 1.75 m); 0 = the default (17.5 mm).
constexpr double kCells[] = {0.025, 0.0, 0.0117, 0.0083, 0.0058};

struct Rigged {
    Mesh mesh;
    VoxelGrid solid;
    Skeleton rig;
    Segmentation seg;
};

const Rigged& rigged(int which)
{
    static std::map<int, Rigged> cache;
    auto it = cache.find(which);
    if (it != cache.end())
        return it->second;
    Rigged r;
    r.mesh = generateHumanoid({.pose = HumanoidPose::A, .cellSize = kCells[which]}).mesh;
    CurveSkeletonResult cs = extractCurveSkeleton(r.mesh); // n = 155
    r.rig = fitTemplate(cs.refined, suggestEndNodeLabels(cs.refined), builtinTemplate("humanoid21")).skeleton;
    r.solid = std::move(cs.solid);
    r.seg = segmentMesh(r.mesh, r.rig, &r.solid, {.threads = 1});
    return cache.emplace(which, std::move(r)).first->second;
}

void BM_Segment(benchmark::State& state)
{
    const Rigged& r = rigged(static_cast<int>(state.range(0)));
    const auto method = static_cast<SegmentationMethod>(state.range(1));
    for (auto _ : state)
        benchmark::DoNotOptimize(segmentMesh(r.mesh, r.rig, &r.solid, {.method = method, .threads = 1}));
    state.counters["vertices"] = r.mesh.vertexCount();
}

void BM_Weights(benchmark::State& state)
{
    const Rigged& r = rigged(static_cast<int>(state.range(0)));
    const int smoothing = static_cast<int>(state.range(1));
    for (auto _ : state)
        benchmark::DoNotOptimize(segmentationWeights(r.mesh, r.rig, r.seg, {.smoothingIterations = smoothing}));
    state.counters["vertices"] = r.mesh.vertexCount();
}

// The default pipeline step: 3.2.4 segmentation followed by the weights.
void BM_SegmentAndWeights(benchmark::State& state)
{
    const Rigged& r = rigged(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        const Segmentation s = segmentMesh(r.mesh, r.rig, &r.solid, {.threads = 1});
        benchmark::DoNotOptimize(segmentationWeights(r.mesh, r.rig, s));
    }
    state.counters["vertices"] = r.mesh.vertexCount();
}

void BM_Heat(benchmark::State& state)
{
    const Rigged& r = rigged(static_cast<int>(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(boneHeatWeights(r.mesh, r.rig, &r.solid, {.threads = 1}));
    state.counters["vertices"] = r.mesh.vertexCount();
}

// The pipeline step with the heat method: 3.2.4 segmentation followed by bone heat.
void BM_SegmentAndHeat(benchmark::State& state)
{
    const Rigged& r = rigged(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        const Segmentation s = segmentMesh(r.mesh, r.rig, &r.solid, {.threads = 1});
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(boneHeatWeights(r.mesh, r.rig, &r.solid, {.threads = 1}));
    }
    state.counters["vertices"] = r.mesh.vertexCount();
}

} // namespace

// Methods: 0 = NearestLink (3.2.1), 1 = LineOfSight (3.2.2), 2 = RegionGrow (3.2.4).
BENCHMARK(BM_Segment)->ArgsProduct({{1}, {0, 1, 2}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Segment)->ArgsProduct({{0, 2, 3, 4}, {2}})->Unit(benchmark::kMillisecond);
// Smoothing sweeps: 0 (the thesis's weights as they are) and 16 (the default).
BENCHMARK(BM_Weights)->ArgsProduct({{0, 1, 2, 3, 4}, {0, 16}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SegmentAndWeights)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Heat)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SegmentAndHeat)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
