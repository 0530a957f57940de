#include "ui/viewport/draw_data.h"

#include "core/character/humanoid.h"

#include <gtest/gtest.h>

namespace rig::ui {
namespace {

TEST(DrawData, MeshDrawDataKeepsEveryTriangleAndFindsClosedMeshes)
{
    const Humanoid h = generateHumanoid();
    const MeshDrawData d = makeMeshDrawData(h.mesh);
    EXPECT_EQ(d.indices.size(), size_t(h.mesh.triangleCount()) * 3);
    EXPECT_EQ(d.vertices.size(), size_t(h.mesh.vertexCount()));
    EXPECT_TRUE(d.closedOutward);
    Mesh open = h.mesh;
    open.F.conservativeResize(open.F.rows() - 1, 3);
    EXPECT_FALSE(makeMeshDrawData(open).closedOutward); // a hole: drawn two-sided
}

TEST(DrawData, InteractiveStandInIsSmallAndCoversTheSameShape)
{
    HumanoidOptions o;
    o.cellSize = 0.008; // about 200k triangles
    const MeshDrawData dense = makeMeshDrawData(generateHumanoid(o).mesh);
    ASSERT_GT(dense.indices.size() / 3, 150000u);
    const MeshDrawData coarse = simplifyForInteraction(dense, 60000);
    const size_t tris = coarse.indices.size() / 3;
    EXPECT_LE(tris, 69000u);
    EXPECT_GE(tris, 20000u);
    for (size_t i = 0; i < tris; ++i) {
        const unsigned a = coarse.indices[3 * i], b = coarse.indices[3 * i + 1], c = coarse.indices[3 * i + 2];
        ASSERT_TRUE(a != b && b != c && a != c);
        ASSERT_LT(std::max({a, b, c}), coarse.vertices.size());
    }
    // Every stand-in vertex lies within the dense mesh's bounds (means of its vertices).
    for (const MeshVertex& v : coarse.vertices) {
        EXPECT_TRUE(glm::all(glm::greaterThanEqual(v.position, dense.boundsMin - 1e-5f)));
        EXPECT_TRUE(glm::all(glm::lessThanEqual(v.position, dense.boundsMax + 1e-5f)));
    }
    // A small mesh is returned as it is.
    EXPECT_EQ(simplifyForInteraction(coarse, 1000000).indices, coarse.indices);
}

// Issue 19 item 6: HUMAN.blend's two file meshes are the halves of one
// surface; tinting them apart drew the body in two tones down its middle.
// Parts joined by a triangle share a tint; a separate piece keeps its own.
TEST(DrawData, PartsOfOneSurfaceShareATintAndSeparatePiecesDiffer)
{
    Mesh m;
    m.V.resize(7, 3);
    m.V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 5, 0, 0, 6, 0, 0, 5, 1, 0;
    m.F.resize(3, 3);
    m.F << 0, 1, 2, 1, 3, 2, 4, 5, 6; // vertices 0-1 (part 0) and 2-3 (part 1) share triangles; 4-6 apart
    m.part = {0, 0, 1, 1, 2, 2, 2};
    m.partNames = {"left half", "right half", "eye"};
    EXPECT_EQ(partGroups(m), (std::vector<int>{0, 0, 1}));
    const MeshDrawData d = makeMeshDrawData(m);
    EXPECT_EQ(d.vertices[0].color, d.vertices[3].color); // one surface, one tone
    EXPECT_NE(d.vertices[0].color, d.vertices[4].color); // the separate piece reads apart
}

} // namespace
} // namespace rig::ui
