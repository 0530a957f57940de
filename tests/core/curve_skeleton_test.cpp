#include "core/skeleton/curve_skeleton.h"

#include "core/common/error.h"
#include "core/skeleton/extract.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

namespace rig {
namespace {

// Options at voxel resolution n, everything else default.
CurveSkeletonOptions atResolution(int n)
{
    CurveSkeletonOptions o;
    o.voxelize.resolution = n;
    return o;
}

// A skeleton from a list of points and edges (voxel coordinates = rounded points).
CurveSkeleton graph(const std::vector<Vec3>& pts, const std::vector<std::array<int, 2>>& edges,
                    const std::vector<double>& radii = {})
{
    CurveSkeleton s;
    const int n = static_cast<int>(pts.size());
    s.positions.resize(n, 3);
    s.voxels.resize(n, 3);
    for (int i = 0; i < n; ++i) {
        s.positions.row(i) = pts[static_cast<size_t>(i)].transpose();
        s.voxels.row(i) = pts[static_cast<size_t>(i)].array().round().cast<int>().matrix().transpose();
    }
    s.radii = radii.empty() ? std::vector<double>(static_cast<size_t>(n), 1.0) : radii;
    s.voxelStates.assign(static_cast<size_t>(n), static_cast<std::uint8_t>(VoxelState::Interior));
    s.edges = edges;
    return finalizeCurveSkeleton(s);
}

// Checks the structural invariants every CurveSkeleton must satisfy.
void expectWellFormed(const CurveSkeleton& s)
{
    const int n = s.nodeCount();
    ASSERT_EQ(s.positions.rows(), n);
    ASSERT_EQ(s.voxels.rows(), n);
    ASSERT_EQ(static_cast<int>(s.types.size()), n);
    ASSERT_EQ(static_cast<int>(s.parents.size()), n);
    EXPECT_EQ(s.root, n ? 0 : -1);
    const auto adj = s.adjacency();
    for (int i = 0; i < n; ++i) {
        EXPECT_LT(s.parents[static_cast<size_t>(i)], i);
        EXPECT_EQ(s.types[static_cast<size_t>(i)], nodeTypeFromNeighbours(static_cast<int>(adj[static_cast<size_t>(i)].size())));
        if (s.parents[static_cast<size_t>(i)] >= 0) {
            const auto& a = adj[static_cast<size_t>(i)];
            EXPECT_TRUE(std::binary_search(a.begin(), a.end(), s.parents[static_cast<size_t>(i)]));
        }
    }
    // Every edge is in exactly one segment; segment ends are non-flow unless it is a flow loop.
    size_t segmentEdges = 0;
    for (const auto& seg : s.segments) {
        ASSERT_GE(seg.size(), 2u);
        segmentEdges += seg.size() - 1;
        EXPECT_LE(seg.front(), seg.back());
        for (size_t k = 1; k + 1 < seg.size(); ++k)
            EXPECT_EQ(s.types[static_cast<size_t>(seg[k])], NodeType::Flow);
        if (seg.front() != seg.back()) {
            EXPECT_NE(s.types[static_cast<size_t>(seg.front())], NodeType::Flow);
            EXPECT_NE(s.types[static_cast<size_t>(seg.back())], NodeType::Flow);
        }
    }
    EXPECT_EQ(segmentEdges, s.edges.size());
}

TEST(CurveSkeleton, NodeTypesFollowTheNeighbourCount)
{
    EXPECT_EQ(nodeTypeFromNeighbours(0), NodeType::End);
    EXPECT_EQ(nodeTypeFromNeighbours(1), NodeType::End);
    EXPECT_EQ(nodeTypeFromNeighbours(2), NodeType::Flow);
    EXPECT_EQ(nodeTypeFromNeighbours(3), NodeType::Connection);
    EXPECT_EQ(nodeTypeFromNeighbours(7), NodeType::Connection);
}

TEST(CurveSkeleton, BuildRejectsAMismatchedDistanceField)
{
    VoxelGrid g;
    g.dims = Vec3i(3, 3, 3);
    g.states.assign(27, 0);
    EXPECT_THROW(buildCurveSkeleton(g, std::vector<float>(5)), InvalidInput);
}

TEST(CurveSkeleton, FinalizeRootsAtTheThickestConnectionAndOrdersBreadthFirst)
{
    // A Y: 0-1-2-3 with a branch 2-4-5; node 2 is the junction.
    const CurveSkeleton s = graph({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0), Vec3(2, 1, 0), Vec3(2, 2, 0)},
                                  {{0, 1}, {1, 2}, {2, 3}, {2, 4}, {4, 5}}, {1, 1, 0.5, 1, 1, 1});
    expectWellFormed(s);
    EXPECT_EQ(s.types[0], NodeType::Connection);
    EXPECT_TRUE(s.positions.row(0).isApprox(Eigen::RowVector3d(2, 0, 0)));
    EXPECT_EQ(s.count(NodeType::End), 3);
    EXPECT_EQ(s.segments.size(), 3u);
    EXPECT_EQ(s.loopCount, 0);
    EXPECT_EQ(s.componentCount, 1);
}

TEST(CurveSkeleton, AFlowLoopIsOneClosedSegment)
{
    const CurveSkeleton s = graph({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)}, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
    expectWellFormed(s);
    EXPECT_EQ(s.loopCount, 1);
    ASSERT_EQ(s.segments.size(), 1u);
    EXPECT_EQ(s.segments[0].front(), s.segments[0].back());
    EXPECT_EQ(s.segments[0].size(), 5u);
}

TEST(CurveSkeleton, TouchingConnectionVoxelsDoNotCountAsLoops)
{
    // Three mutually adjacent junction voxels (a triangle) with a branch each.
    const CurveSkeleton s = graph({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(-1, -1, 0), Vec3(2, 0, 0), Vec3(0, 2, 0)},
                                  {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {1, 4}, {2, 5}});
    expectWellFormed(s);
    EXPECT_EQ(s.count(NodeType::Connection), 3);
    EXPECT_EQ(s.loopCount, 0);
}

TEST(CurveSkeleton, CapsuleGivesOneCurveWithoutLoops)
{
    const Mesh m = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1.5, 0), 0.25);
    const CurveSkeletonResult r = extractCurveSkeleton(m, atResolution(48));
    expectWellFormed(r.raw);
    EXPECT_EQ(r.raw.nodeCount(), r.skeletonVoxels);
    EXPECT_EQ(r.raw.componentCount, 1);
    EXPECT_EQ(r.raw.loopCount, 0);
    // Radii: about the capsule's radius in the middle.
    for (int i = 0; i < r.raw.nodeCount(); ++i) {
        const double y = r.raw.positions(i, 1);
        if (y > 0.3 && y < 1.2) {
            EXPECT_NEAR(r.raw.radii[static_cast<size_t>(i)], 0.25, 1.5 * r.solid.voxelSize);
        }
    }
}

TEST(CurveSkeleton, TorusKeepsItsLoopBeforeRefinement)
{
    const CurveSkeletonResult r = extractCurveSkeleton(test::torusMesh(1.0, 0.3), atResolution(64));
    expectWellFormed(r.raw);
    EXPECT_EQ(r.raw.loopCount, 1);
    EXPECT_EQ(r.raw.componentCount, 1);
    EXPECT_EQ(r.raw.count(NodeType::End), 0);
    // The loop follows the torus's core circle.
    for (int i = 0; i < r.raw.nodeCount(); ++i) {
        const Vec3 p = r.raw.positions.row(i).transpose();
        EXPECT_NEAR(Eigen::Vector2d(p.x(), p.z()).norm(), 1.0, 2.0 * r.solid.voxelSize);
        EXPECT_NEAR(p.y(), 0.0, 2.0 * r.solid.voxelSize);
    }
}

} // namespace
} // namespace rig
