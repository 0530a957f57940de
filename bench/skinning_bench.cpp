// Skinning deformers on 100k vertices with 4 influences, positions + normals:
// ns/vertex of LBS, DQS and the twist-corrected LBS, on 1 and 2 threads.
// The mesh is a tube (1000 rings × 100) around a 16-joint chain; the thesis's
// Gaussian weights (eq. 4.1) on the δ of each link keep 4 non-zero influences
// per vertex; the pose bends and twists every joint. The per-frame work
// (transform conversion, twistTransforms()) is inside the timed loop.
#include "core/deform/dqs.h"
#include "core/deform/lbs.h"
#include "core/deform/pose.h"
#include "core/deform/twist_lbs.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>

namespace {

struct Scene {
    rig::MatrixX3d V, N;
    rig::Skeleton skeleton;
    rig::SkinWeights weights;
    rig::Segmentation segmentation;
    rig::Pose pose;
};

const Scene& scene()
{
    static const Scene s = [] {
        constexpr int joints = 16, rings = 1000, around = 100;
        const double length = joints - 1;
        Scene sc;
        sc.V.resize(rings * around, 3);
        sc.N.resize(rings * around, 3);
        for (int r = 0; r < rings; ++r)
            for (int a = 0; a < around; ++a) {
                const double phi = 2 * std::numbers::pi * a / around;
                sc.V.row(r * around + a) << 0.5 * std::cos(phi), length * r / (rings - 1), 0.5 * std::sin(phi);
                sc.N.row(r * around + a) << std::cos(phi), 0, std::sin(phi);
            }
        rig::Skeleton& sk = sc.skeleton;
        sk.bindPositions.resize(joints, 3);
        for (int j = 0; j < joints; ++j) {
            sk.names.push_back(std::to_string(j).insert(0, "joint"));
            sk.parents.push_back(j - 1);
            sk.bindPositions.row(j) << 0, j, 0;
            sk.bindOrientations.push_back(Eigen::Quaterniond::Identity());
        }
        Eigen::MatrixXd W = Eigen::MatrixXd::Zero(sc.V.rows(), joints);
        for (Eigen::Index i = 0; i < W.rows(); ++i)
            for (int k = 0; k + 1 < joints; ++k) {
                const double d = sc.V(i, 1) - k;
                W(i, k) = 1.3 * std::exp(-(d - 0.5) * (d - 0.5) / (2 * 0.25 * 0.25)) + 1e-12;
            }
        sc.weights = rig::skinWeightsFromDense(W, 4);
        sc.segmentation = rig::segmentationFromNearestLink(sc.V, sk);
        sc.pose = rig::identityPose(sk);
        for (int j = 1; j < joints; ++j)
            sc.pose.localRotations[j] = Eigen::AngleAxisd(0.2, rig::Vec3::UnitX()) *
                                        Eigen::AngleAxisd(0.5, rig::Vec3::UnitY());
        return sc;
    }();
    return s;
}

void setCounters(benchmark::State& state, const Scene& s)
{
    state.counters["ns_per_vertex"] = benchmark::Counter(static_cast<double>(s.V.rows()) * 1e-9,
                                                         benchmark::Counter::kIsIterationInvariantRate |
                                                             benchmark::Counter::kInvert);
}

void BM_Lbs(benchmark::State& state)
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

void BM_Dqs(benchmark::State& state)
{
    const Scene& s = scene();
    const rig::SkinningOptions o{.threads = static_cast<int>(state.range(0))};
    rig::DeformedMesh out;
    for (auto _ : state) {
        const rig::PosedSkeleton ps = rig::forwardKinematics(s.skeleton, s.pose);
        rig::dqs(s.V, s.N, s.weights, ps.skinning, out, o);
        benchmark::DoNotOptimize(out.V.data());
    }
    setCounters(state, s);
}

void BM_TwistLbs(benchmark::State& state)
{
    const Scene& s = scene();
    const rig::SkinningOptions o{.threads = static_cast<int>(state.range(0))};
    rig::DeformedMesh out;
    for (auto _ : state) {
        const rig::PosedSkeleton ps = rig::forwardKinematics(s.skeleton, s.pose);
        const rig::TwistTransforms T = rig::twistTransforms(s.skeleton, s.pose, ps);
        rig::twistLbs(s.V, s.N, s.weights, s.segmentation, T, out, o);
        benchmark::DoNotOptimize(out.V.data());
    }
    setCounters(state, s);
}

} // namespace

BENCHMARK(BM_Lbs)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dqs)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwistLbs)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
