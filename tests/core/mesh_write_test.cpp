#include "core/export/mesh_write.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/import/mesh_import.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <unistd.h>

#include <gtest/gtest.h>

namespace rig {
namespace {

// Written and read back through Assimp: the same vertices (to float
// precision), the same triangles, as binary PLY and as OBJ.
TEST(WriteMesh, PlyAndObjReadBackAsTheSameMesh)
{
    const Mesh m = generateHumanoid({.cellSize = 0.06}).mesh;
    const auto dir = std::filesystem::temp_directory_path() / ("rigsmith_mesh_write_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    for (const char* name : {"m.ply", "m.obj"}) {
        const std::string path = (dir / name).string();
        writeMesh(path, m);
        ImportOptions o;
        o.guessUpAxis = false;
        const ImportedCharacter c = importCharacter(path, o);
        ASSERT_EQ(c.mesh.vertexCount(), m.vertexCount()) << name;
        ASSERT_EQ(c.mesh.triangleCount(), m.triangleCount()) << name;
        // OBJ's reader numbers the vertices by first use: match each to its nearest original.
        std::vector<int> to(static_cast<size_t>(c.mesh.vertexCount()), -1);
        for (int v = 0; v < c.mesh.vertexCount(); ++v) {
            Eigen::Index nearest = 0;
            const double d = (m.V.rowwise() - c.mesh.V.row(v)).rowwise().squaredNorm().minCoeff(&nearest);
            EXPECT_LT(std::sqrt(d), 1e-6) << name << " vertex " << v;
            to[static_cast<size_t>(v)] = static_cast<int>(nearest);
        }
        std::set<std::array<int, 3>> expected, got;
        for (int t = 0; t < m.triangleCount(); ++t)
            expected.insert({m.F(t, 0), m.F(t, 1), m.F(t, 2)});
        for (int t = 0; t < c.mesh.triangleCount(); ++t)
            got.insert({to[static_cast<size_t>(c.mesh.F(t, 0))], to[static_cast<size_t>(c.mesh.F(t, 1))],
                        to[static_cast<size_t>(c.mesh.F(t, 2))]});
        EXPECT_EQ(got, expected) << name;
    }
    std::filesystem::remove_all(dir);
}

TEST(WriteMesh, AMissingFolderIsAnErrorNamingTheFile)
{
    try {
        writeMesh("/nonexistent/folder/m.ply", generateHumanoid({.cellSize = 0.1}).mesh);
        FAIL() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("m.ply"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace rig
