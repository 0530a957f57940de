#include "core/io/mesh_import.h"

#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

} // namespace
} // namespace rig
