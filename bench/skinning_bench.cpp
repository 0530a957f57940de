// Skinning deformers on 100k vertices with 4 influences, positions + normals:
// ns/vertex of LBS, DQS and the twist-corrected LBS, on 1 and 2 threads.
// The scene is rig::makeSkinningScene() (core/eval/skinning_timing.h: a tube
// of 1000 rings × 100 around a 16-joint chain, thesis Gaussian weights, every
// joint bent and twisted); `rigsmith bench skinning` times the same scene.
// The skin is bound once (rig::bindSkin/bindTwist, as the app does when the
// weights change); the per-frame work (forward kinematics, transform
// conversion, twistTransforms(), the deformation) is inside the timed loop.
// BM_LbsUnbound times the convenience form that binds on every call.
#include "core/deform/dqs.h"
#include "core/deform/lbs.h"
#include "core/rig/pose.h"
#include "core/deform/skinning_kernels.h"
#include "core/eval/skinning_timing.h"
#include "core/deform/twist_lbs.h"

#include <benchmark/benchmark.h>

namespace {

using Scene = rig::SkinningScene;

const Scene& scene()
{
    static const Scene s = rig::makeSkinningScene(100000);
    return s;
}

const rig::SkinBinding& bound()
{
    static const rig::SkinBinding b = [] {
        const Scene& s = scene();
        rig::SkinBinding r = rig::bindSkin(s.V, s.N, s.weights, s.skeleton.jointCount());
        rig::bindTwist(r, s.segmentation, s.skeleton);
        return r;
    }();
    return b;
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

void BM_Lbs(benchmark::State& state)
{
    const Scene& s = scene();
    const rig::SkinningOptions o{.threads = static_cast<int>(state.range(0))};
    rig::SkinnedMesh out;
    for (auto _ : state) {
        const rig::PosedSkeleton ps = rig::forwardKinematics(s.skeleton, s.pose);
        rig::lbs(bound(), ps.skinning, out, o);
        benchmark::DoNotOptimize(out.vertices.data());
    }
    setCounters(state, s);
}

void BM_Dqs(benchmark::State& state)
{
    const Scene& s = scene();
    const rig::SkinningOptions o{.threads = static_cast<int>(state.range(0))};
    rig::SkinnedMesh out;
    for (auto _ : state) {
        const rig::PosedSkeleton ps = rig::forwardKinematics(s.skeleton, s.pose);
        rig::dqs(bound(), ps.skinning, out, o);
        benchmark::DoNotOptimize(out.vertices.data());
    }
    setCounters(state, s);
}

void BM_TwistLbs(benchmark::State& state)
{
    const Scene& s = scene();
    const rig::SkinningOptions o{.threads = static_cast<int>(state.range(0))};
    rig::SkinnedMesh out;
    for (auto _ : state) {
        const rig::PosedSkeleton ps = rig::forwardKinematics(s.skeleton, s.pose);
        const rig::TwistTransforms T = rig::twistTransforms(s.skeleton, s.pose, ps);
        rig::twistLbs(bound(), T, out, o);
        benchmark::DoNotOptimize(out.vertices.data());
    }
    setCounters(state, s);
}

/// The same three on the portable (non-AVX2) path, for comparison.
template <void (*Bench)(benchmark::State&)>
void BM_Portable(benchmark::State& state)
{
    rig::skinning::forceScalar = true;
    Bench(state);
    rig::skinning::forceScalar = false;
}

} // namespace

BENCHMARK(BM_Portable<BM_Lbs>)->Name("BM_LbsPortable")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Portable<BM_Dqs>)->Name("BM_DqsPortable")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Portable<BM_TwistLbs>)->Name("BM_TwistLbsPortable")->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LbsUnbound)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Lbs)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dqs)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwistLbs)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
