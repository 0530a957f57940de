#include "core/voxel/distance_transform.h"

#include "core/common/error.h"

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

/// The distances at a few voxels only (the skeleton's) equal the whole
/// transform's there, bit for bit, and are 0 elsewhere; grids that differ in
/// size are refused.
TEST(DistanceTransform, AtQueriedVoxelsEqualsTheWholeTransform)
{
    VoxelGrid g;
    g.dims = Vec3i(23, 17, 19);
    g.voxelSize = 1.0;
    g.states.assign(static_cast<size_t>(g.voxelCount()), 0);
    std::mt19937 rng(7);
    for (std::int64_t i = 0; i < g.voxelCount(); ++i) {
        const Vec3i c = g.coord(i);
        const bool inner = (c.array() > 0).all() && (c.array() < g.dims.array() - 1).all();
        g.states[static_cast<size_t>(i)] = inner && (rng() % 20) != 0 ? 2 : 0; // a solid with pores
    }
    VoxelGrid at = g;
    for (auto& s : at.states)
        s = s && (rng() % 3) == 0 ? 1 : 0;
    const std::vector<float> whole = distanceToEmpty(g), some = distanceToEmpty(g, at);
    ASSERT_EQ(some.size(), whole.size());
    int queried = 0;
    for (size_t i = 0; i < whole.size(); ++i) {
        if (at.states[i]) {
            ++queried;
            ASSERT_EQ(some[i], whole[i]) << "voxel " << i;
        } else {
            ASSERT_EQ(some[i], 0.0f) << "voxel " << i;
        }
    }
    EXPECT_GT(queried, 500);
    VoxelGrid other = g;
    other.dims = Vec3i(23, 17, 18);
    EXPECT_THROW(distanceToEmpty(g, other), InvalidInput);
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
