#include "core/import/mesh_import.h"

#include "core/common/error.h"
#include "core/deform/lbs.h"
#include "core/import/animation_poses.h"
#include "core/mesh/mesh_queries.h"
#include "core/project/rig_project.h"
#include "core/eval/weight_compare.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

namespace fs = std::filesystem;

namespace rig {
namespace {

class TempDir {
public:
    TempDir()
    {
        m_path = fs::temp_directory_path() /
                 ("rigsmith_import_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(m_path);
    }
    ~TempDir() { fs::remove_all(m_path); }
    std::string write(const std::string& name, const std::string& text) const
    {
        const fs::path p = m_path / name;
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
    std::string path() const { return m_path.string(); }

private:
    fs::path m_path;
};

// A unit cube as an OBJ with 24 corner copies (one per face corner), as exporters write it.
std::string cubeObj(double sx = 1, double sy = 1, double sz = 1)
{
    std::string s;
    const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces)
        for (int k = 0; k < 4; ++k) {
            const int i = f[k];
            s += "v " + std::to_string((i & 1) * sx) + " " + std::to_string(((i >> 1) & 1) * sy) + " " +
                 std::to_string(((i >> 2) & 1) * sz) + "\n";
        }
    for (int f = 0; f < 6; ++f) {
        const int b = f * 4 + 1;
        s += "f " + std::to_string(b) + " " + std::to_string(b + 1) + " " + std::to_string(b + 2) + " " +
             std::to_string(b + 3) + "\n";
    }
    return s;
}

template <class E>
std::string messageOf(const std::string& path, const ImportOptions& o = {})
{
    try {
        importCharacter(path, o);
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "wrong exception type for " << path << ": " << e.what();
        return {};
    }
    ADD_FAILURE() << "no exception for " << path;
    return {};
}

TEST(MeshImport, MissingFileNamesTheFile)
{
    const std::string msg = messageOf<IoError>("/nonexistent/dir/hero.fbx");
    EXPECT_NE(msg.find("hero.fbx"), std::string::npos) << msg;
    EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;
}

TEST(MeshImport, EmptyFileAndFolderAreRefused)
{
    TempDir dir;
    EXPECT_NE(messageOf<IoError>(dir.write("empty.obj", "")).find("empty"), std::string::npos);
    EXPECT_NE(messageOf<IoError>(dir.path()).find("folder"), std::string::npos);
}

TEST(MeshImport, GarbageIsACleanError)
{
    TempDir dir;
    const std::string p = dir.write("noise.fbx", std::string("\x01\x02garbage\xff\xfe not a model", 24));
    const std::string msg = messageOf<IoError>(p);
    EXPECT_NE(msg.find("noise.fbx"), std::string::npos) << msg;
}

TEST(MeshImport, NoTrianglesIsAnError)
{
    TempDir dir;
    const std::string p = dir.write("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n");
    const std::string msg = messageOf<Error>(p);
    EXPECT_NE(msg.find("lines.obj"), std::string::npos) << msg;
}

TEST(MeshImport, NanCoordinatesAreAnError)
{
    TempDir dir;
    const std::string p = dir.write("nan.obj", "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n");
    const std::string msg = messageOf<Error>(p);
    EXPECT_NE(msg.find("nan.obj"), std::string::npos) << msg;
}

TEST(MeshImport, TooManyTrianglesIsAnError)
{
    TempDir dir;
    const std::string p = dir.write("cube.obj", cubeObj());
    ImportOptions o;
    o.maxTriangles = 11;
    const std::string msg = messageOf<InvalidInput>(p, o);
    EXPECT_NE(msg.find("12 triangles"), std::string::npos) << msg;
    EXPECT_EQ(ImportOptions{}.maxTriangles, 5'000'000);
}

TEST(MeshImport, CubeIsWeldedIntoAClosedMesh)
{
    TempDir dir;
    const ImportedCharacter c = importCharacter(dir.write("cube.obj", cubeObj()));
    EXPECT_EQ(c.mesh.vertexCount(), 8);
    ASSERT_EQ(c.info.weldMap.size(), static_cast<size_t>(c.info.fileVertices));
    EXPECT_EQ(c.mesh.triangleCount(), 12);
    EXPECT_EQ(std::set<int>(c.info.weldMap.begin(), c.info.weldMap.end()).size(), 8u);
    EXPECT_TRUE(edgeTopology(c.mesh.F).closedManifold());
    EXPECT_EQ(c.mesh.N.rows(), 8);
    EXPECT_FALSE(c.skeleton.has_value());
    EXPECT_TRUE(c.info.upAxisGuessed); // OBJ does not say
    EXPECT_EQ(c.info.upAxis, "+Y");
}

TEST(MeshImport, CoincidentCornersOfSeparateObjectsAreWelded)
{
    // Two objects sharing an edge position: Assimp keeps them apart, we weld them.
    TempDir dir;
    const std::string obj = "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no b\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 4 5 6\n";
    const ImportedCharacter c = importCharacter(dir.write("quad.obj", obj));
    EXPECT_EQ(c.info.fileVertices, 6);
    EXPECT_EQ(c.mesh.vertexCount(), 4);
    EXPECT_EQ(c.info.weldMap[1], c.info.weldMap[3]);
    EXPECT_EQ(c.info.weldMap[2], c.info.weldMap[5]);
    EXPECT_EQ(c.mesh.partCount(), 2);
}

TEST(MeshImport, DamagedFacesAreRefusedNotRepairedSilently)
{
    TempDir dir;
    const std::string p = dir.write("holed.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf\nf 1 2 3\n");
    const std::string msg = messageOf<IoError>(p);
    EXPECT_NE(msg.find("damaged"), std::string::npos) << msg;
}

TEST(MeshImport, AbsurdHeaderCountsAreRefusedQuickly)
{
    TempDir dir;
    const std::string p = dir.write("huge.off", "OFF\n35353523535358 6 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
    const std::string msg = messageOf<IoError>(p);
    EXPECT_NE(msg.find("huge.off"), std::string::npos) << msg;
    EXPECT_NE(msg.find("truncated or corrupt"), std::string::npos) << msg;
}

TEST(MeshImport, TallAlongZIsTurnedToYUp)
{
    TempDir dir;
    const ImportedCharacter c = importCharacter(dir.write("standing_z.obj", cubeObj(0.5, 0.3, 1.8)));
    EXPECT_EQ(c.info.upAxis, "+Z");
    const Vec3 size = boundingBox(c.mesh).size();
    EXPECT_NEAR(size.y(), 1.8, 1e-6);
    EXPECT_NEAR(size.z(), 0.3, 1e-6);
    // Turning is a rotation: the mesh stays closed and outward-facing.
    EXPECT_TRUE(edgeTopology(c.mesh.F).closedManifold());
}

TEST(MeshImport, SeveralObjectsBecomePartsWithNodeTransforms)
{
    TempDir dir;
    std::string two = "o left\n" + cubeObj() + "o right\n";
    // Second cube shifted by 3 along x (OBJ indices continue).
    for (int i = 0; i < 8; ++i)
        two += "v " + std::to_string(3 + (i & 1)) + " " + std::to_string((i >> 1) & 1) + " " +
               std::to_string((i >> 2) & 1) + "\n";
    two += "f 25 27 28 26\nf 29 30 32 31\nf 25 26 30 29\nf 27 31 32 28\nf 25 29 31 27\nf 26 28 32 30\n";
    const ImportedCharacter c = importCharacter(dir.write("two.obj", two));
    EXPECT_EQ(c.mesh.partCount(), 2);
    EXPECT_EQ(c.mesh.vertexCount(), 16);
    EXPECT_EQ(connectedComponents(c.mesh), 2);
    std::set<int> parts(c.mesh.part.begin(), c.mesh.part.end());
    EXPECT_EQ(parts.size(), 2u);
    EXPECT_NEAR(boundingBox(c.mesh).size().x(), 4.0, 1e-9);
}

/// Every model of Debian's assimp-testmodels in the formats we promise either
/// imports into a non-empty, finite mesh or fails with a rig::Error: never a crash.
TEST(MeshImport, AssimpTestModelsImportOrFailCleanly)
{
    const fs::path root = RIGSMITH_ASSIMP_MODELS;
    if (!fs::exists(root))
        GTEST_SKIP() << "assimp-testmodels is not installed (scripts/test installs it)";
    const std::vector<std::string> dirs = {"OBJ", "FBX", "X", "Collada", "glTF2", "PLY", "STL", "MD5", "SMD", "IQM"};
    const auto exts = supportedExtensions();
    const std::set<std::string> supported(exts.begin(), exts.end());
    int loaded = 0, refused = 0;
    for (const auto& d : dirs)
        for (const auto& entry : fs::recursive_directory_iterator(root / d)) {
            if (!entry.is_regular_file())
                continue;
            std::string ext = entry.path().extension().string();
            if (ext.size() < 2)
                continue;
            ext = ext.substr(1);
            std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return std::tolower(ch); });
            if (!supported.count(ext) || ext == "bin" || ext == "mtl" || ext == "txt")
                continue;
            try {
                const ImportedCharacter c = importCharacter(entry.path().string());
                EXPECT_GT(c.mesh.triangleCount(), 0) << entry.path();
                EXPECT_TRUE(c.mesh.V.allFinite()) << entry.path();
                EXPECT_EQ(c.mesh.N.rows(), c.mesh.V.rows()) << entry.path();
                EXPECT_EQ(static_cast<int>(c.mesh.part.size()), c.mesh.vertexCount()) << entry.path();
                if (c.skeleton) {
                    for (size_t j = 0; j < c.skeleton->parents.size(); ++j)
                        EXPECT_LT(c.skeleton->parents[j], static_cast<int>(j)) << entry.path();
                    EXPECT_EQ(c.skeleton->W.rows(), c.mesh.vertexCount());
                }
                ++loaded;
            } catch (const Error& e) {
                EXPECT_NE(std::string(e.what()).find(entry.path().filename().string()), std::string::npos)
                    << e.what();
                ++refused;
            }
        }
    EXPECT_GT(loaded, 50);
    std::cout << "[info] imported " << loaded << " models, refused " << refused << " cleanly\n";
}

TEST(MeshImport, InvalidModelsFailWithAMessageNamingTheFile)
{
    const fs::path root = fs::path(RIGSMITH_ASSIMP_MODELS) / "invalid";
    if (!fs::exists(root))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    int n = 0;
    for (const auto& entry : fs::directory_iterator(root)) {
        if (entry.path().extension() == ".txt")
            continue;
        ++n;
        try {
            const ImportedCharacter c = importCharacter(entry.path().string());
            ADD_FAILURE() << entry.path() << " imported with " << c.mesh.triangleCount() << " triangles";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(entry.path().filename().string()), std::string::npos) << e.what();
        }
    }
    EXPECT_GE(n, 10);
}

TEST(MeshImport, RiggedModelKeepsItsSkeleton)
{
    const fs::path p = fs::path(RIGSMITH_ASSIMP_MODELS) / "glTF2" / "simple_skin" / "simple_skin.gltf";
    if (!fs::exists(p))
        GTEST_SKIP() << p << " not installed";
    const ImportedCharacter c = importCharacter(p.string());
    ASSERT_TRUE(c.skeleton.has_value());
    EXPECT_EQ(c.skeleton->names.size(), 2u);
    EXPECT_EQ(c.skeleton->parents[0], -1);
    EXPECT_EQ(c.skeleton->parents[1], 0);
    // Every vertex is weighted, and the weights sum to one.
    for (Eigen::Index r = 0; r < c.skeleton->W.rows(); ++r)
        EXPECT_NEAR(c.skeleton->W.row(r).sum(), 1.0, 1e-6);
}


// ---- Animations (issue 5 item 4): the file's own frames as poses of its skeleton.

/// A rigged, animated model of assimp-testmodels, imported, with its skeleton
/// as a rig and its own weights; nullopt when the package is absent.
struct Animated {
    ImportedCharacter c;
    FitResult rig;
    SkinWeights weights;
    double height = 0.0;
};

std::optional<Animated> animated(const std::string& relative)
{
    const fs::path p = fs::path(RIGSMITH_ASSIMP_MODELS) / relative;
    if (!fs::exists(p))
        return std::nullopt;
    Animated a;
    a.c = importCharacter(p.string());
    if (!a.c.skeleton)
        return a;
    a.rig = rigFromImportedSkeleton(*a.c.skeleton);
    a.weights = skinWeightsFromReference(a.c.skeleton->W);
    a.height = boundingBox(a.c.mesh).size().maxCoeff();
    return a;
}

#define RIGSMITH_ANIMATED(var, relative)                                                                             \
    const auto var##Loaded = animated(relative);                                                                     \
    if (!var##Loaded)                                                                                                \
        GTEST_SKIP() << relative << " is missing (Debian package assimp-testmodels)";                               \
    const Animated& var = *var##Loaded;                                                                              \
    ASSERT_TRUE(var.c.skeleton.has_value())

/// The file's skinning transforms of a frame, S_j = G_j · bindGlobal_j⁻¹.
std::vector<Eigen::Matrix4d> fileSkinning(const ImportedSkeleton& s, const ImportedAnimation& a, int frame)
{
    std::vector<Eigen::Matrix4d> S;
    for (size_t j = 0; j < s.names.size(); ++j)
        S.push_back(a.global[static_cast<size_t>(frame)][j] * s.bindGlobal[j].inverse());
    return S;
}

/// Skins `V` with 4x4 matrices (the file's own skinning, without our Pose in between).
MatrixX3d skinWithMatrices(const MatrixX3d& V, const SkinWeights& W, const std::vector<Eigen::Matrix4d>& S)
{
    MatrixX3d out = MatrixX3d::Zero(V.rows(), 3);
    for (Eigen::Index i = 0; i < V.rows(); ++i)
        for (Eigen::Index k = 0; k < W.joints.cols(); ++k) {
            const Eigen::Vector4d x = S[static_cast<size_t>(W.joints(i, k))] * V.row(i).transpose().homogeneous();
            out.row(i) += W.weights(i, k) * x.head<3>().transpose();
        }
    return out;
}

/// Mean |edge length change| over the mesh, relative to the rest length.
double meanEdgeStretch(const Mesh& mesh, const MatrixX3d& posed)
{
    double sum = 0.0;
    int n = 0;
    for (Eigen::Index f = 0; f < mesh.F.rows(); ++f)
        for (int e = 0; e < 3; ++e) {
            const int a = mesh.F(f, e), b = mesh.F(f, (e + 1) % 3);
            const double rest = (mesh.V.row(a) - mesh.V.row(b)).norm();
            if (rest > 1e-12) {
                sum += std::abs((posed.row(a) - posed.row(b)).norm() / rest - 1.0);
                ++n;
            }
        }
    return n ? sum / n : 0.0;
}

/// A two-joint bar as a DirectX text file: the child turns 90 degrees about Z
/// between ticks 0 and 100 (rotation keys only), the root has position keys at
/// 0, 50 and 100 that keep it still.
constexpr const char* bendingBarX = R"(xof 0303txt 0032
Frame Root {
  FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, 0.0,0.0,0.0,1.0;; }
  Frame Child {
    FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, 0.0,1.0,0.0,1.0;; }
  }
}
Frame Body {
  FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, 0.0,0.0,0.0,1.0;; }
  Mesh {
    4;
    0.0;0.0;0.0;,
    0.1;0.0;0.0;,
    0.0;2.0;0.0;,
    0.1;2.0;0.0;;
    2;
    3;0,1,2;,
    3;1,3,2;;
    XSkinMeshHeader { 1; 2; 2; }
    SkinWeights { "Root"; 2; 0,1; 1.0,1.0; 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, 0.0,0.0,0.0,1.0;; }
    SkinWeights { "Child"; 2; 2,3; 1.0,1.0; 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, 0.0,-1.0,0.0,1.0;; }
  }
}
AnimationSet Bend {
  Animation { {Child} AnimationKey { 0; 2; 0;4;1.0,0.0,0.0,0.0;;, 100;4;0.7071068,0.0,0.0,0.7071068;;; } }
  Animation { {Root} AnimationKey { 2; 3; 0;3;0.0,0.0,0.0;;, 50;3;0.0,0.0,0.0;;, 100;3;0.0,0.0,0.0;;; } }
}
)";

/// Frames at the union of the channels' key times; between keys, slerp; a
/// channel without position keys keeps the node's own translation.
TEST(AnimationImport, KeysAreMergedAndSlerped)
{
    TempDir dir;
    const ImportedCharacter c = importCharacter(dir.write("bend.x", bendingBarX));
    ASSERT_TRUE(c.skeleton.has_value());
    ASSERT_EQ(c.skeleton->names, (std::vector<std::string>{"Root", "Child"}));
    ASSERT_EQ(c.skeleton->animations.size(), 1u);
    const ImportedAnimation& a = c.skeleton->animations[0];
    EXPECT_EQ(a.name, "Bend");
    EXPECT_EQ(a.channels, 2);
    EXPECT_EQ(a.mappedChannels, 2);
    EXPECT_EQ(a.animatedJoints, 2);
    ASSERT_EQ(a.frameCount(), 3); // ticks 0, 50 (the root's middle key), 100
    EXPECT_NEAR(a.times[1] / a.times[2], 0.5, 1e-12);
    const FitResult rig = rigFromImportedSkeleton(*c.skeleton);
    const std::vector<Pose> poses = animationPoses(rig.skeleton, *c.skeleton, a);
    for (int f = 0; f < 3; ++f) {
        const Eigen::Matrix4d S = a.global[static_cast<size_t>(f)][1] * c.skeleton->bindGlobal[1].inverse();
        const Eigen::AngleAxisd turn(Eigen::Matrix3d(S.block<3, 3>(0, 0)));
        EXPECT_NEAR(turn.angle(), f * M_PI / 4.0, 1e-6) << "frame " << f; // 0, 45 (slerped), 90 degrees
        if (f > 0) {
            EXPECT_NEAR(std::abs(turn.axis().dot(Vec3::UnitZ())), 1.0, 1e-6);
        }
        // The child turns about its own joint, which stays where the bind put it.
        const Vec3 joint = c.skeleton->bindGlobal[1].block<3, 1>(0, 3);
        EXPECT_LT((a.global[static_cast<size_t>(f)][1].block<3, 1>(0, 3) - joint).norm(), 1e-9);
        EXPECT_LT(poses[static_cast<size_t>(f)].rootTranslation.norm(), 1e-9);
        EXPECT_NEAR(poses[static_cast<size_t>(f)].localRotations[1].angularDistance(Eigen::Quaterniond::Identity()),
                    f * M_PI / 4.0, 1e-6);
    }
    // The tip swings about the child joint: after 90 degrees it has moved √2 times its distance from the joint.
    const SkinWeights w = skinWeightsFromReference(c.skeleton->W);
    const DeformedMesh end = lbs(c.mesh.V, MatrixX3d(), w, forwardKinematics(rig.skeleton, poses[2]).skinning);
    const Eigen::Index tip = [&] {
        Eigen::Index i = 0;
        c.mesh.V.col(1).maxCoeff(&i);
        return i;
    }();
    const double arm = (c.mesh.V.row(tip) - c.skeleton->bindGlobal[1].block<3, 1>(0, 3).transpose()).norm();
    EXPECT_NEAR((end.V.row(tip) - c.mesh.V.row(tip)).norm(), std::sqrt(2.0) * arm, 1e-6);
}

TEST(AnimationImport, InvalidInputsAreRejected)
{
    RIGSMITH_ANIMATED(a, "X/Testwuson.X");
    ASSERT_FALSE(a.c.skeleton->animations.empty());
    const ImportedAnimation& anim = a.c.skeleton->animations.front();
    Skeleton fewer = a.rig.skeleton;
    fewer.names.pop_back();
    fewer.parents.pop_back();
    fewer.bindOrientations.pop_back();
    fewer.bindPositions.conservativeResize(fewer.bindPositions.rows() - 1, Eigen::NoChange);
    EXPECT_THROW(animationPoses(fewer, *a.c.skeleton, anim), InvalidInput);
    EXPECT_THROW(animationPoses(a.rig.skeleton, *a.c.skeleton, anim, -1), InvalidInput);
    ImportedAnimation broken = anim;
    broken.global[0].pop_back();
    EXPECT_THROW(animationPoses(a.rig.skeleton, *a.c.skeleton, broken), InvalidInput);
}

TEST(AnimationImport, TestwusonHasRunWalkAndBind)
{
    RIGSMITH_ANIMATED(a, "X/Testwuson.X");
    const auto& anims = a.c.skeleton->animations;
    ASSERT_EQ(anims.size(), 3u);
    EXPECT_EQ(anims[0].name, "Wuson_Run");
    EXPECT_EQ(anims[1].name, "Wuson_Walk");
    EXPECT_EQ(anims[2].name, "Wuson_Bind");
    const int nj = static_cast<int>(a.c.skeleton->names.size());
    for (const ImportedAnimation& anim : anims) {
        EXPECT_EQ(anim.animatedJoints, nj) << anim.name; // every joint maps to a channel
        EXPECT_EQ(anim.mappedChannels, nj) << anim.name;
        EXPECT_EQ(anim.channels, nj + 2) << anim.name; // and two channels move non-joint nodes
        ASSERT_EQ(anim.global.size(), anim.times.size());
        for (size_t f = 1; f < anim.times.size(); ++f)
            EXPECT_GT(anim.times[f], anim.times[f - 1]);
        for (const auto& frame : anim.global)
            EXPECT_EQ(static_cast<int>(frame.size()), nj);
    }
    EXPECT_EQ(anims[0].frameCount(), 30); // the union of the channels' key times
    EXPECT_EQ(anims[1].frameCount(), 109);
    EXPECT_EQ(anims[2].frameCount(), 1);
    EXPECT_NEAR(anims[1].duration, 17280.0 / 4800.0, 1e-9); // ticks over ticks per second
    EXPECT_EQ(longestAnimation(*a.c.skeleton), 1); // the walk; the one-frame bind pose never
}

/// A frame's pose reproduces the file's skinning transform G_j · bindGlobal_j⁻¹
/// of every joint (the files keep their bind scale and bone lengths).
TEST(AnimationImport, PosesReproduceTheFileSkinning)
{
    for (const char* file : {"X/Testwuson.X", "X/BCN_Epileptic.X", "FBX/huesitos.fbx", "FBX/animation_with_skeleton.fbx"}) {
        const auto loaded = animated(file);
        if (!loaded)
            GTEST_SKIP() << file << " is missing (Debian package assimp-testmodels)";
        ASSERT_TRUE(loaded->c.skeleton.has_value()) << file;
        const Animated& a = *loaded;
        ASSERT_FALSE(a.c.skeleton->animations.empty()) << file;
        double worstRotation = 0.0, worstTranslation = 0.0;
        for (const ImportedAnimation& anim : a.c.skeleton->animations) {
            const std::vector<Pose> poses = animationPoses(a.rig.skeleton, *a.c.skeleton, anim);
            ASSERT_EQ(static_cast<int>(poses.size()), anim.frameCount());
            for (int f = 0; f < anim.frameCount(); ++f) {
                const PosedSkeleton posed = forwardKinematics(a.rig.skeleton, poses[static_cast<size_t>(f)]);
                const auto S = fileSkinning(*a.c.skeleton, anim, f);
                for (size_t j = 0; j < S.size(); ++j) {
                    worstRotation = std::max(worstRotation, (posed.skinning[j].linear() - S[j].block<3, 3>(0, 0)).norm());
                    worstTranslation = std::max(
                        worstTranslation, (posed.skinning[j].translation() - S[j].block<3, 1>(0, 3)).norm() / a.height);
                }
            }
        }
        std::cout << "[info] " << file << ": " << a.c.skeleton->animations.size() << " animation(s), "
                  << a.c.skeleton->animations.front().frameCount() << " frames in '"
                  << a.c.skeleton->animations.front().name << "'; worst rotation " << worstRotation
                  << ", translation " << worstTranslation << " of height\n";
        EXPECT_LT(worstRotation, 1e-4) << file;
        EXPECT_LT(worstTranslation, 1e-4) << file;
    }
}

/// Deforming with the file's weights: the animated mesh keeps its shape (edge
/// lengths barely change, as skinned characters do), matches skinning by the
/// file's own matrices, and moves away from the rest mesh; the bind-pose
/// animation gives back the rest mesh.
TEST(AnimationImport, FileWeightsDeformTheMeshLikeTheFile)
{
    RIGSMITH_ANIMATED(a, "X/Testwuson.X");
    const auto& anims = a.c.skeleton->animations;
    ASSERT_EQ(anims.size(), 3u);
    const MatrixX3d noNormals;
    // Wuson_Bind holds the bind pose: ~0 displacement.
    {
        const std::vector<Pose> bind = animationPoses(a.rig.skeleton, *a.c.skeleton, anims[2]);
        ASSERT_EQ(bind.size(), 1u);
        const DeformedMesh d = lbs(a.c.mesh.V, noNormals, a.weights, forwardKinematics(a.rig.skeleton, bind[0]).skinning);
        EXPECT_LT((d.V - a.c.mesh.V).rowwise().norm().maxCoeff() / a.height, 1e-4);
    }
    // The walk, frame 0 and every frame: shape kept, matches the file's matrices, differs from rest.
    const ImportedAnimation& walk = anims[1];
    const std::vector<Pose> poses = animationPoses(a.rig.skeleton, *a.c.skeleton, walk);
    double largestMove = 0.0;
    for (int f = 0; f < walk.frameCount(); ++f) {
        const DeformedMesh d = lbs(a.c.mesh.V, noNormals, a.weights,
                                   forwardKinematics(a.rig.skeleton, poses[static_cast<size_t>(f)]).skinning);
        const MatrixX3d byFile = skinWithMatrices(a.c.mesh.V, a.weights, fileSkinning(*a.c.skeleton, walk, f));
        EXPECT_LT((d.V - byFile).rowwise().norm().maxCoeff() / a.height, 1e-4) << "frame " << f;
        EXPECT_LT(meanEdgeStretch(a.c.mesh, d.V), 0.08) << "frame " << f;
        largestMove = std::max(largestMove, (d.V - a.c.mesh.V).rowwise().norm().maxCoeff() / a.height);
    }
    EXPECT_GT(largestMove, 0.05); // the walk moves the legs by more than 5 % of the height
    double largestTurn = 0.0;
    for (const Eigen::Quaterniond& q : poses.front().localRotations)
        largestTurn = std::max(largestTurn, q.angularDistance(Eigen::Quaterniond::Identity()));
    EXPECT_GT(largestTurn, 10.0 * M_PI / 180.0); // frame 0 is not the rest pose
    // At most N frames, evenly spaced, first and last kept.
    const std::vector<Pose> five = animationPoses(a.rig.skeleton, *a.c.skeleton, walk, 5);
    ASSERT_EQ(five.size(), 5u);
    for (size_t j = 0; j < five.front().localRotations.size(); ++j) {
        EXPECT_TRUE(five.front().localRotations[j].isApprox(poses.front().localRotations[j]));
        EXPECT_TRUE(five.back().localRotations[j].isApprox(poses.back().localRotations[j]));
    }
}

/// DirectX .X files bind skinned meshes in their own coordinates; BCN_Epileptic's
/// head mesh has a frame transform that would lift it off its neck by a
/// quarter of the height. Placed by its skeleton, it sits on the neck.
TEST(AnimationImport, SkinnedXMeshesArePlacedByTheirSkeleton)
{
    RIGSMITH_ANIMATED(a, "X/BCN_Epileptic.X");
    EXPECT_EQ(a.c.info.meshesPlacedBySkeleton, 3); // torso, head, legs
    EXPECT_EQ(a.c.info.upAxis, "+Y");
    // The head touches the torso (the closest vertices of the two parts).
    const auto& names = a.c.mesh.partNames;
    const int head = static_cast<int>(std::find(names.begin(), names.end(), "Head") - names.begin());
    const int torso = static_cast<int>(std::find(names.begin(), names.end(), "Torso") - names.begin());
    ASSERT_LT(head, static_cast<int>(names.size()));
    ASSERT_LT(torso, static_cast<int>(names.size()));
    double gap = 1e300;
    for (int i = 0; i < a.c.mesh.vertexCount(); ++i)
        for (int k = 0; k < a.c.mesh.vertexCount(); ++k)
            if (a.c.mesh.part[i] == head && a.c.mesh.part[k] == torso)
                gap = std::min(gap, (a.c.mesh.V.row(i) - a.c.mesh.V.row(k)).norm());
    EXPECT_LT(gap / a.height, 1e-3); // by its frame: 0.27
    EXPECT_EQ(a.c.skeleton->animations.size(), 1u);
    EXPECT_EQ(a.c.skeleton->animations[0].name, "Epileptisch");
    EXPECT_EQ(a.c.skeleton->animations[0].frameCount(), 100);
    EXPECT_EQ(a.c.skeleton->animations[0].animatedJoints, 54);
    for (const char* file : {"FBX/huesitos.fbx", "FBX/animation_with_skeleton.fbx"}) {
        const auto fbx = animated(file);
        ASSERT_TRUE(fbx.has_value());
        EXPECT_EQ(fbx->c.info.meshesPlacedBySkeleton, 0) << file; // bound as their nodes place them
    }
}

TEST(AnimationImport, RiggedFileWithoutAnimationHasNone)
{
    RIGSMITH_ANIMATED(a, "X/test_cube_text.x");
    EXPECT_TRUE(a.c.skeleton->animations.empty());
    EXPECT_FALSE(longestAnimation(*a.c.skeleton).has_value());
}

} // namespace
} // namespace rig
