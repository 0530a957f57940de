#include "core/mesh/mesh_queries.h"
#include "tests/support/meshes.h"

#include <map>
#include <random>

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

// The bucketed count (issue 20) against the definition, on random triangles
// over few vertices (many shared, repeated and non-manifold edges, both
// orientations, degenerate and negative-index triangles).
TEST(MeshQueries, EdgeTopologyCountsMatchTheDefinitionOnRandomTriangles)
{
    std::mt19937 rng(20);
    for (int trial = 0; trial < 50; ++trial) {
        const int n = 3 + trial % 17;
        MatrixX3i F(40 + trial, 3);
        std::uniform_int_distribution<int> vertex(trial % 5 == 0 ? -1 : 0, n - 1);
        for (Eigen::Index f = 0; f < F.rows(); ++f)
            F.row(f) << vertex(rng), vertex(rng), vertex(rng);
        EdgeTopology expected;
        std::map<std::pair<int, int>, std::pair<int, int>> uses; // edge -> (half-edges, forward ones)
        for (Eigen::Index f = 0; f < F.rows(); ++f) {
            const int a = F(f, 0), b = F(f, 1), c = F(f, 2);
            if (a < 0 || b < 0 || c < 0 || a == b || b == c || a == c) {
                ++expected.degenerateTriangles;
                continue;
            }
            for (int k = 0; k < 3; ++k) {
                const int p = F(f, k), q = F(f, (k + 1) % 3);
                auto& u = uses[std::minmax(p, q)];
                ++u.first;
                u.second += p < q ? 1 : 0;
            }
        }
        for (const auto& [edge, u] : uses) {
            ++expected.edges;
            expected.boundaryEdges += u.first == 1;
            expected.nonManifoldEdges += u.first > 2;
            expected.inconsistentEdges += u.first == 2 && u.second != 1;
        }
        const EdgeTopology got = edgeTopology(F);
        EXPECT_EQ(got.edges, expected.edges) << "trial " << trial;
        EXPECT_EQ(got.boundaryEdges, expected.boundaryEdges) << "trial " << trial;
        EXPECT_EQ(got.nonManifoldEdges, expected.nonManifoldEdges) << "trial " << trial;
        EXPECT_EQ(got.inconsistentEdges, expected.inconsistentEdges) << "trial " << trial;
        EXPECT_EQ(got.degenerateTriangles, expected.degenerateTriangles) << "trial " << trial;
    }
}

TEST(MeshQueries, CapsuleAndTorusAreClosedAndCountComponents)
{
    const Mesh c = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1, 0), 0.2);
    EXPECT_TRUE(edgeTopology(c.F).closedManifold());
    const Mesh t = test::torusMesh(1.0, 0.3);
    EXPECT_TRUE(edgeTopology(t.F).closedManifold());
    EXPECT_EQ(connectedComponents(test::concat({c, t})), 2);
}

TEST(MeshQueries, VertexComponentsAreNumberedByTheirLowestVertex)
{
    // Vertices 0..6: triangle (4, 5, 6), an isolated vertex 3, triangles (0, 1, 2) and (2, 1, 0) again.
    MatrixX3i F(3, 3);
    F << 4, 5, 6, 0, 1, 2, 2, 1, 0;
    int count = -1;
    const std::vector<int> c = vertexComponents(7, F, count);
    EXPECT_EQ(count, 3);
    EXPECT_EQ(c, (std::vector<int>{0, 0, 0, 1, 2, 2, 2}));
    Mesh m;
    m.V = MatrixX3d::Zero(7, 3);
    m.F = F;
    EXPECT_EQ(connectedComponents(m), 2) << "isolated vertices are not counted there";
}

} // namespace
} // namespace rig
