#include "core/skeleton/refine.h"

#include "core/common/error.h"
#include "core/skeleton/extract.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace rig {
namespace {

// Options at voxel resolution n, everything else default.
CurveSkeletonOptions atResolution(int n)
{
    CurveSkeletonOptions o;
    o.voxelize.resolution = n;
    return o;
}

CurveSkeleton graph(const std::vector<Vec3>& pts, const std::vector<std::array<int, 2>>& edges,
                    const std::vector<double>& radii)
{
    CurveSkeleton s;
    const int n = static_cast<int>(pts.size());
    s.positions.resize(n, 3);
    s.voxels.resize(n, 3);
    for (int i = 0; i < n; ++i) {
        s.positions.row(i) = pts[static_cast<size_t>(i)].transpose();
        s.voxels.row(i) = pts[static_cast<size_t>(i)].array().round().cast<int>().matrix().transpose();
    }
    s.radii = radii;
    s.voxelStates.assign(static_cast<size_t>(n), static_cast<std::uint8_t>(VoxelState::Interior));
    s.edges = edges;
    return finalizeCurveSkeleton(s);
}

// A straight chain of `n` nodes from `a` in direction `d`, appended to pts; returns the node ids.
std::vector<int> chain(std::vector<Vec3>& pts, const Vec3& a, const Vec3& d, int n)
{
    std::vector<int> ids;
    for (int i = 0; i < n; ++i) {
        ids.push_back(static_cast<int>(pts.size()));
        pts.push_back(a + d * i);
    }
    return ids;
}

TEST(Refine, RejectsNegativeOptions)
{
    EXPECT_THROW(refineCurveSkeleton(CurveSkeleton{}, {.spurLength = -1}), InvalidInput);
}

TEST(Refine, EmptySkeletonStaysEmpty)
{
    const RefinedSkeleton r = refineCurveSkeleton(finalizeCurveSkeleton(CurveSkeleton{}));
    EXPECT_EQ(r.skeleton.nodeCount(), 0);
    EXPECT_EQ(r.skeleton.root, -1);
}

TEST(Refine, ShortSpurIsRemovedLongBranchesStay)
{
    // Three long arms from a junction of radius 2 and one spur of length 2.
    std::vector<Vec3> pts{Vec3(0, 0, 0)};
    std::vector<std::array<int, 2>> edges;
    const Vec3 dirs[4] = {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0)};
    const int lengths[4] = {10, 10, 10, 2};
    for (int k = 0; k < 4; ++k) {
        const auto ids = chain(pts, dirs[k], dirs[k], lengths[k]);
        edges.push_back({0, ids[0]});
        for (size_t i = 1; i < ids.size(); ++i)
            edges.push_back({ids[i - 1], ids[i]});
    }
    std::vector<double> radii(pts.size(), 0.5);
    radii[0] = 2.0;
    const RefinedSkeleton r = refineCurveSkeleton(graph(pts, edges, radii), {.smoothingWindow = 0});
    EXPECT_EQ(r.report.spursRemoved, 1);
    EXPECT_EQ(r.skeleton.count(NodeType::End), 3);
    EXPECT_EQ(r.skeleton.count(NodeType::Connection), 1);
    EXPECT_EQ(r.skeleton.nodeCount(), 31);
    for (int i = 0; i < r.skeleton.nodeCount(); ++i)
        EXPECT_GE(r.skeleton.positions(i, 1), 0.0) << "the -y spur is gone";
}

TEST(Refine, ClusterOfTouchingConnectionsCollapsesToOneNode)
{
    // A 2-voxel junction {0, 1}, each with two long arms.
    std::vector<Vec3> pts{Vec3(0, 0, 0), Vec3(1, 0, 0)};
    std::vector<std::array<int, 2>> edges{{0, 1}};
    const Vec3 starts[4] = {Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(2, 0, 0), Vec3(1, -1, 0)};
    const Vec3 dirs[4] = {Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0), Vec3(0, -1, 0)};
    for (int k = 0; k < 4; ++k) {
        const auto ids = chain(pts, starts[k], dirs[k], 8);
        edges.push_back({k < 2 ? 0 : 1, ids[0]});
        for (size_t i = 1; i < ids.size(); ++i)
            edges.push_back({ids[i - 1], ids[i]});
    }
    const RefinedSkeleton r = refineCurveSkeleton(graph(pts, edges, std::vector<double>(pts.size(), 1.0)));
    EXPECT_EQ(r.report.clustersCollapsed, 1);
    ASSERT_EQ(r.skeleton.count(NodeType::Connection), 1);
    EXPECT_EQ(r.skeleton.count(NodeType::End), 4);
    EXPECT_TRUE(r.skeleton.positions.row(r.skeleton.root).isApprox(Eigen::RowVector3d(0.5, 0, 0)));
    EXPECT_EQ(r.skeleton.segments.size(), 4u);
}

// A ring of 16 nodes of radius 8 with a handle along +x; the thinnest node
// (radius 0.2) is opposite the handle, at (-8, 0, 0).
CurveSkeleton ringWithHandle()
{
    std::vector<Vec3> pts;
    std::vector<std::array<int, 2>> edges;
    for (int i = 0; i < 16; ++i) {
        const double t = 2 * 3.14159265358979 * i / 16;
        pts.push_back(Vec3(8 * std::cos(t), 8 * std::sin(t), 0));
        edges.push_back({i, (i + 1) % 16});
    }
    const auto handle = chain(pts, Vec3(9, 0, 0), Vec3(1, 0, 0), 12);
    edges.push_back({0, handle[0]});
    for (size_t i = 1; i < handle.size(); ++i)
        edges.push_back({handle[i - 1], handle[i]});
    std::vector<double> radii(pts.size(), 1.0);
    radii[8] = 0.2;
    radii[0] = 1.5;
    return graph(pts, edges, radii);
}

TEST(Refine, LoopIsBrokenAtItsWeakestEdge)
{
    const RefinedSkeleton r = refineCurveSkeleton(ringWithHandle(), {.smoothingWindow = 0});
    EXPECT_EQ(r.report.loopsFound, 1);
    EXPECT_EQ(r.report.loopsBroken, 1);
    EXPECT_EQ(r.skeleton.loopCount, 0);
    EXPECT_EQ(r.skeleton.edgeCount(), r.skeleton.nodeCount() - 1) << "a tree";
    // The cut is next to the thin node: it is now an end node (or was pruned with its stub).
    EXPECT_EQ(r.skeleton.count(NodeType::End), 3);
    bool thinEndNearCut = false;
    for (int e : r.skeleton.nodesOf(NodeType::End))
        thinEndNearCut |= (r.skeleton.positions.row(e) - Eigen::RowVector3d(-8, 0, 0)).norm() < 4.0;
    EXPECT_TRUE(thinEndNearCut);
}

/// A loop made by a contact (contacts.h) is cut there, not at its thinnest
/// place: the same ring as above, its thin node opposite the handle, a contact
/// a quarter of the way round.
TEST(Refine, LoopIsBrokenAtAContactBeforeItsWeakestEdge)
{
    const CurveSkeleton s = ringWithHandle();
    std::vector<char> contact(static_cast<size_t>(s.nodeCount()), 0);
    for (int i = 0; i < s.nodeCount(); ++i)
        contact[static_cast<size_t>(i)] = (s.positions.row(i) - Eigen::RowVector3d(0, 8, 0)).norm() < 1.0;
    ASSERT_EQ(std::count(contact.begin(), contact.end(), 1), 1);
    EXPECT_THROW(refineCurveSkeleton(s, {}, std::vector<char>(3, 0)), InvalidInput);
    const RefinedSkeleton r = refineCurveSkeleton(s, {.smoothingWindow = 0}, contact);
    EXPECT_EQ(r.report.loopsBroken, 1);
    EXPECT_EQ(r.skeleton.edgeCount(), r.skeleton.nodeCount() - 1) << "a tree";
    bool endAtContact = false, thinKept = false;
    for (int e : r.skeleton.nodesOf(NodeType::End))
        endAtContact |= (r.skeleton.positions.row(e) - Eigen::RowVector3d(0, 8, 0)).norm() < 4.0;
    for (int i = 0; i < r.skeleton.nodeCount(); ++i)
        thinKept |= r.skeleton.types[static_cast<size_t>(i)] == NodeType::Flow &&
                    (r.skeleton.positions.row(i) - Eigen::RowVector3d(-8, 0, 0)).norm() < 1e-9;
    EXPECT_TRUE(endAtContact);
    EXPECT_TRUE(thinKept) << "the thin node stays inside the ring's curve";
}

TEST(Refine, SmallComponentsAreDropped)
{
    std::vector<Vec3> pts;
    std::vector<std::array<int, 2>> edges;
    const auto big = chain(pts, Vec3(0, 0, 0), Vec3(1, 0, 0), 10);
    const auto small = chain(pts, Vec3(0, 5, 0), Vec3(1, 0, 0), 3);
    for (size_t i = 1; i < big.size(); ++i)
        edges.push_back({big[i - 1], big[i]});
    for (size_t i = 1; i < small.size(); ++i)
        edges.push_back({small[i - 1], small[i]});
    const CurveSkeleton s = graph(pts, edges, std::vector<double>(pts.size(), 1.0));
    EXPECT_EQ(s.componentCount, 2);
    const RefinedSkeleton r = refineCurveSkeleton(s);
    EXPECT_EQ(r.report.componentsDropped, 1);
    EXPECT_EQ(r.skeleton.nodeCount(), 10);
    EXPECT_EQ(refineCurveSkeleton(s, {.keepLargestComponent = false}).skeleton.componentCount, 2);
}

TEST(Refine, SmoothingKeepsEndsAndFlattensAStaircase)
{
    std::vector<Vec3> pts;
    for (int i = 0; i < 20; ++i)
        pts.push_back(Vec3(i, (i % 2) * 1.0, 0));
    std::vector<std::array<int, 2>> edges;
    for (int i = 1; i < 20; ++i)
        edges.push_back({i - 1, i});
    const RefinedSkeleton r = refineCurveSkeleton(graph(pts, edges, std::vector<double>(20, 1.0)), {.smoothingWindow = 2});
    for (int e : r.skeleton.nodesOf(NodeType::End))
        EXPECT_TRUE(r.skeleton.positions(e, 0) == 0.0 || r.skeleton.positions(e, 0) == 19.0);
    for (int i = 0; i < r.skeleton.nodeCount(); ++i) {
        const double x = r.skeleton.positions(i, 0);
        if (x > 3 && x < 16) {
            EXPECT_NEAR(r.skeleton.positions(i, 1), 0.5, 0.11);
        }
    }
}

TEST(Refine, CapsuleGivesOneSegmentWithTwoEndNodes)
{
    const Mesh m = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1.5, 0), 0.25);
    const CurveSkeleton& s = extractCurveSkeleton(m, atResolution(64)).refined;
    EXPECT_EQ(s.count(NodeType::End), 2);
    EXPECT_EQ(s.count(NodeType::Connection), 0);
    ASSERT_EQ(s.segments.size(), 1u);
    EXPECT_EQ(s.segments[0].size(), static_cast<size_t>(s.nodeCount()));
    // The segment runs along the axis, over most of its length.
    for (int i = 0; i < s.nodeCount(); ++i)
        EXPECT_LT(Eigen::Vector2d(s.positions(i, 0), s.positions(i, 2)).norm(), 0.05);
    const double y0 = s.positions(s.segments[0].front(), 1), y1 = s.positions(s.segments[0].back(), 1);
    EXPECT_GT(std::abs(y1 - y0), 1.2);
}

TEST(Refine, PlusShapeGivesOneConnectionAndFourEnds)
{
    const Mesh m = test::concat({test::capsuleMesh(Vec3(-1, 0, 0), Vec3(1, 0, 0), 0.2),
                                 test::capsuleMesh(Vec3(0, -1, 0), Vec3(0, 1, 0), 0.2)});
    const CurveSkeletonResult r = extractCurveSkeleton(m, atResolution(80));
    const CurveSkeleton& s = r.refined;
    EXPECT_EQ(s.count(NodeType::Connection), 1);
    EXPECT_EQ(s.count(NodeType::End), 4);
    EXPECT_EQ(s.segments.size(), 4u);
    EXPECT_EQ(s.types[static_cast<size_t>(s.root)], NodeType::Connection);
    EXPECT_LT(s.positions.row(s.root).norm(), 2 * r.solid.voxelSize);
}

TEST(Refine, TorusLoopIsReportedAndBroken)
{
    const CurveSkeletonResult r = extractCurveSkeleton(test::torusMesh(1.0, 0.3), atResolution(64));
    EXPECT_EQ(r.refineReport.loopsFound, 1);
    EXPECT_EQ(r.refineReport.loopsBroken, 1);
    EXPECT_EQ(r.refined.loopCount, 0);
    EXPECT_EQ(r.refined.edgeCount(), r.refined.nodeCount() - 1);
    CurveSkeletonOptions keepLoops = atResolution(64);
    keepLoops.refine.breakLoops = false;
    const CurveSkeletonResult kept = extractCurveSkeleton(test::torusMesh(1.0, 0.3), keepLoops);
    EXPECT_EQ(kept.refined.loopCount, 1);
}

} // namespace
} // namespace rig
