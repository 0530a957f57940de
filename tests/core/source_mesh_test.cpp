// The file's meshes kept beside the welded mesh (core/import/source_mesh.h) and
// the parts list built from them.
#include "core/import/source_mesh.h"

#include "core/import/mesh_import.h"
#include "core/project/character_source.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>

namespace rig {
namespace {

namespace fs = std::filesystem;

const std::string models = RIGSMITH_ASSIMP_MODELS;

std::string write(const std::string& name, const std::string& text)
{
    const fs::path dir = fs::temp_directory_path() / "rigsmith_source_mesh_test";
    fs::create_directories(dir);
    std::ofstream(dir / name) << text;
    return (dir / name).string();
}

/// Every source vertex sits on its welded twin, and the source meshes in
/// order are the file vertices of ImportInfo::weldMap.
void expectConsistent(const ImportedCharacter& c)
{
    std::vector<int> concatenated;
    for (const SourceMesh& m : c.source.meshes) {
        SCOPED_TRACE(m.name);
        ASSERT_EQ(m.welded.size(), static_cast<size_t>(m.vertexCount()));
        for (int v = 0; v < m.vertexCount(); ++v) {
            const int w = m.welded[static_cast<size_t>(v)];
            ASSERT_GE(w, 0);
            ASSERT_LT(w, c.mesh.vertexCount());
            EXPECT_LE((m.V.row(v) - c.mesh.V.row(w)).norm(), 1e-6 * (1 + m.V.row(v).norm()));
        }
        EXPECT_GE(m.F.minCoeff(), 0);
        EXPECT_LT(m.F.maxCoeff(), m.vertexCount());
        for (const auto& uv : m.uv)
            EXPECT_EQ(uv.rows(), m.vertexCount());
        if (m.N.rows() > 0) {
            EXPECT_LE((m.N.rowwise().norm().array() - 1).abs().maxCoeff(), 1e-9);
        }
        concatenated.insert(concatenated.end(), m.welded.begin(), m.welded.end());
    }
    EXPECT_EQ(concatenated, c.info.weldMap);
    EXPECT_EQ(static_cast<int>(concatenated.size()), c.info.fileVertices);
}

TEST(SourceMesh, ObjCornersEqualInEveryAttributeAreOneVertexAndSeamsStaySplit)
{
    // Two triangles sharing an edge; the second gives the shared corners other UVs (a seam).
    const std::string obj = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0.5\n"
                            "f 1/1 2/2 3/3\nf 1/1 3/5 4/4\n";
    const ImportedCharacter c = importCharacter(write("seam.obj", obj));
    ASSERT_EQ(c.source.meshes.size(), 1u);
    const SourceMesh& m = c.source.meshes[0];
    EXPECT_EQ(m.vertexCount(), 5); // corner 1 is shared (same UV), corner 3 is split by the seam
    EXPECT_EQ(c.mesh.vertexCount(), 4);
    ASSERT_EQ(m.uv.size(), 1u);
    expectConsistent(c);
    // The seam's two copies of position 3 map to one welded vertex.
    std::vector<int> atCorner3;
    for (int v = 0; v < m.vertexCount(); ++v)
        if ((m.V.row(v) - Eigen::RowVector3d(1, 1, 0)).norm() < 1e-12)
            atCorner3.push_back(m.welded[static_cast<size_t>(v)]);
    ASSERT_EQ(atCorner3.size(), 2u);
    EXPECT_EQ(atCorner3[0], atCorner3[1]);
}

TEST(SourceMesh, SpiderKeepsItsMeshesMaterialsAndNames)
{
    const std::string file = models + "/OBJ/spider.obj";
    if (!fs::exists(file))
        GTEST_SKIP() << file << " is absent (Debian package assimp-testmodels)";
    const ImportedCharacter c = importCharacter(file);
    expectConsistent(c);
    EXPECT_GE(c.source.meshes.size(), 4u);
    EXPECT_GE(c.source.textures.size(), 4u);
    for (const SourceMesh& m : c.source.meshes) {
        EXPECT_FALSE(m.name.empty());
        EXPECT_FALSE(m.uv.empty()) << m.name;
        EXPECT_GE(m.material, 0);
    }
    const auto parts = characterParts(c);
    ASSERT_EQ(parts.size(), c.source.meshes.size());
    int vertices = 0;
    for (const CharacterPart& p : parts) {
        EXPECT_FALSE(p.material.empty()) << p.name;
        EXPECT_GE(p.components, 1) << p.name;
        vertices += p.vertices;
    }
    EXPECT_EQ(vertices, c.info.fileVertices);
}

TEST(SourceMesh, VertexColoursAreKept)
{
    const std::string file = models + "/OBJ/cube_with_vertexcolors.obj";
    if (!fs::exists(file))
        GTEST_SKIP() << file << " is absent (Debian package assimp-testmodels)";
    const ImportedCharacter c = importCharacter(file);
    expectConsistent(c);
    ASSERT_FALSE(c.source.meshes.empty());
    ASSERT_EQ(c.source.meshes[0].colors.size(), 1u);
    EXPECT_GT(c.source.meshes[0].colors[0].col(0).maxCoeff(), c.source.meshes[0].colors[0].col(0).minCoeff());
}

TEST(SourceMesh, SkinnedGltfKeepsTheFileVertexOrder)
{
    const std::string file = models + "/glTF2/simple_skin/simple_skin.gltf";
    if (!fs::exists(file))
        GTEST_SKIP() << file << " is absent (Debian package assimp-testmodels)";
    const ImportedCharacter c = importCharacter(file);
    expectConsistent(c);
    ASSERT_TRUE(c.skeleton.has_value());
    // glTF indexes its vertices: they are kept as stored, duplicates and all.
    EXPECT_GE(c.info.fileVertices, c.mesh.vertexCount());
}

TEST(SourceMesh, TheGeneratedCharacterHasNoSourceAndListsItsWeldedParts)
{
    const LoadedCharacter c = loadCharacter("default");
    EXPECT_TRUE(c.imported.source.empty());
    const auto parts = characterParts(c.imported);
    ASSERT_EQ(static_cast<int>(parts.size()), std::max(c.imported.mesh.partCount(), 1));
    int vertices = 0;
    for (const CharacterPart& p : parts) {
        EXPECT_EQ(p.sourceMesh, -1);
        vertices += p.vertices;
    }
    EXPECT_EQ(vertices, c.imported.mesh.vertexCount());
}

} // namespace
} // namespace rig
