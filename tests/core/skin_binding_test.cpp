#include "core/deform/skin_binding.h"

#include "core/common/error.h"
#include "core/deform/dqs.h"
#include "core/deform/lbs.h"
#include "core/rig/pose.h"
#include "core/deform/skinning_kernels.h"
#include "core/eval/skinning_timing.h"
#include "core/deform/twist_lbs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace rig {
namespace {

/// The tube of the skinning bench with an odd vertex count (the AVX2 loops
/// work in pairs: the last vertex takes the single-vertex path).
SkinningScene oddScene()
{
    SkinningScene s = makeSkinningScene(1000);
    const Eigen::Index n = s.V.rows() - 1;
    s.V.conservativeResize(n, 3);
    s.N.conservativeResize(n, 3);
    s.weights.joints.conservativeResize(n, Eigen::NoChange);
    s.weights.weights.conservativeResize(n, Eigen::NoChange);
    s.segmentation.bone.resize(static_cast<size_t>(n));
    s.segmentation.delta.resize(static_cast<size_t>(n));
    return s;
}

SkinBinding bindAll(const SkinningScene& s)
{
    SkinBinding b = bindSkin(s.V, s.N, s.weights, s.skeleton.jointCount());
    bindTwist(b, s.segmentation, s.skeleton);
    return b;
}

double maxDifference(const SkinnedMesh& a, const DeformedMesh& b)
{
    double worst = 0.0;
    for (int i = 0; i < a.vertexCount(); ++i) {
        worst = std::max(worst, (a.position(i) - b.V.row(i).transpose()).cwiseAbs().maxCoeff());
        worst = std::max(worst, (a.normal(i) - b.N.row(i).transpose()).cwiseAbs().maxCoeff());
    }
    return worst;
}

TEST(SkinBinding, RejectsBadInputNamingTheProblem)
{
    const SkinningScene s = makeSkinningScene(400);
    SkinWeights bad = s.weights;
    bad.joints(7, 1) = s.skeleton.jointCount();
    EXPECT_THROW(bindSkin(s.V, s.N, bad, s.skeleton.jointCount()), InvalidInput);
    MatrixX3d nan = s.V;
    nan(3, 2) = std::numeric_limits<double>::quiet_NaN();
    try {
        bindSkin(nan, s.N, s.weights, s.skeleton.jointCount());
        FAIL() << "expected rig::InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("rig::bindSkin()"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("non-finite"), std::string::npos) << e.what();
    }
    EXPECT_THROW(bindSkin(s.V, s.N.topRows(10), s.weights, s.skeleton.jointCount()), InvalidInput);
    SkinBinding b = bindSkin(s.V, s.N, s.weights, s.skeleton.jointCount());
    Segmentation shortSeg = s.segmentation;
    shortSeg.bone.pop_back();
    EXPECT_THROW(bindTwist(b, shortSeg, s.skeleton), InvalidInput);
}

TEST(SkinBinding, PoseMustFitTheBinding)
{
    const SkinningScene s = makeSkinningScene(400);
    const SkinBinding plain = bindSkin(s.V, s.N, s.weights, s.skeleton.jointCount());
    PosedSkeleton ps = forwardKinematics(s.skeleton, s.pose);
    SkinnedMesh out;
    std::vector<Eigen::Isometry3d> fewer(ps.skinning.begin(), ps.skinning.end() - 1);
    try {
        lbs(plain, fewer, out);
        FAIL() << "expected rig::InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("bind it again"), std::string::npos) << e.what();
    }
    EXPECT_THROW(dqs(plain, fewer, out), InvalidInput);
    const TwistTransforms T = twistTransforms(s.skeleton, s.pose, ps);
    EXPECT_THROW(twistLbs(plain, T, out), InvalidInput) << "no twist data bound";
    // A skeleton whose joints moved after binding: its link axes differ.
    Skeleton moved = s.skeleton;
    moved.bindPositions(5, 0) += 0.1;
    const SkinBinding twisted = bindAll(s);
    const PosedSkeleton pm = forwardKinematics(moved, s.pose);
    EXPECT_THROW(twistLbs(twisted, twistTransforms(moved, s.pose, pm), out), InvalidInput);
}

TEST(SkinBinding, SortsInfluencesSoTheHeaviestIsTheDqsPivot)
{
    SkinningScene s = makeSkinningScene(400);
    // Reverse every vertex's slots: hand-made weights need not be sorted.
    SkinWeights reversed = s.weights;
    for (Eigen::Index i = 0; i < reversed.joints.rows(); ++i) {
        reversed.joints.row(i).reverseInPlace();
        reversed.weights.row(i).reverseInPlace();
    }
    const SkinBinding a = bindSkin(s.V, s.N, s.weights, s.skeleton.jointCount());
    const SkinBinding b = bindSkin(s.V, s.N, reversed, s.skeleton.jointCount());
    EXPECT_EQ(a.weights, b.weights);
    for (int i = 0; i < a.vertexCount; ++i) { // the pivot, unless tied
        if (a.weights[static_cast<size_t>(i * a.influences)] > a.weights[static_cast<size_t>(i * a.influences + 1)]) {
            EXPECT_EQ(a.jointOffset[static_cast<size_t>(i * a.influences)],
                      b.jointOffset[static_cast<size_t>(i * a.influences)]);
        }
    }
    for (int i = 0; i < a.vertexCount; ++i)
        for (int k = 1; k < a.influences; ++k)
            EXPECT_GE(a.weights[static_cast<size_t>(i * a.influences)],
                      a.weights[static_cast<size_t>(i * a.influences + k)]);
    // Every DQS table entry's pivot is the joint of its vertex's slot 0.
    for (int i = 0; i < a.vertexCount; ++i)
        for (int k = 0; k < a.influences; ++k) {
            const auto key = a.dqKeys[static_cast<size_t>(a.dqOffset[static_cast<size_t>(i * a.influences + k)] / 8)];
            EXPECT_EQ(key[0], a.jointOffset[static_cast<size_t>(i * a.influences)] / 16);
            EXPECT_EQ(key[1], a.jointOffset[static_cast<size_t>(i * a.influences + k)] / 16);
        }
    // A large twist between neighbours (past 180° relative): the pivot decides the hemisphere.
    s.pose.localRotations[6] = Eigen::AngleAxisd(3.5, Vec3::UnitY());
    const PosedSkeleton ps = forwardKinematics(s.skeleton, s.pose);
    const DeformedMesh x = dqs(s.V, s.N, s.weights, ps.skinning);
    const DeformedMesh y = dqs(s.V, s.N, reversed, ps.skinning);
    EXPECT_LT((x.V - y.V).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(SkinBinding, BoundFormMatchesTheConvenienceFormOnBothPathsAndReusesStorage)
{
    const SkinningScene s = oddScene();
    ASSERT_EQ(s.V.rows() % 2, 1);
    const SkinBinding b = bindAll(s);
    const PosedSkeleton ps = forwardKinematics(s.skeleton, s.pose);
    const TwistTransforms T = twistTransforms(s.skeleton, s.pose, ps);
    for (const bool portable : {false, true}) {
        skinning::forceScalar = portable;
        SkinnedMesh out;
        lbs(b, ps.skinning, out, {.threads = 1});
        const PackedVertex* storage = out.vertices.data();
        EXPECT_EQ(maxDifference(out, lbs(s.V, s.N, s.weights, ps.skinning)), 0.0) << portable;
        dqs(b, ps.skinning, out, {.threads = 1});
        EXPECT_EQ(out.vertices.data(), storage) << "no reallocation from frame to frame";
        EXPECT_EQ(maxDifference(out, dqs(s.V, s.N, s.weights, ps.skinning)), 0.0) << portable;
        twistLbs(b, T, out, {.threads = 1});
        EXPECT_EQ(out.vertices.data(), storage);
        EXPECT_EQ(maxDifference(out, twistLbs(s.V, s.N, s.weights, s.segmentation, T)), 0.0) << portable;
        // The last (unpaired) vertex is deformed like its neighbours: compare with the double reference.
        const int last = out.vertexCount() - 1;
        EXPECT_NEAR(out.normal(last).norm(), 1.0, 1e-5);
    }
    skinning::forceScalar = false;
}

TEST(SkinBinding, AvxAndPortablePathsAgreeOnEveryDeformer)
{
    const SkinningScene s = oddScene();
    SkinBinding b = bindAll(s);
    const PosedSkeleton ps = forwardKinematics(s.skeleton, s.pose);
    const TwistTransforms T = twistTransforms(s.skeleton, s.pose, ps);
    SkinnedMesh fast[3], portable[3];
    lbs(b, ps.skinning, fast[0]);
    dqs(b, ps.skinning, fast[1]);
    twistLbs(b, T, fast[2]);
    skinning::forceScalar = true;
    lbs(b, ps.skinning, portable[0]);
    dqs(b, ps.skinning, portable[1]);
    twistLbs(b, T, portable[2]);
    skinning::forceScalar = false;
    for (int m = 0; m < 3; ++m)
        for (int i = 0; i < fast[m].vertexCount(); ++i) {
            ASSERT_LT((fast[m].position(i) - portable[m].position(i)).norm(), 2e-5) << m << " vertex " << i;
            ASSERT_LT((fast[m].normal(i) - portable[m].normal(i)).norm(), 2e-5) << m << " vertex " << i;
            ASSERT_FLOAT_EQ(fast[m].vertices[static_cast<size_t>(i)].p[3], 1.0f) << m;
            ASSERT_EQ(fast[m].vertices[static_cast<size_t>(i)].n[3], 0.0f) << m;
        }
}

// The partial twist's sine and cos − 1 (skinning_kernels.h): exact at 0, float
// accuracy over several turns either way (twists past 360° are unwrapped).
TEST(SkinBinding, PartialTwistSineAndCosine)
{
    float s = 1.0f, c = 1.0f;
    skinning::sinCosm1(0.0f, s, c);
    EXPECT_EQ(s, 0.0f);
    EXPECT_EQ(c, 0.0f);
    double worst = 0.0;
    for (double x = -40.0; x <= 40.0; x += 0.00937) {
        skinning::sinCosm1(static_cast<float>(x), s, c);
        const double xf = static_cast<float>(x);
        worst = std::max({worst, std::abs(s - std::sin(xf)), std::abs(c - (std::cos(xf) - 1.0))});
    }
    EXPECT_LT(worst, 2e-6);
}

} // namespace
} // namespace rig
