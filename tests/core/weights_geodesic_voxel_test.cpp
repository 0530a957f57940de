#include "core/skin/weights_geodesic_voxel.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/skin/skin_weights.h"

#include "tests/support/meshes.h"
#include "tests/support/skeletons.h"

#include "tests/support/weight_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace rig {
namespace {

using test::chainSkeleton;

void expectValid(const SkinWeights& w, int vertices, int joints) { test::expectValidWeights(w, vertices, joints); }

double weightOf(const SkinWeights& w, int vertex, int joint)
{
    for (int s = 0; s < w.maxInfluences; ++s)
        if (w.joints(vertex, s) == joint)
            return w.weights(vertex, s);
    return 0.0;
}

/// A grid of unit voxels, `solid(center)` deciding each voxel (the outer layer stays empty).
template <class Inside>
VoxelGrid gridOf(const Vec3i& dims, const Inside& inside)
{
    VoxelGrid g;
    g.dims = dims;
    g.voxelSize = 1.0;
    g.states.assign(static_cast<size_t>(g.voxelCount()), 0);
    for (int z = 1; z + 1 < dims.z(); ++z)
        for (int y = 1; y + 1 < dims.y(); ++y)
            for (int x = 1; x + 1 < dims.x(); ++x)
                if (inside(g.center(Vec3i(x, y, z))))
                    g.states[static_cast<size_t>(g.index(x, y, z))] = static_cast<std::uint8_t>(VoxelState::Interior);
    return g;
}

TEST(GeodesicVoxel, RejectsBadInputWithActionableMessages)
{
    const Mesh box = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    const Skeleton s = chainSkeleton({Vec3(0.5, 0.2, 0.5), Vec3(0.5, 0.8, 0.5)});
    EXPECT_THROW(geodesicVoxelWeights(Mesh{}, s), InvalidInput);
    GeodesicVoxelOptions o;
    o.resolution = 8;
    EXPECT_THROW(geodesicVoxelWeights(box, s, o), InvalidInput);
    o = {};
    o.falloff = 0.0;
    EXPECT_THROW(geodesicVoxelWeights(box, s, o), InvalidInput);
    o = {};
    o.alpha = 1.5;
    EXPECT_THROW(geodesicVoxelWeights(box, s, o), InvalidInput);
    o = {};
    o.maxSolidVoxels = -1;
    EXPECT_THROW(geodesicVoxelWeights(box, s, o), InvalidInput);
    Mesh nan = box;
    nan.V(0, 0) = std::nan("");
    EXPECT_THROW(geodesicVoxelWeights(nan, s), InvalidInput);
    const VoxelGrid g = gridOf(Vec3i(8, 8, 8), [](const Vec3&) { return true; });
    EXPECT_THROW(voxelGeodesicDistances(g, {}), InvalidInput);
    EXPECT_THROW(voxelGeodesicDistances(VoxelGrid{}, {{Vec3(1, 1, 1), Vec3(1, 1, 1)}}), InvalidInput);
}

TEST(GeodesicVoxel, DistancesInASlabAreEuclidean)
{
    // A slab 98 x 98 x 5 voxels; the geodesic distance in a convex solid is the straight line.
    const VoxelGrid g = gridOf(Vec3i(100, 100, 7), [](const Vec3&) { return true; });
    const Vec3 source(30.5, 40.5, 3.5);
    const std::vector<float> d = voxelGeodesicDistances(g, {{source, source}});
    int checked = 0;
    double worst = 0.0;
    for (int y = 1; y < 99; ++y)
        for (int x = 1; x < 99; ++x) {
            const Vec3 c = g.center(Vec3i(x, y, 3));
            const double r = (c - source).norm();
            if (r < 5.0)
                continue;
            worst = std::max(worst, std::abs(d[static_cast<size_t>(g.index(x, y, 3))] - r) / r);
            ++checked;
        }
    EXPECT_GT(checked, 9000);
    EXPECT_LT(worst, 0.02);
    EXPECT_TRUE(std::isinf(d[0])); // outside the solid
}

TEST(GeodesicVoxel, DistancesGoAroundAWall)
{
    // A slab cut by a one-voxel wall x in [50, 51), y < 70: the path bends at the wall's tip.
    const VoxelGrid g = gridOf(Vec3i(100, 100, 7), [](const Vec3& c) { return !(c.x() > 50 && c.x() < 51 && c.y() < 70); });
    const Vec3 source(30.5, 30.5, 3.5);
    const std::vector<float> d = voxelGeodesicDistances(g, {{source, source}});
    const Vec3 tip(50.5, 70.0, 3.5);
    for (const Vec3i& t : {Vec3i(70, 30, 3), Vec3i(60, 10, 3), Vec3i(90, 50, 3)}) {
        const Vec3 c = g.center(t);
        const double analytic = (tip - source).norm() + (c - tip).norm();
        EXPECT_NEAR(d[static_cast<size_t>(g.index(t))], analytic, 0.02 * analytic) << t.transpose();
        EXPECT_GT(d[static_cast<size_t>(g.index(t))], (c - source).norm() * 1.05); // not through the wall
    }
}

// The line-of-sight test skips the samples deep inside the solid: in a thick
// cube the distances are still the straight line where it is free, and still
// bend around a thin wall cut into it, far from the cube's own surface.
TEST(GeodesicVoxel, DistancesInAThickSolidGoAroundAThinWall)
{
    // A 46^3 solid cut by a one-voxel wall x in [22, 23), y < 34, across all z.
    const VoxelGrid g =
        gridOf(Vec3i(48, 48, 48), [](const Vec3& c) { return !(c.x() > 22 && c.x() < 23 && c.y() < 34); });
    const Vec3 source(11.5, 11.5, 24.5);
    const std::vector<float> d = voxelGeodesicDistances(g, {{source, source}});
    for (const Vec3i& t : {Vec3i(18, 40, 8), Vec3i(4, 38, 44), Vec3i(20, 4, 38)}) { // in sight
        const double straight = (g.center(t) - source).norm();
        EXPECT_NEAR(d[static_cast<size_t>(g.index(t))], straight, 0.02 * straight) << t.transpose();
    }
    for (const Vec3i& t : {Vec3i(34, 11, 24), Vec3i(44, 4, 24), Vec3i(30, 22, 24)}) { // behind the wall
        const Vec3 c = g.center(t);
        const Vec3 tip(22.5, 34.0, 24.5);
        const double analytic = (tip - source).norm() + (c - tip).norm();
        // Around the edge of a wall in 3D the any-angle paths turn at voxel
        // centres: up to 2.6 % long here, with or without the skipping.
        EXPECT_NEAR(d[static_cast<size_t>(g.index(t))], analytic, 0.035 * analytic) << t.transpose();
        EXPECT_GT(d[static_cast<size_t>(g.index(t))], (c - source).norm() * 1.05) << t.transpose();
    }
}

TEST(GeodesicVoxel, DistancesAroundACylindricalShellMatchTangentPlusArc)
{
    // A thick-walled cylinder (tube) around the z axis: r1 = 30 <= r <= r2 = 40. From a point on the
    // outer wall to one out of sight, the shortest path runs along a tangent to the inner wall,
    // around it, and along the other tangent: sqrt(a^2 - r1^2) + sqrt(b^2 - r1^2) + r1 (angle - acos(r1/a) - acos(r1/b)).
    const double r1 = 30.0, r2 = 40.0;
    const Vec3 axis(45.0, 45.0, 0.0);
    const VoxelGrid g = gridOf(Vec3i(90, 90, 8), [&](const Vec3& c) {
        const double r = Vec3(c.x() - axis.x(), c.y() - axis.y(), 0.0).norm();
        return r >= r1 && r <= r2;
    });
    const Vec3 source(45.5 + 38.0, 45.5, 4.5); // a voxel centre at radius 38.5
    const std::vector<float> d = voxelGeodesicDistances(g, {{source, source}});
    const auto analytic = [&](const Vec3& p) {
        const Eigen::Vector2d a = (source - axis).head<2>(), b = (p - axis).head<2>();
        const double angle = std::acos(std::clamp(a.normalized().dot(b.normalized()), -1.0, 1.0));
        const double fa = std::acos(r1 / a.norm()), fb = std::acos(r1 / b.norm()); // angles the tangents cover
        if (angle <= fa + fb)
            return (p - source).norm(); // in sight
        return std::sqrt(a.squaredNorm() - r1 * r1) + std::sqrt(b.squaredNorm() - r1 * r1) + r1 * (angle - fa - fb);
    };
    for (const Vec3i& t : {Vec3i(7, 45, 4), Vec3i(14, 20, 4), Vec3i(45, 83, 4)}) {
        const Vec3 c = g.center(t);
        ASSERT_TRUE(g.solid(g.index(t))) << t.transpose();
        const double a = analytic(c);
        EXPECT_NEAR(d[static_cast<size_t>(g.index(t))], a, 0.02 * a) << t.transpose();
    }
}

/// The weights of a chain of `joints` in a capsule along x from 0 to 2, at
/// resolution 48, their rows checked.
GeodesicVoxelResult inACapsule(const Mesh& capsule, const std::vector<Vec3>& joints, GeodesicVoxelOptions o = {})
{
    const Skeleton s = chainSkeleton(joints);
    o.resolution = 48;
    GeodesicVoxelResult r = geodesicVoxelWeights(capsule, s, o);
    expectValid(r.weights, capsule.vertexCount(), s.jointCount());
    return r;
}

TEST(GeodesicVoxel, TwoBonesInACapsuleSplitTheWeights)
{
    const Mesh capsule = test::capsuleMesh(Vec3(0, 0, 0), Vec3(2, 0, 0), 0.25);
    const GeodesicVoxelResult r = inACapsule(capsule, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)});
    EXPECT_TRUE(r.rigidParts.empty());
    for (int i = 0; i < capsule.vertexCount(); ++i) {
        const double x = capsule.V(i, 0);
        if (x < 0.6) {
            EXPECT_GT(weightOf(r.weights, i, 0), 0.5) << "vertex " << i << " at x = " << x;
        }
        if (x > 1.4) {
            EXPECT_GT(weightOf(r.weights, i, 1) + weightOf(r.weights, i, 2), 0.5) << "vertex " << i;
        }
    }
}

// A leaf joint at the start of a long end part (a head at the base of the
// skull on a short neck: Cesium Man) owns that part. Its bone used to be half
// of the short link before it, and the part above, as near to the end of the
// link's bone through the solid, was split between the two (Cesium Man's
// mean deformation error 0.64 -> 0.37 % of height at falloff 4).
TEST(GeodesicVoxel, ALeafThatEndsAChainOwnsThePartBeyondIt)
{
    const Mesh capsule = test::capsuleMesh(Vec3(0, 0, 0), Vec3(2, 0, 0), 0.25);
    const std::vector<Vec3> joints = {Vec3(0, 0, 0), Vec3(1.0, 0, 0), Vec3(1.1, 0, 0)};
    const GeodesicVoxelResult r = inACapsule(capsule, joints);
    int beyond = 0;
    for (int i = 0; i < capsule.vertexCount(); ++i)
        if (capsule.V(i, 0) > 1.5) {
            ++beyond;
            EXPECT_GT(weightOf(r.weights, i, 2), 0.9) << "vertex " << i << " at x = " << capsule.V(i, 0);
        }
    EXPECT_GT(beyond, 10);
    GeodesicVoxelOptions o;
    o.leafBonesToSkin = false; // the paper's bones: the part is shared
    const GeodesicVoxelResult half = inACapsule(capsule, joints, o);
    double least = 1.0;
    for (int i = 0; i < capsule.vertexCount(); ++i)
        if (capsule.V(i, 0) > 1.5)
            least = std::min(least, weightOf(half.weights, i, 2));
    EXPECT_LT(least, 0.9);
}

TEST(GeodesicVoxel, TheGeneratedCharacterGetsWeightsOnEveryVertex)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .cellSize = 0.03});
    const Skeleton s = test::groundTruthSkeleton(h);
    GeodesicVoxelOptions o;
    o.resolution = 64;
    const GeodesicVoxelResult r = geodesicVoxelWeights(h.mesh, s, o);
    expectValid(r.weights, h.mesh.vertexCount(), s.jointCount());
    for (int i = 0; i < h.mesh.vertexCount(); ++i)
        ASSERT_GT(r.weights.weights(i, 0), 0.0f) << "vertex " << i;
}

// The voxel budget: a solid that fills its box (a cube: 128^3 voxels at the
// default resolution) is voxelized coarser to hold at most the budget, and
// still binds every vertex.
TEST(GeodesicVoxel, ABulkySolidIsCoarsenedToTheVoxelBudget)
{
    const Mesh cube = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    const Skeleton s = chainSkeleton({Vec3(0.5, 0.1, 0.5), Vec3(0.5, 0.5, 0.5), Vec3(0.5, 0.9, 0.5)});
    GeodesicVoxelOptions o;
    o.resolution = 64; // 62^3 solid voxels
    o.maxSolidVoxels = 20000;
    const GeodesicVoxelResult r = geodesicVoxelWeights(cube, s, o);
    EXPECT_LE(r.solid.solidCount(), o.maxSolidVoxels);
    EXPECT_GT(r.solid.solidCount(), o.maxSolidVoxels / 2); // the finest that fits, not much coarser
    EXPECT_LT(r.solid.dims.maxCoeff(), o.resolution);
    expectValid(r.weights, cube.vertexCount(), s.jointCount());
    o.maxSolidVoxels = 0; // no budget: the resolution asked for
    o.resolution = 40;
    EXPECT_GE(geodesicVoxelWeights(cube, s, o).solid.solidCount(), 40 * 40 * 40);
}

// A character with thin limbs fills a small part of its box: the default
// budget leaves its solid, and so its weights, as they were without one (at
// the default resolution its solid is 24k voxels; 80 keeps the test short).
TEST(GeodesicVoxel, TheBudgetLeavesAThinCharacterAlone)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .cellSize = 0.04});
    const Skeleton s = test::groundTruthSkeleton(h);
    GeodesicVoxelOptions budget;
    budget.resolution = 80;
    budget.maxSolidVoxels = 10000;
    GeodesicVoxelOptions unbounded = budget;
    unbounded.maxSolidVoxels = 0;
    const GeodesicVoxelResult a = geodesicVoxelWeights(h.mesh, s, unbounded);
    const GeodesicVoxelResult b = geodesicVoxelWeights(h.mesh, s, budget);
    EXPECT_LT(a.solid.solidCount(), budget.maxSolidVoxels);
    EXPECT_EQ(b.solid.dims, a.solid.dims);
    EXPECT_EQ(b.solid.states, a.solid.states);
    const Eigen::MatrixXd A = denseWeights(a.weights, s.jointCount());
    EXPECT_EQ((denseWeights(b.weights, s.jointCount()) - A).cwiseAbs().maxCoeff(), 0.0);
}

TEST(GeodesicVoxel, ASeparatePartIsBoundRigidlyAndReported)
{
    Mesh two = test::concat({test::boxMesh(Vec3(0, 0, 0), Vec3(1, 2, 1)), test::boxMesh(Vec3(3, 0, 0), Vec3(3.5, 0.5, 0.5))});
    const Skeleton s = chainSkeleton({Vec3(0.5, 0.2, 0.5), Vec3(0.5, 1.0, 0.5), Vec3(0.5, 1.8, 0.5)});
    GeodesicVoxelOptions o;
    o.resolution = 32;
    const GeodesicVoxelResult r = geodesicVoxelWeights(two, s, o);
    expectValid(r.weights, two.vertexCount(), s.jointCount());
    ASSERT_EQ(r.rigidParts.size(), 1u);
    EXPECT_EQ(r.rigidParts[0].vertexCount, 8);
    EXPECT_EQ(r.unreachedVertices, 8);
    EXPECT_GE(r.rigidParts[0].bone, 0);
    EXPECT_FALSE(r.rigidParts[0].name.empty());
}

TEST(GeodesicVoxel, ABoneOutsideTheMeshAndAOneJointSkeletonGetFiniteWeights)
{
    const Mesh box = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 2, 1));
    GeodesicVoxelOptions o;
    o.resolution = 24;
    // The last joint's bones lie far outside the box.
    const Skeleton outside = chainSkeleton({Vec3(0.5, 0.2, 0.5), Vec3(0.5, 1.8, 0.5), Vec3(4, 4, 4), Vec3(5, 5, 5)});
    const GeodesicVoxelResult r = geodesicVoxelWeights(box, outside, o);
    expectValid(r.weights, box.vertexCount(), outside.jointCount());
    const Skeleton one = chainSkeleton({Vec3(0.5, 1.0, 0.5)});
    const GeodesicVoxelResult r1 = geodesicVoxelWeights(box, one, o);
    expectValid(r1.weights, box.vertexCount(), 1);
    for (int i = 0; i < box.vertexCount(); ++i)
        EXPECT_FLOAT_EQ(r1.weights.weights(i, 0), 1.0f);
}

TEST(GeodesicVoxel, KeepsAtMostMaxInfluences)
{
    // Four bones along a capsule, two influences kept.
    const Mesh capsule = test::capsuleMesh(Vec3(0, 0, 0), Vec3(3, 0, 0), 0.25);
    const Skeleton s = chainSkeleton({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0)});
    GeodesicVoxelOptions o;
    o.resolution = 48;
    o.maxInfluences = 2;
    const GeodesicVoxelResult r = geodesicVoxelWeights(capsule, s, o);
    expectValid(r.weights, capsule.vertexCount(), s.jointCount());
    EXPECT_EQ(r.weights.maxInfluences, 2);
    EXPECT_EQ(r.weights.weights.cols(), 2);
    int blended = 0; // vertices near a joint keep two bones
    for (int i = 0; i < capsule.vertexCount(); ++i)
        blended += r.weights.weights(i, 1) > 0.05f;
    EXPECT_GT(blended, 0);
}

// Early termination (a sweep stops where k + 1 other joints are nearer) only
// skips joints that cannot enter a vertex's weights: the weights match those
// of full sweeps, with 1 and with 3 threads alike.
TEST(GeodesicVoxel, EarlyTerminationKeepsTheWeights)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .cellSize = 0.04});
    const Skeleton s = test::groundTruthSkeleton(h);
    GeodesicVoxelOptions full;
    full.resolution = 64;
    full.earlyTermination = false;
    const Eigen::MatrixXd F = denseWeights(geodesicVoxelWeights(h.mesh, s, full).weights, s.jointCount());
    for (const int threads : {1, 3}) {
        GeodesicVoxelOptions fast = full;
        fast.earlyTermination = true;
        fast.threads = threads;
        const GeodesicVoxelResult r = geodesicVoxelWeights(h.mesh, s, fast);
        expectValid(r.weights, h.mesh.vertexCount(), s.jointCount());
        const Eigen::MatrixXd E = denseWeights(r.weights, s.jointCount());
        double worst = 0.0, mean = 0.0;
        for (Eigen::Index i = 0; i < E.rows(); ++i) {
            const double d = (E.row(i) - F.row(i)).cwiseAbs().sum();
            worst = std::max(worst, d);
            mean += d / static_cast<double>(E.rows());
        }
        EXPECT_LT(mean, 1e-3) << threads << " threads";
        EXPECT_LT(worst, 0.05) << threads << " threads";
    }
}

// The sweeps' cost follows the solid, not the number of joints: all joints'
// searches advance together, nearest first, so a voxel is expanded for about
// its k + 1 nearest joints (issue 46: searched one joint after another in
// rounds of four, the first eight covered the whole solid and the generated
// character cost 11.4 times its solid at 21 joints). Without early
// termination every joint covers the whole solid.
TEST(GeodesicVoxel, EachVoxelIsExpandedForAboutItsNearestJointsOnly)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .cellSize = 0.04});
    const Skeleton s = test::groundTruthSkeleton(h);
    GeodesicVoxelOptions o;
    o.resolution = 64;
    const GeodesicVoxelResult r = geodesicVoxelWeights(h.mesh, s, o);
    const double solid = static_cast<double>(r.solid.solidCount());
    const double perVoxel = static_cast<double>(r.expandedVoxels) / solid;
    EXPECT_GE(perVoxel, 1.0);
    EXPECT_LE(perVoxel, 1.5 * (o.maxInfluences + 1));
    o.earlyTermination = false;
    const double full = static_cast<double>(geodesicVoxelWeights(h.mesh, s, o).expandedVoxels) / solid;
    EXPECT_GE(full, 0.95 * s.jointCount());
    EXPECT_LE(full, s.jointCount());
}

} // namespace
} // namespace rig
