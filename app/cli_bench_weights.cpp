// rigsmith bench weights (issue 15): seconds of every weight method on the
// generated character at a chosen mesh density, median of R runs.
#include "app/cli_common.h"

#include "app/cli.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/skin/skinning.h"
#include "core/skin/weight_methods.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace rig::app {
namespace {

double numberArg(const Args& a, const char* key, double fallback, double lo, double hi)
{
    const auto v = a.value(key);
    if (!v)
        return fallback;
    try {
        size_t used = 0;
        const double x = std::stod(*v, &used);
        if (used == v->size() && x >= lo && x <= hi)
            return x;
    } catch (const std::exception&) {
    }
    throw Error(std::string("rigsmith bench weights: ") + key + " needs a number in [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "], got '" + *v + "'");
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

} // namespace

int cmdBenchWeights(const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--cell-size", "--methods", "--repetitions", "--resolution"}, {},
                         "bench weights");
    if (a.positional.size() != 1)
        throw Error("rigsmith bench weights: unexpected argument '" + a.positional.back() + "'");
    HumanoidOptions ho;
    ho.cellSize = numberArg(a, "--cell-size", 0.0, 0.0, 1.0);
    const int repetitions = static_cast<int>(numberArg(a, "--repetitions", 5, 1, 1000));
    const Humanoid h = generateHumanoid(ho);
    Skeleton skeleton;
    skeleton.names = h.jointNames;
    skeleton.parents = h.jointParents;
    skeleton.bindPositions = h.joints;
    skeleton.bindOrientations.assign(h.jointNames.size(), Eigen::Quaterniond::Identity());

    // The solid the curve-skeleton stage leaves (not timed: an earlier stage).
    VoxelizeOptions vo;
    vo.resolution = parseResolution(a, "bench weights");
    const VoxelGrid solid = fillInterior(voxelizeSurface(h.mesh, vo), h.mesh).grid;

    std::vector<std::string> methods;
    if (const auto m = a.value("--methods")) {
        std::stringstream ss(*m);
        for (std::string id; std::getline(ss, id, ',');)
            methods.push_back(findWeightMethod(id).id);
    } else {
        for (const WeightMethod& m : weightMethods())
            methods.push_back(m.id);
    }
    std::printf("generated character (A-pose), cell size %.4f m: %d vertices, %d triangles, %d joints; solid %d^3; "
                "median of %d\n",
                ho.cellSize, h.mesh.vertexCount(), h.mesh.triangleCount(), skeleton.jointCount(), vo.resolution,
                repetitions);
    std::printf("  %-16s %10s %10s %10s %10s\n", "method", "total s", "cpu s", "weights s", "segment s");
    nlohmann::json rows = nlohmann::json::array();
    StageTimings none;
    for (const std::string& id : methods) {
        std::vector<double> total, cpu, weights, segment;
        for (int r = 0; r < repetitions; ++r) {
            WeightOptions wo;
            wo.method = id;
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            const SkinningResult s = computeSkinning(h.mesh, skeleton, &solid, wo);
            cpu.push_back(double(std::clock() - c0) / CLOCKS_PER_SEC);
            total.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            double wsec = 0.0, ssec = 0.0;
            for (const auto& [name, sec] : s.timings) {
                if (name == "weights")
                    wsec += sec;
                else if (name == "segment")
                    ssec += sec;
            }
            weights.push_back(wsec);
            segment.push_back(ssec);
        }
        std::printf("  %-16s %10.3f %10.3f %10.3f %10.3f\n", id.c_str(), median(total), median(cpu), median(weights),
                    median(segment));
        std::fflush(stdout);
        rows.push_back({{"method", id},
                        {"total_seconds", median(total)},
                        {"cpu_seconds", median(cpu)},
                        {"weights_seconds", median(weights)},
                        {"segment_seconds", median(segment)},
                        {"runs", total}});
    }
    writeReport(a, "bench", "weights", none,
                {{"vertices", h.mesh.vertexCount()},
                 {"cell_size", ho.cellSize},
                 {"resolution", vo.resolution},
                 {"repetitions", repetitions},
                 {"methods", rows}});
    return 0;
}

} // namespace rig::app
