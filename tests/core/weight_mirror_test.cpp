#include "core/skin/weight_mirror.h"

#include "core/common/error.h"
#include "core/skin/weight_paint.h"

#include "tests/support/expect_error.h"
#include "tests/support/paint_fixture.h"
#include "tests/support/weight_checks.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rig {
namespace {

using test::paintCharacter;
using test::PaintCharacter;

/// Largest difference between the dense weights of u and those of its twin with joints swapped.
double mirrorRowDifference(const SkinWeights& w, int u, int t, const std::vector<int>& twins)
{
    const int joints = static_cast<int>(twins.size());
    std::vector<double> a(static_cast<size_t>(joints), 0.0), b(static_cast<size_t>(joints), 0.0);
    for (int s = 0; s < w.maxInfluences; ++s) {
        a[static_cast<size_t>(w.joints(u, s))] += w.weights(u, s);
        b[static_cast<size_t>(twins[static_cast<size_t>(w.joints(t, s))])] += w.weights(t, s);
    }
    double d = 0.0;
    for (int j = 0; j < joints; ++j)
        d = std::max(d, std::abs(a[static_cast<size_t>(j)] - b[static_cast<size_t>(j)]));
    return d;
}

TEST(WeightMirror, NamesSwapTheirSideInEveryConvention)
{
    EXPECT_EQ(mirroredNameKey("LeftArm"), "right arm");
    EXPECT_EQ(mirroredNameKey("mixamorig:RightHand"), "left hand");
    EXPECT_EQ(mirroredNameKey("Bip01 L UpperArm"), "bip 01 r upper arm");
    EXPECT_EQ(mirroredNameKey("upperarm_l"), "upperarm r");
    EXPECT_EQ(mirroredNameKey("hand.L"), "hand r");
    EXPECT_EQ(mirroredNameKey("hand.R"), "hand l");
    EXPECT_EQ(mirroredNameKey("LShoulder"), "r shoulder");
    EXPECT_EQ(mirroredNameKey("leftfoot"), "rightfoot");
    EXPECT_EQ(nameKey("Bip01 R UpperArm"), "bip 01 r upper arm");
    EXPECT_EQ(nameKey("upperarm_r"), "upperarm r");
    EXPECT_FALSE(mirroredNameKey("Spine1").has_value());
    EXPECT_FALSE(mirroredNameKey("Head").has_value());
    EXPECT_FALSE(mirroredNameKey("Hips").has_value());
}

TEST(WeightMirror, EveryLeftJointOfTheDefaultRigPairsWithItsRightTwin)
{
    const Skeleton& s = paintCharacter().skeleton;
    const JointMirror m = mirrorJoints(s);
    EXPECT_EQ(m.namePairs, 8);
    EXPECT_EQ(m.positionPairs, 0);
    EXPECT_NEAR(m.plane.offset, 0.0, 1e-9);
    int left = 0;
    for (int j = 0; j < s.jointCount(); ++j) {
        const std::string& name = s.names[static_cast<size_t>(j)];
        const int t = m.twin[static_cast<size_t>(j)];
        EXPECT_EQ(m.twin[static_cast<size_t>(t)], j);
        if (name.rfind("Left", 0) == 0) {
            ++left;
            EXPECT_EQ(s.names[static_cast<size_t>(t)], "Right" + name.substr(4));
        } else if (name.rfind("Right", 0) != 0) {
            EXPECT_EQ(t, j) << name;
        }
    }
    EXPECT_EQ(left, 8);
}

TEST(WeightMirror, JointsWithoutSideNamesPairByPosition)
{
    const Skeleton& s = paintCharacter().skeleton;
    Skeleton anonymous = s;
    for (int j = 0; j < s.jointCount(); ++j)
        anonymous.names[static_cast<size_t>(j)] = "joint" + std::to_string(j);
    const JointMirror named = mirrorJoints(s), placed = mirrorJoints(anonymous);
    EXPECT_EQ(placed.namePairs, 0);
    EXPECT_EQ(placed.positionPairs, 8);
    EXPECT_EQ(placed.twin, named.twin);
    Skeleton broken = s;
    broken.parents[2] = 5;
    EXPECT_THROW(mirrorJoints(broken), InvalidInput);
}

TEST(WeightMirror, TheGeneratedCharactersVerticesMirrorOntoEachOther)
{
    const PaintCharacter& c = paintCharacter();
    const VertexMirror m = vertexMirror(c.mesh.V, mirrorJoints(c.skeleton).plane);
    ASSERT_EQ(m.twin.size(), static_cast<size_t>(c.mesh.vertexCount()));
    // The shape is symmetric, its polygonization (marching tetrahedra, 17.5 mm cells)
    // is not vertex for vertex: a reflected vertex lies within a cell of its twin.
    const double cell = 0.0175;
    EXPECT_LT(m.maxDistance, cell);
    int left = 0, right = 0;
    for (int v = 0; v < c.mesh.vertexCount(); ++v) {
        const int t = m.twin[static_cast<size_t>(v)];
        if (std::abs(c.mesh.V(v, 0)) > cell) {
            EXPECT_EQ(m.side[static_cast<size_t>(t)], -m.side[static_cast<size_t>(v)]) << "vertex " << v;
        }
        left += m.side[static_cast<size_t>(v)] > 0;
        right += m.side[static_cast<size_t>(v)] < 0;
    }
    // Marching tetrahedra split cells unevenly: the sides hold 11376 and 10620 vertices.
    EXPECT_GT(left, 0.4 * c.mesh.vertexCount());
    EXPECT_GT(right, 0.4 * c.mesh.vertexCount());
    EXPECT_THROW(vertexMirror(c.mesh.V, SymmetryPlane{std::nan("")}), InvalidInput);
}

TEST(WeightMirror, MirrorWeightsCopiesOneSideOntoTheOther)
{
    const PaintCharacter& c = paintCharacter();
    const JointMirror jm = mirrorJoints(c.skeleton);
    const VertexMirror vm = vertexMirror(c.mesh.V, jm.plane);
    // Make the sides differ first: paint the left arm only.
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    for (int i = 0; i < 10; ++i)
        painter.apply(BrushDab{.centre = Vec3(0.45 + 0.02 * i, 1.2 - 0.02 * i, 0.0), .radius = 0.15, .strength = 0.6,
                               .tool = PaintTool::Add, .joint = *c.skeleton.find("LeftForeArm")});
    const SkinWeights painted = painter.weights();
    for (MirrorDirection dir : {MirrorDirection::LeftToRight, MirrorDirection::RightToLeft}) {
        const signed char source = dir == MirrorDirection::LeftToRight ? 1 : -1;
        const SkinWeights out = mirrorWeights(painted, vm, jm.twin, dir);
        test::expectValidWeights(out, c.mesh.vertexCount(), c.skeleton.jointCount());
        double worst = 0.0, before = 0.0;
        int checked = 0;
        for (int u = 0; u < c.mesh.vertexCount(); ++u) {
            const int t = vm.twin[static_cast<size_t>(u)];
            if (vm.side[static_cast<size_t>(u)] != -source) {
                ASSERT_TRUE(out.weights.row(u) == painted.weights.row(u)) << "source-side vertex " << u << " changed";
                continue;
            }
            if (vm.side[static_cast<size_t>(t)] == -source)
                continue; // the twin is on the target side too: nothing to copy
            worst = std::max(worst, mirrorRowDifference(out, u, t, jm.twin));
            before = std::max(before, mirrorRowDifference(painted, u, t, jm.twin));
            ++checked;
        }
        EXPECT_GT(checked, c.mesh.vertexCount() / 3);
        EXPECT_GT(before, 0.1); // the painting made the sides differ
        EXPECT_LE(worst, 1e-6);
    }
}

TEST(WeightMirror, AStrokeOnOneSidePaintsTheOther)
{
    const PaintCharacter& c = paintCharacter();
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    painter.setMirror(true);
    const JointMirror& jm = painter.jointMirror();
    const VertexMirror& vm = painter.vertexMirrorMap();
    std::vector<int> all;
    for (int i = 0; i < 30; ++i) {
        const std::vector<int> r =
            painter.apply(BrushDab{.centre = Vec3(-0.3 - 0.01 * i, 1.3 - 0.01 * i, 0.0), .radius = 0.1,
                                   .strength = 0.4, .tool = i % 3 == 2 ? PaintTool::Smooth : PaintTool::Subtract,
                                   .joint = *c.skeleton.find("RightArm")});
        all.insert(all.end(), r.begin(), r.end());
    }
    int mirrored = 0;
    double worst = 0.0;
    for (int u : all)
        if (vm.side[static_cast<size_t>(u)] > 0) { // the left side, painted by the mirror
            worst = std::max(worst, mirrorRowDifference(painter.weights(), u, vm.twin[static_cast<size_t>(u)], jm.twin));
            ++mirrored;
        }
    EXPECT_GT(mirrored, 50);
    EXPECT_LE(worst, 1e-6);
}

TEST(WeightMirror, MirroringKeepsLockedJointsAndRejectsMismatchedSizes)
{
    const PaintCharacter& c = paintCharacter();
    const JointMirror jm = mirrorJoints(c.skeleton);
    const VertexMirror vm = vertexMirror(c.mesh.V, jm.plane);
    WeightPainter painter(c.mesh, c.skeleton, c.weights);
    for (int i = 0; i < 5; ++i)
        painter.apply(BrushDab{.centre = Vec3(0.2, 0.9 - 0.05 * i, 0.05), .radius = 0.2, .strength = 0.5,
                               .tool = PaintTool::Add, .joint = *c.skeleton.find("LeftUpLeg")});
    std::vector<char> locked(static_cast<size_t>(c.skeleton.jointCount()), 0);
    const int rightThigh = *c.skeleton.find("RightUpLeg");
    locked[static_cast<size_t>(rightThigh)] = 1;
    const SkinWeights out = mirrorWeights(painter.weights(), vm, jm.twin, MirrorDirection::LeftToRight, locked);
    test::expectValidWeights(out, c.mesh.vertexCount(), c.skeleton.jointCount());
    const Eigen::MatrixXd a = denseWeights(painter.weights(), c.skeleton.jointCount());
    const Eigen::MatrixXd b = denseWeights(out, c.skeleton.jointCount());
    EXPECT_EQ(a.col(rightThigh), b.col(rightThigh));
    EXPECT_NE(a, b);
    test::expectError<InvalidInput>(
        [&] { mirrorWeights(painter.weights(), vm, std::vector<int>(3, 0), MirrorDirection::LeftToRight); },
        "names joint");
    SkinWeights fewer = out;
    fewer.joints.conservativeResize(10, Eigen::NoChange);
    fewer.weights.conservativeResize(10, Eigen::NoChange);
    test::expectError<InvalidInput>([&] { mirrorWeights(fewer, vm, jm.twin, MirrorDirection::LeftToRight); },
                                    "the mirror map");
}

} // namespace
} // namespace rig
