#include "core/voxel/distance_transform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace rig {
namespace {

TEST(DistanceTransform, MatchesBruteForceOnARandomGrid)
{
    VoxelGrid g;
    g.dims = Vec3i(9, 7, 8);
    g.voxelSize = 1.0;
    g.states.resize(static_cast<size_t>(g.voxelCount()));
    std::mt19937 rng(3);
    for (auto& s : g.states)
        s = (rng() % 10) < 8 ? 2 : 0;
    g.states[0] = 0;
    const std::vector<float> d = distanceToEmpty(g);
    for (std::int64_t i = 0; i < g.voxelCount(); ++i) {
        double best = 1e9;
        for (std::int64_t j = 0; j < g.voxelCount(); ++j)
            if (!g.solid(j))
                best = std::min(best, (g.coord(i) - g.coord(j)).cast<double>().norm());
        ASSERT_NEAR(d[static_cast<size_t>(i)], best, 1e-5) << "voxel " << i;
    }
}

TEST(DistanceTransform, SolidBallHasItsRadiusAtTheCentre)
{
    VoxelGrid g;
    g.dims = Vec3i(21, 21, 21);
    g.voxelSize = 0.1;
    g.states.assign(static_cast<size_t>(g.voxelCount()), 0);
    for (std::int64_t i = 0; i < g.voxelCount(); ++i)
        if ((g.coord(i) - Vec3i(10, 10, 10)).cast<double>().norm() <= 8.0)
            g.states[static_cast<size_t>(i)] = 2;
    const std::vector<float> d = distanceToEmpty(g);
    // The nearest empty voxel centre: (8, 1, 0) away, sqrt(65) > 8.
    EXPECT_NEAR(d[static_cast<size_t>(g.index(10, 10, 10))], std::sqrt(65.0), 1e-5);
    EXPECT_EQ(d[0], 0.0f);
}

} // namespace
} // namespace rig
