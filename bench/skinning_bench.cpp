// Skinning deformers on 100k vertices with 4 influences, positions + normals:
// ns/vertex of every deformer of the table (core/deform/deformers.h), on 1 and 2 threads.
// The scene is rig::makeSkinningScene() (core/eval/skinning_timing.h: a tube
// of 1000 rings × 100 around a 16-joint chain, thesis Gaussian weights, every
// joint bent and twisted); `rigsmith bench skinning` times the same scene.
// The skin is bound once (rig::bindSkin/bindTwist, as the app does when the
// weights change); the per-frame work (forward kinematics, transform
// conversion, twistTransforms(), the deformation) is inside the timed loop.
// BM_LbsUnbound times the convenience form that binds on every call.
#include "core/deform/deformers.h"
#include "core/deform/dqs.h"
#include "core/deform/lbs.h"
#include "core/rig/pose.h"
#include "core/deform/skinning_kernels.h"
#include "core/eval/skinning_timing.h"
#include "core/deform/twist_lbs.h"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>

namespace {

using Scene = rig::SkinningScene;

const Scene& scene()
{
    static const Scene s = rig::makeSkinningScene(100000);
    return s;
}

/// The scene bound once per deformer of the table (as the app does when the weights change).
const rig::BoundDeformer& bound(const rig::DeformerInfo& d)
{
    static std::map<std::string, std::unique_ptr<rig::BoundDeformer>> cache;
    std::unique_ptr<rig::BoundDeformer>& b = cache[d.id];
    if (!b) {
        static rig::Mesh mesh;
        const Scene& s = scene();
        mesh.V = s.V;
        mesh.N = s.N;
        b = d.bind(rig::DeformerInput{mesh, s.weights, &s.segmentation, s.skeleton});
    }
    return *b;
}

void setCounters(benchmark::State& state, const Scene& s)
{
    state.counters["ns_per_vertex"] = benchmark::Counter(static_cast<double>(s.V.rows()) * 1e-9,
                                                         benchmark::Counter::kIsIterationInvariantRate |
                                                             benchmark::Counter::kInvert);
}

void BM_LbsUnbound(benchmark::State& state)
{
    const Scene& s = scene();
    const rig::SkinningOptions o{.threads = static_cast<int>(state.range(0))};
    rig::DeformedMesh out;
    for (auto _ : state) {
        const rig::PosedSkeleton ps = rig::forwardKinematics(s.skeleton, s.pose);
        rig::lbs(s.V, s.N, s.weights, ps.skinning, out, o);
        benchmark::DoNotOptimize(out.V.data());
    }
    setCounters(state, s);
}

/// One deformer of the table per frame: forward kinematics, its per-frame
/// transforms and the deformation, `state.range(0)` threads.
void deformerBench(benchmark::State& state, const rig::DeformerInfo* d, bool portable)
{
    const Scene& s = scene();
    const rig::BoundDeformer& b = bound(*d);
    const rig::SkinningOptions o{.threads = static_cast<int>(state.range(0))};
    rig::skinning::forceScalar = portable;
    rig::SkinnedMesh out;
    for (auto _ : state) {
        b.deform(s.pose, {}, out, o);
        benchmark::DoNotOptimize(out.vertices.data());
    }
    rig::skinning::forceScalar = false;
    setCounters(state, s);
}

} // namespace

int main(int argc, char** argv)
{
    // Every deformer of the table on the portable (non-AVX2) path, then on 1 and 2 threads.
    for (const rig::DeformerInfo& d : rig::deformers())
        benchmark::RegisterBenchmark(("BM_" + d.id + "_portable").c_str(), deformerBench, &d, true)
            ->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_LbsUnbound", BM_LbsUnbound)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
    for (const rig::DeformerInfo& d : rig::deformers())
        benchmark::RegisterBenchmark(("BM_" + d.id).c_str(), deformerBench, &d, false)
            ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
