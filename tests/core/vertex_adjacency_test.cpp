#include "core/mesh/vertex_adjacency.h"

#include "core/character/humanoid.h"

#include <random>
#include <set>

#include <gtest/gtest.h>

namespace rig {
namespace {

TEST(VertexAdjacency, NeighboursAreSortedUniqueAndSkipDegenerateEdges)
{
    // Two triangles sharing the edge 1-2, a degenerate one, and an isolated vertex 4.
    MatrixX3i F(3, 3);
    F << 0, 1, 2, 2, 1, 3, 3, 3, 1;
    const VertexAdjacency a = vertexAdjacency(5, F);
    ASSERT_EQ(a.start.size(), 6u);
    auto row = [&](int v) { return std::vector<int>(a.nbr.begin() + a.start[v], a.nbr.begin() + a.start[v + 1]); };
    EXPECT_EQ(row(0), (std::vector<int>{1, 2}));
    EXPECT_EQ(row(1), (std::vector<int>{0, 2, 3}));
    EXPECT_EQ(row(3), (std::vector<int>{1, 2}));
    EXPECT_EQ(a.degree(4), 0);
}

// The counting build (issue 20, item 3) against the definition: on the
// generated character and on random triangles with repeated vertices, every
// row is the sorted set of the vertices sharing a non-degenerate edge.
TEST(VertexAdjacency, RowsAreTheSetsOfEdgeNeighboursOnRealAndRandomMeshes)
{
    auto check = [](int n, const MatrixX3i& F) {
        std::vector<std::set<int>> want(static_cast<size_t>(n));
        for (Eigen::Index f = 0; f < F.rows(); ++f)
            for (int k = 0; k < 3; ++k) {
                const int a = F(f, k), b = F(f, (k + 1) % 3);
                if (a != b) {
                    want[static_cast<size_t>(a)].insert(b);
                    want[static_cast<size_t>(b)].insert(a);
                }
            }
        const VertexAdjacency adj = vertexAdjacency(n, F);
        ASSERT_EQ(adj.start.size(), static_cast<size_t>(n) + 1);
        for (int v = 0; v < n; ++v)
            ASSERT_EQ(std::vector<int>(adj.nbr.begin() + adj.start[static_cast<size_t>(v)],
                                       adj.nbr.begin() + adj.start[static_cast<size_t>(v) + 1]),
                      std::vector<int>(want[static_cast<size_t>(v)].begin(), want[static_cast<size_t>(v)].end()))
                << "vertex " << v;
    };
    const Humanoid h = generateHumanoid({.cellSize = 0.03});
    check(h.mesh.vertexCount(), h.mesh.F);
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> vertex(0, 49);
    MatrixX3i F(400, 3);
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        F.row(f) << vertex(rng), vertex(rng), vertex(rng);
    check(60, F); // ten isolated vertices, repeated and degenerate triangles
}

} // namespace
} // namespace rig
