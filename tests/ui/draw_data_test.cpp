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

} // namespace
} // namespace rig::ui
