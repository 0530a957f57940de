#include "core/rig/pose.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

#include <numbers>

namespace rig {
namespace {

/// A three-joint chain along +X: 0 at the origin, 1 at x = 1, 2 at x = 2,
/// frames with local +Y along the bone (rotated -90 degrees about Z).
Skeleton chain()
{
    Skeleton s;
    s.names = {"root", "mid", "tip"};
    s.parents = {-1, 0, 1};
    s.bindPositions.resize(3, 3);
    s.bindPositions << 0, 0, 0, 1, 0, 0, 2, 0, 0;
    const Eigen::Quaterniond q(Eigen::AngleAxisd(-std::numbers::pi / 2, Vec3::UnitZ()));
    s.bindOrientations = {q, q, q};
    return s;
}

TEST(Pose, InvalidSkeletonsAreRejectedFirst)
{
    Skeleton s = chain();
    s.parents[2] = 2;
    EXPECT_THROW(validateSkeleton(s), InvalidInput);
    s = chain();
    s.names[1] = "root";
    EXPECT_THROW(validateSkeleton(s), InvalidInput);
    s = chain();
    s.bindPositions(1, 1) = std::nan("");
    EXPECT_THROW(validateSkeleton(s), InvalidInput);
    EXPECT_NO_THROW(validateSkeleton(chain()));
    Pose p;
    EXPECT_THROW(forwardKinematics(chain(), p), InvalidInput);
}

TEST(Pose, IdentityPoseIsTheBindPose)
{
    const Skeleton s = chain();
    const PosedSkeleton ps = forwardKinematics(s, identityPose(s));
    EXPECT_TRUE(ps.positions.isApprox(s.bindPositions));
    for (const auto& M : ps.skinning)
        EXPECT_TRUE(M.matrix().isIdentity(1e-12));
}

TEST(Pose, LocalRotationMovesTheChildrenAndTheSkinningTransformAgrees)
{
    const Skeleton s = chain();
    Pose p = identityPose(s);
    // Rotate "mid" 90 degrees about its local Z axis (world Z: the frames only turn about Z).
    p.localRotations[1] = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ());
    const PosedSkeleton ps = forwardKinematics(s, p);
    EXPECT_TRUE(ps.positions.row(0).isApprox(s.bindPositions.row(0)));
    EXPECT_TRUE(ps.positions.row(1).isApprox(s.bindPositions.row(1)));
    // The tip swung about mid: still at distance 1 from it, and off the X axis.
    const Vec3 d = ps.positions.row(2) - ps.positions.row(1);
    EXPECT_NEAR(d.norm(), 1.0, 1e-12);
    EXPECT_NEAR(std::abs(d.y()), 1.0, 1e-12);
    EXPECT_NEAR(d.z(), 0.0, 1e-12);
    // A point carried by the tip's skinning transform from bind lands where FK put the tip.
    const Vec3 tipBind = s.bindPositions.row(2).transpose();
    EXPECT_TRUE((ps.skinning[2] * tipBind).isApprox(ps.positions.row(2).transpose()));
    // Root translation moves everything.
    p.rootTranslation = Vec3(0, 2, 0);
    const PosedSkeleton moved = forwardKinematics(s, p);
    EXPECT_NEAR(moved.positions(2, 1) - ps.positions(2, 1), 2.0, 1e-12);
}

} // namespace
} // namespace rig
