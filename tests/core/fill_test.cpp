#include "core/voxel/fill.h"

#include "core/common/error.h"
#include "core/voxel/voxelize.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rig {
namespace {

// Removes the triangles whose centroid lies within `radius` of `p`.
Mesh punchHole(const Mesh& m, const Vec3& p, double radius)
{
    Mesh out = m;
    std::vector<int> keep;
    for (int f = 0; f < m.triangleCount(); ++f) {
        const Vec3 c = (m.V.row(m.F(f, 0)) + m.V.row(m.F(f, 1)) + m.V.row(m.F(f, 2))).transpose() / 3.0;
        if ((c - p).norm() > radius)
            keep.push_back(f);
    }
    out.F.resize(static_cast<Eigen::Index>(keep.size()), 3);
    for (size_t i = 0; i < keep.size(); ++i)
        out.F.row(static_cast<Eigen::Index>(i)) = m.F.row(keep[i]);
    return out;
}

FillResult voxelizeAndFill(const Mesh& m, int n, FillOptions fo = {})
{
    return fillInterior(voxelizeSurface(m, {.resolution = n}), m, fo);
}

TEST(Fill, RejectsAnEmptyGrid)
{
    try {
        fillInterior(VoxelGrid{}, Mesh{});
        FAIL();
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("rig::fillInterior()"), std::string::npos);
    }
}

TEST(Fill, BoxIsFilledAndVolumeMatches)
{
    const Mesh m = test::boxMesh(Vec3(0.013, 0.021, 0.007), Vec3(1.013, 0.521, 0.757));
    const FillResult r = voxelizeAndFill(m, 40);
    EXPECT_TRUE(r.watertight);
    EXPECT_EQ(r.bridgedGaps, 0);
    const double h = r.grid.voxelSize;
    const double solidVolume = static_cast<double>(r.surfaceVoxels + r.interiorVoxels) * h * h * h;
    const double volume = 1.0 * 0.5 * 0.75;
    EXPECT_GT(solidVolume, volume);               // conservative: the solid covers the box
    EXPECT_LT(solidVolume, volume * 1.25);        // ... within a voxel layer
    for (std::int64_t i : r.grid.indicesOf(VoxelState::Interior)) {
        const Vec3 c = r.grid.center(r.grid.coord(i));
        EXPECT_TRUE((c.array() > Vec3(0.013, 0.021, 0.007).array()).all() &&
                    (c.array() < Vec3(1.013, 0.521, 0.757).array()).all());
    }
}

// The caller's topology (the character's statistics, read on load) is the
// fill's: the same solid whichever way the answer comes, and a given answer is
// the one reported (the fill read every edge again on each load before).
TEST(Fill, TakesTheCallersWatertightness)
{
    const Mesh closed = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1.2, 0), 0.3, 32, 10, 12);
    const FillResult read = voxelizeAndFill(closed, 32);
    const FillResult given = voxelizeAndFill(closed, 32, {.watertight = true});
    EXPECT_TRUE(read.watertight);
    EXPECT_TRUE(given.watertight);
    EXPECT_EQ(given.grid.states, read.grid.states);
    const Mesh open = punchHole(closed, Vec3(0.3, 0.6, 0), 0.12);
    ASSERT_LT(open.triangleCount(), closed.triangleCount());
    EXPECT_FALSE(voxelizeAndFill(open, 32).watertight);
    EXPECT_FALSE(voxelizeAndFill(open, 32, {.watertight = false}).watertight);
    EXPECT_TRUE(voxelizeAndFill(open, 32, {.watertight = true}).watertight) << "the caller's answer is reported";
}

TEST(Fill, HolesDoNotEmptyTheInterior)
{
    const Mesh closed = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1.2, 0), 0.3, 32, 10, 12);
    Mesh open = punchHole(closed, Vec3(0.3, 0.6, 0), 0.12);
    open = punchHole(open, Vec3(0, 1.5, 0), 0.1);
    ASSERT_LT(open.triangleCount(), closed.triangleCount());
    const FillResult ref = voxelizeAndFill(closed, 48);
    const FillResult r = voxelizeAndFill(open, 48);
    EXPECT_FALSE(r.watertight);
    // The solid has the same volume (the holes change the bounding box, so the
    // grids differ), the surface voxels of the missing triangles now being
    // bridged interior voxels.
    auto volume = [](const FillResult& x) {
        return static_cast<double>(x.surfaceVoxels + x.interiorVoxels) * std::pow(x.grid.voxelSize, 3);
    };
    EXPECT_NEAR(volume(r), volume(ref), 0.02 * volume(ref));
    EXPECT_GT(r.bridgedVoxels, 0);
    EXPECT_EQ(r.bridgedGaps, 2);
    // Without the robust test the flood fill leaks through the holes.
    const FillResult plain = voxelizeAndFill(open, 48, {.robustInside = false});
    EXPECT_LT(plain.interiorVoxels, ref.interiorVoxels / 10);
}

TEST(Fill, SeparatePartsMakeAUnion)
{
    // Two overlapping capsules and a sphere enclosed in one of them (an "eyeball").
    const Mesh a = test::capsuleMesh(Vec3(-1, 0, 0), Vec3(1, 0, 0), 0.3);
    const Mesh b = test::capsuleMesh(Vec3(0, -1, 0), Vec3(0, 1, 0), 0.3);
    const Mesh eye = test::capsuleMesh(Vec3(0.7, 0, 0), Vec3(0.7, 0, 0.01), 0.1);
    const FillResult r = voxelizeAndFill(test::concat({a, b, eye}), 60);
    const FillResult ra = voxelizeAndFill(test::concat({a, b}), 60);
    // The eyeball adds no volume and leaves no empty cavity.
    EXPECT_EQ(r.surfaceVoxels + r.interiorVoxels, ra.surfaceVoxels + ra.interiorVoxels);
    const VoxelGrid& g = r.grid;
    EXPECT_TRUE(g.solid(g.index(g.voxelAt(Vec3(0.5, 0, 0.0)))));
    EXPECT_TRUE(g.solid(g.index(g.voxelAt(Vec3(0.0, 0.0, 0.0)))));
    EXPECT_FALSE(g.solid(g.index(g.voxelAt(Vec3(0.6, 0.6, 0.0)))));
}

} // namespace
} // namespace rig
