#include "core/deform/deformers.h"

#include "core/common/error.h"
#include "core/deform/dqs.h"
#include "core/eval/skinning_timing.h"
#include "tests/support/expect_error.h"
#include "tests/support/test_methods.h"

#include <gtest/gtest.h>

#include <set>

namespace rig {
namespace {

using test::expectError;

TEST(Deformers, TheTableListsTheShaderDeformersInKeyOrder)
{
    const auto& table = deformers();
    ASSERT_GE(table.size(), 3u);
    // Keys 1, 2, 3 and the shader's uDeformer values 0, 1, 2.
    EXPECT_EQ(table[0].id, "lbs");
    EXPECT_EQ(table[1].id, "dqs");
    EXPECT_EQ(table[2].id, "twist");
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(table[size_t(i)].gpuProgram, i);
    EXPECT_TRUE(table[2].needsSegmentation);
    std::set<std::string> ids;
    for (const DeformerInfo& d : table) {
        EXPECT_TRUE(ids.insert(d.id).second) << d.id;
        EXPECT_TRUE(d.bind) << d.id;
        EXPECT_FALSE(d.shortTitle.empty()) << d.id;
    }
    expectError<InvalidInput>([] { findDeformer("fast"); }, "deformer 'fast' not understood; use lbs, dqs, twist");
    DeformerInfo copy = table[0];
    expectError<InvalidInput>([&] { registerDeformer(copy); }, "already exists");
}

TEST(Deformers, EveryDeformerReturnsTheRestMeshAtRestAndMovesRigidlyWithTheSkeleton)
{
    test::registerTestMethods();
    const SkinningScene s = makeSkinningScene(400);
    Mesh mesh;
    mesh.V = s.V;
    mesh.N = s.N;
    mesh.F = s.F;
    const DeformerInput in{mesh, s.weights, &s.segmentation, s.skeleton};
    Pose rigid = identityPose(s.skeleton);
    rigid.localRotations[0] = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized());
    rigid.rootTranslation = Vec3(0.3, -0.2, 1.0);
    Eigen::Isometry3d M = Eigen::Isometry3d::Identity();
    M.linear() = rigid.localRotations[0].toRotationMatrix();
    const PosedSkeleton posed = forwardKinematics(s.skeleton, rigid);
    M = posed.skinning[0];
    for (const DeformerInfo& d : deformers()) {
        SCOPED_TRACE(d.id);
        const DeformedMesh rest = deformOnce(d, in, identityPose(s.skeleton));
        EXPECT_LT((rest.V - s.V).cwiseAbs().maxCoeff(), 1e-5);
        const DeformedMesh moved = deformOnce(d, in, rigid);
        double err = 0.0;
        for (Eigen::Index i = 0; i < s.V.rows(); ++i)
            err = std::max(err, (moved.V.row(i).transpose() - M * Vec3(s.V.row(i).transpose())).norm());
        EXPECT_LT(err, 1e-4);
    }
}

TEST(Deformers, TheTwistDeformerNeedsASegmentation)
{
    const SkinningScene s = makeSkinningScene(400);
    Mesh mesh;
    mesh.V = s.V;
    const DeformerInput in{mesh, s.weights, nullptr, s.skeleton};
    expectError<InvalidInput>([&] { deformOnce(findDeformer("twist"), in, s.pose); }, "needs a segmentation");
    EXPECT_NO_THROW(deformOnce(findDeformer("lbs"), in, s.pose));
    // LBS through the table equals the kernel called directly.
    const DeformedMesh a = deformOnce(findDeformer("dqs"), in, s.pose);
    const DeformedMesh b = dqs(s.V, MatrixX3d(), s.weights, forwardKinematics(s.skeleton, s.pose).skinning);
    EXPECT_EQ(a.V, b.V);
}

/// `rigsmith bench skinning` times every row, the test-only one included.
TEST(Deformers, TheSkinningTimingTimesEveryDeformerOfTheTable)
{
    test::registerTestMethods();
    SkinningTimingOptions o;
    o.vertices = 400;
    o.repetitions = 1;
    o.minSeconds = 0.001;
    const SkinningTimings t = timeSkinning(o);
    ASSERT_EQ(t.deformers.size(), deformers().size());
    for (size_t i = 0; i < t.deformers.size(); ++i) {
        EXPECT_EQ(t.deformers[i].id, deformers()[i].id);
        EXPECT_GT(t.deformers[i].wall, 0.0);
    }
    EXPECT_EQ(t.deformers.back().id, test::testDeformerId);
}

// `usesWeights` is what the viewport trusts to keep a binding while weights
// are painted: a deformer that says it reads no weights deforms the same
// with any weights, and one that says it does, differently.
TEST(Deformers, UsesWeightsTellsWhetherTheWeightsChangeTheDeformation)
{
    const SkinningScene s = makeSkinningScene(400);
    Mesh mesh;
    mesh.V = s.V;
    mesh.N = s.N;
    mesh.F = s.F;
    // Other valid weights: every vertex wholly on the root.
    SkinWeights other = s.weights;
    other.joints.setZero();
    other.weights.setZero();
    other.weights.col(0).setOnes();
    int weightFree = 0;
    for (const DeformerInfo& d : deformers()) {
        SCOPED_TRACE(d.id);
        const DeformedMesh a = deformOnce(d, DeformerInput{mesh, s.weights, &s.segmentation, s.skeleton}, s.pose);
        const DeformedMesh b = deformOnce(d, DeformerInput{mesh, other, &s.segmentation, s.skeleton}, s.pose);
        const double change = (a.V - b.V).cwiseAbs().maxCoeff();
        if (d.usesWeights) {
            EXPECT_GT(change, 1e-3);
        } else {
            EXPECT_EQ(change, 0.0);
            ++weightFree;
        }
    }
    EXPECT_GE(weightFree, 2); // simplex and rigid-blended
}

} // namespace
} // namespace rig
