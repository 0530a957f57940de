#include "core/mesh/mesh_queries.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

namespace rig {
namespace {

TEST(MeshQueries, EmptyMeshHasEmptyBoxAndIsNotWatertight)
{
    const Mesh m;
    EXPECT_TRUE(boundingBox(m).empty());
    const MeshStats s = meshStats(m);
    EXPECT_EQ(s.triangles, 0);
    EXPECT_FALSE(s.watertight);
}

TEST(MeshQueries, BoxIsClosedManifold)
{
    const Mesh m = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 2, 3));
    const EdgeTopology t = edgeTopology(m.F);
    EXPECT_EQ(t.edges, 18);
    EXPECT_TRUE(t.closedManifold());
    EXPECT_NEAR(boundingBox(m).size().y(), 2.0, 1e-12);
    // Normals point outwards: the +X face's corner normal has a positive x.
    EXPECT_GT(m.N(7, 0), 0.0);
}

TEST(MeshQueries, RemovingATriangleOpensTheMesh)
{
    Mesh m = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    m.F.conservativeResize(11, 3);
    const EdgeTopology t = edgeTopology(m.F);
    EXPECT_EQ(t.boundaryEdges, 3);
    EXPECT_FALSE(t.watertight());
}

TEST(MeshQueries, FlippedTriangleIsInconsistent)
{
    Mesh m = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    std::swap(m.F(0, 1), m.F(0, 2));
    EXPECT_TRUE(edgeTopology(m.F).watertight());
    EXPECT_FALSE(edgeTopology(m.F).closedManifold());
}

TEST(MeshQueries, FinIsNonManifold)
{
    Mesh m = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    m.V.conservativeResize(9, 3);
    m.V.row(8) << 0.5, 2.0, 0.5;
    m.F.conservativeResize(13, 3);
    m.F.row(12) << 2, 3, 8; // shares edge 2-3 with two box triangles
    EXPECT_EQ(edgeTopology(m.F).nonManifoldEdges, 1);
}

TEST(MeshQueries, CapsuleAndTorusAreClosedAndCountComponents)
{
    const Mesh c = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1, 0), 0.2);
    EXPECT_TRUE(edgeTopology(c.F).closedManifold());
    const Mesh t = test::torusMesh(1.0, 0.3);
    EXPECT_TRUE(edgeTopology(t.F).closedManifold());
    EXPECT_EQ(connectedComponents(test::concat({c, t})), 2);
}

} // namespace
} // namespace rig
