#include "core/eval/skinning_timing.h"

#include "core/deform/deformers.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/dqs.h"
#include "core/deform/lbs.h"
#include "core/deform/skin_binding.h"
#include "core/deform/streaming_floor.h"
#include "core/deform/twist_lbs.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <numbers>
#include <string>
#include <vector>

namespace rig {
namespace {

constexpr int kJoints = 16;
constexpr int kAround = 100;

struct Sample {
    double wall = 0.0, cpu = 0.0;
};

/// Medians over repetitions of the wall-clock and CPU ns per vertex of `frame()`.
template <class Frame>
Sample medianNsPerVertex(const SkinningTimingOptions& o, Eigen::Index vertices, const Frame& frame)
{
    using Clock = std::chrono::steady_clock;
    frame(); // warm-up: caches, pool threads, output storage
    std::vector<double> wall, cpu;
    for (int r = 0; r < o.repetitions; ++r) {
        const auto t0 = Clock::now();
        const std::clock_t c0 = std::clock();
        long frames = 0;
        double seconds = 0.0;
        do {
            frame();
            ++frames;
            seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        } while (seconds < o.minSeconds);
        const double perVertex = 1e9 / (static_cast<double>(frames) * static_cast<double>(vertices));
        wall.push_back(seconds * perVertex);
        cpu.push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC * perVertex);
    }
    auto median = [](std::vector<double>& v) {
        std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    return {median(wall), median(cpu)};
}

} // namespace

SkinningScene makeSkinningScene(int vertices)
{
    if (vertices < 2 * kAround)
        throw InvalidInput("rig::makeSkinningScene(): need at least 200 vertices (two rings of 100), got " +
                           std::to_string(vertices));
    const int rings = vertices / kAround;
    const double length = kJoints - 1;
    SkinningScene sc;
    sc.V.resize(rings * kAround, 3);
    sc.N.resize(rings * kAround, 3);
    for (int r = 0; r < rings; ++r)
        for (int a = 0; a < kAround; ++a) {
            const double phi = 2 * std::numbers::pi * a / kAround;
            sc.V.row(r * kAround + a) << 0.5 * std::cos(phi), length * r / (rings - 1), 0.5 * std::sin(phi);
            sc.N.row(r * kAround + a) << std::cos(phi), 0, std::sin(phi);
        }
    sc.F.resize(2 * kAround * (rings - 1), 3);
    for (int r = 0, f = 0; r + 1 < rings; ++r)
        for (int a = 0; a < kAround; ++a) {
            const int i = r * kAround + a, j = r * kAround + (a + 1) % kAround;
            sc.F.row(f++) << i, i + kAround, j;
            sc.F.row(f++) << j, i + kAround, j + kAround;
        }
    Skeleton& sk = sc.skeleton;
    sk.bindPositions.resize(kJoints, 3);
    for (int j = 0; j < kJoints; ++j) {
        sk.names.push_back("joint" + std::to_string(j));
        sk.parents.push_back(j - 1);
        sk.bindPositions.row(j) << 0, j, 0;
        sk.bindOrientations.push_back(Eigen::Quaterniond::Identity());
    }
    // Thesis eq. 4.1 on the δ of each link; the tiny floor keeps 4 influences everywhere.
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(sc.V.rows(), kJoints);
    for (Eigen::Index i = 0; i < W.rows(); ++i)
        for (int k = 0; k + 1 < kJoints; ++k) {
            const double d = sc.V(i, 1) - k;
            W(i, k) = 1.3 * std::exp(-(d - 0.5) * (d - 0.5) / (2 * 0.25 * 0.25)) + 1e-12;
        }
    sc.weights = skinWeightsFromDense(W, 4);
    sc.segmentation = segmentationFromNearestLink(sc.V, sk);
    sc.pose = identityPose(sk);
    for (int j = 1; j < kJoints; ++j)
        sc.pose.localRotations[static_cast<size_t>(j)] =
            Eigen::AngleAxisd(0.2, Vec3::UnitX()) * Eigen::AngleAxisd(0.5, Vec3::UnitY());
    return sc;
}

SkinningTimings timeSkinning(const SkinningTimingOptions& o)
{
    if (o.threads < 0 || o.repetitions < 1)
        throw InvalidInput("rig::timeSkinning(): threads must be >= 0 and repetitions >= 1");
    const SkinningScene s = makeSkinningScene(o.vertices);
    const SkinningOptions so{.threads = o.threads};
    // Bound once, as the app does when the weights change; the per-frame work
    // (forward kinematics, transform conversion, twistTransforms(), the
    // deformation) is timed.
    Mesh mesh;
    mesh.V = s.V;
    mesh.N = s.N;
    mesh.F = s.F;
    const DeformerInput input{mesh, s.weights, &s.segmentation, s.skeleton};
    SkinnedMesh out;
    SkinningTimings t;
    t.vertices = static_cast<int>(s.V.rows());
    t.threads = resolveThreadCount(o.threads);
    for (const DeformerInfo& d : deformers()) {
        const auto start = std::chrono::steady_clock::now();
        const std::unique_ptr<BoundDeformer> bound = d.bind(input);
        const double bindSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const Sample sample =
            medianNsPerVertex(o, s.V.rows(), [&] { bound->deform(s.pose, {}, out, so); });
        t.deformers.push_back({d.id, d.title, sample.wall, sample.cpu, bindSeconds});
    }
    // The memory floors: the same bytes per vertex streamed by the simplest loop.
    SkinBinding binding = bindSkin(s.V, s.N, s.weights, s.skeleton.jointCount());
    bindTwist(binding, s.segmentation, s.skeleton);
    for (const auto& [id, which] : {std::pair{"lbs", StreamingLayout::Lbs}, std::pair{"dqs", StreamingLayout::Dqs},
                                    std::pair{"twist", StreamingLayout::Twist}}) {
        const StreamingLayout layout = which; // a copy: clang does not capture structured bindings
        const Sample sample =
            medianNsPerVertex(o, s.V.rows(), [&] { streamingFloor(binding, layout, out, o.threads); });
        t.floors.push_back({id, std::string("streaming floor, ") + id + " bytes", sample.wall, sample.cpu, 0.0});
    }
    return t;
}

} // namespace rig
