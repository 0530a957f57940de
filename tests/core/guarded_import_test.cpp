// The importer process (issue 21): a crash, an abort, a hang or the memory cap
// of the reader ends in one message naming the file; a good file reads the same
// as in-process.
#include "core/import/guarded_import.h"

#include "core/common/error.h"
#include "core/project/character_source.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <thread>

#include <cstdlib>

#include <sys/stat.h>

namespace rig {
namespace {

namespace fs = std::filesystem;

fs::path tempFile(const std::string& name) { return fs::temp_directory_path() / ("rigsmith_guarded_" + name); }

std::string write(const std::string& name, const std::string& text, bool executable = false)
{
    const fs::path p = tempFile(name);
    std::ofstream(p, std::ios::binary) << text;
    if (executable)
        ::chmod(p.c_str(), 0755);
    return p.string();
}

/// A fake importer that does `body` (a shell script): the parent's handling of
/// every way a reader can end, independent of Assimp's bugs.
GuardedImportOptions fake(const std::string& name, const std::string& body)
{
    GuardedImportOptions o;
    o.importer = write(name + ".sh", "#!/bin/sh\n" + body + "\n", true);
    return o;
}

template <typename F>
std::string messageOf(F f)
{
    try {
        f();
    } catch (const IoError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("unexpected: ") + e.what();
    }
    return "no error";
}

std::string cubeObj()
{
    return "o Box\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n"
           "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
}

TEST(GuardedImport, TheImporterIsBuiltAndFound)
{
    const std::string importer = findImporter(GuardedImportOptions{});
    ASSERT_FALSE(importer.empty()) << "rigsmith-import was not found: the guarded import would be skipped";
}

TEST(GuardedImport, AGoodFileReadsTheSameAsInProcess)
{
    const std::string path = write("cube.obj", cubeObj());
    const ImportedCharacter direct = importCharacter(path);
    int reports = 0;
    Progress progress;
    progress.report = [&](std::string_view, double) { ++reports; };
    const ImportedCharacter child = importCharacterGuarded(path, {}, GuardedImportOptions{}, progress);
    EXPECT_EQ(child.mesh.V, direct.mesh.V);
    EXPECT_EQ(child.mesh.F, direct.mesh.F);
    EXPECT_EQ(child.mesh.N, direct.mesh.N);
    EXPECT_EQ(child.mesh.partNames, direct.mesh.partNames);
    EXPECT_EQ(child.info.weldMap, direct.info.weldMap);
    EXPECT_EQ(child.info.upAxis, direct.info.upAxis);
    EXPECT_GT(reports, 0) << "the child's progress did not reach the parent";
    // The reader's own errors come back unchanged, with their type.
    const std::string none = tempFile("missing.obj").string();
    std::string inProcess, guarded;
    try {
        importCharacter(none);
    } catch (const IoError& e) {
        inProcess = e.what();
    }
    guarded = messageOf([&] { importCharacterGuarded(none); });
    EXPECT_EQ(guarded, inProcess);
    // A file the reader refuses with InvalidInput: the same type and message from the child.
    const std::string flat = write("points.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\n");
    std::string refused;
    try {
        importCharacter(flat);
    } catch (const InvalidInput& e) {
        refused = e.what();
    } catch (const IoError& e) {
        refused = std::string("IoError: ") + e.what();
    }
    ASSERT_FALSE(refused.empty());
    try {
        importCharacterGuarded(flat);
        ADD_FAILURE() << "accepted";
    } catch (const InvalidInput& e) {
        EXPECT_EQ(e.what(), refused);
    } catch (const IoError& e) {
        EXPECT_EQ(std::string("IoError: ") + e.what(), refused);
    }
}

TEST(GuardedImport, CrashAbortAndKillEndInAMessageNamingTheFile)
{
    const std::string path = write("hero.ply", "ply\n");
    std::string m = messageOf([&] { importCharacterGuarded(path, {}, fake("segv", "kill -SEGV $$")); });
    EXPECT_EQ(m, path + ": the PLY reader crashed on this file (SIGSEGV); the file is probably corrupt. Nothing was "
                        "changed");
    m = messageOf([&] { importCharacterGuarded(path, {}, fake("abrt", "kill -ABRT $$")); });
    EXPECT_NE(m.find(path + ": the PLY reader aborted on this file (SIGABRT)"), std::string::npos) << m;
    m = messageOf([&] { importCharacterGuarded(path, {}, fake("exit", "exit 9")); });
    EXPECT_NE(m.find(path + ": the importer stopped without a result (exit code 9)"), std::string::npos) << m;
    GuardedImportOptions missing;
    missing.importer = tempFile("no-such-importer").string();
    m = messageOf([&] { importCharacterGuarded(path, {}, missing); });
    EXPECT_NE(m.find("cannot start the importer"), std::string::npos) << m;
}

TEST(GuardedImport, TheReadersOwnMessagesGoToTheLogNotToStderr)
{
    // Assimp's assertion text and glibc's heap reports were printed on the
    // command line's stderr beside our one-line message (issue 47).
    const std::string path = write("assert.ply", "ply\n");
    const std::string log = tempFile("import.log").string();
    fs::remove(log);
    GuardedImportOptions o = fake("assert", "echo 'ai_assert failure in ./code/Triangulate.cpp(238): numOut' >&2\n"
                                            "kill -ABRT $$");
    o.logPath = log;
    ::testing::internal::CaptureStderr();
    const std::string m = messageOf([&] { importCharacterGuarded(path, {}, o); });
    const std::string printed = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(printed, "");
    EXPECT_EQ(m, path + ": the PLY reader aborted on this file (SIGABRT); the file is probably corrupt. Nothing was "
                     "changed. The reader's own messages are in " + log);
    std::ifstream in(log);
    const std::string logged((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(logged.find("rigsmith-import " + path + "\nai_assert failure in ./code/Triangulate.cpp(238)"),
              std::string::npos) << logged;
    // A reader that prints nothing leaves the log as it was.
    o = fake("quiet_segv", "kill -SEGV $$");
    o.logPath = log;
    messageOf([&] { importCharacterGuarded(path, {}, o); });
    std::ifstream again(log);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), logged);
    for (const fs::path& p : {fs::path(log), fs::path(path), tempFile("assert.sh"), tempFile("quiet_segv.sh")})
        fs::remove(p);
}

TEST(GuardedImport, AHangIsStoppedAtTheTimeout)
{
    const std::string path = write("hang.ply", "ply\n");
    GuardedImportOptions o = fake("sleep", "exec sleep 30");
    o.timeoutSeconds = 0.5;
    const auto start = std::chrono::steady_clock::now();
    const std::string m = messageOf([&] { importCharacterGuarded(path, {}, o); });
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_NE(m.find(path + ": reading took longer than 0.5 s and was stopped"), std::string::npos) << m;
    EXPECT_LT(took, 10.0) << "the child was not killed at the timeout";
}

TEST(GuardedImport, CancelKillsTheChildAtOnce)
{
    const std::string path = write("cancel.ply", "ply\n");
    GuardedImportOptions o = fake("sleep_cancel", "exec sleep 30");
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelFlag = &cancel;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(importCharacterGuarded(path, {}, o, progress), Cancelled);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stopper.join();
    EXPECT_LT(took, 10.0);
}

TEST(GuardedImport, AFileNeedingMoreThanTheMemoryCapEndsInAMessage)
{
    // 90,000 vertices and 178,802 triangles need ~110 MB in the importer; under
    // a 64 MB cap the allocation fails and the child reports it.
    std::string obj;
    const int n = 300;
    obj.reserve(6 << 20);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            obj += "v " + std::to_string(i * 0.01) + " " + std::to_string(j * 0.01) + " " +
                   std::to_string((i * j) % 7 * 0.001) + "\n";
    for (int i = 0; i < n - 1; ++i)
        for (int j = 0; j < n - 1; ++j) {
            const int a = i * n + j + 1, b = a + 1, c = a + n, d = c + 1;
            obj += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(d) + "\nf " +
                   std::to_string(a) + " " + std::to_string(d) + " " + std::to_string(c) + "\n";
        }
    const std::string path = write("big.obj", obj);
    GuardedImportOptions o;
    o.memoryBytes = std::uint64_t(64) << 20;
    if (importMemoryCap(o) == 0)
        GTEST_SKIP() << "no memory cap in this build (AddressSanitizer)";
    const std::string m = messageOf([&] { importCharacterGuarded(path, {}, o); });
    EXPECT_EQ(m, path + ": reading needed more than 67 MB of memory and was stopped (a corrupt file, or one too "
                        "large for this machine); nothing was changed");
    o.memoryBytes = std::uint64_t(2) << 30; // with room it reads
    EXPECT_EQ(importCharacterGuarded(path, {}, o).mesh.vertexCount(), n * n);
    fs::remove(path);
}

TEST(GuardedImport, ADeclaredFaceCountAboveTheLimitIsRefusedBeforeReading)
{
    const std::string header = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                               "property float z\nelement face 10000000\nproperty list uchar int vertex_indices\n"
                               "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    const std::string path = write("ten_million.ply", header);
    GuardedImportOptions o = fake("never_run", "kill -SEGV $$"); // the importer must not even start
    try {
        importCharacterGuarded(path, {}, o);
        ADD_FAILURE() << "accepted";
    } catch (const InvalidInput& e) {
        EXPECT_EQ(std::string(e.what()),
                  path + ": its PLY header declares 10000000 faces (at least as many triangles); at most 5000000 "
                         "are read (decimate it first, or raise the limit with the environment variable "
                         "RIGSMITH_MAX_TRIANGLES=N). Refused before reading it");
    }
}

/// `importCharacterGuarded(path, import)` with an importer that must not start:
/// the pre-scan's refusal, or "started" when the importer ran.
std::string refusedBeforeReading(const std::string& path, const ImportOptions& import)
{
    const GuardedImportOptions o = fake("must_not_run", "kill -SEGV $$");
    std::string message = "accepted";
    try {
        importCharacterGuarded(path, import, o);
    } catch (const InvalidInput& e) {
        message = e.what();
    } catch (const IoError& e) {
        message = std::string("started: ") + e.what();
    }
    fs::remove(o.importer);
    return message;
}

TEST(GuardedImport, AnObjOverTheLimitIsRefusedByCountingItsFaceLines)
{
    // 10M triangles were read in 40 s before the limit applied (issue 47).
    // 2,500 quads and 20 pentagons: 5,000 + 60 triangles (n - 2 per polygon).
    std::string obj = "# a comment line f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 2 0\nvt 0 0\n";
    for (int i = 0; i < 2500; ++i)
        obj += i % 2 ? "f 1/1 2/1 4/1 3/1\n" : "  f\t1 2 4 3 # quad\r\n";
    for (int i = 0; i < 20; ++i)
        obj += i < 19 ? "f 1 2 5 4 3\n" : "f 1 2 5 4 3"; // the last line without its newline
    const std::string path = write("quads.obj", obj);
    ImportOptions import;
    import.maxTriangles = 5059;
    EXPECT_EQ(refusedBeforeReading(path, import),
              path + ": its OBJ face lines hold more than 5059 triangles; at most 5059 are read (decimate it first, "
                     "or raise the limit with the environment variable RIGSMITH_MAX_TRIANGLES=N). Refused before "
                     "reading it");
    import.maxTriangles = 5060; // at the limit the reader runs (here the fake importer, which crashes)
    EXPECT_EQ(refusedBeforeReading(path, import).rfind("started: ", 0), 0u);
    fs::remove(path);
}

TEST(GuardedImport, GltfGlbAndStlOverTheLimitAreRefusedBeforeReading)
{
    // glTF: the accessors' counts; 3,000 indices (1,000 triangles) and a
    // non-indexed strip of 1,002 positions (1,000 more).
    const std::string json = R"({"asset": {"version": "2.0"}, "accessors": [{"count": 3000}, {"count": 1002}],
        "meshes": [{"primitives": [{"indices": 0, "attributes": {"POSITION": 1}},
                                   {"mode": 5, "attributes": {"POSITION": 1}}]}]})";
    const std::string gltf = write("big.gltf", json);
    std::string glb = "glTF";
    auto u32 = [&](std::uint32_t v) { glb.append(reinterpret_cast<const char*>(&v), 4); };
    u32(2);
    u32(static_cast<std::uint32_t>(20 + json.size()));
    u32(static_cast<std::uint32_t>(json.size()));
    glb += "JSON" + json;
    const std::string glbPath = write("big.glb", glb);
    std::string stl = "solid s\n";
    for (int i = 0; i < 2001; ++i)
        stl += " facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\n";
    const std::string stlPath = write("big.stl", stl + "endsolid s\n");
    ImportOptions import;
    import.maxTriangles = 1999;
    EXPECT_EQ(refusedBeforeReading(gltf, import).rfind(gltf + ": its glTF accessors declare 2000 triangles; at most "
                                                              "1999 are read (", 0), 0u) << refusedBeforeReading(gltf, import);
    EXPECT_EQ(refusedBeforeReading(glbPath, import).rfind(glbPath + ": its glTF accessors declare 2000 triangles", 0), 0u)
        << refusedBeforeReading(glbPath, import);
    EXPECT_EQ(refusedBeforeReading(stlPath, import).rfind(stlPath + ": its STL facets number more than 1999 triangles", 0), 0u)
        << refusedBeforeReading(stlPath, import);
    import.maxTriangles = 2001;
    for (const std::string& p : {gltf, glbPath, stlPath})
        EXPECT_EQ(refusedBeforeReading(p, import).rfind("started: ", 0), 0u) << p;
    for (const std::string& p : {gltf, glbPath, stlPath})
        fs::remove(p);
}

TEST(GuardedImport, TheTriangleLimitIsRaisedByTheEnvironment)
{
    EXPECT_EQ(importDefaults().maxTriangles, ImportOptions{}.maxTriangles);
    ::setenv("RIGSMITH_MAX_TRIANGLES", "12000000", 1);
    EXPECT_EQ(importDefaults().maxTriangles, 12'000'000);
    ::setenv("RIGSMITH_MAX_TRIANGLES", "lots", 1);
    EXPECT_EQ(importDefaults().maxTriangles, ImportOptions{}.maxTriangles);
    ::unsetenv("RIGSMITH_MAX_TRIANGLES");
}

TEST(GuardedImport, LoadCharacterGoesThroughTheImporter)
{
    const std::string path = write("load.obj", cubeObj());
    GuardedImportOptions o = fake("segv_load", "kill -SEGV $$");
    EXPECT_NE(messageOf([&] { loadCharacter(path, o); }).find("the OBJ reader crashed"), std::string::npos);
    o.isolate = false; // the importer's own path: in-process
    EXPECT_EQ(loadCharacter(path, o).imported.mesh.vertexCount(), 8);
    EXPECT_EQ(loadCharacter(path).imported.mesh.vertexCount(), 8);
}

/// A text .X fan of `n` triangles, as a Mesh object named `name`.
std::string xFan(const std::string& name, int n)
{
    std::string out = "Mesh " + name + " {\n" + std::to_string(n + 2) + ";\n0.0;0.0;0.0;";
    for (int i = 0; i <= n; ++i)
        out += ",\n" + std::to_string(i) + ".0;1.0;" + std::to_string(i % 2) + ".0;";
    out += ";\n" + std::to_string(n) + ";\n";
    for (int i = 0; i < n; ++i)
        out += "3;0," + std::to_string(i + 1) + "," + std::to_string(i + 2) + ";" + (i + 1 < n ? ",\n" : ";\n");
    return out + "}\n";
}

// Issue 47, "readers that lie": a valid .X with a mesh in a frame and one
// outside any frame came back from Assimp's X reader as the outside mesh alone
// (1 of 41 triangles), and was rigged. Both importer paths refuse it now.
TEST(GuardedImport, AReaderReturningFarFewerTrianglesThanTheFileDeclaresIsRefused)
{
    const std::string lying = write("lying.x", "xof 0303txt 0032\nFrame Body {\n" + xFan("Big", 40) + "}\n" +
                                                   xFan("Tiny", 1));
    for (const bool isolate : {true, false}) {
        GuardedImportOptions o;
        o.isolate = isolate;
        std::string message = "accepted";
        try {
            importCharacterGuarded(lying, {}, o);
        } catch (const InvalidInput& e) {
            message = e.what();
        }
        EXPECT_EQ(message, lying + ": the X reader returned 1 triangle, but its .X Mesh objects declare 41: the reader "
                          "misread the file (corrupt, or a variant it does not understand). Nothing was read; "
                          "re-export the file, or try another format");
    }
    const std::string framed = write("framed.x", "xof 0303txt 0032\nFrame A {\n" + xFan("Tiny", 1) +
                                                     "}\nFrame Body {\n" + xFan("Big", 40) + "}\n");
    EXPECT_EQ(importCharacterGuarded(framed).mesh.triangleCount(), 41);
    fs::remove(lying);
    fs::remove(framed);
}

} // namespace
} // namespace rig
