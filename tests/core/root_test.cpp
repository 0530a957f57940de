#include "core/skeleton/root.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/skeleton/extract.h"

#include "tests/support/stick_figure.h"

#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rig {
namespace {

using test::nodeNear;
using test::StickBuilder;

template <typename F>
void expectInvalid(F f, const std::string& fragment)
{
    test::expectError<InvalidInput>(f, fragment);
}

struct Figure {
    CurveSkeleton s;
    EndNodeLabels labels;
    Vec3 hips, chest, leftShoulder;
};

// A stick figure; `leftArmAt` and `rightLegAt` move where the left arm and the
// right leg branch off (the spine / the hips by default: two connection nodes).
Figure figure(double leftArmAt = 1.4, double rightLegAt = 1.0, bool star = false)
{
    StickBuilder b;
    const int hips = b.add({0.0, 1.0, 0.0});
    int chest = hips, leftShoulder = hips, rightHip = hips;
    if (!star) {
        leftShoulder = leftArmAt < 1.4 ? b.line(hips, {0.0, leftArmAt, 0.0}) : -1;
        chest = b.line(leftShoulder >= 0 ? leftShoulder : hips, {0.0, 1.4, 0.0});
        if (leftShoulder < 0)
            leftShoulder = chest;
        rightHip = rightLegAt < 1.0 ? b.line(hips, {0.0, rightLegAt, 0.0}) : hips;
    }
    b.line(chest, {0.0, 1.7, 0.0});
    b.line(b.line(leftShoulder, {0.2, 1.4, 0.0}), {0.6, 1.4, 0.0});
    b.line(b.line(chest, {-0.2, 1.4, 0.0}), {-0.6, 1.4, 0.0});
    b.line(b.line(hips, {0.1, 0.5, 0.0}), {0.1, 0.05, 0.1});
    b.line(b.line(rightHip, {-0.1, 0.5, 0.0}), {-0.1, 0.05, 0.1});
    b.line(hips, {0.0, 0.6, -0.6}); // a tail, left unlabelled
    Figure f{.s = b.build(), .labels = {}, .hips = {0.0, 1.0, 0.0}, .chest = {0.0, star ? 1.0 : 1.4, 0.0},
             .leftShoulder = {0.0, star ? 1.0 : std::min(leftArmAt, 1.4), 0.0}};
    f.labels[Limb::Head] = nodeNear(f.s, {0.0, 1.7, 0.0});
    f.labels[Limb::LeftHand] = nodeNear(f.s, {0.6, 1.4, 0.0});
    f.labels[Limb::RightHand] = nodeNear(f.s, {-0.6, 1.4, 0.0});
    f.labels[Limb::LeftFoot] = nodeNear(f.s, {0.1, 0.05, 0.1});
    f.labels[Limb::RightFoot] = nodeNear(f.s, {-0.1, 0.05, 0.1});
    return f;
}

Vec3 at(const CurveSkeleton& s, int v) { return s.positions.row(v).transpose(); }

TEST(AssignRoot, InvalidLabelsGiveClearErrors)
{
    const Figure f = figure();
    EndNodeLabels l = f.labels;
    l[Limb::LeftHand] = l[Limb::Head];
    expectInvalid([&] { assignRoot(f.s, l); }, "labelled both head and lhand");
    l = f.labels;
    l[Limb::LeftFoot] = nodeNear(f.s, {0.0, 1.2, 0.0});
    expectInvalid([&] { assignRoot(f.s, l); }, "lfoot = ");
    // Hands labelled as feet and feet as hands.
    l = f.labels;
    std::swap(l[Limb::LeftHand], l[Limb::LeftFoot]);
    std::swap(l[Limb::RightHand], l[Limb::RightFoot]);
    expectInvalid([&] { assignRoot(f.s, l); }, "do not branch off between the hips and the head");
    // A "hand" that is the tail: it hangs off the hips, below the chest.
    l = f.labels;
    l[Limb::LeftHand] = nodeNear(f.s, {0.0, 0.6, -0.6});
    expectInvalid([&] { assignRoot(f.s, l); }, "rig::assignRoot()");
}

void expectChains(const Figure& f, const LimbChains& c)
{
    EXPECT_LT((at(f.s, c.hips) - f.hips).norm(), 1e-9);
    EXPECT_LT((at(f.s, c.chest) - f.chest).norm(), 1e-9);
    ASSERT_FALSE(c.spine.empty());
    EXPECT_EQ(c.spine.front(), c.hips);
    EXPECT_EQ(c.spine.back(), c.chest);
    for (Limb l : allLimbs) {
        const bool upper = l == Limb::Head || l == Limb::LeftHand || l == Limb::RightHand;
        ASSERT_GE(c.limb(l).size(), 2u) << limbKey(l);
        EXPECT_EQ(c.limb(l).front(), l == Limb::LeftHand ? nodeNear(f.s, f.leftShoulder) : upper ? c.chest : c.hips)
            << limbKey(l);
        EXPECT_EQ(c.limb(l).back(), f.labels[l]) << limbKey(l);
        for (size_t k = 1; k < c.limb(l).size(); ++k) // consecutive nodes are neighbours
            EXPECT_LT((at(f.s, c.limb(l)[k]) - at(f.s, c.limb(l)[k - 1])).norm(), 0.06);
    }
    // The tail is pruned, everything on the chains kept.
    EXPECT_FALSE(c.kept[static_cast<size_t>(nodeNear(f.s, {0.0, 0.6, -0.6}))]);
    const auto keptCount = std::count(c.kept.begin(), c.kept.end(), true);
    size_t chainNodes = c.spine.size();
    for (const auto& path : c.limbs)
        chainNodes += path.size() - 1;
    EXPECT_EQ(static_cast<size_t>(keptCount), chainNodes);
}

TEST(AssignRoot, TwoConnectionNodesHipsStartFewerSegments)
{
    const Figure f = figure();
    const LimbChains c = assignRoot(f.s, f.labels);
    ASSERT_EQ(c.connectionNodes.size(), 2u);
    expectChains(f, c);
    // The thesis rule: the hips start two segments (the feet), the chest three.
    int hipsSegments = 0, chestSegments = 0;
    for (Limb l : allLimbs)
        (c.limb(l).front() == c.hips ? hipsSegments : chestSegments)++;
    EXPECT_EQ(hipsSegments, 2);
    EXPECT_EQ(chestSegments, 3);
    EXPECT_NEAR(pathLength(f.s, c.spine), 0.4, 1e-9);
}

TEST(AssignRoot, ThreeConnectionNodesArmsApart)
{
    // The left arm branches 10 cm below the right one: the thesis's three-node case.
    Figure f = figure(1.3);
    const LimbChains c = assignRoot(f.s, f.labels);
    ASSERT_EQ(c.connectionNodes.size(), 3u);
    expectChains(f, c);
}

TEST(AssignRoot, LegsMeetAtTheHipsWhereverTheyBend)
{
    // The right leg leaves the spine's line 10 cm below the hips: the hips are
    // still where the left leg, the right leg's path and the spine meet.
    Figure f = figure(1.4, 0.9);
    const LimbChains c = assignRoot(f.s, f.labels);
    ASSERT_EQ(c.connectionNodes.size(), 2u);
    expectChains(f, c);
}

TEST(AssignRoot, OneConnectionNodeStar)
{
    Figure f = figure(1.4, 1.0, /*star=*/true);
    const LimbChains c = assignRoot(f.s, f.labels);
    EXPECT_EQ(c.hips, c.chest);
    EXPECT_EQ(c.spine.size(), 1u);
    expectChains(f, c);
}

TEST(AssignRoot, HumanoidHipsAndChest)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A});
    const CurveSkeleton s = extractCurveSkeleton(h.mesh).refined;
    const LimbChains c = assignRoot(s, suggestEndNodeLabels(s));
    const Vec3 hips = h.joints.row(jointIndex(HumanoidJoint::Hips)).transpose();
    const Vec3 neck = h.joints.row(jointIndex(HumanoidJoint::Neck)).transpose();
    EXPECT_LT((at(s, c.hips) - hips).norm(), 0.05 * h.height);
    EXPECT_GT(at(s, c.chest).y(), hips.y() + 0.2);
    EXPECT_LT(at(s, c.chest).y(), neck.y());
}

} // namespace
} // namespace rig
