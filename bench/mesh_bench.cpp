// The mesh queries every stage builds on (issue 20, item 3): the vertex
// adjacency (CSR) of the default humanoid (22k vertices) and of a fine one
// (cell 6 mm, about 200k vertices). Medians:
// --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include "core/character/humanoid.h"
#include "core/mesh/vertex_adjacency.h"

#include <benchmark/benchmark.h>

namespace {

using namespace rig;

const Mesh& benchMesh(int which)
{
    static const Mesh coarse = generateHumanoid().mesh;
    static const Mesh fine = generateHumanoid(HumanoidOptions{.cellSize = 0.006}).mesh;
    return which == 0 ? coarse : fine;
}

void BM_VertexAdjacency(benchmark::State& state)
{
    const Mesh& m = benchMesh(static_cast<int>(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(vertexAdjacency(m.vertexCount(), m.F));
    state.counters["vertices"] = m.vertexCount();
    state.counters["ns/vertex"] = benchmark::Counter(static_cast<double>(m.vertexCount()),
                                                     benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}
BENCHMARK(BM_VertexAdjacency)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
