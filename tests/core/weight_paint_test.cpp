#include "core/skin/weight_paint.h"

#include "core/common/error.h"

#include "tests/support/expect_error.h"
#include "tests/support/paint_fixture.h"
#include "tests/support/weight_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace rig {
namespace {

using test::paintCharacter;
using test::PaintCharacter;

int paintJoint(const std::string& name) { return *paintCharacter().skeleton.find(name); }

double paintWeightOf(const SkinWeights& w, int v, int joint)
{
    for (int s = 0; s < w.maxInfluences; ++s)
        if (w.joints(v, s) == joint && w.weights(v, s) > 0.0f)
            return w.weights(v, s);
    return 0.0;
}

bool paintRowEqual(const SkinWeights& a, const SkinWeights& b, int v)
{
    return a.joints.row(v) == b.joints.row(v) && a.weights.row(v) == b.weights.row(v);
}

/// The vertex nearest to the middle of a joint's bone (a point on the surface near it).
int paintVertexNear(const std::string& joint)
{
    const PaintCharacter& c = paintCharacter();
    const int j = paintJoint(joint);
    const Vec3 p = c.skeleton.bindPositions.row(j).transpose();
    int best = 0;
    for (int v = 1; v < c.mesh.vertexCount(); ++v)
        if ((c.mesh.V.row(v).transpose() - p).squaredNorm() < (c.mesh.V.row(best).transpose() - p).squaredNorm())
            best = v;
    return best;
}

Vec3 paintPoint(int v) { return paintCharacter().mesh.V.row(v).transpose(); }

TEST(WeightPaint, BadInputIsRejectedWithAClearMessageAndChangesNothing)
{
    const PaintCharacter& c = paintCharacter();
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    BrushDab ok{.centre = paintPoint(paintVertexNear("LeftForeArm")), .radius = 0.05, .joint = paintJoint("LeftForeArm")};
    BrushDab dab = ok;
    dab.centre.x() = std::nan("");
    test::expectError<InvalidInput>([&] { painter.apply(dab); }, "brush centre is not finite");
    dab = ok;
    dab.radius = -0.1;
    test::expectError<InvalidInput>([&] { painter.apply(dab); }, "radius must be positive");
    dab.radius = 0.0;
    test::expectError<InvalidInput>([&] { painter.apply(dab); }, "radius must be positive");
    dab = ok;
    dab.strength = 1.5;
    test::expectError<InvalidInput>([&] { painter.apply(dab); }, "strength must lie in [0, 1]");
    dab = ok;
    dab.joint = c.skeleton.jointCount();
    test::expectError<InvalidInput>([&] { painter.apply(dab); }, "is not one of the skeleton's 21");
    dab.joint = -1;
    test::expectError<InvalidInput>([&] { painter.apply(dab); }, "pick a joint to paint");
    painter.setLocked(ok.joint, true);
    test::expectError<InvalidInput>([&] { painter.apply(ok); }, "'LeftForeArm' is locked");
    GradientFill g = boneGradient(c.skeleton, paintJoint("LeftArm"), 0.1);
    g.end = g.start;
    test::expectError<InvalidInput>([&] { painter.apply(g); }, "start and end coincide");
    test::expectError<InvalidInput>([&] { boneGradient(c.skeleton, 99, 0.1); }, "joint 99");
    test::expectError<InvalidInput>([&] { painter.setLocked(-3, true); }, "joint -3");
    SkinWeights bad = c.weights;
    bad.weights(0, 0) = 2.0f;
    EXPECT_THROW(painter.setWeights(bad), InvalidInput);
    EXPECT_THROW(WeightPainter(c.mesh, c.skeleton, bad), InvalidInput);
    EXPECT_TRUE(painter.weights().weights == c.weights.weights);
    EXPECT_TRUE(painter.weights().joints == c.weights.joints);
}

TEST(WeightPaint, EveryToolKeepsTheWeightsValidAfterEveryDab)
{
    const PaintCharacter& c = paintCharacter();
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    painter.setLocked(paintJoint("Spine1"), true);
    std::mt19937 rng(18);
    std::uniform_int_distribution<int> vertex(0, c.mesh.vertexCount() - 1), joint(0, c.skeleton.jointCount() - 1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const PaintTool tools[] = {PaintTool::Add, PaintTool::Subtract, PaintTool::Set, PaintTool::Smooth};
    const BrushFalloff falloffs[] = {BrushFalloff::Smooth, BrushFalloff::Linear, BrushFalloff::Constant};
    for (int i = 0; i < 120; ++i) {
        BrushDab dab;
        dab.centre = paintPoint(vertex(rng));
        dab.radius = 0.02 + 0.2 * unit(rng);
        dab.strength = unit(rng);
        dab.value = unit(rng);
        dab.tool = tools[i % 4];
        dab.falloff = falloffs[(i / 4) % 3];
        dab.joint = joint(rng);
        if (painter.isLocked(dab.joint))
            dab.joint = paintJoint("Head");
        painter.setMirror(i % 2 == 0);
        painter.apply(dab);
        if (i % 10 == 0) {
            const int g = joint(rng);
            painter.apply(boneGradient(c.skeleton, painter.isLocked(g) ? paintJoint("LeftLeg") : g, 0.1));
        }
        ASSERT_NO_FATAL_FAILURE(test::expectValidWeights(painter.weights(), c.mesh.vertexCount(),
                                                         c.skeleton.jointCount()))
            << "after dab " << i;
    }
}

TEST(WeightPaint, LockedJointsKeepTheirWeightsBitForBit)
{
    const PaintCharacter& c = paintCharacter();
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    const int arm = paintJoint("LeftArm"), hand = paintJoint("LeftHand"), fore = paintJoint("LeftForeArm");
    painter.setLocked(arm, true);
    painter.setLocked(hand, true);
    painter.setMirror(true);
    const Vec3 elbow = paintPoint(paintVertexNear("LeftForeArm"));
    const Vec3 wrist = paintPoint(paintVertexNear("LeftHand"));
    for (PaintTool tool : {PaintTool::Add, PaintTool::Subtract, PaintTool::Set, PaintTool::Smooth})
        for (int i = 0; i <= 20; ++i)
            painter.apply(BrushDab{.centre = elbow + (wrist - elbow) * (i / 20.0), .radius = 0.12, .strength = 0.7,
                                   .tool = tool, .joint = fore, .value = 0.5});
    painter.apply(boneGradient(c.skeleton, fore, 0.15));
    int changed = 0;
    for (int v = 0; v < c.mesh.vertexCount(); ++v) {
        for (int j : {arm, hand})
            ASSERT_EQ(paintWeightOf(painter.weights(), v, j), paintWeightOf(c.weights, v, j)) << "vertex " << v;
        changed += paintRowEqual(painter.weights(), c.weights, v) ? 0 : 1;
    }
    EXPECT_GT(changed, 100); // the strokes did paint
}

TEST(WeightPaint, OnlyVerticesWithinTheBrushChange)
{
    const PaintCharacter& c = paintCharacter();
    for (bool mirror : {false, true}) {
        WeightPainter painter(c.mesh, c.skeleton, c.weights);
        painter.setMirror(mirror);
        const Vec3 centre = paintPoint(paintVertexNear("LeftUpLeg"));
        const double radius = 0.08;
        for (PaintTool tool : {PaintTool::Add, PaintTool::Smooth, PaintTool::Subtract, PaintTool::Set}) {
            const SkinWeights before = painter.weights();
            const std::vector<int> rewritten = painter.apply(BrushDab{.centre = centre, .radius = radius, .strength = 0.8,
                                                                      .falloff = BrushFalloff::Constant, .tool = tool,
                                                                      .joint = paintJoint("LeftUpLeg"), .value = 0.2});
            int changed = 0;
            const Vec3 mirrored(-centre.x(), centre.y(), centre.z());
            const double slack = painter.vertexMirrorMap().maxDistance;
            for (int v = 0; v < c.mesh.vertexCount(); ++v) {
                if (paintRowEqual(before, painter.weights(), v))
                    continue;
                ++changed;
                const double d = (paintPoint(v) - centre).norm();
                const double dm = (paintPoint(v) - mirrored).norm();
                ASSERT_TRUE(d <= radius || (mirror && dm <= radius + slack))
                    << "vertex " << v << " changed at " << d << " from the brush (mirror " << mirror << ")";
                ASSERT_TRUE(std::binary_search(rewritten.begin(), rewritten.end(), v));
            }
            EXPECT_GT(changed, 10) << "tool " << static_cast<int>(tool);
        }
    }
}

TEST(WeightPaint, AddRaisesSubtractLowersAndSetReachesTheValue)
{
    const PaintCharacter& c = paintCharacter();
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    const int v = paintVertexNear("RightLeg"); // the knee
    const int j = paintJoint("RightUpLeg");
    const double w0 = paintWeightOf(painter.weights(), v, j);
    ASSERT_GT(w0, 0.0);
    ASSERT_LT(w0, 1.0);
    BrushDab dab{.centre = paintPoint(v), .radius = 0.05, .strength = 0.2, .tool = PaintTool::Add, .joint = j};
    painter.apply(dab);
    const double w1 = paintWeightOf(painter.weights(), v, j);
    EXPECT_NEAR(w1, std::min(1.0, w0 + 0.2), 1e-6);
    dab.tool = PaintTool::Subtract;
    dab.strength = 0.5;
    painter.apply(dab);
    EXPECT_NEAR(paintWeightOf(painter.weights(), v, j), std::max(0.0, w1 - 0.5), 1e-6);
    dab.tool = PaintTool::Set;
    dab.strength = 1.0;
    dab.value = 0.3;
    dab.falloff = BrushFalloff::Constant;
    const std::vector<int> rewritten = painter.apply(dab);
    for (int u : rewritten)
        EXPECT_NEAR(paintWeightOf(painter.weights(), u, j), 0.3, 1e-6) << "vertex " << u;
}

TEST(WeightPaint, SubtractingTheOnlyJointGivesTheWeightToItsParent)
{
    const PaintCharacter& c = paintCharacter();
    SkinWeights one = c.weights;
    const int head = paintJoint("Head"), neck = paintJoint("Neck");
    for (int v = 0; v < one.vertexCount(); ++v) {
        one.joints.row(v).setZero();
        one.weights.row(v).setZero();
        one.joints(v, 0) = head;
        one.weights(v, 0) = 1.0f;
    }
    WeightPainter painter(c.mesh, c.skeleton, one);
    const int v = paintVertexNear("Head");
    painter.apply(BrushDab{.centre = paintPoint(v), .radius = 0.03, .strength = 0.25, .falloff = BrushFalloff::Constant,
                           .tool = PaintTool::Subtract, .joint = head});
    EXPECT_NEAR(paintWeightOf(painter.weights(), v, head), 0.75, 1e-6);
    EXPECT_NEAR(paintWeightOf(painter.weights(), v, neck), 0.25, 1e-6);
}

TEST(WeightPaint, SmoothingLowersTheVariationUnderTheBrush)
{
    const PaintCharacter& c = paintCharacter();
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    const int j = paintJoint("LeftForeArm");
    const Vec3 centre = paintPoint(paintVertexNear("LeftForeArm"));
    // A sharp edge first: set the forearm to 1 on one half of the brush.
    painter.apply(BrushDab{.centre = centre, .radius = 0.04, .strength = 1.0, .falloff = BrushFalloff::Constant,
                           .tool = PaintTool::Set, .joint = j, .value = 1.0});
    const VertexAdjacency adj = vertexAdjacency(c.mesh.vertexCount(), c.mesh.F);
    const auto energy = [&](const SkinWeights& w) {
        double e = 0.0;
        for (int v = 0; v < c.mesh.vertexCount(); ++v) {
            if ((paintPoint(v) - centre).norm() > 0.12)
                continue;
            for (int a = adj.start[static_cast<size_t>(v)]; a < adj.start[static_cast<size_t>(v) + 1]; ++a) {
                const double d = paintWeightOf(w, v, j) - paintWeightOf(w, adj.nbr[static_cast<size_t>(a)], j);
                e += d * d;
            }
        }
        return e;
    };
    const double before = energy(painter.weights());
    for (int i = 0; i < 5; ++i)
        painter.apply(BrushDab{.centre = centre, .radius = 0.1, .strength = 1.0, .tool = PaintTool::Smooth});
    const double after = energy(painter.weights());
    EXPECT_LT(after, 0.5 * before) << before << " -> " << after;
}

TEST(WeightPaint, GradientFollowsTheBone)
{
    const PaintCharacter& c = paintCharacter();
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    const int j = paintJoint("RightArm");
    const GradientFill g = boneGradient(c.skeleton, j, 0.08);
    EXPECT_EQ(g.start, Vec3(c.skeleton.bindPositions.row(j).transpose()));
    EXPECT_EQ(g.end, Vec3(c.skeleton.bindPositions.row(paintJoint("RightForeArm")).transpose()));
    const std::vector<int> rewritten = painter.apply(g);
    ASSERT_GT(rewritten.size(), 50u);
    const Vec3 axis = g.end - g.start;
    for (int v : rewritten) {
        const double t = std::clamp((paintPoint(v) - g.start).dot(axis) / axis.squaredNorm(), 0.0, 1.0);
        EXPECT_NEAR(paintWeightOf(painter.weights(), v, j), 1.0 - t, 1e-6) << "vertex " << v << " t " << t;
    }
}

TEST(WeightPaint, PosedPositionsMoveTheBrush)
{
    const PaintCharacter& c = paintCharacter();
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    MatrixX3d moved = c.mesh.V;
    moved.col(1).array() += 10.0; // the whole character lifted 10 units
    painter.setPositions(moved);
    const int v = paintVertexNear("Head");
    const BrushDab at{.centre = paintPoint(v), .radius = 0.05, .tool = PaintTool::Add, .joint = paintJoint("Neck")};
    EXPECT_TRUE(painter.apply(at).empty()); // nothing there any more
    BrushDab lifted = at;
    lifted.centre.y() += 10.0;
    const std::vector<int> rewritten = painter.apply(lifted);
    EXPECT_TRUE(std::binary_search(rewritten.begin(), rewritten.end(), v));
    EXPECT_THROW(painter.setPositions(MatrixX3d(3, 3)), InvalidInput);
}

} // namespace
} // namespace rig
