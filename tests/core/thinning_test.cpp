#include "core/voxel/thinning.h"

#include "core/common/error.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <bit>

namespace rig {
namespace {

constexpr int bit(int dx, int dy, int dz)
{
    const int k = (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
    return k < 13 ? k : k - 1;
}
constexpr Neighbourhood of(std::initializer_list<std::array<int, 3>> cells)
{
    Neighbourhood n = 0;
    for (const auto& c : cells)
        n |= 1u << bit(c[0], c[1], c[2]);
    return n;
}

// Number of 26-connected components of the solid voxels of g.
int components26(const VoxelGrid& g)
{
    std::vector<std::uint8_t> seen(g.states.size(), 0);
    const auto nb = g.neighbourIndexOffsets();
    int count = 0;
    std::vector<std::int64_t> stack;
    for (std::int64_t i = 0; i < g.voxelCount(); ++i) {
        if (!g.solid(i) || seen[static_cast<size_t>(i)])
            continue;
        ++count;
        seen[static_cast<size_t>(i)] = 1;
        stack.push_back(i);
        while (!stack.empty()) {
            const std::int64_t v = stack.back();
            stack.pop_back();
            for (std::int64_t d : nb)
                if (g.solid(v + d) && !seen[static_cast<size_t>(v + d)]) {
                    seen[static_cast<size_t>(v + d)] = 1;
                    stack.push_back(v + d);
                }
        }
    }
    return count;
}

VoxelGrid solidOf(const Mesh& m, int n)
{
    return fillInterior(voxelizeSurface(m, {.resolution = n}), m).grid;
}

// The properties every thinning result must have (issue item 6).
void expectCurveSkeletonOf(const VoxelGrid& solid, const ThinningResult& t)
{
    const VoxelGrid& s = t.skeleton;
    ASSERT_EQ(s.dims, solid.dims);
    EXPECT_EQ(t.skeletonVoxels, s.solidCount());
    EXPECT_EQ(t.skeletonVoxels + t.deletedVoxels, solid.solidCount());
    EXPECT_EQ(components26(s), components26(solid)) << "as connected as the solid";
    int flow = 0;
    for (std::int64_t i = 0; i < s.voxelCount(); ++i) {
        if (!s.solid(i))
            continue;
        ASSERT_TRUE(solid.solid(i)) << "the skeleton is a subset of the solid";
        const Neighbourhood n = neighbourhoodOf(s, i);
        ASSERT_TRUE(isEndPoint(n) || !isSimplePoint(n)) << "no deletable voxel is left";
        flow += std::popcount(n) == 2;
        // One voxel thin: no 2x2x2 block of skeleton voxels.
        const Vec3i c = s.coord(i);
        bool block = true;
        for (int k = 0; k < 8 && block; ++k)
            block = s.solid(s.index(c + Vec3i(k & 1, (k >> 1) & 1, (k >> 2) & 1)));
        ASSERT_FALSE(block) << "2x2x2 block at " << c.transpose();
    }
    // One voxel thin: almost every voxel has exactly two neighbours.
    EXPECT_GT(flow, 0.8 * static_cast<double>(t.skeletonVoxels));
}

TEST(Thinning, RejectsAnEmptyGrid)
{
    try {
        thin(VoxelGrid{});
        FAIL();
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("rig::thin()"), std::string::npos);
    }
}

TEST(Thinning, RejectsASolidVoxelOnTheBorder)
{
    VoxelGrid g;
    g.dims = Vec3i(4, 4, 4);
    g.voxelSize = 1;
    g.states.assign(64, 0);
    g.states[static_cast<size_t>(g.index(0, 2, 2))] = 1;
    EXPECT_THROW(thin(g), InvalidInput);
}

/// The neighbourhood read row by row equals one bit per neighbour in
/// offsets26 order (dx fastest, the centre skipped), for Surface and Interior
/// states alike, on a random grid and next to its last voxel.
TEST(Neighbourhood, EqualsOneBitPerSolidNeighbour)
{
    VoxelGrid g;
    g.dims = Vec3i(7, 6, 5);
    g.voxelSize = 1.0;
    g.states.resize(static_cast<size_t>(g.voxelCount()));
    std::uint32_t seed = 12345;
    for (auto& st : g.states) {
        seed = seed * 1664525u + 1013904223u;
        st = static_cast<std::uint8_t>((seed >> 24) % 3); // Empty, Surface, Interior
    }
    int checked = 0;
    for (int z = 1; z + 1 < g.dims.z(); ++z)
        for (int y = 1; y + 1 < g.dims.y(); ++y)
            for (int x = 1; x + 1 < g.dims.x(); ++x) {
                Neighbourhood expected = 0;
                for (int dz = -1; dz <= 1; ++dz)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx)
                            if ((dx || dy || dz) && g.solid(g.index(x + dx, y + dy, z + dz)))
                                expected |= 1u << bit(dx, dy, dz);
                ASSERT_EQ(neighbourhoodOf(g, g.index(x, y, z)), expected) << x << " " << y << " " << z;
                ++checked;
            }
    EXPECT_EQ(checked, 5 * 4 * 3);
}

TEST(SimplePoint, IsolatedAndInteriorVoxelsAreNotSimple)
{
    EXPECT_FALSE(isSimplePoint(0));
    EXPECT_FALSE(isSimplePoint((1u << 26) - 1)); // deleting it would open a cavity
}

TEST(SimplePoint, TipOfACurveIsSimpleAndAnEndPoint)
{
    const Neighbourhood n = of({{1, 0, 0}});
    EXPECT_TRUE(isSimplePoint(n));
    EXPECT_TRUE(isEndPoint(n));
    EXPECT_TRUE(isEndPoint(of({{1, 1, 1}})));
    EXPECT_FALSE(isEndPoint(of({{1, 0, 0}, {-1, 0, 0}})));
}

TEST(SimplePoint, MiddleOfACurveIsNotSimple)
{
    EXPECT_FALSE(isSimplePoint(of({{-1, 0, 0}, {1, 0, 0}})));
    EXPECT_FALSE(isSimplePoint(of({{-1, -1, 0}, {1, 1, 1}})));
}

TEST(SimplePoint, CornerOfAStaircaseIsSimple)
{
    // (-1,0,0) and (0,1,0) stay 26-adjacent without the centre.
    EXPECT_TRUE(isSimplePoint(of({{-1, 0, 0}, {0, 1, 0}})));
}

TEST(SimplePoint, VoxelOfAFlatSheetIsNotSimpleButOfAHalfSpaceIs)
{
    Neighbourhood sheet = 0, half = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            if (dx || dy)
                sheet |= of({{dx, dy, 0}});
            for (int dz = -1; dz <= 0; ++dz)
                if (dx || dy || dz)
                    half |= of({{dx, dy, dz}});
        }
    EXPECT_FALSE(isSimplePoint(sheet)); // two background components: above and below
    EXPECT_TRUE(isSimplePoint(half));
}

TEST(Thinning, SingleVoxelAndShortBarSurvive)
{
    VoxelGrid g;
    g.dims = Vec3i(7, 5, 5);
    g.voxelSize = 1;
    g.states.assign(static_cast<size_t>(g.voxelCount()), 0);
    g.states[static_cast<size_t>(g.index(3, 2, 2))] = 2;
    EXPECT_EQ(thin(g).skeletonVoxels, 1);
    for (int x = 1; x <= 5; ++x)
        g.states[static_cast<size_t>(g.index(x, 2, 2))] = 2;
    EXPECT_EQ(thin(g).skeletonVoxels, 5); // already a curve: only simple non-end voxels could go
}

TEST(Thinning, CapsuleBecomesAThinCurve)
{
    const VoxelGrid solid = solidOf(test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1.5, 0), 0.25), 48);
    const ThinningResult t = thin(solid);
    expectCurveSkeletonOf(solid, t);
    EXPECT_GT(t.skeletonVoxels, 20);
    EXPECT_LT(t.skeletonVoxels, 60);
}

TEST(Thinning, TorusKeepsItsTunnel)
{
    const VoxelGrid solid = solidOf(test::torusMesh(1.0, 0.3), 56);
    const ThinningResult t = thin(solid);
    expectCurveSkeletonOf(solid, t);
    // A closed curve: no end point at all.
    for (std::int64_t i = 0; i < t.skeleton.voxelCount(); ++i)
        if (t.skeleton.solid(i)) {
            EXPECT_FALSE(isEndPoint(neighbourhoodOf(t.skeleton, i)));
        }
}

TEST(Thinning, SeparatePartsStaySeparate)
{
    const Mesh m = test::concat({test::capsuleMesh(Vec3(-1, 0, 0), Vec3(-1, 1, 0), 0.2),
                                 test::torusMesh(0.5, 0.15), test::boxMesh(Vec3(1, 0, 0), Vec3(1.4, 0.6, 0.3))});
    const VoxelGrid solid = solidOf(m, 64);
    ASSERT_EQ(components26(solid), 3);
    expectCurveSkeletonOf(solid, thin(solid));
}

TEST(Thinning, IterationCapStopsEarly)
{
    const VoxelGrid solid = solidOf(test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1)), 32);
    const ThinningResult t = thin(solid, {.maxIterations = 1});
    EXPECT_EQ(t.iterations, 1);
    EXPECT_GT(t.skeletonVoxels, thin(solid).skeletonVoxels);
}

} // namespace
} // namespace rig
