// Where the load of a foreign file goes (issue 46, point 4): the reader
// (Assimp's ReadFile), our post-processing in the importer process (merge,
// weld, normals, source meshes, skeleton: the rest of importCharacter()), the
// character's stream written there and read back here, and the whole guarded
// import (fork and exec of rigsmith-import, its start, all the above, the pipe).
// Medians of R rounds, the parts run one after another in each round.
//
// Usage: load_breakdown [--runs R] [--importer PATH] FILE...
//   The in-process parts read FILE here (linking the reader, as pipeline_bench
//   does); "importer alone" runs `rigsmith-import --out-fd 1 -- FILE` into
//   /dev/null; "guarded" is importCharacterGuarded(), what `rigsmith` runs.
#include "core/import/character_stream.h"
#include "core/import/guarded_import.h"
#include "core/import/mesh_import.h"
#include "core/mesh/mesh_queries.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Wall and CPU seconds of `importer --out-fd 1 -- file` writing into /dev/null.
std::pair<double, double> importerAlone(const std::string& importer, const std::string& file)
{
    std::fflush(stdout);
    const auto t0 = Clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
        ::execl(importer.c_str(), importer.c_str(), "--out-fd", "1", "--", file.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    rusage ru{};
    ::wait4(pid, &status, 0, &ru);
    const double wall = since(t0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(importer + " failed on " + file);
    const double cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    return {wall, cpu};
}

} // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    std::string importer;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::stoi(argv[++i]));
        else if (a == "--importer" && i + 1 < argc)
            importer = argv[++i];
        else
            files.push_back(a);
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: load_breakdown [--runs R] [--importer PATH] FILE...\n");
        return 2;
    }
    try {
        rig::GuardedImportOptions guard = rig::guardedImportDefaults();
        if (!importer.empty())
            guard.importer = importer;
        importer = rig::findImporter(guard);
        if (importer.empty())
            throw std::runtime_error("no rigsmith-import found (build it, or pass --importer)");
        std::printf("medians of %d rounds, ms; importer %s\n\n", runs, importer.c_str());
        std::printf("| file | vertices | reader (Assimp) | ours in the importer | stream write | stream read | "
                    "mesh stats | importer alone, wall / CPU | guarded import, wall |\n|---|---|---|---|---|---|---|---|---|\n");
        for (const std::string& file : files) {
            std::map<std::string, std::vector<double>> t;
            int vertices = 0;
            for (int r = 0; r < runs; ++r) {
                // In process, the reader's progress step ("read") timed apart from the rest.
                Clock::time_point start = Clock::now(), readEnd{};
                rig::Progress progress;
                progress.report = [&](std::string_view step, double) {
                    if (step != "read" && readEnd == Clock::time_point{})
                        readEnd = Clock::now();
                };
                const rig::ImportedCharacter c = rig::importCharacter(file, rig::importDefaults(), progress);
                const auto end = Clock::now();
                if (readEnd == Clock::time_point{})
                    readEnd = end;
                t["reader"].push_back(std::chrono::duration<double>(readEnd - start).count());
                t["ours"].push_back(std::chrono::duration<double>(end - readEnd).count());
                vertices = c.mesh.vertexCount();
                auto s = Clock::now();
                std::string bytes;
                rig::appendCharacterStream(c, bytes);
                t["write"].push_back(since(s));
                s = Clock::now();
                const rig::ImportedCharacter back = rig::readCharacterStream(bytes, file);
                t["read"].push_back(since(s));
                s = Clock::now();
                [[maybe_unused]] const rig::MeshStats stats = rig::meshStats(back.mesh);
                t["stats"].push_back(since(s));
                const auto [wall, cpu] = importerAlone(importer, file);
                t["alone"].push_back(wall);
                t["aloneCpu"].push_back(cpu);
                s = Clock::now();
                [[maybe_unused]] const rig::ImportedCharacter g = rig::importCharacterGuarded(file, rig::importDefaults(), guard);
                t["guarded"].push_back(since(s));
            }
            const auto ms = [&](const char* k) { return 1e3 * median(t[k]); };
            std::printf("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f / %.1f | %.1f |\n",
                        std::filesystem::path(file).filename().c_str(), vertices, ms("reader"), ms("ours"), ms("write"),
                        ms("read"), ms("stats"), ms("alone"), ms("aloneCpu"), ms("guarded"));
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "load_breakdown: %s\n", e.what());
        return 1;
    }
    return 0;
}
