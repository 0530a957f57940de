// Hostile inputs of issues 21 and 47 that are not a reader's own concern: the
// weld of import on degenerate or far-away geometry, and what a reader returns
// that cannot be the file's character (collinear, mostly without area) (a signed overflow before, found
// only by UBSan; here the result is checked so a release build tests it too).
#include "core/import/mesh_import.h"

#include "core/common/error.h"
#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace rig {
namespace {

namespace fs = std::filesystem;

std::string writeTemp(const std::string& name, const std::string& text)
{
    const fs::path p = fs::temp_directory_path() / ("rigsmith_hostile_" + name);
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

/// A closed box of 8 corners and 12 triangles at `origin` with edge `size`.
std::string boxObj(double ox, double oy, double oz, double size)
{
    std::string s;
    char buf[128];
    for (int i = 0; i < 8; ++i) {
        std::snprintf(buf, sizeof buf, "v %.17g %.17g %.17g\n", ox + (i & 1) * size, oy + ((i >> 1) & 1) * size,
                      oz + ((i >> 2) & 1) * size);
        s += buf;
    }
    s += "f 1 3 4\nf 1 4 2\nf 5 6 8\nf 5 8 7\nf 1 2 6\nf 1 6 5\nf 3 7 8\nf 3 8 4\nf 1 5 7\nf 1 7 3\nf 2 4 8\nf 2 8 6\n";
    return s;
}

TEST(HostileInput, AFarAwayBoxWeldsToItsEightCorners)
{
    // 1e7 from the origin with a 16-unit edge (exact in Assimp's 32-bit floats):
    // the weld keys are large, and the hash multiplied them in signed arithmetic.
    for (const double far : {1e7, -1e7, 3e9}) {
        const std::string path = writeTemp("far.obj", boxObj(far, far, -far, 16.0 * far / 1e7));
        const ImportedCharacter c = importCharacter(path);
        EXPECT_EQ(c.mesh.vertexCount(), 8) << far;
        EXPECT_EQ(c.mesh.F.rows(), 12) << far;
        fs::remove(path);
    }
}

TEST(HostileInput, AZeroSizeMeshIsRefusedWithAMessage)
{
    // Every corner at one point: the weld tolerance bottoms out at 1e-12 and the
    // keys (1e7 / 1e-12 = 1e19) no longer fit a long long.
    for (const double at : {0.0, 1.0, 1e7, -1e7}) {
        const std::string path = writeTemp("point.obj", boxObj(at, at, at, 0.0));
        try {
            importCharacter(path);
            ADD_FAILURE() << "a zero-size mesh at " << at << " was accepted";
        } catch (const InvalidInput& e) {
            EXPECT_NE(std::string(e.what()).find("degenerate"), std::string::npos) << e.what();
        } catch (const IoError& e) {
            EXPECT_NE(std::string(e.what()).find("point.obj"), std::string::npos) << e.what();
        }
        fs::remove(path);
    }
}

std::string refusalOf(const std::string& path)
{
    return test::errorMessage<InvalidInput>([&] { importCharacter(path); });
}

TEST(HostileInput, ACollinearMeshIsRefusedNamingTheCause)
{
    // Every vertex on a slanted line: `rig` said only "the skeleton has 2 end
    // nodes", and the flat/line explanation looked at the axis-aligned box (issue 47).
    const std::string path = writeTemp("line.obj", "v 0 0 0\nv 1 1 1\nv 2 2 2\nv 3 3.0000001 3\nf 1 2 3\nf 2 3 4\n");
    EXPECT_EQ(refusalOf(path), "'" + path + "': every vertex lies on one straight line (the mesh is collinear: its "
                                            "triangles have no area), so there is no surface or inside to rig. "
                                            "Check the export (a scale of zero on two axes?)");
    fs::remove(path);
}

TEST(HostileInput, AMeshWhoseTrianglesMostlyHaveNoAreaIsRefused)
{
    // A reader that returns garbage without failing: a tetrahedron and twenty
    // triangles whose third corner lies on the first edge.
    std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n";
    for (int i = 1; i <= 20; ++i)
        obj += "v " + std::to_string(i / 22.0) + " 0 0\nf 1 2 " + std::to_string(4 + i) + "\n";
    const std::string path = writeTemp("slivers.obj", obj);
    EXPECT_EQ(refusalOf(path).rfind("'" + path + "': 20 of 24 triangles have no area (collinear or coincident "
                                                 "corners): the file is damaged or was not read right", 0), 0u)
        << refusalOf(path);
    // A few such triangles among good ones are kept (exports often carry some).
    std::string some = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.5 0 0\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\nf 1 2 5\n";
    const std::string kept = writeTemp("one_sliver.obj", some);
    EXPECT_EQ(importCharacter(kept).mesh.F.rows(), 5);
    fs::remove(path);
    fs::remove(kept);
}

} // namespace
} // namespace rig
