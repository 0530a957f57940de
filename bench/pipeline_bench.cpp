// The whole `rig` pipeline as a user runs it (issue 20, item 1): HUMAN.blend
// from assimp-testmodels, brought +Y up by the importer and subdivided flat
// (core/mesh/subdivide.h) into 4,282 / 17,122 / 68,482 / 154,082 vertices
// (edges cut in 1, 2, 4, 6 pieces), written as OBJ, then
// `rigsmith rig MESH.obj --ends auto --out OUT.glb --report R.json` run as a
// separate process R times per size. Prints per size the median whole-process
// wall time, the median of each stage of the report, the peak resident memory
// (the process and its importer child: wait4's maxrss), the ratio to
// Pinocchio's autorig() on the same meshes (the anchors), and per
// stage the growth exponent b of t ~ V^b (least squares over the sizes).
//
// Usage: pipeline_bench [--rigsmith PATH] [--model FILE] [--factors 1,2,4,6]
//                       [--runs 5] [--cpu N] [--keep DIR] [--format obj|ply]
//   --format: the meshes as text OBJ (default, what Pinocchio reads) or binary PLY.
//   --cpu N: pin the runs to CPU N (one core; the default uses every core).
//   --runs 0 with --keep DIR: only write the meshes into DIR (bench/peers.sh's inputs).
#include "core/import/mesh_import.h"
#include "core/export/mesh_write.h"
#include "core/mesh/subdivide.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sched.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Options {
    std::string rigsmith;
    std::string model = "/usr/share/assimp/models/BLEND/HUMAN.blend";
    std::vector<int> factors = {1, 2, 4, 6};
    int runs = 5;
    int cpu = -1;
    std::string keep;
    std::string format = "obj";
};

/// One process run: wall seconds, peak memory in MiB, the report's stages.
struct Run {
    double wall = 0.0;
    double peakMiB = 0.0;
    std::map<std::string, double> stages;
};

/// Pinocchio 1.0's autorig() on the same meshes (issue 20's table, whole process).
double pinocchioSeconds(int vertices)
{
    const std::map<int, double> anchors = {{4282, 0.64}, {17122, 1.43}, {68482, 7.87}, {154082, 30.8}};
    const auto it = anchors.find(vertices);
    return it == anchors.end() ? 0.0 : it->second;
}

Run runOnce(const Options& o, const std::string& obj, const std::string& dir)
{
    const std::string out = dir + "/out.glb", report = dir + "/report.json";
    std::vector<std::string> args = {o.rigsmith, "rig", obj, "--ends", "auto", "--out", out, "--report", report};
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (o.cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(o.cpu, &set);
            ::sched_setaffinity(0, sizeof set, &set);
        }
        std::freopen("/dev/null", "w", stdout);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    Run r;
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.peakMiB = double(usage.ru_maxrss) / 1024.0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(o.rigsmith + " rig " + obj + " failed (status " + std::to_string(status) + ")");
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(report));
    for (const auto& s : j.at("stages"))
        r.stages[s.at("name").get<std::string>()] += s.at("seconds").get<double>();
    return r;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// b of the least-squares fit log t = a + b log V.
double growthExponent(const std::vector<double>& vertices, const std::vector<double>& seconds)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = double(vertices.size());
    for (size_t i = 0; i < vertices.size(); ++i) {
        const double x = std::log(vertices[i]), y = std::log(std::max(seconds[i], 1e-7));
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    const double d = n * sxx - sx * sx;
    return d == 0 ? 0.0 : (n * sxy - sx * sy) / d;
}

std::vector<int> parseList(const std::string& s)
{
    std::vector<int> out;
    size_t at = 0;
    while (at < s.size()) {
        const size_t comma = s.find(',', at);
        out.push_back(std::stoi(s.substr(at, comma - at)));
        at = comma == std::string::npos ? s.size() : comma + 1;
    }
    return out;
}

Options parseOptions(int argc, char** argv)
{
    Options o;
    o.rigsmith = (fs::path(argv[0]).parent_path() / ".." / "app" / "rigsmith").lexically_normal().string();
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--rigsmith") o.rigsmith = value;
        else if (key == "--model") o.model = value;
        else if (key == "--factors") o.factors = parseList(value);
        else if (key == "--runs") o.runs = std::max(0, std::stoi(value));
        else if (key == "--cpu") o.cpu = std::stoi(value);
        else if (key == "--keep") o.keep = value;
        else if (key == "--format" && (value == "obj" || value == "ply")) o.format = value;
        else throw std::runtime_error("unknown option " + key);
    }
    return o;
}

struct SizeResult {
    int vertices = 0;
    double wall = 0, peak = 0;
    std::map<std::string, double> stages;
};

SizeResult measureSize(const Options& o, const rig::Mesh& base, int factor, const std::string& dir)
{
    const rig::Mesh mesh = rig::subdivideLinear(base, factor);
    const std::string obj = dir + "/human_x" + std::to_string(factor) + "." + o.format;
    rig::writeMesh(obj, mesh);
    std::vector<Run> runs;
    for (int r = 0; r < o.runs; ++r)
        runs.push_back(runOnce(o, obj, dir));
    SizeResult s;
    s.vertices = mesh.vertexCount();
    std::vector<double> wall, peak;
    for (const Run& r : runs)
        wall.push_back(r.wall), peak.push_back(r.peakMiB);
    s.wall = median(wall);
    s.peak = median(peak);
    for (const auto& [name, seconds] : runs.front().stages) {
        std::vector<double> t;
        for (const Run& r : runs)
            t.push_back(r.stages.count(name) ? r.stages.at(name) : 0.0);
        s.stages[name] = median(t);
    }
    return s;
}

void printTables(const std::vector<SizeResult>& sizes)
{
    std::printf("\n| vertices | Pinocchio | Rigsmith (whole process) | ratio | peak memory |\n|---|---|---|---|---|\n");
    for (const SizeResult& s : sizes) {
        const double p = pinocchioSeconds(s.vertices);
        char pin[32] = "-", ratio[32] = "-";
        if (p > 0) {
            std::snprintf(pin, sizeof pin, "%.2f s", p);
            std::snprintf(ratio, sizeof ratio, "%.1fx", p / s.wall);
        }
        std::printf("| %d | %s | %.3f s | %s | %.0f MiB |\n", s.vertices, pin, s.wall, ratio, s.peak);
    }
    std::printf("\n| stage (ms) |");
    for (const SizeResult& s : sizes)
        std::printf(" %d |", s.vertices);
    std::printf(" growth exponent |\n|---|");
    for (size_t i = 0; i <= sizes.size(); ++i)
        std::printf("---|");
    std::printf("\n");
    std::vector<std::string> names;
    for (const auto& [name, t] : sizes.front().stages)
        names.push_back(name);
    names.push_back("(outside the stages)");
    names.push_back("(whole process)");
    std::vector<double> vertices;
    for (const SizeResult& s : sizes)
        vertices.push_back(s.vertices);
    for (const std::string& name : names) {
        std::vector<double> t;
        for (const SizeResult& s : sizes) {
            double staged = 0;
            for (const auto& [n, v] : s.stages)
                staged += v;
            t.push_back(name == "(whole process)" ? s.wall
                        : name == "(outside the stages)" ? s.wall - staged
                        : s.stages.count(name) ? s.stages.at(name) : 0.0);
        }
        std::printf("| %s |", name.c_str());
        for (const double v : t)
            std::printf(" %.1f |", v * 1e3);
        std::printf(" %.2f |\n", sizes.size() > 1 ? growthExponent(vertices, t) : 0.0);
    }
}

} // namespace

int main(int argc, char** argv)
{
    try {
        const Options o = parseOptions(argc, argv);
        const std::string dir = o.keep.empty() ? (fs::temp_directory_path() / ("rigsmith_pipeline_bench_" + std::to_string(::getpid()))).string() : o.keep;
        fs::create_directories(dir);
        const rig::ImportedCharacter base = rig::importCharacter(o.model);
            std::printf("%s: %d vertices, %d triangles (up %s); %s, %s meshes, %d runs per size%s\n", o.model.c_str(),
                    base.mesh.vertexCount(), base.mesh.triangleCount(), base.info.upAxis.c_str(), o.rigsmith.c_str(),
                    o.format.c_str(), o.runs,
                    o.cpu >= 0 ? (", pinned to CPU " + std::to_string(o.cpu)).c_str() : "");
        if (o.runs == 0) { // the meshes alone
            if (o.keep.empty())
                throw std::runtime_error("--runs 0 writes the meshes only and needs --keep DIR");
            for (const int k : o.factors) {
                const rig::Mesh mesh = rig::subdivideLinear(base.mesh, k);
                const std::string path = dir + "/human_x" + std::to_string(k) + "." + o.format;
                rig::writeMesh(path, mesh);
                std::printf("%s: %d vertices\n", path.c_str(), mesh.vertexCount());
            }
            return 0;
        }
        std::vector<SizeResult> sizes;
        for (const int k : o.factors) {
            sizes.push_back(measureSize(o, base.mesh, k, dir));
            std::fprintf(stderr, "x%d: %d vertices, %.4f s\n", k, sizes.back().vertices, sizes.back().wall);
        }
        printTables(sizes);
        if (o.keep.empty())
            fs::remove_all(dir);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pipeline_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
