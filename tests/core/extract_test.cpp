#include "core/skeleton/extract.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/voxel/thinning.h"
#include "tests/support/meshes.h"

#include "tests/support/inside_mesh.h"

#include <gtest/gtest.h>

#include <atomic>
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

// The vertex of m maximizing score.
template <typename Score>
Vec3 extremeVertex(const Mesh& m, Score score)
{
    int best = 0;
    for (int v = 1; v < m.vertexCount(); ++v)
        if (score(m.V.row(v).transpose()) > score(m.V.row(best).transpose()))
            best = v;
    return m.V.row(best).transpose();
}

void expectInvalid(const Mesh& m, int n, const std::string& fragment)
{
    try {
        extractCurveSkeleton(m, atResolution(n));
        FAIL() << "expected rig::InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("rig::voxelizeSurface()"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

TEST(ExtractCurveSkeleton, InvalidInputsGiveClearErrors)
{
    expectInvalid(Mesh{}, 155, "empty");
    const Mesh box = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    expectInvalid(box, 15, "outside [16, 1024]");
    expectInvalid(box, 1025, "outside [16, 1024]");
    expectInvalid(box, -3, "-3");
}

TEST(ExtractCurveSkeleton, ReportsProgressAndCanBeCancelled)
{
    const Mesh m = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1, 0), 0.2);
    std::vector<std::string> steps;
    Progress progress;
    progress.report = [&](std::string_view step, double f) {
        EXPECT_GE(f, 0.0);
        EXPECT_LE(f, 1.0);
        if (steps.empty() || steps.back() != step)
            steps.emplace_back(step);
    };
    const CurveSkeletonResult r = extractCurveSkeleton(m, atResolution(32), progress);
    EXPECT_EQ(steps, (std::vector<std::string>{"voxelize", "fill", "thin", "graph"}));
    ASSERT_EQ(r.timings.size(), 5u);
    const char* names[] = {"voxelize", "fill", "thin", "graph", "refine"};
    for (size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(r.timings[i].name, names[i]);
        EXPECT_GE(r.timings[i].seconds, 0.0);
    }
    std::atomic<bool> cancel{true};
    Progress cancelled;
    cancelled.cancelFlag = &cancel;
    EXPECT_THROW(extractCurveSkeleton(m, {}, cancelled), Cancelled);
}

TEST(ExtractCurveSkeleton, CountsAreConsistent)
{
    const Mesh m = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1, 0), 0.2);
    const CurveSkeletonResult r = extractCurveSkeleton(m, atResolution(40));
    EXPECT_EQ(r.surfaceVoxels, r.solid.count(VoxelState::Surface));
    EXPECT_EQ(r.interiorVoxels, r.solid.count(VoxelState::Interior));
    EXPECT_EQ(r.skeletonVoxels, r.thinned.solidCount());
    EXPECT_EQ(r.raw.nodeCount(), r.skeletonVoxels);
    EXPECT_TRUE(r.watertight);
    EXPECT_EQ(r.bridgedGaps, 0);
    EXPECT_EQ(r.bridgedVoxels, 0);
}

class HumanoidSkeleton : public ::testing::TestWithParam<HumanoidPose> {};

TEST_P(HumanoidSkeleton, HasFiveEndNodesAndEveryNodeInside)
{
    const Humanoid h = generateHumanoid(HumanoidOptions{.pose = GetParam()});
    const CurveSkeletonResult r = extractCurveSkeleton(h.mesh);
    const CurveSkeleton& s = r.refined;
    EXPECT_EQ(s.count(NodeType::End), 5);
    EXPECT_GE(s.count(NodeType::Connection), 1);
    EXPECT_EQ(s.componentCount, 1);
    EXPECT_EQ(s.loopCount, 0);
    EXPECT_EQ(s.types[static_cast<size_t>(s.root)], NodeType::Connection);
    for (int i = 0; i < s.nodeCount(); ++i)
        EXPECT_TRUE(test::insideMesh(h.mesh, s.positions.row(i).transpose())) << "node " << i << " at " << s.positions.row(i);
    // Each end node is near one of the five end effectors, each effector has one.
    for (int e = 0; e < static_cast<int>(h.endEffectorNames.size()); ++e) {
        double nearest = 1e9;
        for (int n : s.nodesOf(NodeType::End))
            nearest = std::min(nearest, (s.positions.row(n) - h.endEffectors.row(e)).norm());
        EXPECT_LT(nearest, 0.2) << h.endEffectorNames[static_cast<size_t>(e)];
    }
}

TEST_P(HumanoidSkeleton, ThinnedSetIsThinConnectedAndHasNoSimpleVoxel)
{
    const Humanoid h = generateHumanoid(HumanoidOptions{.pose = GetParam()});
    const CurveSkeletonResult r = extractCurveSkeleton(h.mesh);
    EXPECT_EQ(r.raw.componentCount, 1);
    EXPECT_EQ(r.raw.loopCount, 0);
    for (std::int64_t i = 0; i < r.thinned.voxelCount(); ++i) {
        if (!r.thinned.solid(i))
            continue;
        const Neighbourhood n = neighbourhoodOf(r.thinned, i);
        ASSERT_TRUE(isEndPoint(n) || !isSimplePoint(n));
    }
    EXPECT_GT(r.raw.count(NodeType::Flow), 0.8 * r.raw.nodeCount());
}

INSTANTIATE_TEST_SUITE_P(AllPoses, HumanoidSkeleton, ::testing::ValuesIn(allHumanoidPoses()),
                         [](const auto& info) {
                             std::string name(humanoidPoseName(info.param));
                             std::erase(name, '-');
                             return name;
                         });

TEST(ExtractCurveSkeleton, HumanoidWithHolesAndSeparateEyeballsStaysFilled)
{
    const Humanoid h = generateHumanoid();
    const Mesh& body = h.mesh;
    const CurveSkeletonResult closed = extractCurveSkeleton(body);

    // Holes: the top of the head, the front of the chest, the back of the pelvis, one side of the neck.
    const Vec3 top = extremeVertex(body, [](const Vec3& p) { return p.y(); });
    const Vec3 chest = extremeVertex(body, [](const Vec3& p) {
        return std::abs(p.x()) < 0.05 && p.y() > 1.15 && p.y() < 1.3 ? p.z() : -1e9;
    });
    const Vec3 pelvis = extremeVertex(body, [](const Vec3& p) {
        return std::abs(p.x()) < 0.05 && p.y() > 0.9 && p.y() < 1.0 ? -p.z() : -1e9;
    });
    Mesh open = punchHole(body, top, 0.03);
    open = punchHole(open, chest, 0.04);
    open = punchHole(open, pelvis, 0.04);
    ASSERT_LT(open.triangleCount(), body.triangleCount() - 30);

    // Eyeballs: separate closed spheres, half sunk into the face.
    const double eyeY = top.y() - 0.1;
    std::vector<Mesh> parts{open};
    for (double x : {-0.035, 0.035}) {
        const Vec3 front = extremeVertex(body, [&](const Vec3& p) {
            return std::abs(p.x() - x) < 0.01 && std::abs(p.y() - eyeY) < 0.01 ? p.z() : -1e9;
        });
        parts.push_back(test::capsuleMesh(front, front + Vec3(0, 0, 1e-3), 0.015, 16, 6, 1));
    }
    const Mesh character = test::concat(parts);

    const CurveSkeletonResult r = extractCurveSkeleton(character);
    EXPECT_FALSE(r.watertight);
    EXPECT_GE(r.bridgedGaps, 1);
    EXPECT_GT(r.bridgedVoxels, 0);
    // The same solid volume (holes change the bounding box, so the grids differ).
    auto volume = [](const CurveSkeletonResult& x) {
        return static_cast<double>(x.surfaceVoxels + x.interiorVoxels) * std::pow(x.solid.voxelSize, 3);
    };
    EXPECT_NEAR(volume(r), volume(closed), 0.02 * volume(closed));
    EXPECT_EQ(r.refined.count(NodeType::End), 5);
    EXPECT_EQ(r.refined.componentCount, 1);
    for (int i = 0; i < r.refined.nodeCount(); ++i)
        EXPECT_TRUE(test::insideMesh(body, r.refined.positions.row(i).transpose())) << "node " << i;
}

} // namespace
} // namespace rig
