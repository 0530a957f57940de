#include "core/mesh/vertex_adjacency.h"

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

} // namespace
} // namespace rig
