#include "core/export/gltf_export.h"

#include "core/common/atomic_write.h"
#include "core/common/error.h"
#include "core/deform/lbs.h"
#include "core/import/mesh_import.h"
#include "core/motion/bvh_file.h"
#include "core/motion/motion.h"
#include "core/motion/retarget.h"
#include "core/project/rig_project.h"
#include "core/skin/skinning.h"
#include "core/rig/fit_template.h"
#include "tests/support/meshes.h"

#include "tests/support/expect_error.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include <unistd.h>

namespace rig {
namespace {

namespace fs = std::filesystem;

std::string tempPath(const std::string& name)
{
    return (fs::temp_directory_path() / ("rigsmith_gltf_test_" + name)).string();
}

using test::expectError;

/// A skinned test character: a mesh, its rig, weights and a short clip.
struct Character {
    Mesh mesh;
    Skeleton skeleton;
    SkinWeights weights;
    std::vector<Pose> frames;
    double frameTime = 1.0 / 30.0;
    double height = 1.0;
};

/// Distance from p to the segment a-b.
double segmentDistance(const Vec3& p, const Vec3& a, const Vec3& b)
{
    const Vec3 d = b - a;
    const double len2 = d.squaredNorm();
    const double t = len2 > 0 ? std::clamp((p - a).dot(d) / len2, 0.0, 1.0) : 0.0;
    return (p - (a + t * d)).norm();
}

/// Capsules around every bone (parent -> child) of `s`, weights falling off as
/// 1/d^4 from each bone (owned by the child joint's parent), top 4 kept.
Character dressSkeleton(const Skeleton& s, double radius)
{
    Character c;
    c.skeleton = s;
    std::vector<Mesh> parts;
    for (int j = 1; j < s.jointCount(); ++j) {
        const Vec3 a = s.bindPositions.row(s.parents[j]).transpose();
        const Vec3 b = s.bindPositions.row(j).transpose();
        if ((b - a).norm() > 1e-6)
            parts.push_back(test::capsuleMesh(a, b, radius, 8, 3, 3));
    }
    c.mesh = test::concat(parts);
    Eigen::MatrixXd W(c.mesh.vertexCount(), s.jointCount());
    W.setZero();
    for (int v = 0; v < c.mesh.vertexCount(); ++v) {
        const Vec3 p = c.mesh.V.row(v).transpose();
        for (int j = 1; j < s.jointCount(); ++j) {
            const int owner = s.parents[j];
            const double d = segmentDistance(p, s.bindPositions.row(owner).transpose(), s.bindPositions.row(j).transpose());
            W(v, owner) = std::max(W(v, owner), 1.0 / std::pow(d + 0.1 * radius, 4));
        }
    }
    c.weights = skinWeightsFromDense(W, 4);
    c.height = c.mesh.V.col(1).maxCoeff() - c.mesh.V.col(1).minCoeff();
    return c;
}

/// A small upright figure with oriented bones (the roll convention of skeleton.h)
/// and a three-frame clip bending every joint.
Character smallFigure()
{
    Skeleton k;
    k.names = {"Hips", "Spine", "Head", "LeftArm", "LeftHand", "RightArm", "RightHand", "LeftLeg", "LeftFoot"};
    k.parents = {-1, 0, 1, 1, 3, 1, 5, 0, 7};
    k.bindPositions.resize(9, 3);
    k.bindPositions << 0, 0.9, 0, 0, 1.3, 0.02, 0, 1.7, 0, 0.2, 1.4, 0, 0.7, 1.3, 0, -0.2, 1.4, 0, -0.7, 1.3, 0, 0.1,
        0.85, 0, 0.12, 0.1, 0.05;
    k.bindOrientations.assign(9, Eigen::Quaterniond::Identity());
    orientBones(k);
    Character c = dressSkeleton(k, 0.06);
    for (int f = 0; f < 3; ++f) {
        Pose p = identityPose(k);
        for (int j = 0; j < k.jointCount(); ++j)
            p.localRotations[j] = Eigen::AngleAxisd(0.4 * f + 0.1 * j, Vec3(1, 0.3 * j, -0.5).normalized());
        p.rootTranslation = Vec3(0.05 * f, 0.02 * f, -0.1 * f);
        c.frames.push_back(p);
    }
    return c;
}

/// The LBS our deformer computes for `pose` with the weights as exported.
MatrixX3d ourSkinning(const Character& c, const Pose& pose)
{
    const GltfSkinAttributes a = gltfSkinAttributes(c.weights, c.skeleton.jointCount());
    SkinWeights w;
    w.maxInfluences = 4;
    w.joints.resize(c.mesh.vertexCount(), 4);
    w.weights.resize(c.mesh.vertexCount(), 4);
    for (int v = 0; v < c.mesh.vertexCount(); ++v)
        for (int k = 0; k < 4; ++k) {
            w.joints(v, k) = a.joints[v][k];
            w.weights(v, k) = a.weights[v][k];
        }
    const PosedSkeleton posed = forwardKinematics(c.skeleton, pose);
    return lbs(c.mesh.V, MatrixX3d(), w, posed.skinning).V;
}

/// For each vertex of `ours`, the vertex of `theirs` at the same place (Assimp
/// welds coincident vertices, such as the tips of capsules meeting at a joint).
std::vector<int> matchVertices(const MatrixX3d& ours, const MatrixX3d& theirs, double tolerance)
{
    std::vector<int> match(static_cast<size_t>(ours.rows()), -1);
    for (Eigen::Index v = 0; v < ours.rows(); ++v) {
        Eigen::Index best = 0;
        const double d = (theirs.rowwise() - ours.row(v)).rowwise().squaredNorm().minCoeff(&best);
        if (std::sqrt(d) <= tolerance)
            match[static_cast<size_t>(v)] = static_cast<int>(best);
    }
    return match;
}

/// Max over our vertices and joints of |our weight - Assimp's weight| (joints matched by name).
double weightDifference(const Character& c, const ImportedCharacter& back, const std::vector<int>& match)
{
    const Eigen::MatrixXd ours = denseWeights(c.weights, c.skeleton.jointCount());
    const Eigen::MatrixXd theirs(back.skeleton->W);
    const auto& names = back.skeleton->names;
    double worst = 0;
    for (int j = 0; j < c.skeleton.jointCount(); ++j) {
        const auto it = std::find(names.begin(), names.end(), c.skeleton.names[j]);
        for (int v = 0; v < c.mesh.vertexCount(); ++v) {
            const double t = it == names.end() ? 0.0 : theirs(match[v], it - names.begin());
            worst = std::max(worst, std::abs(ours(v, j) - t));
        }
    }
    return worst;
}

/// Pose between frames a and b (glTF LINEAR: slerp of rotations, lerp of translations).
Pose between(const Pose& a, const Pose& b, double t)
{
    Pose p = a;
    for (size_t j = 0; j < a.localRotations.size(); ++j)
        p.localRotations[j] = a.localRotations[j].slerp(t, b.localRotations[j]);
    p.rootTranslation = (1 - t) * a.rootTranslation + t * b.rootTranslation;
    return p;
}

// --- gltfSkinAttributes ------------------------------------------------------

TEST(GltfExport, SkinAttributesRejectInvalidInput)
{
    SkinWeights w;
    w.joints.resize(1, 2);
    w.weights.resize(1, 2);
    w.joints << 0, 1;
    w.weights << 0.5f, 0.5f;
    expectError<InvalidInput>([&] { gltfSkinAttributes(w, 2, 0); }, "maxInfluences must be 1 to 4");
    expectError<InvalidInput>([&] { gltfSkinAttributes(w, 2, 5); }, "maxInfluences must be 1 to 4");
    expectError<InvalidInput>([&] { gltfSkinAttributes(w, 70000); }, "65536");
    expectError<InvalidInput>([&] { gltfSkinAttributes(w, 1); }, "vertex 0 refers to joint 1");
    w.weights << 0.0f, 0.0f;
    expectError<InvalidInput>([&] { gltfSkinAttributes(w, 2); }, "vertex 0 has no influence");
    w.weights << -0.5f, 1.5f;
    expectError<InvalidInput>([&] { gltfSkinAttributes(w, 2); }, "negative");
}

TEST(GltfExport, SkinAttributesAreLimitedNormalizedAndUnique)
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const int n = 2000, k = 7, joints = 12;
    SkinWeights w;
    w.maxInfluences = k;
    w.joints.resize(n, k);
    w.weights.resize(n, k);
    for (int v = 0; v < n; ++v)
        for (int i = 0; i < k; ++i) {
            w.joints(v, i) = static_cast<int>(rng() % joints); // duplicates on purpose
            w.weights(v, i) = u(rng) * (i < 2 ? 1.0f : 1e-3f * static_cast<float>(v % 5));
        }
    for (int m = 1; m <= 4; ++m) {
        const GltfSkinAttributes a = gltfSkinAttributes(w, joints, m);
        ASSERT_EQ(a.joints.size(), static_cast<size_t>(n));
        for (int v = 0; v < n; ++v) {
            float fsum = 0;
            double dsum = 0;
            int used = 0;
            for (int i = 0; i < 4; ++i) {
                const float x = a.weights[v][i];
                EXPECT_GE(x, 0.0f);
                fsum += x;
                dsum += x;
                if (x > 0) {
                    ++used;
                    EXPECT_LT(a.joints[v][i], joints);
                    for (int o = 0; o < i; ++o)
                        EXPECT_NE(a.joints[v][o], a.joints[v][i]) << "joint twice at vertex " << v;
                    if (i > 0) {
                        EXPECT_LE(x, a.weights[v][0]);
                    }
                } else {
                    EXPECT_EQ(a.joints[v][i], 0) << "unused slot must name joint 0";
                }
            }
            EXPECT_LE(used, m);
            EXPECT_NEAR(dsum, 1.0, 2e-7) << "vertex " << v;
            EXPECT_NEAR(fsum, 1.0f, 2e-7f) << "vertex " << v;
        }
    }
}

TEST(GltfExport, LimitingIsContinuousWhereTheFourthAndFifthSwap)
{
    // Five influences; the 4th and 5th trade places as e goes through 0.
    auto limited = [](double e) {
        SkinWeights w;
        w.maxInfluences = 5;
        w.joints.resize(1, 5);
        w.weights.resize(1, 5);
        w.joints << 0, 1, 2, 3, 4;
        w.weights << 0.4f, 0.25f, 0.15f, static_cast<float>(0.1 + e), static_cast<float>(0.1 - e);
        const GltfSkinAttributes a = gltfSkinAttributes(w, 5);
        Eigen::VectorXd dense = Eigen::VectorXd::Zero(5);
        for (int i = 0; i < 4; ++i)
            dense[a.joints[0][i]] += a.weights[0][i];
        return dense;
    };
    const Eigen::VectorXd before = limited(-1e-4), after = limited(1e-4);
    EXPECT_LT((before - after).cwiseAbs().maxCoeff(), 2e-3); // a hard cut jumps by ~0.1 here
    EXPECT_NEAR(limited(-1e-4)[3], 0.0, 1e-3);
    EXPECT_NEAR(limited(1e-4)[4], 0.0, 1e-3);
    // At most four influences: continuous limiting leaves 4-influence rows alone.
    SkinWeights w;
    w.joints.resize(1, 4);
    w.weights.resize(1, 4);
    w.joints << 3, 1, 2, 0;
    w.weights << 0.4f, 0.3f, 0.2f, 0.1f;
    const GltfSkinAttributes a = gltfSkinAttributes(w, 4);
    EXPECT_EQ(a.joints[0], (std::array<std::uint16_t, 4>{3, 1, 2, 0}));
    EXPECT_NEAR(a.weights[0][3], 0.1f, 1e-7f);
}

// --- export, then read back --------------------------------------------------

TEST(GltfExport, RejectsInconsistentInput)
{
    Character c = smallFigure();
    const std::string path = tempPath("bad.glb");
    SkinWeights fewer = c.weights;
    fewer.joints.conservativeResize(3, Eigen::NoChange);
    fewer.weights.conservativeResize(3, Eigen::NoChange);
    expectError<InvalidInput>([&] { exportGltf(path, c.mesh, c.skeleton, fewer, c.frames, c.frameTime); },
                              "weight rows for a mesh of");
    expectError<InvalidInput>([&] { exportGltf(path, c.mesh, c.skeleton, c.weights, c.frames, 0.0); },
                              "frame time must be a positive");
    std::vector<Pose> wrong = {Pose{}};
    expectError<InvalidInput>([&] { exportGltf(path, c.mesh, c.skeleton, c.weights, wrong, c.frameTime); },
                              "frame 0 has 0 rotations for 9 joints");
    Skeleton broken = c.skeleton;
    broken.parents[2] = 5;
    EXPECT_THROW(exportGltf(path, c.mesh, broken, c.weights, c.frames, c.frameTime), InvalidInput);
    EXPECT_FALSE(fs::exists(path));
}

TEST(GltfExport, UnwritableFolderAndFullDiskAreIoErrorsNamingTheFile)
{
    Character c = smallFigure();
    expectError<IoError>(
        [&] { exportGltf("/nonexistent/folder/hero.glb", c.mesh, c.skeleton, c.weights, c.frames, c.frameTime); },
        "/nonexistent/folder/hero.glb: cannot write the glTF file (no such folder");
    // A regular file where a folder should be (unwritable even for root).
    const std::string file = tempPath("not_a_folder");
    std::ofstream(file) << "x";
    expectError<IoError>(
        [&] { exportGltf(file + "/hero.glb", c.mesh, c.skeleton, c.weights, c.frames, c.frameTime); },
        file + "/hero.glb: cannot write the glTF file");
    // /dev/full fails every write with ENOSPC: the disk is full.
    expectError<IoError>([&] { exportGltf("/dev/full", c.mesh, c.skeleton, c.weights, c.frames, c.frameTime); },
                         "/dev/full: cannot write the glTF file (disk full");
}

TEST(GltfExport, StaleTemporariesOfKilledWritesAreSweptAndNothingElse)
{
    // A write killed between mkstemp and rename leaves "hero.glb.tmp.XXXXXX";
    // they piled up beside the artist's exports (issue 47).
    const fs::path dir = fs::temp_directory_path() / ("rigsmith_sweep_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const auto old = fs::file_time_type::clock::now() - std::chrono::hours(25);
    auto make = [&](const std::string& name, bool stale) {
        std::ofstream(dir / name) << "x";
        if (stale)
            fs::last_write_time(dir / name, old);
    };
    make("hero.glb.tmp.Ab3dE9", true);       // ours, a day old: removed
    make("walk.bvh.tmp.zzzzzz", true);       // ours, another target in the folder: removed
    make("hero.glb.tmp.Xy7890", false);      // ours but fresh (a write under way?): kept
    make("notes.txt.tmp.Ab3dE9", true);      // not a kind of file we write: kept
    make("hero.glb.tmp.Ab3dE", true);        // five characters, not mkstemp's six: kept
    make("hero.glb.tmp", true);              // not our pattern: kept
    make("hero.glb.tmp.Ab3dE9.bak", true);   // kept
    fs::create_directory(dir / "dir.glb.tmp.Ab3dE9"); // a folder: kept
    fs::last_write_time(dir / "dir.glb.tmp.Ab3dE9", old);
    writeFileAtomically((dir / "other.glb").string(), "bytes", "the glTF file");
    std::set<std::string> left;
    for (const auto& e : fs::directory_iterator(dir))
        left.insert(e.path().filename().string());
    EXPECT_EQ(left, (std::set<std::string>{"other.glb", "hero.glb.tmp.Xy7890", "notes.txt.tmp.Ab3dE9",
                                           "hero.glb.tmp.Ab3dE", "hero.glb.tmp", "hero.glb.tmp.Ab3dE9.bak",
                                           "dir.glb.tmp.Ab3dE9"}));
    fs::remove_all(dir);
}

TEST(GltfExport, AFileWrittenInPiecesIsWholeOrNotThere)
{
    const fs::path dir = fs::temp_directory_path() / ("rigsmith_pieces_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string path = (dir / "clip.bvh").string();
    int pieces = 0;
    writeFileAtomically(path, [&](std::string& piece) { piece = std::to_string(pieces); return ++pieces < 3; },
                        "the BVH file");
    std::ifstream in(path);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), "012");
    // A producer that fails half-way leaves the previous file and no temporary.
    EXPECT_THROW(writeFileAtomically(
                     path,
                     [](std::string& piece) -> bool {
                         if (!piece.empty())
                             throw InvalidInput("half-way");
                         piece = "new";
                         throw InvalidInput("half-way");
                     },
                     "the BVH file"),
                 InvalidInput);
    std::ifstream again(path);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), "012");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
    fs::remove_all(dir);
}

TEST(GltfExport, AssimpReadsBackJointsHierarchyWeightsAndAnimation)
{
    const Character c = smallFigure();
    const std::string path = tempPath("figure.glb");
    exportGltf(path, c.mesh, c.skeleton, c.weights, c.frames, c.frameTime);
    ASSERT_TRUE(fs::exists(path));

    const ImportedCharacter back = importCharacter(path);
    EXPECT_EQ(back.mesh.triangleCount(), c.mesh.triangleCount());
    const std::vector<int> match = matchVertices(c.mesh.V, back.mesh.V, 1e-6 * c.height);
    ASSERT_TRUE(std::none_of(match.begin(), match.end(), [](int m) { return m < 0; })) << "mesh not in skeleton space";
    std::vector<bool> hit(static_cast<size_t>(back.mesh.vertexCount()), false);
    for (int m : match)
        hit[static_cast<size_t>(m)] = true;
    EXPECT_TRUE(std::all_of(hit.begin(), hit.end(), [](bool h) { return h; })) << "Assimp has vertices we did not write";
    ASSERT_TRUE(back.skeleton.has_value());
    const ImportedSkeleton& s = *back.skeleton;
    ASSERT_EQ(static_cast<int>(s.names.size()), c.skeleton.jointCount());
    for (int j = 0; j < c.skeleton.jointCount(); ++j) {
        const auto it = std::find(s.names.begin(), s.names.end(), c.skeleton.names[j]);
        ASSERT_NE(it, s.names.end()) << c.skeleton.names[j];
        const int i = static_cast<int>(it - s.names.begin());
        const int p = c.skeleton.parents[j];
        if (p < 0) {
            EXPECT_EQ(s.parents[i], -1);
        } else {
            ASSERT_GE(s.parents[i], 0) << c.skeleton.names[j];
            EXPECT_EQ(s.names[s.parents[i]], c.skeleton.names[p]) << "parent of " << c.skeleton.names[j];
        }
        // The bind transform read back is [B_j | b_j].
        Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
        T.topLeftCorner<3, 3>() = c.skeleton.bindOrientations[j].toRotationMatrix();
        T.topRightCorner<3, 1>() = c.skeleton.bindPositions.row(j).transpose();
        EXPECT_LT((s.bindGlobal[i] - T).cwiseAbs().maxCoeff(), 1e-5) << c.skeleton.names[j];
    }
    EXPECT_LT(weightDifference(c, back, match), 1e-3);
    const auto anims = readAnimationInfo(path);
    ASSERT_EQ(anims.size(), 1u);
    EXPECT_EQ(anims[0].name, "clip");
    EXPECT_NEAR(anims[0].durationSeconds, 2 * c.frameTime, 1e-4);
    EXPECT_EQ(anims[0].channels, c.skeleton.jointCount());
    EXPECT_EQ(anims[0].maxKeys, 3);

    // No frames: no animation.
    exportGltf(path, c.mesh, c.skeleton, c.weights, {}, 0.0);
    EXPECT_TRUE(readAnimationInfo(path).empty());
}

// Issue 47: a character moved to the origin on import (ImportInfo::recentred)
// is put back on export by one "origin" node, its positions kept small.
TEST(GltfExport, ACharacterMovedToTheOriginOnImportIsPutBack)
{
    const Character c = smallFigure();
    ImportedCharacter moved;
    moved.mesh = c.mesh;
    moved.info.recentred = Vec3(-1e7, 0.0, 2.5e6); // what import added to every position
    const std::string path = tempPath("far.gltf");
    exportCharacterGltf(path, moved, c.skeleton, c.weights, {});
    std::ifstream in(path);
    const nlohmann::json j = nlohmann::json::parse(in);
    const auto& roots = j["scenes"][0]["nodes"];
    ASSERT_EQ(roots.size(), 1u);
    const auto& origin = j["nodes"][roots[0].get<int>()];
    EXPECT_EQ(origin["name"], "origin");
    EXPECT_EQ(origin["translation"], nlohmann::json({1e7, 0.0, -2.5e6})); // exact: a JSON double
    EXPECT_EQ(origin["children"].size(), 2u);                             // the joints' root and the mesh
    const int positions = j["meshes"][0]["primitives"][0]["attributes"]["POSITION"];
    const double top = j["accessors"][positions]["max"][1];
    EXPECT_NEAR(top, c.mesh.V.col(1).maxCoeff(), 1e-6); // local, as rigged

    // Read back, it stands where the source did (Assimp applies the node in
    // our double-precision placement) and is moved to the origin again.
    const ImportedCharacter back = importCharacter(path);
    EXPECT_NEAR(back.info.recentred.x(), -1e7, 1.0);
    EXPECT_NEAR(back.info.recentred.z(), 2.5e6, 1.0);
    EXPECT_EQ(back.mesh.triangleCount(), c.mesh.triangleCount());

    // Not moved: no origin node.
    exportCharacterGltf(path, ImportedCharacter{c.mesh, std::nullopt, {}, {}}, c.skeleton, c.weights, {});
    std::ifstream again(path);
    EXPECT_EQ(nlohmann::json::parse(again)["scenes"][0]["nodes"].size(), 2u);
    fs::remove(path);
}

/// A CMU clip on its own skeleton (31 joints, identity bind frames), dressed in capsules.
Character cmuCharacter(int frames, int step)
{
    const Motion m = readBvh(std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/01_01.bvh");
    Skeleton k = motionSkeleton(m);
    Character c = dressSkeleton(k, 0.6); // CMU units are about 1/17 m
    c.frameTime = m.frameTime * step;
    for (int f = 0; f < frames; ++f)
        c.frames.push_back(motionPose(m, std::min(f * step, m.frameCount() - 1)));
    return c;
}

TEST(GltfExport, CmuClipReadsBackWithEveryJointAndTheClipLength)
{
    if (!fs::exists(std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/01_01.bvh"))
        GTEST_SKIP() << "assimp-testmodels not installed (scripts/deps.sh)";
    const Character c = cmuCharacter(40, 6);
    const std::string path = tempPath("cmu.glb");
    exportGltf(path, c.mesh, c.skeleton, c.weights, c.frames, c.frameTime);
    const ImportedCharacter back = importCharacter(path);
    ASSERT_TRUE(back.skeleton.has_value());
    // Joints that influence no vertex (leaves) are not bones for Assimp: every weighted one must be there.
    const std::vector<int> match = matchVertices(c.mesh.V, back.mesh.V, 1e-6 * c.height);
    ASSERT_TRUE(std::none_of(match.begin(), match.end(), [](int m) { return m < 0; }));
    const Eigen::MatrixXd ours = denseWeights(c.weights, c.skeleton.jointCount());
    int weighted = 0;
    for (int j = 0; j < c.skeleton.jointCount(); ++j) {
        if (ours.col(j).maxCoeff() <= 0)
            continue;
        ++weighted;
        const auto& names = back.skeleton->names;
        EXPECT_NE(std::find(names.begin(), names.end(), c.skeleton.names[j]), names.end()) << c.skeleton.names[j];
    }
    EXPECT_LT(weightDifference(c, back, match), 1e-3);
    EXPECT_GT(weighted, 20);
    const auto anims = readAnimationInfo(path);
    ASSERT_EQ(anims.size(), 1u);
    EXPECT_NEAR(anims[0].durationSeconds, 39 * c.frameTime, 1e-4);
    EXPECT_EQ(anims[0].channels, c.skeleton.jointCount());
}

// --- an independent client: three.js's GLTFLoader under Node ----------------

/// Runs tests/clients/three_skin.mjs on `glb` at `times`; the parsed JSON, or
/// nullopt when node is absent (the caller skips, loudly).
std::optional<nlohmann::json> runThree(const std::string& glb, const std::vector<double>& times)
{
    if (std::system("node --version > /dev/null 2>&1") != 0)
        return std::nullopt;
    const std::string clients = rig::test::sourcePath("tests/clients");
    EXPECT_TRUE(fs::exists(clients + "/node_modules/three/package.json"))
        << "three.js is not installed in " << clients << ": run scripts/deps.sh (npm ci there)";
    const std::string out = glb + ".three.json";
    fs::remove(out);
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a known false
    // positive) on a chain of string + starting from a literal here.
    std::string cmd = "node '";
    cmd.append(clients).append("/three_skin.mjs' '").append(glb).append("' '").append(out).append("'");
    for (double t : times)
        cmd.append(" ").append(std::to_string(t));
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    if (!in)
        return nlohmann::json();
    return nlohmann::json::parse(in);
}

/// Checks three.js's skinned positions against our LBS at frame times and between frames.
void expectThreeMatchesOurLbs(const Character& c, const std::string& glb, const std::vector<double>& frameAt)
{
    std::vector<double> times;
    for (double f : frameAt)
        times.push_back(f * c.frameTime);
    const auto three = runThree(glb, times);
    if (!three)
        GTEST_SKIP() << "\n*** node is not installed: the three.js client check did NOT run ***\n";
    ASSERT_TRUE(three->contains("frames")) << "three_skin.mjs wrote no result";
    EXPECT_EQ((*three)["meshes"], 1);
    ASSERT_EQ((*three)["joints"].size(), static_cast<size_t>(c.skeleton.jointCount()));
    for (int j = 0; j < c.skeleton.jointCount(); ++j)
        EXPECT_EQ((*three)["joints"][j], c.skeleton.names[j]);
    ASSERT_EQ((*three)["vertices"], c.mesh.vertexCount());
    EXPECT_NEAR((*three)["animations"][0]["duration"].get<double>(),
                static_cast<double>(c.frames.size() - 1) * c.frameTime, 1e-5);
    double worst = 0;
    for (size_t k = 0; k < frameAt.size(); ++k) {
        const int a = static_cast<int>(std::floor(frameAt[k]));
        const int b = std::min(a + 1, static_cast<int>(c.frames.size()) - 1);
        const Pose pose = between(c.frames[a], c.frames[b], frameAt[k] - a);
        const MatrixX3d ours = ourSkinning(c, pose);
        const auto& P = (*three)["frames"][k]["positions"];
        ASSERT_EQ(P.size(), static_cast<size_t>(3 * c.mesh.vertexCount()));
        for (int v = 0; v < c.mesh.vertexCount(); ++v)
            for (int d = 0; d < 3; ++d)
                worst = std::max(worst, std::abs(P[3 * v + d].get<double>() - ours(v, d)));
    }
    ::testing::Test::RecordProperty("three_max_error_over_height", std::to_string(worst / c.height));
    std::cout << "three.js vs our LBS: max error " << worst / c.height << " of the height\n";
    EXPECT_LT(worst / c.height, 1e-3);
}

TEST(GltfExport, ThreeJsSkinsTheSmallFigureLikeOurLbs)
{
    const Character c = smallFigure();
    const std::string path = tempPath("figure_three.glb");
    exportGltf(path, c.mesh, c.skeleton, c.weights, c.frames, c.frameTime);
    expectThreeMatchesOurLbs(c, path, {0.0, 0.5, 1.0, 1.75, 2.0});
}

TEST(GltfExport, ThreeJsPlaysTheCmuClipLikeOurLbs)
{
    if (!fs::exists(std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/01_01.bvh"))
        GTEST_SKIP() << "assimp-testmodels not installed (scripts/deps.sh)";
    const Character c = cmuCharacter(40, 6);
    const std::string path = tempPath("cmu_three.glb");
    exportGltf(path, c.mesh, c.skeleton, c.weights, c.frames, c.frameTime);
    expectThreeMatchesOurLbs(c, path, {0.0, 10.0, 20.5, 39.0});
}


TEST(GltfExport, ThreeJsPlaysTheDefaultCharacterRiggedWithACmuClipLikeOurLbs)
{
    const std::string bvh = std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/01_01.bvh";
    if (!fs::exists(bvh))
        GTEST_SKIP() << "assimp-testmodels not installed (scripts/deps.sh)";
    // The whole pipeline at a low resolution: skeleton, labels, fit, weights (thesis Alg. 4.2.1), retarget.
    RigProject project;
    project.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter("default")));
    CurveSkeletonOptions options;
    options.voxelize.resolution = 80;
    project.setCurveSkeletonOptions(options);
    project.setCurveSkeleton(std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(project)));
    const EndNodeLabels labels = suggestLabels(project);
    project.setRig(labels, std::make_shared<const FitResult>(fitRig(project, labels)));
    const SkinningResult skinning = computeSkinning(project);
    RetargetOptions retarget;
    retarget.frameStep = 60;
    const RetargetedClip clip = retargetClip(readBvh(bvh), project.rig()->skeleton, retarget);
    Character c;
    c.mesh = project.character()->imported.mesh;
    c.skeleton = project.rig()->skeleton;
    c.weights = skinning.weights;
    c.frames = toPoses(clip.frames);
    c.frameTime = clip.frameTime;
    c.height = c.mesh.V.col(1).maxCoeff() - c.mesh.V.col(1).minCoeff();
    const std::string path = tempPath("default_cmu_three.glb");
    exportGltf(path, c.mesh, c.skeleton, c.weights, c.frames, c.frameTime);
    const double last = static_cast<double>(c.frames.size() - 1);
    expectThreeMatchesOurLbs(c, path, {0.0, 0.5 * last + 0.25, last});
}

} // namespace
} // namespace rig
