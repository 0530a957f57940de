// Retargeting (core/motion/retarget.h, thesis Ch. 5): a CMU clip of Debian's
// assimp-testmodels (01_01.bvh, 2752 frames at 120 fps, 31 joints) onto the
// 21-joint rig of the default character (its ground-truth joints with Rigsmith
// bind frames). Reports the mapping time and the time per retargeted frame
// (FK of the source, blending, rest offsets, local rotations, feet correction).
// Medians: --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include "core/character/humanoid.h"
#include "core/motion/bvh_file.h"
#include "core/motion/retarget.h"
#include "core/rig/fit_template.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <optional>

namespace {

using namespace rig;

const std::string clipPath = "/usr/share/assimp/models/BVH/01_01.bvh";

const Motion* cmuClip()
{
    static const std::optional<Motion> clip =
        std::filesystem::exists(clipPath) ? std::optional<Motion>(readBvh(clipPath)) : std::nullopt;
    return clip ? &*clip : nullptr;
}

const Skeleton& defaultRig()
{
    static const Skeleton k = [] {
        const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .height = 1.75, .cellSize = 0.05});
        Skeleton s;
        s.names = h.jointNames;
        s.parents = h.jointParents;
        s.bindPositions = h.joints;
        s.bindOrientations.assign(s.names.size(), Eigen::Quaterniond::Identity());
        orientBones(s);
        return s;
    }();
    return k;
}

void BM_MapSkeletons(benchmark::State& state)
{
    const Motion* clip = cmuClip();
    if (!clip) {
        state.SkipWithError("assimp-testmodels is not installed");
        return;
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(mapSkeletons(*clip, defaultRig()));
}
BENCHMARK(BM_MapSkeletons)->Unit(benchmark::kMicrosecond);

void BM_RetargetCmuClip(benchmark::State& state)
{
    const Motion* clip = cmuClip();
    if (!clip) {
        state.SkipWithError("assimp-testmodels is not installed");
        return;
    }
    const RetargetMapping mapping = mapSkeletons(*clip, defaultRig());
    for (auto _ : state)
        benchmark::DoNotOptimize(retargetClip(*clip, defaultRig(), mapping));
    // items_per_second: retargeted frames per CPU second (1e6 / us per frame).
    state.SetItemsProcessed(static_cast<int64_t>(clip->frameCount()) * state.iterations());
}
BENCHMARK(BM_RetargetCmuClip)->Unit(benchmark::kMillisecond);

void BM_BvhOfRetargetedClip(benchmark::State& state)
{
    const Motion* clip = cmuClip();
    if (!clip) {
        state.SkipWithError("assimp-testmodels is not installed");
        return;
    }
    const RetargetedClip r = retargetClip(*clip, defaultRig());
    for (auto _ : state)
        benchmark::DoNotOptimize(retargetedMotion(r, defaultRig()));
}
BENCHMARK(BM_BvhOfRetargetedClip)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
