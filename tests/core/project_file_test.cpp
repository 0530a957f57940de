#include "core/export/project_file.h"
#include "core/character/humanoid.h"
#include "core/export/mesh_write.h"
#include "core/mesh/orientation.h"

#include "core/common/error.h"
#include "core/project/pipeline.h"
#include "core/project/project_io.h"
#include "core/rig/fit_template.h"
#include "core/skin/weights_gaussian.h"
#include "core/skin/weights_heat.h"

#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

namespace rig {
namespace {

namespace fs = std::filesystem;

/// A fresh, empty folder for one test.
fs::path tempFolder(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / ("rigsmith_project_file_test_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void writeText(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string readText(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

using test::expectError;

/// A project with every field set; the mesh and clip are files in `dir`.
ProjectFile fullProject(const fs::path& dir, int weightRows = 5)
{
    fs::create_directories(dir / "meshes");
    writeText(dir / "meshes" / "hero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    writeText(dir / "walk.bvh", "HIERARCHY\n");
    ProjectFile p;
    p.meshPath = (dir / "meshes" / "hero.obj").string();
    p.meshHash = fileHash(p.meshPath);
    p.meshBytes = fs::file_size(p.meshPath);
    p.resolution = 96;
    p.facing = "-x";
    p.orientationUp = "auto";
    p.orientationFacing = "auto";
    p.orientationShapeWhereSilent = false;
    p.templateSpec = "humanoid21";
    p.labels = parseEndNodeLabels("head=10,lhand=20,rhand=30,lfoot=40,rfoot=50");
    Skeleton k;
    k.names = {"Hips", "Spine", "Head", "LeftArm"};
    k.parents = {-1, 0, 1, 1};
    k.bindPositions.resize(4, 3);
    k.bindPositions << 0.01, 0.96, -0.003, 0, 1.2, 0, 0.0, 1.6, 0.1 / 3.0, 0.2, 1.41, 1e-17;
    k.bindOrientations.assign(4, Eigen::Quaterniond::Identity());
    orientBones(k);
    p.rig = k;
    p.weights.method = "heat";
    p.weights.names = {{"segmentation.method", "3.2.2"}, {"gaussian.function", "smoothstep"}};
    p.weights.numbers = {{"gaussian.a", 1.3}, {"gaussian.b", 0.1 / 3.0}, {"heat.heatConstant", 0.22},
                         {"gaussian.maxInfluences", 4}};
    p.partBindings = {{2, "Helmet", "Head"}, {0, "sword \"long\"", "LeftArm"}};
    p.clipPath = (dir / "walk.bvh").string();
    p.autosaveOf = (dir / "hero.rsproj").string();
    p.camera = ProjectCamera{Vec3(0.1, 0.9, -1.0 / 3.0), 0.7, -0.25, 3.5};
    SkinWeights w;
    w.joints.resize(weightRows, 4);
    w.weights.resize(weightRows, 4);
    for (int r = 0; r < weightRows; ++r) {
        w.joints.row(r) << r % 4, (r + 1) % 4, 0, 0;
        w.weights.row(r) << 0.7f + 0.01f * static_cast<float>(r % 10), 0.3f - 0.01f * static_cast<float>(r % 10), 0, 0;
    }
    p.computedWeights = w;
    return p;
}

void expectSame(const ProjectFile& a, const ProjectFile& b)
{
    EXPECT_EQ(fs::path(a.meshPath).lexically_normal(), fs::path(b.meshPath).lexically_normal());
    EXPECT_EQ(a.meshHash, b.meshHash);
    EXPECT_EQ(a.meshBytes, b.meshBytes);
    EXPECT_EQ(a.resolution, b.resolution);
    EXPECT_EQ(a.facing, b.facing);
    EXPECT_EQ(a.orientationUp, b.orientationUp);
    EXPECT_EQ(a.orientationFacing, b.orientationFacing);
    EXPECT_EQ(a.orientationShapeWhereSilent, b.orientationShapeWhereSilent);
    EXPECT_EQ(a.templateSpec, b.templateSpec);
    ASSERT_EQ(a.labels.has_value(), b.labels.has_value());
    if (a.labels) {
        EXPECT_EQ(a.labels->nodes, b.labels->nodes);
    }
    ASSERT_EQ(a.rig.has_value(), b.rig.has_value());
    if (a.rig) {
        EXPECT_EQ(a.rig->names, b.rig->names);
        EXPECT_EQ(a.rig->parents, b.rig->parents);
        EXPECT_EQ(a.rig->bindPositions, b.rig->bindPositions); // exact: round-trip number form
        for (size_t j = 0; j < a.rig->bindOrientations.size(); ++j)
            EXPECT_EQ(a.rig->bindOrientations[j].coeffs(), b.rig->bindOrientations[j].coeffs());
    }
    EXPECT_EQ(a.weights.method, b.weights.method);
    EXPECT_EQ(a.weights.names, b.weights.names);
    EXPECT_EQ(a.weights.numbers, b.weights.numbers);
    EXPECT_EQ(a.partBindings, b.partBindings);
    EXPECT_EQ(fs::path(a.clipPath).lexically_normal(), fs::path(b.clipPath).lexically_normal());
    ASSERT_EQ(a.camera.has_value(), b.camera.has_value());
    if (a.camera) {
        EXPECT_EQ(a.camera->target, b.camera->target);
        EXPECT_EQ(a.camera->yaw, b.camera->yaw);
        EXPECT_EQ(a.camera->pitch, b.camera->pitch);
        EXPECT_EQ(a.camera->distance, b.camera->distance);
    }
    ASSERT_EQ(a.computedWeights.has_value(), b.computedWeights.has_value());
    if (a.computedWeights) {
        EXPECT_EQ(a.computedWeights->joints, b.computedWeights->joints);
        EXPECT_EQ(a.computedWeights->weights, b.computedWeights->weights);
    }
    EXPECT_EQ(a.autosaveOf, b.autosaveOf);
}

TEST(ProjectFile, Fnv1aMatchesTheReferenceVectors)
{
    EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
    const fs::path dir = tempFolder("hash");
    writeText(dir / "f.bin", "foobar");
    EXPECT_EQ(fileHash((dir / "f.bin").string()), 0x85944171f73967e8ull);
    expectError<IoError>([&] { fileHash((dir / "none.bin").string()); }, "none.bin: cannot open");
}

TEST(ProjectFile, BadFilesGiveClearErrorsAndAreNeverOverwritten)
{
    const fs::path dir = tempFolder("bad");
    const std::string path = (dir / "bad.rsproj").string();
    expectError<IoError>([&] { readProjectFile((dir / "none.rsproj").string()); }, "none.rsproj: cannot open");
    auto check = [&](const std::string& text, const std::string& fragment) {
        writeText(path, text);
        expectError<IoError>([&] { readProjectFile(path); }, path + ": " + fragment);
        EXPECT_EQ(readText(path), text) << "the reader must not touch the file";
    };
    check("{ not json", "not valid JSON (truncated or corrupt?)");
    check(R"({"format": "rigsmith-rig", "version": 1})", "not a Rigsmith project");
    check(R"({"format": "rigsmith-project", "version": 2, "mesh": {"path": "default"}})",
          "written by a newer Rigsmith (project version 2; this build reads version 1)");
    check(R"({"format": "rigsmith-project", "version": "1", "mesh": {"path": "default"}})", "\"version\" must be");
    check(R"({"format": "rigsmith-project", "version": 1})", "project: \"mesh\" is missing");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "hero.obj"}})",
          "\"mesh\": \"hash\" is missing");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "hero.obj", "hash": "md5:12"}})",
          "\"mesh\": \"hash\" must be \"fnv1a64:\" and 16 hex digits");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"}, "skeleton": {"resolution": "high"}})",
          "\"skeleton\": \"resolution\" must be a whole number");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"},
              "rig": [{"name": "Hips", "parent": -1, "position": [0, 1], "orientation": [1, 0, 0, 0]}]})",
          "rig joint 0 'Hips': \"position\" must be an array of 3 numbers");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"},
              "rig": [{"name": "Hips", "parent": 0, "position": [0, 1, 0], "orientation": [1, 0, 0, 0]}]})",
          "\"rig\": ");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"}, "weights": {"method": "heat", "heat.c": [1]}})",
          "\"weights\": \"heat.c\" must be a string or a number");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"},
              "orientation": {"up": "file", "facing": "+z", "file_silent": "maybe"}})",
          "\"orientation\" \"file_silent\" must be \"shape\" or \"import guess\", got \"maybe\"");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"}, "camera": {"target": [0, 1, 0], "yaw": 1}})",
          "\"camera\": \"pitch\" is missing");
    check(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"},
              "computed_weights": {"influences": 4, "joints": [0, 1, 0], "weights": [1, 0, 0]}})",
          "\"computed_weights\": \"joints\" and \"weights\" must be arrays of the same length");

    // A valid project cut at every tenth byte: always a clear error, never a crash.
    const fs::path good = dir / "good.rsproj";
    writeProjectFile(fullProject(dir), good.string());
    const std::string text = readText(good);
    for (size_t cut = 0; cut + 1 < text.size(); cut += std::max<size_t>(1, text.size() / 10)) {
        writeText(path, text.substr(0, cut));
        EXPECT_THROW(readProjectFile(path), IoError) << "cut at " << cut;
        EXPECT_EQ(readText(path), text.substr(0, cut));
    }
}

TEST(ProjectFile, RoundTripRestoresEveryField)
{
    const fs::path dir = tempFolder("round_trip");
    const ProjectFile p = fullProject(dir);
    const std::string path = (dir / "hero.rsproj").string();
    writeProjectFile(p, path);
    expectSame(p, readProjectFile(path));
    // Optional fields absent stay absent; the bundled character needs no hash.
    ProjectFile minimal;
    minimal.meshPath = "default:t";
    writeProjectFile(minimal, path);
    const ProjectFile back = readProjectFile(path);
    expectSame(minimal, back);
    EXPECT_EQ(checkProjectMesh(back).status, MeshStatus::Bundled);
    // With options too: a saved "default+skirt" project used to reopen as "mesh missing".
    for (const char* spec : {"default+skirt", "default:t+robe+props"}) {
        minimal.meshPath = spec;
        writeProjectFile(minimal, path);
        EXPECT_EQ(readProjectFile(path).meshPath, spec);
        EXPECT_EQ(checkProjectMesh(readProjectFile(path)).status, MeshStatus::Bundled) << spec;
    }
}

TEST(ProjectFile, PathsAreRelativeToTheProjectAndSurviveMoves)
{
    const fs::path dir = tempFolder("paths");
    const fs::path a = dir / "a";
    const ProjectFile p = fullProject(a);
    writeProjectFile(p, (a / "hero.rsproj").string());
    const std::string text = readText(a / "hero.rsproj");
    EXPECT_NE(text.find("\"path\": \"meshes/hero.obj\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"path\": \"walk.bvh\""), std::string::npos) << text;
    // The whole folder moves: the relative paths find the files.
    fs::rename(a, dir / "b");
    ProjectFile moved = readProjectFile((dir / "b" / "hero.rsproj").string());
    EXPECT_EQ(fs::path(moved.meshPath), (dir / "b" / "meshes" / "hero.obj").lexically_normal());
    EXPECT_EQ(checkProjectMesh(moved).status, MeshStatus::Ok);
    // The project moves alone: the absolute path finds the mesh.
    fs::rename(dir / "b", a);
    fs::create_directories(dir / "elsewhere");
    fs::rename(a / "hero.rsproj", dir / "elsewhere" / "hero.rsproj");
    moved = readProjectFile((dir / "elsewhere" / "hero.rsproj").string());
    EXPECT_EQ(fs::path(moved.meshPath), (a / "meshes" / "hero.obj").lexically_normal());
    EXPECT_EQ(checkProjectMesh(moved).status, MeshStatus::Ok);
}

TEST(ProjectFile, AChangedOrMissingMeshIsReported)
{
    const fs::path dir = tempFolder("mesh_check");
    const ProjectFile p = fullProject(dir);
    const std::string path = (dir / "hero.rsproj").string();
    writeProjectFile(p, path);
    EXPECT_EQ(checkProjectMesh(readProjectFile(path)).status, MeshStatus::Ok);
    writeText(dir / "meshes" / "hero.obj", "v 0 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 3\n");
    MeshCheck c = checkProjectMesh(readProjectFile(path));
    EXPECT_EQ(c.status, MeshStatus::Changed);
    EXPECT_NE(c.message.find("hero.obj: the mesh changed since the project was saved"), std::string::npos) << c.message;
    fs::remove(dir / "meshes" / "hero.obj");
    c = checkProjectMesh(readProjectFile(path));
    EXPECT_EQ(c.status, MeshStatus::Missing);
    EXPECT_NE(c.message.find("hero.obj: the project's mesh is missing; locate it"), std::string::npos) << c.message;
}

TEST(ProjectFile, UnwritableFolderAndFullDiskKeepThePreviousFile)
{
    const fs::path dir = tempFolder("write_errors");
    const ProjectFile p = fullProject(dir);
    expectError<IoError>([&] { writeProjectFile(p, "/nonexistent/folder/hero.rsproj"); },
                         "/nonexistent/folder/hero.rsproj: cannot write the project file (no such folder");
    writeText(dir / "file", "x");
    expectError<IoError>([&] { writeProjectFile(p, (dir / "file" / "hero.rsproj").string()); },
                         "hero.rsproj: cannot write the project file");
    expectError<IoError>([&] { writeProjectFile(p, "/dev/full"); }, "/dev/full: cannot write the project file (disk full");
}

TEST(ProjectFile, ACrashDuringSaveLeavesThePreviousFile)
{
    const fs::path dir = tempFolder("crash");
    const std::string path = (dir / "hero.rsproj").string();
    const ProjectFile before = fullProject(dir, 3);
    writeProjectFile(before, path);
    const ProjectFile big = fullProject(dir, 100000); // several MB: saving takes a while
    // A stale temporary from an earlier crash changes nothing.
    writeText(dir / "hero.rsproj.tmp.ABCDEF", "{ half a proj");
    expectSame(before, readProjectFile(path));
    // Kill a child process at various points of its save.
    int survivedOld = 0, completed = 0;
    for (int attempt = 0; attempt < 6; ++attempt) {
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            writeProjectFile(big, path);
            _exit(0);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20 + 60 * attempt));
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        const ProjectFile now = readProjectFile(path); // never half-written
        if (now.computedWeights->vertexCount() == 3) {
            ++survivedOld;
            expectSame(before, now);
        } else {
            ++completed;
            expectSame(big, now);
            writeProjectFile(before, path);
        }
    }
    EXPECT_GT(survivedOld, 0) << "no save was interrupted: the test proves nothing";
    std::cout << "crash test: " << survivedOld << " interrupted saves left the previous file, " << completed
              << " completed\n";
}

TEST(ProjectFile, IntegersAreRangeCheckedAsTheJsonNumbersTheyAre)
{
    const fs::path dir = tempFolder("strict");
    const std::string path = (dir / "strict.rsproj").string();
    auto check = [&](const std::string& text, const std::string& fragment) {
        writeText(path, text);
        expectError<IoError>([&] { readProjectFile(path); }, path + ": " + fragment);
        EXPECT_EQ(readText(path), text) << "the reader must not touch the file";
    };
    const std::string head = R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"})";
    // 2^32 + 1 wrapped to 1 through get<int>(): the newer-version refusal was bypassed.
    check(R"({"format": "rigsmith-project", "version": 4294967297, "mesh": {"path": "default"}})",
          "written by a newer Rigsmith (project version 4294967297;");
    check(R"({"format": "rigsmith-project", "version": 18446744073709551617, "mesh": {"path": "default"}})",
          "\"version\" must be a positive whole number, got 1.8446744073709552e+19");
    check(R"({"format": "rigsmith-project", "version": 1.0, "mesh": {"path": "default"}})",
          "\"version\" must be a positive whole number, got 1.0");
    check(R"({"format": "rigsmith-project", "version": -4294967295, "mesh": {"path": "default"}})",
          "\"version\" must be a positive whole number, got -4294967295");
    check(head + R"(, "labels": {"head": 4294967308}})",
          "\"labels\": \"head\" must be a whole number from -1 to 2147483647, got 4294967308");
    check(head + R"(, "labels": {"lfoot": -2}})", "\"labels\": \"lfoot\" must be a whole number from -1 to");
    check(head + R"(, "skeleton": {"resolution": 4294967451}})",
          "\"skeleton\": \"resolution\" must be a whole number from 16 to 1024, got 4294967451");
    check(head + R"(, "rig": [{"name": "Hips", "parent": 4294967295, "position": [0, 1, 0], "orientation": [1, 0, 0, 0]}]})",
          "rig joint 0 'Hips': \"parent\" must be a whole number from -1 to 2147483647, got 4294967295");
    check(head + R"(, "computed_weights": {"influences": 1, "joints": [4294967296], "weights": [1]}})",
          "\"computed_weights\": \"joints\" entry 0 must be a whole number from 0 to 2147483647, got 4294967296");
    check(head + R"(, "computed_weights": {"influences": 4294967297, "joints": [0], "weights": [1]}})",
          "\"computed_weights\": \"influences\" must be a whole number from 1 to 64, got 4294967297");
    check(head + R"(, "mesh2": 1e999})", "not valid JSON (truncated or corrupt?)");
}

TEST(ProjectFile, EmbeddedNulsAndTrailingGarbageAreRefused)
{
    const fs::path dir = tempFolder("nul");
    const std::string path = (dir / "nul.rsproj").string();
    const std::string good = R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"}})";
    writeText(path, good + "\n");
    EXPECT_EQ(readProjectFile(path).meshPath, "default");
    // Before: everything after a NUL was ignored, so a project cut by a NUL read as valid.
    writeText(path, good + std::string("\0garbage", 8));
    expectError<IoError>([&] { readProjectFile(path); }, path + ": contains a NUL byte at offset " +
                                                                 std::to_string(good.size()));
    writeText(path, std::string(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "def)") +
                        std::string("\0", 1) + R"(ault"}})");
    expectError<IoError>([&] { readProjectFile(path); }, "contains a NUL byte");
    writeText(path, good + " {}");
    expectError<IoError>([&] { readProjectFile(path); }, path + ": not valid JSON (truncated or corrupt?)");
}

TEST(ProjectFile, ASaveNeverOverwritesANewerProject)
{
    const fs::path dir = tempFolder("newer");
    const std::string path = (dir / "hero.rsproj").string();
    ProjectFile p;
    p.meshPath = "default";
    for (const char* version : {"2", "4294967297", "1.5e3"}) {
        const std::string newer = std::string(R"({"format": "rigsmith-project", "version": )") + version +
                                  R"(, "mesh": {"path": "default"}, "future": "data"})";
        writeText(path, newer);
        expectError<IoError>([&] { writeProjectFile(p, path); },
                             path + ": not overwritten: it was written by a newer Rigsmith (project version ");
        EXPECT_EQ(readText(path), newer);
    }
    // A version-1 project, a corrupt file and another file are overwritten as before.
    for (const std::string& old : {std::string(R"({"format": "rigsmith-project", "version": 1, "mesh": {"path": "default"}})"),
                                  std::string("{ corrupt"), std::string("not a project")}) {
        writeText(path, old);
        writeProjectFile(p, path);
        EXPECT_EQ(readProjectFile(path).meshPath, "default");
    }
}

TEST(ProjectFile, ASuccessfulSaveRemovesStaleTemporaries)
{
    const fs::path dir = tempFolder("stale");
    const std::string path = (dir / "hero.rsproj").string();
    ProjectFile p;
    p.meshPath = "default";
    writeProjectFile(p, path);
    // Left by saves killed earlier (older than this save) and one still under way (newer).
    const auto now = fs::file_time_type::clock::now();
    writeText(dir / "hero.rsproj.tmp.AbC123", "{ half");
    writeText(dir / "hero.rsproj.tmp.zzzzzz", "{ half");
    fs::last_write_time(dir / "hero.rsproj.tmp.AbC123", now - std::chrono::hours(1));
    fs::last_write_time(dir / "hero.rsproj.tmp.zzzzzz", now - std::chrono::seconds(2));
    writeText(dir / "hero.rsproj.tmp.running", "{ a save under way");
    fs::last_write_time(dir / "hero.rsproj.tmp.running", now + std::chrono::hours(1));
    writeText(dir / "hero.rsproj.tmp.UNDERW", "{ a save under way");
    fs::last_write_time(dir / "hero.rsproj.tmp.UNDERW", now + std::chrono::hours(1));
    writeText(dir / "other.rsproj.tmp.AbC123", "another project's");
    fs::last_write_time(dir / "other.rsproj.tmp.AbC123", now - std::chrono::hours(1));
    // A failed save removes nothing.
    writeText(dir / "blocker", "x");
    EXPECT_THROW(writeProjectFile(p, (dir / "blocker" / "hero.rsproj").string()), IoError);
    EXPECT_TRUE(fs::exists(dir / "hero.rsproj.tmp.AbC123"));
    writeProjectFile(p, path);
    EXPECT_FALSE(fs::exists(dir / "hero.rsproj.tmp.AbC123"));
    EXPECT_FALSE(fs::exists(dir / "hero.rsproj.tmp.zzzzzz"));
    EXPECT_TRUE(fs::exists(dir / "hero.rsproj.tmp.UNDERW")) << "a newer temporary may belong to a save under way";
    EXPECT_TRUE(fs::exists(dir / "hero.rsproj.tmp.running")) << "not a name mkstemp makes";
    EXPECT_TRUE(fs::exists(dir / "other.rsproj.tmp.AbC123")) << "another project's";
    EXPECT_TRUE(fs::exists(path));
}


// --- RigProject <-> ProjectFile (core/project/project_io.h) -----------------

TEST(ProjectIo, WeightSettingsRoundTripEveryOption)
{
    WeightOptions o;
    o.method = "heat";
    o.segmentation.method = SegmentationMethod::LineOfSight;
    o.segmentation.hierarchyLevel = 2;
    o.segmentation.mergeRegions = false;
    o.segmentation.rigidPartSize = 0.07;
    GaussianWeightOptions g;
    g.function = WeightFunction::Smoothstep;
    g.a = 1.1;
    g.b = 0.45;
    g.c = 0.3;
    g.hierarchyLevel = 0;
    g.maxInfluences = 3;
    g.smoothingIterations = 2;
    setMethodOptions(o, "gaussian", g);
    HeatWeightOptions h;
    h.heatConstant = 0.22;
    h.minPartVertices = 9;
    h.smallPartSize = 0.01;
    setMethodOptions(o, "heat", h);
    const WeightOptions b = weightOptionsFrom(weightSettings(o));
    const auto bg = methodOptions<GaussianWeightOptions>(b, "gaussian");
    const auto bh = methodOptions<HeatWeightOptions>(b, "heat");
    EXPECT_EQ(b.method, o.method);
    EXPECT_EQ(b.segmentation.method, o.segmentation.method);
    EXPECT_EQ(b.segmentation.hierarchyLevel, 2);
    EXPECT_FALSE(b.segmentation.mergeRegions);
    EXPECT_EQ(b.segmentation.rigidPartSize, 0.07);
    EXPECT_EQ(bg.function, WeightFunction::Smoothstep);
    EXPECT_EQ(bg.a, 1.1);
    EXPECT_EQ(bg.b, 0.45);
    EXPECT_EQ(bg.c, 0.3);
    EXPECT_EQ(bg.hierarchyLevel, 0);
    EXPECT_EQ(bg.maxInfluences, 3);
    EXPECT_EQ(bg.smoothingIterations, 2);
    EXPECT_EQ(bh.heatConstant, 0.22);
    EXPECT_EQ(bh.minPartVertices, 9);
    EXPECT_EQ(bh.smallPartSize, 0.01);
    ProjectWeightSettings bad = weightSettings(o);
    bad.names["gaussian.function"] = "cubic";
    expectError<InvalidInput>([&] { weightOptionsFrom(bad); }, "\"gaussian.function\" must be gaussian, linear or smoothstep");
    bad = weightSettings(o);
    bad.method = "magic";
    EXPECT_THROW(weightOptionsFrom(bad), InvalidInput);
}

TEST(ProjectIo, SaveAndRestoreReproduceTheSession)
{
    const fs::path dir = tempFolder("restore");
    RigProject project;
    project.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter("default:t")));
    CurveSkeletonOptions options;
    options.voxelize.resolution = 64;
    project.setCurveSkeletonOptions(options);
    project.setCurveSkeleton(std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(project)));
    project.setFront(parseFacing("+z"));
    const EndNodeLabels labels = suggestLabels(project);
    FitResult rig = fitRig(project, labels);
    // An artist's edit: the left forearm joint moved by hand, mirrored.
    const int elbow = *rig.skeleton.find("LeftForeArm");
    rig = moveJoint(rig, elbow, rig.skeleton.bindPositions.row(elbow).transpose() + Vec3(0.01, -0.02, 0.015), true);
    project.setRig(labels, std::make_shared<const FitResult>(rig));
    WeightOptions w;
    w.method = "heat";
    w.parameters["heat"]["heatConstant"] = 0.5;
    w.parameters["gaussian"]["c"] = 0.2;
    project.setWeightOptions(w);
    SkinningResult skinning;
    const int nv = project.character()->imported.mesh.vertexCount();
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(nv, rig.skeleton.jointCount());
    for (int v = 0; v < nv; ++v) {
        W(v, v % rig.skeleton.jointCount()) = 0.75;
        W(v, (v + 3) % rig.skeleton.jointCount()) = 0.25;
    }
    skinning.weights = skinWeightsFromDense(W, 4);
    project.setSkinning(std::make_shared<const SkinningResult>(skinning));

    ProjectSaveState state;
    state.clipPath = std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/01_01.bvh";
    state.camera = ProjectCamera{Vec3(0, 0.9, 0), 0.6, 0.3, 2.5};
    state.includeWeights = true;
    const std::string path = (dir / "hero.rsproj").string();
    writeProjectFile(projectFileFrom(project, state), path);

    const RestoredProject r = restoreProject(readProjectFile(path));
    const RigProject& q = r.project;
    EXPECT_EQ(r.mesh.status, MeshStatus::Bundled);
    EXPECT_TRUE(r.notes.empty()) << r.notes.front();
    EXPECT_EQ(q.character()->source, "default:t");
    EXPECT_EQ(q.curveSkeletonOptions().voxelize.resolution, 64);
    EXPECT_EQ(q.curveSkeleton()->refined.nodeCount(), project.curveSkeleton()->refined.nodeCount());
    EXPECT_EQ(q.front(), project.front());
    ASSERT_TRUE(q.rigTemplate());
    EXPECT_EQ(q.rigTemplate()->name, "humanoid21");
    EXPECT_EQ(q.labels().nodes, labels.nodes);
    ASSERT_TRUE(q.rig());
    EXPECT_EQ(q.rig()->skeleton.names, rig.skeleton.names);
    EXPECT_EQ(q.rig()->skeleton.parents, rig.skeleton.parents);
    EXPECT_EQ(q.rig()->skeleton.bindPositions, rig.skeleton.bindPositions) << "the joint edit was lost";
    for (int j = 0; j < rig.skeleton.jointCount(); ++j)
        EXPECT_EQ(q.rig()->skeleton.bindOrientations[j].coeffs(), rig.skeleton.bindOrientations[j].coeffs());
    EXPECT_EQ(q.rig()->jointNode, rig.jointNode);
    EXPECT_EQ(q.rig()->chains.hips, rig.chains.hips);
    EXPECT_EQ(q.weightOptions().method, "heat");
    EXPECT_EQ(methodOptions<HeatWeightOptions>(q.weightOptions(), "heat").heatConstant, 0.5);
    EXPECT_EQ(methodOptions<GaussianWeightOptions>(q.weightOptions(), "gaussian").c, 0.2);
    EXPECT_EQ(r.clipPath, state.clipPath);
    ASSERT_TRUE(r.camera);
    EXPECT_EQ(r.camera->target, state.camera->target);
    EXPECT_EQ(r.camera->yaw, 0.6);
    EXPECT_EQ(r.camera->pitch, 0.3);
    EXPECT_EQ(r.camera->distance, 2.5);
    ASSERT_TRUE(r.weights);
    EXPECT_EQ(r.weights->joints, skinning.weights.joints);
    EXPECT_EQ(r.weights->weights, skinning.weights.weights);
}

TEST(ProjectIo, ARigThatDoesNotBelongToTheMeshIsRefusedNamingTheJoint)
{
    // Saved joints far outside the character (a rig of another mesh, a corrupt
    // value) used to be restored and exported with exit 0.
    const fs::path dir = tempFolder("restore_far_joint");
    ProjectFile p;
    p.meshPath = "default:t";
    p.resolution = 48;
    Skeleton k;
    k.names = {"Hips", "Spine", "Head"};
    k.parents = {-1, 0, 1};
    k.bindPositions.resize(3, 3);
    k.bindPositions << 0, 0.95, 0, 0, 1.3, 0, 0, 1.6, 0;
    k.bindOrientations.assign(3, Eigen::Quaterniond::Identity());
    orientBones(k);
    p.rig = k;
    const std::string path = (dir / "hero.rsproj").string();
    writeProjectFile(p, path);
    EXPECT_TRUE(restoreProject(readProjectFile(path)).project.rig()) << "joints inside the character are restored";

    p.rig->bindPositions.row(1) << 0, 1.3, 40.0; // 40 units in front of a character 1.8 tall
    writeProjectFile(p, path);
    expectError<InvalidInput>([&] { restoreProject(readProjectFile(path)); },
                              "the saved rig does not fit the mesh default:t: joint 'Spine' lies at (0, 1.3, 40)");
    expectError<InvalidInput>([&] { restoreProject(readProjectFile(path)); }, "the rig does not belong to this mesh");

    p.rig->bindPositions.row(1) << 1e308, 1.3, 0;
    EXPECT_THROW(writeProjectFile(p, path), InvalidInput) << "a save refuses the corrupt rig";
    const std::string text = readText(path);
    writeText(path, text.substr(0, text.find("40.0")) + "1e308" + text.substr(text.find("40.0") + 4));
    expectError<IoError>([&] { readProjectFile(path); },
                         path + ": \"rig\": rig::validateSkeleton(): joint 'Spine' lies at (0, 1.3, 1e+308)");
}

TEST(ProjectIo, TheOrientationIsSavedSoTheJointsComeBackInTheirFrame)
{
    // A character stood up by --up (or the GUI's Up box) was restored unturned:
    // the saved joints, in the turned frame, no longer matched the mesh.
    const fs::path dir = tempFolder("restore_orientation");
    RigProject project;
    project.setCharacterSpec("default:t");
    project.setOrientation({"+z", "+z"}); // the file's +Z points up: the character is tipped over
    CurveSkeletonOptions options;
    options.voxelize.resolution = 48;
    project.setCurveSkeletonOptions(options);
    runStages(project, Stage::Load, Stage::Load);
    const std::string path = (dir / "tipped.rsproj").string();
    writeProjectFile(projectFileFrom(project), path);
    const ProjectFile file = readProjectFile(path);
    EXPECT_EQ(file.orientationUp, "+z");
    const RestoredProject r = restoreProject(file);
    EXPECT_EQ(r.project.orientation().up, "+z");
    EXPECT_TRUE(r.project.character()->imported.mesh.V.isApprox(project.character()->imported.mesh.V))
        << "the restored mesh is not in the saved frame";

    ProjectFile bad = file;
    bad.orientationUp = "sideways";
    writeProjectFile(bad, path);
    expectError<InvalidInput>([&] { restoreProject(readProjectFile(path)); }, "sideways");
}

/// Stop 36 stands a humanoid from a file that declares no up axis up by its
/// shape under "file"; a project saved before has its joints in import's
/// frame and must reopen in it ("file_silent" absent), a project saved since
/// in the shape's.
TEST(ProjectIo, AProjectSavedBeforeShapesStoodFilesUpReopensInItsFrame)
{
    const fs::path dir = tempFolder("restore_silent_file");
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .height = 1.75, .cellSize = 0.04});
    Mesh lying = h.mesh;
    lying.V = h.mesh.V * frameRotation(Vec3::UnitX(), -Vec3::UnitZ()); // up along the file's +x, facing -z
    const std::string mesh = (dir / "lying.obj").string();
    writeMesh(mesh, lying);
    ProjectFile file;
    file.meshPath = mesh;
    file.meshHash = fileHash(mesh);
    file.meshBytes = fs::file_size(mesh);
    file.resolution = 48;
    const std::string path = (dir / "old.rsproj").string();
    writeProjectFile(file, path);
    std::string text = readText(path);
    const std::string silent = R"("file_silent": "shape",)";
    const auto at = text.find(silent);
    ASSERT_NE(at, std::string::npos) << text;
    writeText(path, text.erase(at, silent.size() + text.find_first_not_of(" \n", at + silent.size()) - at - silent.size())); // as written before stop 36
    const ProjectFile old = readProjectFile(path);
    EXPECT_FALSE(old.orientationShapeWhereSilent);
    auto extentOf = [](const RestoredProject& r) -> Vec3 {
        const Mesh& m = r.project.character()->imported.mesh;
        return m.V.colwise().maxCoeff() - m.V.colwise().minCoeff();
    };
    const Vec3 oldExtent = extentOf(restoreProject(old));
    EXPECT_GT(oldExtent.x(), oldExtent.y()) << "a pre-stop-36 project turned: its saved joints no longer fit";

    const ProjectFile now = readProjectFile((writeProjectFile(file, path), path));
    EXPECT_TRUE(now.orientationShapeWhereSilent);
    const Vec3 extent = extentOf(restoreProject(now));
    EXPECT_GT(extent.y(), extent.x()) << "not stood up by its shape";
}

// Issue 43: the deformer moved from the GUI's fields into the project and is saved.
TEST(ProjectIo, TheDeformerIsSavedAndAnUnknownOneFallsBackWithANote)
{
    const fs::path dir = tempFolder("restore_deformer");
    RigProject project;
    project.setCharacterSpec("default:t");
    CurveSkeletonOptions options;
    options.voxelize.resolution = 40;
    project.setCurveSkeletonOptions(options);
    runStages(project, Stage::Load, Stage::Load);
    const std::string path = (dir / "posed.rsproj").string();

    // The default is not written: files of every earlier version read as it.
    writeProjectFile(projectFileFrom(project), path);
    EXPECT_EQ(readText(path).find("\"deformer\""), std::string::npos);
    EXPECT_EQ(readProjectFile(path).deformer, "lbs");
    EXPECT_EQ(restoreProject(readProjectFile(path)).project.deformer(), "lbs");

    project.setDeformer("twist");
    writeProjectFile(projectFileFrom(project), path);
    EXPECT_NE(readText(path).find(R"("deformer": "twist")"), std::string::npos) << readText(path);
    const RestoredProject r = restoreProject(readProjectFile(path));
    EXPECT_EQ(r.project.deformer(), "twist");
    EXPECT_TRUE(r.notes.empty()) << r.notes.front();

    // A deformer this build lacks (a newer build's, a plug-in's): the project opens with the default, and says so.
    std::string text = readText(path);
    text.replace(text.find(R"("twist")"), 7, R"("warp-9000")");
    writeText(path, text);
    EXPECT_EQ(readProjectFile(path).deformer, "warp-9000") << "the file layer keeps what it read";
    const RestoredProject unknown = restoreProject(readProjectFile(path));
    EXPECT_EQ(unknown.project.deformer(), "lbs");
    ASSERT_EQ(unknown.notes.size(), 1u);
    EXPECT_NE(unknown.notes[0].find("warp-9000"), std::string::npos) << unknown.notes[0];

    // Not a string: the file is refused, naming the field.
    text.replace(text.find(R"("warp-9000")"), 11, "3");
    writeText(path, text);
    expectError<IoError>([&] { readProjectFile(path); }, "\"deformer\" must be a string");
}

TEST(ProjectIo, AMissingMeshIsAClearError)
{
    const fs::path dir = tempFolder("restore_missing");
    ProjectFile p;
    p.meshPath = (dir / "gone.obj").string();
    p.meshHash = 42;
    const std::string path = (dir / "hero.rsproj").string();
    writeProjectFile(p, path);
    expectError<IoError>([&] { restoreProject(readProjectFile(path)); },
                         "gone.obj: the project's mesh is missing; locate it");
    EXPECT_THROW(projectFileFrom(RigProject{}), InvalidInput);
}

} // namespace
} // namespace rig
