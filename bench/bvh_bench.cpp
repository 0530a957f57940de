// Loading BVH clips (core/motion/bvh_file.h): a generated CMU-like clip (31
// joints, root 6 channels and 3 per other joint = 96 values a frame, four
// decimals as the CMU converter writes them, ~7.4 MB for 10 000 frames),
// parsed from memory and read from a file. Target: 10 000 frames <= 0.2 s.
// Medians: --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include "core/motion/bvh_file.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>

namespace {

using namespace rig;

/// The CMU hierarchy (names and parents of the 31 MotionBuilder joints) with
/// plausible offsets and random angles.
Motion cmuLikeClip(int frames)
{
    static const std::vector<std::pair<const char*, int>> joints = {
        {"Hips", -1},         {"LHipJoint", 0},     {"LeftUpLeg", 1},     {"LeftLeg", 2},       {"LeftFoot", 3},
        {"LeftToeBase", 4},   {"RHipJoint", 0},     {"RightUpLeg", 6},    {"RightLeg", 7},      {"RightFoot", 8},
        {"RightToeBase", 9},  {"LowerBack", 0},     {"Spine", 11},        {"Spine1", 12},       {"Neck", 13},
        {"Neck1", 14},        {"Head", 15},         {"LeftShoulder", 13}, {"LeftArm", 17},      {"LeftForeArm", 18},
        {"LeftHand", 19},     {"LeftFingerBase", 20}, {"LFingers", 21},   {"LThumb", 20},       {"RightShoulder", 13},
        {"RightArm", 24},     {"RightForeArm", 25}, {"RightHand", 26},    {"RightFingerBase", 27}, {"RFingers", 28},
        {"RThumb", 27}};
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> angle(-180.0, 180.0), length(0.0, 8.0);
    const auto fourDecimals = [](double x) { return std::round(x * 1e4) / 1e4; };
    Motion m;
    m.offsets.resize(static_cast<Eigen::Index>(joints.size()), 3);
    m.channelStarts.push_back(0);
    for (const auto& [name, parent] : joints) {
        const auto j = static_cast<Eigen::Index>(m.names.size());
        m.names.push_back(name);
        m.parents.push_back(parent);
        for (int k = 0; k < 3; ++k)
            m.offsets(j, k) = parent < 0 ? 0.0 : fourDecimals(length(rng) - 4.0);
        if (parent < 0)
            m.channels.insert(m.channels.end(), {Channel::Xposition, Channel::Yposition, Channel::Zposition});
        m.channels.insert(m.channels.end(), {Channel::Zrotation, Channel::Yrotation, Channel::Xrotation});
        m.channelStarts.push_back(static_cast<int>(m.channels.size()));
    }
    m.endSiteParents = {5, 10, 16, 22, 23, 29, 30};
    m.endSiteOffsets = MatrixX3d::Constant(7, 3, 1.0);
    m.frameTime = 0.0083333;
    m.frames.resize(frames, m.channelCount());
    for (Eigen::Index i = 0; i < m.frames.size(); ++i)
        m.frames.data()[i] = fourDecimals(angle(rng));
    return m;
}

const std::string& clipText(int frames)
{
    static std::map<int, std::string> cache;
    auto it = cache.find(frames);
    if (it == cache.end())
        it = cache.emplace(frames, formatBvh(cmuLikeClip(frames))).first;
    return it->second;
}

void BM_ParseBvhFromMemory(benchmark::State& state)
{
    const int frames = static_cast<int>(state.range(0));
    const std::string& text = clipText(frames);
    for (auto _ : state) {
        Motion m = parseBvh(text, "bench.bvh");
        benchmark::DoNotOptimize(m.frames.data());
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
    state.counters["frames/s"] = benchmark::Counter(static_cast<double>(frames) * static_cast<double>(state.iterations()),
                                                    benchmark::Counter::kIsRate);
    state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_ParseBvhFromMemory)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_ReadBvhFile(benchmark::State& state)
{
    const int frames = static_cast<int>(state.range(0));
    const auto path = std::filesystem::temp_directory_path() / ("rigsmith_bvh_bench_" + std::to_string(frames) + ".bvh");
    writeBvh(cmuLikeClip(frames), path.string());
    for (auto _ : state) {
        Motion m = readBvh(path.string());
        benchmark::DoNotOptimize(m.frames.data());
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(std::filesystem::file_size(path)));
    std::filesystem::remove(path);
}
BENCHMARK(BM_ReadBvhFile)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_WriteBvhToMemory(benchmark::State& state)
{
    const Motion m = cmuLikeClip(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        std::string text = formatBvh(m);
        benchmark::DoNotOptimize(text.data());
    }
}
BENCHMARK(BM_WriteBvhToMemory)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_WorldPositionsPerFrame(benchmark::State& state)
{
    const Motion m = cmuLikeClip(100);
    int f = 0;
    for (auto _ : state) {
        MatrixX3d p = worldPositions(m, f);
        benchmark::DoNotOptimize(p.data());
        f = (f + 1) % m.frameCount();
    }
}
BENCHMARK(BM_WorldPositionsPerFrame)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
