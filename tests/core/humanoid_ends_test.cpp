#include "core/skeleton/humanoid_ends.h"

#include "core/character/humanoid.h"
#include "core/skeleton/extract.h"

#include "tests/support/stick_figure.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rig {
namespace {

using test::nodeNear;
using test::StickBuilder;

struct Extras {
    bool ponytail = false, hatBrim = false, cape = false, spear = false, tail = false, plume = false;
};

/// A stick humanoid 1.8 tall in an A-pose (head, hands and feet at known
/// points), with the extra branches real characters carry.
CurveSkeleton figure(const Extras& x = {})
{
    StickBuilder b;
    const int hips = b.add({0.0, 1.0, 0.0});
    const int chest = b.line(hips, {0.0, 1.4, 0.0});
    const int neck = b.line(chest, {0.0, 1.55, 0.0});
    const int head = b.line(neck, {0.0, 1.7, 0.0});
    b.line(head, {0.0, 1.8, 0.0});
    const int lElbow = b.line(b.line(chest, {0.2, 1.4, 0.0}), {0.4, 1.15, 0.05});
    b.line(lElbow, {0.55, 0.9, 0.1});
    const int rElbow = b.line(b.line(chest, {-0.2, 1.4, 0.0}), {-0.4, 1.15, 0.05});
    const int rHand = b.line(rElbow, {-0.55, 0.9, 0.1});
    b.line(b.line(hips, {0.1, 0.5, 0.0}), {0.1, 0.02, 0.1});
    b.line(b.line(hips, {-0.1, 0.5, 0.0}), {-0.1, 0.02, 0.1});
    if (x.ponytail)
        b.line(b.line(head, {0.0, 1.72, -0.15}), {0.0, 1.3, -0.2});
    if (x.hatBrim) {
        b.line(head, {0.2, 1.74, 0.0});
        b.line(head, {-0.2, 1.74, 0.0});
        b.line(head, {0.0, 1.74, 0.2});
    }
    if (x.cape)
        b.line(b.line(chest, {0.0, 1.35, -0.2}), {0.0, 0.3, -0.35});
    if (x.spear) // held in the right hand, pointing forward and down: the hand stays an end beyond its grip
        b.line(b.line(rElbow, {-0.5, 1.0, 0.1}), {-0.5, 0.6, 0.9});
    (void)rHand;
    if (x.tail)
        b.line(b.line(hips, {0.0, 0.8, -0.3}), {0.0, 0.5, -0.7});
    if (x.plume)
        b.line(head, {0.05, 1.95, -0.05});
    return b.build();
}

EndNodeLabels truth(const CurveSkeleton& s)
{
    EndNodeLabels l;
    l[Limb::Head] = nodeNear(s, {0.0, 1.8, 0.0});
    l[Limb::LeftHand] = nodeNear(s, {0.55, 0.9, 0.1});
    l[Limb::RightHand] = nodeNear(s, {-0.55, 0.9, 0.1});
    l[Limb::LeftFoot] = nodeNear(s, {0.1, 0.02, 0.1});
    l[Limb::RightFoot] = nodeNear(s, {-0.1, 0.02, 0.1});
    return l;
}

std::optional<HumanoidEnds> find(const CurveSkeleton& s, const HumanoidEndsOptions& o = {})
{
    return findHumanoidEnds(s, 0.0, 1.8, o);
}

TEST(HumanoidEnds, NoneWithFewerThanFiveEndsOrNoHeight)
{
    StickBuilder b;
    const int hips = b.add({0.0, 1.0, 0.0});
    b.line(hips, {0.0, 1.8, 0.0});
    b.line(hips, {0.1, 0.0, 0.0});
    b.line(hips, {-0.1, 0.0, 0.0});
    std::string why;
    EXPECT_FALSE(findHumanoidEnds(b.build(), 0.0, 1.8, {}, &why));
    EXPECT_EQ(why, "fewer than five skeleton ends");
    EXPECT_FALSE(findHumanoidEnds(figure(), 0.0, 0.0));
}

TEST(HumanoidEnds, FindsTheFiveEndsOfAPlainFigure)
{
    const CurveSkeleton s = figure();
    const auto body = find(s);
    ASSERT_TRUE(body);
    EXPECT_EQ(body->labels, truth(s));
    EXPECT_TRUE(body->extraEnds.empty());
    EXPECT_GT(body->confidence, 0.8);
}

TEST(HumanoidEnds, PonytailHatBrimAndCapeAreExtraBranches)
{
    const CurveSkeleton s = figure({.ponytail = true, .hatBrim = true, .cape = true});
    const auto body = find(s);
    ASSERT_TRUE(body);
    EXPECT_EQ(body->labels, truth(s)) << [&] {
        std::string out;
        for (int n : body->labels.nodes)
            out += "(" + std::to_string(s.positions(n, 0)) + " " + std::to_string(s.positions(n, 1)) + " " +
                   std::to_string(s.positions(n, 2)) + ") ";
        return out + body->summary;
    }();
    EXPECT_EQ(body->extraEnds.size(), s.nodesOf(NodeType::End).size() - 5);
    EXPECT_GE(body->confidence, 0.5);
}

TEST(HumanoidEnds, ASpearHeldForwardIsAnExtraBranch)
{
    const CurveSkeleton s = figure({.spear = true});
    const auto body = find(s);
    ASSERT_TRUE(body);
    EXPECT_EQ(body->labels, truth(s));
}

TEST(HumanoidEnds, APlumeAboveTheHeadIsTheHeadEnd)
{
    // The highest end is the head's whatever it wears: the plume's tip is the head label.
    const CurveSkeleton s = figure({.plume = true});
    const auto body = find(s);
    ASSERT_TRUE(body);
    EXPECT_EQ(body->labels[Limb::LeftHand], truth(s)[Limb::LeftHand]);
    EXPECT_EQ(body->labels[Limb::RightHand], truth(s)[Limb::RightHand]);
    EXPECT_EQ(body->labels[Limb::LeftFoot], truth(s)[Limb::LeftFoot]);
}

TEST(HumanoidEnds, LeftAndRightFollowTheFacing)
{
    const CurveSkeleton s = figure({.tail = true});
    const auto body = find(s, {.front = -Vec3::UnitZ()});
    ASSERT_TRUE(body);
    const EndNodeLabels t = truth(s);
    EXPECT_EQ(body->labels[Limb::LeftHand], t[Limb::RightHand]);
    EXPECT_EQ(body->labels[Limb::RightFoot], t[Limb::LeftFoot]);
}

TEST(HumanoidEnds, AQuadrupedHasNoConfidentHumanoidBody)
{
    // Four legs on the ground, the body and the head running forward, a tail.
    StickBuilder b;
    const int hips = b.add({0.0, 1.0, -0.6});
    const int shoulders = b.line(hips, {0.0, 1.05, 0.6});
    b.line(b.line(shoulders, {0.0, 1.3, 0.9}), {0.0, 1.4, 1.2});
    for (const double x : {-0.25, 0.25}) {
        b.line(b.line(hips, {x, 0.5, -0.6}), {x, 0.02, -0.6});
        b.line(b.line(shoulders, {x, 0.5, 0.6}), {x, 0.02, 0.6});
    }
    b.line(hips, {0.0, 1.1, -1.3});
    const auto body = findHumanoidEnds(b.build(), 0.0, 1.4);
    EXPECT_TRUE(!body || body->confidence < 0.5) << body->summary;
}

TEST(HumanoidEnds, TheSameUnderTranslation)
{
    CurveSkeleton s = figure({.ponytail = true, .cape = true});
    const auto a = find(s);
    s.positions.rowwise() += Eigen::RowVector3d(3.0, -2.0, 5.0);
    const auto b = findHumanoidEnds(s, -2.0, 1.8);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->labels, b->labels);
    EXPECT_NEAR(a->cost, b->cost, 1e-9);
}

TEST(HumanoidEnds, TheGeneratedCharacterInEveryPose)
{
    for (const HumanoidPose pose : {HumanoidPose::A, HumanoidPose::T, HumanoidPose::ArmsDown}) {
        const Humanoid h = generateHumanoid({.pose = pose});
        const CurveSkeleton s = extractCurveSkeleton(h.mesh).refined;
        const double bottom = h.mesh.V.col(1).minCoeff(), height = h.mesh.V.col(1).maxCoeff() - bottom;
        const auto body = findHumanoidEnds(s, bottom, height);
        ASSERT_TRUE(body) << static_cast<int>(pose);
        // Each label at the end nearest the generator's matching joint.
        const auto joint = [&](const std::string& name) {
            const auto it = std::find(h.jointNames.begin(), h.jointNames.end(), name);
            return Vec3(h.joints.row(it - h.jointNames.begin()).transpose());
        };
        const auto nearestEnd = [&](const Vec3& p) {
            int best = -1;
            for (int e : s.nodesOf(NodeType::End))
                if (best < 0 || (s.positions.row(e).transpose() - p).norm() < (s.positions.row(best).transpose() - p).norm())
                    best = e;
            return best;
        };
        EXPECT_EQ(body->labels[Limb::Head], nearestEnd(joint("Head"))) << static_cast<int>(pose);
        EXPECT_EQ(body->labels[Limb::LeftHand], nearestEnd(joint("LeftHand"))) << static_cast<int>(pose);
        EXPECT_EQ(body->labels[Limb::RightHand], nearestEnd(joint("RightHand"))) << static_cast<int>(pose);
        EXPECT_EQ(body->labels[Limb::LeftFoot], nearestEnd(joint("LeftFoot"))) << static_cast<int>(pose);
        EXPECT_EQ(body->labels[Limb::RightFoot], nearestEnd(joint("RightFoot"))) << static_cast<int>(pose);
    }
}

} // namespace
} // namespace rig
