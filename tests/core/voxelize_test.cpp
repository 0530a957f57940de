#include "core/voxel/voxelize.h"

#include "core/common/error.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace rig {
namespace {

template <typename F>
void expectInvalid(F&& f, const std::string& fragment)
{
    try {
        f();
        FAIL() << "expected rig::InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("rig::voxelizeSurface()"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

TEST(Voxelize, RejectsAnEmptyMesh)
{
    expectInvalid([] { voxelizeSurface(Mesh{}); }, "empty");
}

TEST(Voxelize, RejectsResolutionsOutsideTheRange)
{
    const Mesh m = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    expectInvalid([&] { voxelizeSurface(m, {.resolution = 15}); }, "15");
    expectInvalid([&] { voxelizeSurface(m, {.resolution = 1025}); }, "1025");
    EXPECT_NO_THROW(voxelizeSurface(m, {.resolution = 16}));
}

TEST(Voxelize, RejectsNonFiniteCoordinatesAndBadIndices)
{
    Mesh m = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    Mesh bad = m;
    bad.V(3, 1) = std::numeric_limits<double>::quiet_NaN();
    expectInvalid([&] { voxelizeSurface(bad); }, "non-finite");
    bad = m;
    bad.F(0, 0) = 8;
    expectInvalid([&] { voxelizeSurface(bad); }, "vertex");
}

TEST(Voxelize, GridHasResolutionVoxelsOnTheLongestAxisAndAnEmptyBorder)
{
    const Mesh m = test::boxMesh(Vec3(0, 0, 0), Vec3(2, 1, 0.5));
    const VoxelizeOptions opt{.resolution = 40, .padding = 2};
    const VoxelGrid g = voxelizeSurface(m, opt);
    EXPECT_EQ(g.dims.x(), 40 + 4);
    EXPECT_EQ(g.dims.y(), 20 + 4);
    EXPECT_EQ(g.dims.z(), 10 + 4);
    EXPECT_NEAR(g.voxelSize, 0.05, 1e-12);
    for (int z = 0; z < g.dims.z(); ++z)
        for (int y = 0; y < g.dims.y(); ++y)
            for (int x = 0; x < g.dims.x(); ++x)
                if (x == 0 || y == 0 || z == 0 || x == g.dims.x() - 1 || y == g.dims.y() - 1 || z == g.dims.z() - 1) {
                    ASSERT_EQ(g.state(g.index(x, y, z)), VoxelState::Empty);
                }
    EXPECT_EQ(g.count(VoxelState::Interior), 0);
}

TEST(Voxelize, SurfaceVoxelsAreExactlyThoseTheTrianglesTouch)
{
    // Every surface voxel is within half a voxel diagonal of the capsule's
    // surface, and every point of the surface lies in a surface voxel.
    const double r = 0.3;
    const Vec3 a(0, 0, 0), b(0, 1, 0);
    const Mesh m = test::capsuleMesh(a, b, r, 32, 10, 10);
    const VoxelGrid g = voxelizeSurface(m, {.resolution = 32});
    const double h = g.voxelSize;
    auto distToCapsule = [&](const Vec3& p) {
        const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
        return std::abs((p - (a + t * (b - a))).norm() - r);
    };
    for (std::int64_t i : g.indicesOf(VoxelState::Surface))
        EXPECT_LT(distToCapsule(g.center(g.coord(i))), 0.5 * std::sqrt(3.0) * h + 0.02 * r);
    for (int v = 0; v < m.vertexCount(); ++v)
        EXPECT_EQ(g.state(g.index(g.voxelAt(m.V.row(v).transpose()))), VoxelState::Surface);
    for (int f = 0; f < m.triangleCount(); ++f) {
        const Vec3 c = (m.V.row(m.F(f, 0)) + m.V.row(m.F(f, 1)) + m.V.row(m.F(f, 2))).transpose() / 3.0;
        EXPECT_EQ(g.state(g.index(g.voxelAt(c))), VoxelState::Surface);
    }
}

TEST(Voxelize, AThinTriangleIsNotMissed)
{
    // A sliver much thinner than a voxel, which point sampling at voxel centres misses.
    Mesh m;
    m.V.resize(3, 3);
    m.V << 0, 0, 0, 1, 0.001, 0.0013, 1, 0.002, 0;
    m.F.resize(1, 3);
    m.F << 0, 1, 2;
    const VoxelGrid g = voxelizeSurface(m, {.resolution = 20});
    EXPECT_GE(g.count(VoxelState::Surface), 20);
}

} // namespace
} // namespace rig
