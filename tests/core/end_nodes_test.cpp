#include "core/skeleton/end_nodes.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/skeleton/extract.h"

#include "tests/support/stick_figure.h"

#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

namespace rig {
namespace {

using test::nodeNear;
using test::StickBuilder;

// Head, hands, feet and optionally a tail; the positions of the five tips are
// returned so that tests can find their (renumbered) nodes.
CurveSkeleton stickFigure(bool tail = false)
{
    StickBuilder b;
    const int hips = b.add({0.0, 1.0, 0.0});
    const int chest = b.line(hips, {0.0, 1.4, 0.0});
    b.line(chest, {0.0, 1.7, 0.0});
    b.line(b.line(chest, {0.2, 1.4, 0.0}), {0.5, 1.0, 0.1});    // left arm, A-pose
    b.line(b.line(chest, {-0.2, 1.4, 0.0}), {-0.5, 1.0, 0.1}); // right arm
    b.line(b.line(hips, {0.1, 0.5, 0.0}), {0.1, 0.05, 0.1});   // left leg
    b.line(b.line(hips, {-0.1, 0.5, 0.0}), {-0.1, 0.05, 0.1});
    if (tail)
        b.line(hips, {0.0, 0.6, -0.6});
    return b.build();
}

EndNodeLabels stickLabels(const CurveSkeleton& s)
{
    EndNodeLabels l;
    l[Limb::Head] = nodeNear(s, {0.0, 1.7, 0.0});
    l[Limb::LeftHand] = nodeNear(s, {0.5, 1.0, 0.1});
    l[Limb::RightHand] = nodeNear(s, {-0.5, 1.0, 0.1});
    l[Limb::LeftFoot] = nodeNear(s, {0.1, 0.05, 0.1});
    l[Limb::RightFoot] = nodeNear(s, {-0.1, 0.05, 0.1});
    return l;
}

template <typename F>
void expectInvalid(F f, const std::string& fragment)
{
    test::expectError<InvalidInput>(f, fragment);
}

TEST(EndNodeLabels, ParserRejectsBadTextWithClearErrors)
{
    expectInvalid([] { parseEndNodeLabels("head=1,lhand=2,rhand=3,lfoot=4"); }, "missing rfoot");
    expectInvalid([] { parseEndNodeLabels(""); }, "missing head, lhand, rhand, lfoot, rfoot");
    expectInvalid([] { parseEndNodeLabels("head=1,lhand=2,rhand=3,lfoot=4,rfoot=5,tail=6"); }, "unknown key 'tail'");
    expectInvalid([] { parseEndNodeLabels("head=1,head=2,rhand=3,lfoot=4,rfoot=5"); }, "head is given twice");
    expectInvalid([] { parseEndNodeLabels("head=1,lhand=1,rhand=3,lfoot=4,rfoot=5"); },
                  "node 1 is labelled both head and lhand");
    expectInvalid([] { parseEndNodeLabels("head=x,lhand=2,rhand=3,lfoot=4,rfoot=5"); }, "head = 'x' is not a node index");
    expectInvalid([] { parseEndNodeLabels("head=-1,lhand=2,rhand=3,lfoot=4,rfoot=5"); }, "not a node index");
    expectInvalid([] { parseEndNodeLabels("head1,lhand=2"); }, "not of the form key=node");
}

TEST(EndNodeLabels, ParseAndFormatRoundTrip)
{
    const EndNodeLabels l = parseEndNodeLabels(" rfoot = 5, head=1,lhand=2 ,rhand=3,lfoot=4,");
    EXPECT_EQ(l.nodes, (std::array<int, limbCount>{1, 2, 3, 4, 5}));
    EXPECT_EQ(formatEndNodeLabels(l), "head=1,lhand=2,rhand=3,lfoot=4,rfoot=5");
    EXPECT_EQ(parseEndNodeLabels(formatEndNodeLabels(l)), l);
    EXPECT_EQ(formatEndNodeLabels(EndNodeLabels{}), "");
}

TEST(EndNodeLabels, ValidateNamesTheLimbAtFault)
{
    const CurveSkeleton s = stickFigure();
    const EndNodeLabels good = stickLabels(s);
    EXPECT_NO_THROW(validateLabels(s, good));

    EndNodeLabels l = good;
    l[Limb::LeftFoot] = -1;
    expectInvalid([&] { validateLabels(s, l); }, "lfoot is not labelled");
    l = good;
    l[Limb::RightHand] = s.nodeCount();
    expectInvalid([&] { validateLabels(s, l); }, "rhand = " + std::to_string(s.nodeCount()) + " is not a node");
    l = good;
    l[Limb::Head] = s.root; // the hips: a connection node
    expectInvalid([&] { validateLabels(s, l); }, "head = 0 is a connection node, not an end node");
    l = good;
    l[Limb::LeftHand] = nodeNear(s, {0.0, 1.2, 0.0});
    expectInvalid([&] { validateLabels(s, l); }, "is a flow node, not an end node");
    l = good;
    l[Limb::RightFoot] = l[Limb::LeftFoot];
    expectInvalid([&] { validateLabels(s, l); }, "is labelled both lfoot and rfoot");
}

TEST(EndNodeLabels, SuggestNeedsFiveEndsAndSaneAxes)
{
    StickBuilder b;
    b.line(b.line(b.add({0, 0, 0}), {0, 1, 0}), {0.3, 1.2, 0});
    const CurveSkeleton line = b.build();
    expectInvalid([&] { suggestEndNodeLabels(line); }, "has 2 end nodes");
    const CurveSkeleton s = stickFigure();
    expectInvalid([&] { suggestEndNodeLabels(s, {.up = Vec3::UnitZ(), .front = Vec3::UnitZ()}); }, "parallel");
    expectInvalid([&] { suggestEndNodeLabels(s, {.up = Vec3::Zero(), .front = Vec3::UnitZ()}); }, "non-zero");
}

TEST(EndNodeLabels, SuggestOnAStickFigure)
{
    const CurveSkeleton s = stickFigure();
    EXPECT_EQ(suggestEndNodeLabels(s), stickLabels(s));
    // Facing -Z, the character's left is -X: the sides swap.
    const EndNodeLabels back = suggestEndNodeLabels(s, {.up = Vec3::UnitY(), .front = -Vec3::UnitZ()});
    const EndNodeLabels l = stickLabels(s);
    EXPECT_EQ(back[Limb::Head], l[Limb::Head]);
    EXPECT_EQ(back[Limb::LeftHand], l[Limb::RightHand]);
    EXPECT_EQ(back[Limb::RightHand], l[Limb::LeftHand]);
    EXPECT_EQ(back[Limb::LeftFoot], l[Limb::RightFoot]);
    EXPECT_EQ(back[Limb::RightFoot], l[Limb::LeftFoot]);
}

TEST(EndNodeLabels, ExtraEndsStayUnlabelled)
{
    const CurveSkeleton s = stickFigure(/*tail=*/true);
    ASSERT_EQ(s.count(NodeType::End), 6);
    const EndNodeLabels l = suggestEndNodeLabels(s);
    EXPECT_EQ(l, stickLabels(s));
    EXPECT_NO_THROW(validateLabels(s, l));
}

// Curve skeletons of the generated humanoid, one extraction per pose per process.
const CurveSkeleton& humanoidSkeleton(HumanoidPose pose)
{
    static std::mutex mutex;
    static std::map<HumanoidPose, CurveSkeleton> cache;
    const std::lock_guard lock(mutex);
    auto it = cache.find(pose);
    if (it == cache.end())
        it = cache.emplace(pose, extractCurveSkeleton(generateHumanoid({.pose = pose}).mesh).refined).first;
    return it->second;
}

class HumanoidLabels : public ::testing::TestWithParam<HumanoidPose> {};

TEST_P(HumanoidLabels, AutoLabelsMatchTheGroundTruth)
{
    const Humanoid h = generateHumanoid({.pose = GetParam()});
    const CurveSkeleton& s = humanoidSkeleton(GetParam());
    const EndNodeLabels l = suggestEndNodeLabels(s);
    ASSERT_NO_THROW(validateLabels(s, l));
    // Each label is the end node nearest to its extremity, and nearer to it than
    // to any other extremity.
    const std::array<std::string, limbCount> tips = {"HeadTop", "LeftHandTip", "RightHandTip", "LeftToeTip",
                                                     "RightToeTip"};
    for (Limb limb : allLimbs) {
        const Vec3 p = s.positions.row(l[limb]).transpose();
        int nearest = -1;
        double best = 1e9;
        for (size_t e = 0; e < h.endEffectorNames.size(); ++e) {
            const double d = (h.endEffectors.row(static_cast<Eigen::Index>(e)).transpose() - p).norm();
            if (d < best) {
                best = d;
                nearest = static_cast<int>(e);
            }
        }
        ASSERT_GE(nearest, 0);
        EXPECT_EQ(h.endEffectorNames[static_cast<size_t>(nearest)], tips[static_cast<size_t>(limb)])
            << limbKey(limb) << " in pose " << humanoidPoseName(GetParam());
    }
}

INSTANTIATE_TEST_SUITE_P(AllPoses, HumanoidLabels, ::testing::ValuesIn(allHumanoidPoses()),
                         [](const ::testing::TestParamInfo<HumanoidPose>& info) {
                             std::string name(humanoidPoseName(info.param));
                             std::erase(name, '-');
                             return name;
                         });

} // namespace
} // namespace rig
