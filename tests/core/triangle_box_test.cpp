#include "core/voxel/triangle_box.h"

#include <gtest/gtest.h>

#include <random>

namespace rig {
namespace {

const Vec3 kCenter(0, 0, 0);
const Vec3 kHalf(0.5, 0.5, 0.5);

TEST(TriangleBox, FarTriangleDoesNotOverlap)
{
    EXPECT_FALSE(triangleBoxOverlap(kCenter, kHalf, Vec3(2, 2, 2), Vec3(3, 2, 2), Vec3(2, 3, 2)));
}

TEST(TriangleBox, TriangleThroughTheBoxOverlaps)
{
    EXPECT_TRUE(triangleBoxOverlap(kCenter, kHalf, Vec3(-5, -5, 0), Vec3(5, -5, 0), Vec3(0, 5, 0)));
}

TEST(TriangleBox, TriangleInsideTheBoxOverlaps)
{
    EXPECT_TRUE(triangleBoxOverlap(kCenter, kHalf, Vec3(-0.1, 0, 0), Vec3(0.1, 0, 0), Vec3(0, 0.1, 0.1)));
}

TEST(TriangleBox, TouchingCountsAsOverlap)
{
    EXPECT_TRUE(triangleBoxOverlap(kCenter, kHalf, Vec3(0.5, -1, -1), Vec3(0.5, 1, -1), Vec3(0.5, 0, 1)));
}

TEST(TriangleBox, PlaneMissingTheCornerIsSeparated)
{
    // Bounding boxes overlap, but the plane x + y + z = 1.6 passes beyond the corner (0.5, 0.5, 0.5).
    EXPECT_FALSE(triangleBoxOverlap(kCenter, kHalf, Vec3(1.6, 0, 0), Vec3(0, 1.6, 0), Vec3(0, 0, 1.6)));
    EXPECT_TRUE(triangleBoxOverlap(kCenter, kHalf, Vec3(1.4, 0, 0), Vec3(0, 1.4, 0), Vec3(0, 0, 1.4)));
}

TEST(TriangleBox, EdgeAxisSeparatesATriangleBeyondAnEdge)
{
    // In the plane y = 0 (which cuts the box), bounding boxes overlapping, but the
    // triangle lies where x + z >= 1.2 > 1: only the edge axis (1, 0, 1) separates.
    EXPECT_FALSE(triangleBoxOverlap(kCenter, kHalf, Vec3(1.2, 0, 0), Vec3(0, 0, 1.2), Vec3(1.2, 0, 1.2)));
    EXPECT_TRUE(triangleBoxOverlap(kCenter, kHalf, Vec3(0.9, 0, 0), Vec3(0, 0, 0.9), Vec3(1.2, 0, 1.2)));
}

TEST(TriangleBox, DegenerateSegmentTriangle)
{
    EXPECT_TRUE(triangleBoxOverlap(kCenter, kHalf, Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(1, 0, 0)));
    EXPECT_FALSE(triangleBoxOverlap(kCenter, kHalf, Vec3(-1, 0.6, 0), Vec3(1, 0.6, 0), Vec3(1, 0.6, 0)));
}

TEST(TriangleBox, AgreesWithDenseSamplingOnRandomTriangles)
{
    // Sampling can only find overlaps that exist: every sampled hit must be
    // reported, and every reported overlap must be near a sampled point.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.2, 1.2);
    int hits = 0;
    for (int t = 0; t < 300; ++t) {
        const Vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng));
        bool sampledInside = false;
        double nearest = 1e9;
        const int n = 60;
        for (int i = 0; i <= n; ++i)
            for (int j = 0; i + j <= n; ++j) {
                const Vec3 p = a + (b - a) * i / n + (c - a) * j / n;
                const Vec3 outside = (p.cwiseAbs() - kHalf).cwiseMax(0.0);
                nearest = std::min(nearest, outside.norm());
                sampledInside = sampledInside || outside.norm() == 0.0;
            }
        const bool overlap = triangleBoxOverlap(kCenter, kHalf, a, b, c);
        if (sampledInside) {
            EXPECT_TRUE(overlap) << "triangle " << t;
        }
        if (overlap) {
            EXPECT_LT(nearest, 0.06) << "triangle " << t;
        }
        hits += overlap;
    }
    EXPECT_GT(hits, 30);
}

/// The per-triangle form used by voxelization answers as the per-box test
/// does, for the voxels of random triangles' bounding boxes, on a grid whose
/// voxel faces meet the triangles' vertices exactly half the time (the ties
/// the voxelizer's margin is for).
TEST(TriangleBox, PerTriangleFormAgreesWithThePerBoxTest)
{
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-3.0, 3.0);
    std::uniform_int_distribution<int> grid(-6, 6);
    const double h = 0.5;
    const Vec3 half = Vec3::Constant(0.5 * h + 1e-6 * h);
    int tested = 0, overlapping = 0;
    for (int t = 0; t < 400; ++t) {
        Vec3 v[3];
        for (Vec3& p : v)
            p = t % 2 ? Vec3(u(rng), u(rng), u(rng)) : Vec3(grid(rng), grid(rng), grid(rng)) * (0.5 * h);
        const TriangleBoxTest test(v[0], v[1], v[2], half);
        const Vec3 lo = v[0].cwiseMin(v[1]).cwiseMin(v[2]), hi = v[0].cwiseMax(v[1]).cwiseMax(v[2]);
        for (double z = std::floor(lo.z() / h) * h; z <= hi.z() + h; z += h)
            for (double y = std::floor(lo.y() / h) * h; y <= hi.y() + h; y += h)
                for (double x = std::floor(lo.x() / h) * h; x <= hi.x() + h; x += h) {
                    const Vec3 centre(x + 0.5 * h, y + 0.5 * h, z + 0.5 * h);
                    const bool expected = triangleBoxOverlap(centre, half, v[0], v[1], v[2]);
                    ASSERT_EQ(test.overlaps(centre), expected) << "triangle " << t << " box at " << centre.transpose();
                    ++tested;
                    overlapping += expected;
                }
    }
    EXPECT_GT(tested, 10000);
    EXPECT_GT(overlapping, 2000);
}

} // namespace
} // namespace rig
