#include "core/mesh/subdivide.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"
#include "core/mesh/volume.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

namespace rig {
namespace {

Mesh tetrahedron()
{
    Mesh m;
    m.V.resize(4, 3);
    m.V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
    m.F.resize(4, 3);
    m.F << 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3;
    m.part = {0, 0, 0, 0};
    m.partNames = {"tet"};
    return m;
}

// V + (k - 1) E + (k - 1)(k - 2)/2 F vertices, k² F triangles, still closed
// and manifold, the same enclosed volume and bounding box: only the sampling changes.
TEST(SubdivideLinear, CountsFollowTheLatticeAndTheSurfaceStaysTheSame)
{
    const Humanoid h = generateHumanoid({.cellSize = 0.05});
    for (const Mesh& m : {tetrahedron(), h.mesh}) {
        const MeshStats before = meshStats(m);
        std::set<std::pair<int, int>> edges;
        for (int f = 0; f < m.triangleCount(); ++f)
            for (int c = 0; c < 3; ++c)
                edges.insert(std::minmax(m.F(f, c), m.F(f, (c + 1) % 3)));
        const long V = m.vertexCount(), F = m.triangleCount(), E = long(edges.size());
        for (const int k : {1, 2, 3, 6}) {
            const Mesh s = subdivideLinear(m, k);
            EXPECT_EQ(s.vertexCount(), V + (k - 1) * E + (k - 1) * (k - 2) / 2 * F) << "k = " << k;
            EXPECT_EQ(s.triangleCount(), long(k) * k * F);
            EXPECT_EQ(s.part.size(), size_t(s.vertexCount()));
            const MeshStats after = meshStats(s);
            EXPECT_EQ(after.watertight, before.watertight);
            EXPECT_EQ(after.components, before.components);
            EXPECT_NEAR(signedVolume(s), signedVolume(m), 1e-9 * std::abs(signedVolume(m)) + 1e-12);
            EXPECT_TRUE(boundingBox(s).min.isApprox(boundingBox(m).min));
            EXPECT_TRUE(boundingBox(s).max.isApprox(boundingBox(m).max));
        }
    }
}

TEST(SubdivideLinear, RefusesAZeroOrNegativeFactor)
{
    EXPECT_THROW(subdivideLinear(tetrahedron(), 0), InvalidInput);
}

} // namespace
} // namespace rig
