// Timings of the curve-skeleton stage (thesis §2.1-§2.3, §6.1): each step
// separately and the whole stage, on the default humanoid (A-pose) at
// n = 75, 155, 255 voxels on the longest axis, and on a ~200k-triangle humanoid (cell 7.5 mm).
// Medians: --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include "core/character/humanoid.h"
#include "core/skeleton/extract.h"
#include "core/voxel/distance_transform.h"

#include <benchmark/benchmark.h>

#include <map>

namespace {

using namespace rig;

// Mesh 0: the default humanoid; mesh 1: the same with a fine polygonizer cell (~200k triangles).
const Mesh& benchMesh(int which)
{
    static const Mesh coarse = generateHumanoid().mesh;
    static const Mesh fine = generateHumanoid(HumanoidOptions{.cellSize = 0.0075}).mesh;
    return which == 0 ? coarse : fine;
}

// The intermediate results each step starts from, computed once per (mesh, n).
struct Inputs {
    VoxelGrid surface;
    VoxelGrid solid;
    VoxelGrid thinned;
    CurveSkeleton raw;
};

const Inputs& inputs(int which, int n)
{
    static std::map<std::pair<int, int>, Inputs> cache;
    auto it = cache.find({which, n});
    if (it != cache.end())
        return it->second;
    const Mesh& m = benchMesh(which);
    Inputs in;
    in.surface = voxelizeSurface(m, {.resolution = n});
    in.solid = fillInterior(in.surface, m).grid;
    in.thinned = thin(in.solid).skeleton;
    in.raw = buildCurveSkeleton(in.thinned, distanceToEmpty(in.solid));
    return cache.emplace(std::pair{which, n}, std::move(in)).first->second;
}

void setCounters(benchmark::State& state, int which)
{
    state.counters["triangles"] = benchMesh(which).triangleCount();
}

void BM_Voxelize(benchmark::State& state)
{
    const int which = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
    const Mesh& m = benchMesh(which);
    for (auto _ : state)
        benchmark::DoNotOptimize(voxelizeSurface(m, {.resolution = n}));
    setCounters(state, which);
}

void BM_Fill(benchmark::State& state)
{
    const int which = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
    const Inputs& in = inputs(which, n);
    for (auto _ : state)
        benchmark::DoNotOptimize(fillInterior(in.surface, benchMesh(which)));
    setCounters(state, which);
}

void BM_Thin(benchmark::State& state)
{
    const int which = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
    const Inputs& in = inputs(which, n);
    for (auto _ : state)
        benchmark::DoNotOptimize(thin(in.solid));
    state.counters["solid_voxels"] = static_cast<double>(in.solid.solidCount());
    setCounters(state, which);
}

void BM_Graph(benchmark::State& state)
{
    const int which = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
    const Inputs& in = inputs(which, n);
    for (auto _ : state)
        benchmark::DoNotOptimize(buildCurveSkeleton(in.thinned, distanceToEmpty(in.solid)));
    state.counters["nodes"] = in.raw.nodeCount();
    setCounters(state, which);
}

void BM_Refine(benchmark::State& state)
{
    const int which = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
    const Inputs& in = inputs(which, n);
    for (auto _ : state)
        benchmark::DoNotOptimize(refineCurveSkeleton(in.raw));
    setCounters(state, which);
}

void BM_WholeStage(benchmark::State& state)
{
    const int which = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
    const Mesh& m = benchMesh(which);
    CurveSkeletonOptions options;
    options.voxelize.resolution = n;
    for (auto _ : state)
        benchmark::DoNotOptimize(extractCurveSkeleton(m, options));
    setCounters(state, which);
}

// Arguments: {mesh (0 default humanoid, 1 ~200k triangles), n}.
void sizes(benchmark::internal::Benchmark* b)
{
    b->ArgNames({"mesh", "n"});
    for (int n : {75, 155, 255})
        b->Args({0, n});
    b->Args({1, 155});
    b->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_Voxelize)->Apply(sizes);
BENCHMARK(BM_Fill)->Apply(sizes);
BENCHMARK(BM_Thin)->Apply(sizes);
BENCHMARK(BM_Graph)->Apply(sizes);
BENCHMARK(BM_Refine)->Apply(sizes);
BENCHMARK(BM_WholeStage)->Apply(sizes);

} // namespace

BENCHMARK_MAIN();
