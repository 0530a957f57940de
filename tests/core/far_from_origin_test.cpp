// Far-from-origin import (issue 21, item 5; issue 47): a model whose
// coordinates lose precision far from the origin is read with a warning
// naming the cause and moved to the origin, or refused where its shape did not
// survive; one that lies far away only through its node transform
// keeps every vertex and is moved without a precision warning.
#include "core/import/mesh_import.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/import/guarded_import.h"
#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace fs = std::filesystem;

namespace rig {
namespace {

class FarFromOrigin : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path() /
                ("rigsmith_far_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string write(const std::string& name, const std::string& text) const
    {
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }

    /// The generated humanoid (1.75 units tall) as an OBJ, moved by `offset`,
    /// every coordinate written in full (17 digits).
    static std::string humanoidObj(const Vec3& offset, bool zUp = false)
    {
        const Mesh& m = humanoid().mesh;
        std::string out;
        char line[128];
        for (Eigen::Index v = 0; v < m.V.rows(); ++v) {
            Vec3 p = m.V.row(v).transpose();
            if (zUp) // standing along +Z, facing -Y: the file as a Z-up tool writes it
                p = Vec3(p.x(), -p.z(), p.y());
            p += offset;
            std::snprintf(line, sizeof line, "v %.17g %.17g %.17g\n", p.x(), p.y(), p.z());
            out += line;
        }
        for (Eigen::Index f = 0; f < m.F.rows(); ++f) {
            std::snprintf(line, sizeof line, "f %d %d %d\n", m.F(f, 0) + 1, m.F(f, 1) + 1, m.F(f, 2) + 1);
            out += line;
        }
        return out;
    }

    static const Humanoid& humanoid()
    {
        static const Humanoid h = generateHumanoid();
        return h;
    }

    static std::string allWarnings(const ImportInfo& info)
    {
        std::string all;
        for (const std::string& w : info.warnings)
            all += w + "\n";
        return all;
    }

    fs::path m_dir;
};

Box3 boxOf(const Mesh& m)
{
    Box3 b;
    for (Eigen::Index v = 0; v < m.V.rows(); ++v)
        b.extend(m.V.row(v).transpose());
    return b;
}

TEST_F(FarFromOrigin, NearTheOriginNothingIsSaidOrMoved)
{
    const ImportedCharacter c = importCharacter(write("near.obj", humanoidObj(Vec3::Zero())));
    EXPECT_TRUE(c.info.warnings.empty()) << allWarnings(c.info);
    EXPECT_EQ(c.info.recentred, Vec3::Zero());
    EXPECT_EQ(c.info.collapsedTriangles, 0);
    EXPECT_EQ(c.mesh.vertexCount(), humanoid().mesh.vertexCount());
}

std::string refusal(const std::string& path)
{
    return test::errorMessage<InvalidInput>([&] { importCharacter(path); });
}

TEST_F(FarFromOrigin, TenMillionUnitsAwayTheCharacterIsRefusedNamingTheLostPrecision)
{
    // Snapped to whole units, the 1.75-unit figure loses 44,413 of its 44,508
    // triangles: `rig` blamed the up axis and `rig --force` rigged the slab
    // with exit 0 (issue 47). Assimp holds coordinates as 32-bit floats: the
    // digits are gone before Rigsmith sees them, so the file is refused.
    const std::string path = write("far.obj", humanoidObj(Vec3(1e7, 0.0, -1e7)));
    const std::string m = refusal(path);
    EXPECT_EQ(m.rfind("'" + path + "': mesh 'defaultobject' is stored 1e+07 units from the origin, where the file's "
                                   "32-bit coordinates step by 1 units, on a mesh ", 0), 0u) << m;
    EXPECT_NE(m.find("its shape did not survive ("), std::string::npos) << m;
    EXPECT_NE(m.find("triangles lost their area"), std::string::npos) << m;
    EXPECT_NE(m.find("Move the model near the origin"), std::string::npos) << m;
}

TEST_F(FarFromOrigin, FarOnAllThreeAxesTheCharacterIsRefused)
{
    // Snapped on every axis, edges become 0 or whole units: every triangle
    // collapses, and the refusal still names the step and what to do.
    const std::string m = refusal(write("far_xyz.obj", humanoidObj(Vec3(1e7, 1e7, 1e7))));
    EXPECT_NE(m.find("32-bit coordinates step by 1 units"), std::string::npos) << m;
    EXPECT_NE(m.find("Move the model near the origin"), std::string::npos) << m;
}

TEST_F(FarFromOrigin, FlattenedAlongOneAxisOnlyTheCharacterIsStillRefused)
{
    // Far along x alone: y and z keep their digits, x snaps to two or three
    // values. Few triangles lose their area, but the figure is a slab.
    const std::string m = refusal(write("far_x.obj", humanoidObj(Vec3(1e7, 0.0, 0.0))));
    EXPECT_NE(m.find("step by 1 units"), std::string::npos) << m;
    EXPECT_NE(m.find("its shape did not survive"), std::string::npos) << m;
}

TEST_F(FarFromOrigin, TenThousandUnitsAwayTheCoarserStepIsNamedAndTheModelRecentred)
{
    // At 1e4 the floats step by 1/1024 unit: coarse against a 2.26-unit figure
    // (4.3e-4 of it, over the 1e-4 warning threshold), but fine against its
    // 2 cm edges: the shape is kept (a few slivers lose their area).
    const std::string path = write("far.obj", humanoidObj(Vec3(1e4, 0.0, -1e4)));
    const ImportedCharacter c = importCharacter(path);
    const std::string warnings = allWarnings(c.info);
    ASSERT_EQ(c.info.warnings.size(), 2u) << warnings;
    // The move, then the precision: where the file stores the mesh, the float step.
    EXPECT_NE(warnings.find("moved to the origin"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find("32-bit coordinates step by 0.000977 units"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find("far.obj"), std::string::npos) << warnings;
    EXPECT_LT(c.info.collapsedTriangles, humanoid().mesh.F.rows() / 20);
    // Recentred: ground centre at the origin, the move recorded.
    EXPECT_NEAR(c.info.recentred.x(), -1e4, 2.0);
    EXPECT_NEAR(c.info.recentred.z(), 1e4, 2.0);
    const Box3 box = boxOf(c.mesh);
    EXPECT_LT(box.center().cwiseAbs().maxCoeff(), 2.0 * box.diagonal());
    EXPECT_DOUBLE_EQ(box.min.y(), 0.0);
}

TEST_F(FarFromOrigin, AZUpModelIsRecentredInTheUprightFrame)
{
    // 1,250 units away: far enough to be moved (over 100 times its size),
    // near enough for the floats to keep the shape (step 6e-5 against 2 units).
    // It is moved after it is turned +Y up, to stand on the origin.
    const ImportedCharacter c = importCharacter(write("far_z.obj", humanoidObj(Vec3(1e3, 7e2, 3e2), true)));
    EXPECT_EQ(c.info.upAxis, "+Z");
    const std::string warnings = allWarnings(c.info);
    ASSERT_EQ(c.info.warnings.size(), 1u) << warnings;
    EXPECT_NE(warnings.find("moved to the origin"), std::string::npos) << warnings;
    const Box3 box = boxOf(c.mesh);
    EXPECT_NEAR(box.min.y(), 0.0, 1e-9);
    EXPECT_NEAR(box.center().x(), 0.0, 1e-9);
    EXPECT_NEAR(box.center().z(), 0.0, 1e-9);
    EXPECT_NEAR(box.size().y(), humanoid().height, 0.05);
}

TEST_F(FarFromOrigin, TheWarningsAndTheRefusalCrossTheImporterProcess)
{
    if (findImporter(GuardedImportOptions{}).empty())
        GTEST_SKIP() << "rigsmith-import is not built";
    const std::string path = write("far.obj", humanoidObj(Vec3(1e4, 0.0, 0.0)));
    const ImportedCharacter direct = importCharacter(path);
    const ImportedCharacter child = importCharacterGuarded(path);
    EXPECT_FALSE(child.info.warnings.empty());
    EXPECT_EQ(child.info.warnings, direct.info.warnings);
    EXPECT_EQ(child.info.recentred, direct.info.recentred);
    EXPECT_EQ(child.info.collapsedTriangles, direct.info.collapsedTriangles);
    EXPECT_EQ(child.mesh.V, direct.mesh.V);
    const std::string lost = write("lost.obj", humanoidObj(Vec3(1e7, 0.0, 0.0)));
    try {
        importCharacterGuarded(lost);
        ADD_FAILURE() << "accepted";
    } catch (const InvalidInput& e) {
        EXPECT_EQ(e.what(), refusal(lost));
    }
}

TEST_F(FarFromOrigin, FarOnlyByItsNodeTransformEveryVertexIsKeptAndTheModelMoved)
{
    // A COLLADA scene: a unit tetrahedron-fan stored near the origin, placed
    // 1e7 units away by its node. The file's floats are exact; only the
    // placement is far, so nothing collapses and no precision is lost.
    const std::string dae = R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
  <library_geometries>
    <geometry id="g" name="g"><mesh>
      <source id="p"><float_array id="pa" count="15">0 0 0  0.5 0 0  0 1.5 0  0 0 0.25  0.5 1.5 0.25</float_array>
        <technique_common><accessor source="#pa" count="5" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common></source>
      <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
      <triangles count="4"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2  0 3 1  0 2 3  1 4 2</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="s"><node id="n" name="n"><translate>10000000 0 0</translate>
      <instance_geometry url="#g"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";
    const ImportedCharacter c = importCharacter(write("placed.dae", dae));
    const std::string warnings = allWarnings(c.info);
    ASSERT_EQ(c.info.warnings.size(), 1u) << warnings;
    EXPECT_NE(warnings.find("moved to the origin"), std::string::npos) << warnings;
    EXPECT_EQ(warnings.find("32-bit"), std::string::npos) << warnings;
    EXPECT_EQ(c.info.collapsedTriangles, 0);
    EXPECT_EQ(c.mesh.vertexCount(), 5);
    EXPECT_EQ(c.mesh.F.rows(), 4);
    EXPECT_NEAR(c.info.recentred.x(), -1e7 - 0.25, 1e-6);
    // The shape is intact: the extents as stored.
    const Box3 box = boxOf(c.mesh);
    EXPECT_NEAR(box.size().x(), 0.5, 1e-6);
    EXPECT_NEAR(box.size().y(), 1.5, 1e-6);
    EXPECT_NEAR(box.size().z(), 0.25, 1e-6);
    // The source meshes moved with the welded mesh.
    ASSERT_EQ(c.source.meshes.size(), 1u);
    EXPECT_LT(c.source.meshes[0].V.cwiseAbs().maxCoeff(), 2.0);
}

} // namespace
} // namespace rig
