#include "core/eval/bar_experiment.h"

#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"
#include "core/mesh/volume.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rig {
namespace {

TEST(BarExperiment, InvalidOptionsAreRejectedFirst)
{
    EXPECT_THROW(makeBar({.ringsPerUnit = 0, .sideSubdivisions = 4, .weights = BarWeights::Gaussian,
                          .blendHalfWidth = 0.5}),
                 InvalidInput);
    EXPECT_THROW(makeBar({.ringsPerUnit = 4, .sideSubdivisions = 4, .weights = BarWeights::Linear,
                          .blendHalfWidth = 0.0}),
                 InvalidInput);
    EXPECT_THROW(barTwistContinuity(10.0, 0.0), InvalidInput);
    const BarRig bar = makeBar();
    EXPECT_THROW(deformBar(bar, MatrixX3d::Zero(4, 3), findDeformer("lbs")), InvalidInput);
}

TEST(BarExperiment, TheBarIsAClosedTwoByEightByTwoBox)
{
    const BarRig bar = makeBar();
    EXPECT_TRUE(edgeTopology(bar.mesh.F).closedManifold());
    EXPECT_NEAR(signedVolume(bar.mesh), 32.0, 1e-9);
    EXPECT_EQ(bar.skeleton.jointCount(), 5);
    EXPECT_NO_THROW(validateSkinWeights(bar.weights, bar.mesh.vertexCount(), 5));
    EXPECT_NO_THROW(validateSegmentation(bar.segmentation, bar.mesh.vertexCount(), 5));
    // Identity pose: every method returns the rest bar.
    for (const DeformerInfo& d : deformers())
        EXPECT_LT((deformBar(bar, MatrixX3d::Zero(5, 3), d).V - bar.mesh.V).cwiseAbs().maxCoeff(), 1e-5) << d.id;
}

TEST(BarExperiment, VolumeTableAgainstThesisTable42)
{
    const BarVolumeTable t = barVolumeExperiment();
    ASSERT_EQ(t.steps.size(), 6u);
    EXPECT_NEAR(t.restVolume, 32.0, 1e-9);
    for (size_t i = 0; i < t.steps.size(); ++i) {
        const BarVolumeStep& s = t.steps[i];
        SCOPED_TRACE(s.rotation);
        // LBS shows its large loss (thesis 6.5–16.6 %).
        EXPECT_GT(s.error.at("lbs"), 5.0);
        // DQS within 1 % (thesis up to 1.02 %).
        EXPECT_LT(std::abs(s.error.at("dqs")), 1.0);
        // Twist-corrected: within 1 % on every step (issue 6's target), the
        // twists (steps 1–3) by the progressive twist of thesis §4.4, the
        // bends (steps 4–6) by the rigid blend of the swings (twist_lbs.h);
        // the thesis's method, LBS in bends, loses 2.0–3.9 % there.
        EXPECT_LT(std::abs(s.error.at("twist")), 1.0);
        EXPECT_LT(std::abs(s.error.at("twist")), s.thesis.at("twist") + 0.1);
    }
}

TEST(BarExperiment, CandyWrapperAt180Degrees)
{
    const CandyWrapper c = barCandyWrapper(180.0);
    EXPECT_GE(c.smallestRadius.at("twist"), 0.9);
    EXPECT_GE(c.smallestRadius.at("dqs"), 0.9);
    EXPECT_LT(c.smallestRadius.at("lbs"), 0.05);
}

TEST(BarExperiment, TwistSweepTo720DegreesIsContinuous)
{
    const TwistContinuity k = barTwistContinuity(720.0, 1.0, {.ringsPerUnit = 8, .sideSubdivisions = 4,
                                                              .weights = BarWeights::Gaussian,
                                                              .blendHalfWidth = 0.5});
    EXPECT_EQ(k.maxDegrees, 720.0);
    // Twist-corrected with the unwrapped angle: every step moves a vertex at
    // most as far as the rigid rotation of the outermost one.
    EXPECT_LT(k.series.at("twist").maxRatio, 1.5);
    // LBS is continuous (it collapses instead of jumping).
    EXPECT_LT(k.series.at("lbs").maxRatio, 1.5);
    // DQS jumps where the relative twist crosses 180° (hemisphere flip), and
    // so does the twist-corrected method fed the wrapped angle.
    EXPECT_GT(k.series.at("dqs").maxRatio, 20.0);
    EXPECT_NEAR(k.series.at("dqs").atDegrees, 181.0, 1.0);
    EXPECT_GT(k.wrapped.at("twist").maxRatio, 20.0);
    EXPECT_NEAR(k.wrapped.at("twist").atDegrees, 181.0, 1.0);
}

} // namespace
} // namespace rig
