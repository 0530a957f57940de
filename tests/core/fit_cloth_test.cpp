// Legs joined by cloth (issue 14): the generated character in a long skirt and
// in a robe, fitted from its mesh alone, against the generator's true joints.
#include "core/character/humanoid.h"
#include "core/rig/fit_checks.h"
#include "core/rig/fit_template.h"
#include "core/skeleton/extract.h"
#include "tests/support/stick_figure.h"

#include <gtest/gtest.h>

namespace rig {
namespace {

struct ClothFit {
    Humanoid truth;
    FitResult fit;
};

ClothFit fitDressed(HumanoidGarment garment)
{
    ClothFit c;
    c.truth = generateHumanoid({.pose = HumanoidPose::A, .garment = garment});
    const CurveSkeleton s = extractCurveSkeleton(c.truth.mesh).refined;
    c.fit = fitTemplate(s, suggestEndNodeLabels(s), builtinTemplate("humanoid21"));
    return c;
}

/// Distance of a fitted joint from the generator's, in % of the height.
double errorPercent(const ClothFit& c, const std::string& name)
{
    const auto f = c.fit.skeleton.find(name);
    const auto it = std::find(c.truth.jointNames.begin(), c.truth.jointNames.end(), name);
    EXPECT_TRUE(f.has_value() && it != c.truth.jointNames.end()) << name;
    const auto g = static_cast<Eigen::Index>(it - c.truth.jointNames.begin());
    return 100.0 * (c.fit.skeleton.bindPositions.row(*f) - c.truth.joints.row(g)).norm() / c.truth.height;
}

TEST(FitCloth, SkirtAndRobePutHipsAndKneesWhereTheBodysAre)
{
    for (HumanoidGarment g : {HumanoidGarment::LongSkirt, HumanoidGarment::Robe}) {
        const ClothFit c = fitDressed(g);
        EXPECT_TRUE(c.fit.legsJoinedByCloth);
        ASSERT_FALSE(c.fit.notes.empty());
        EXPECT_NE(c.fit.notes.front().find("legs joined by cloth"), std::string::npos);
        double sum = 0.0;
        for (const char* j : {"Hips", "LeftUpLeg", "RightUpLeg", "LeftLeg", "RightLeg", "LeftFoot", "RightFoot"}) {
            const double e = errorPercent(c, j);
            EXPECT_LT(e, 4.0) << j; // at the hem (before): hips 28-40 %, knees 15 %
            sum += e;
        }
        EXPECT_LT(sum / 7.0, 3.0);
        EXPECT_TRUE(checkFit(c.fit.skeleton, builtinTemplate("humanoid21")).empty());
        // Placed by proportions, not seen: a warning on the upper leg, not only a note (issue 39).
        const std::vector<FitWarning> w = fitWarnings(c.fit, builtinTemplate("humanoid21"));
        ASSERT_EQ(w.size(), 1u);
        EXPECT_EQ(w[0].kind, "legs_from_proportions");
        ASSERT_GE(w[0].joint, 0);
        EXPECT_EQ(c.fit.skeleton.names[static_cast<size_t>(w[0].joint)], "LeftUpLeg");
    }
}

TEST(FitCloth, BareLegsAreNotTakenForCloth)
{
    const ClothFit c = fitDressed(HumanoidGarment::None);
    EXPECT_FALSE(c.fit.legsJoinedByCloth);
    EXPECT_TRUE(c.fit.notes.empty());
    EXPECT_TRUE(fitWarnings(c.fit, builtinTemplate("humanoid21")).empty());
    // Off: the thesis's placement, the hips at the hem of a skirt, warned about.
    ClothFit s;
    s.truth = generateHumanoid({.pose = HumanoidPose::A, .garment = HumanoidGarment::LongSkirt});
    const CurveSkeleton k = extractCurveSkeleton(s.truth.mesh).refined;
    FitOptions off;
    off.legsJoinedByCloth = false;
    s.fit = fitTemplate(k, suggestEndNodeLabels(k), builtinTemplate("humanoid21"), off);
    EXPECT_GT(errorPercent(s, "Hips"), 10.0);
}

// Issue 39: a big-headed figure (the head 55 % of its height, as game
// characters are) in shorts has its legs' fork at 28 % of the height, far
// below the template's hips (54 %) - but right below its arms. It was taken
// for legs joined by cloth and its hips went to 54 %, above its chest (on
// rignet-val the rule fired on 52 humanoids, their mean joint error 17 % of
// the height against 12 % without it). The fork is low only against the
// chest's height, and a hips placement at or above the chest is not cloth.
TEST(FitCloth, ABigHeadIsNotCloth)
{
    test::StickBuilder b;
    const int hips = b.add({0.0, 0.28, 0.0});
    const int chest = b.line(hips, {0.0, 0.42, 0.0});
    b.line(b.line(chest, {0.0, 0.48, 0.0}), {0.0, 0.98, 0.0}); // neck, then a head half the height
    b.line(b.line(chest, {0.1, 0.42, 0.0}), {0.3, 0.3, 0.0});
    b.line(b.line(chest, {-0.1, 0.42, 0.0}), {-0.3, 0.3, 0.0});
    b.line(b.line(hips, {0.06, 0.14, 0.0}), {0.06, 0.02, 0.04});
    b.line(b.line(hips, {-0.06, 0.14, 0.0}), {-0.06, 0.02, 0.04});
    const CurveSkeleton s = b.build();
    EndNodeLabels labels;
    labels[Limb::Head] = test::nodeNear(s, {0.0, 0.98, 0.0});
    labels[Limb::LeftHand] = test::nodeNear(s, {0.3, 0.3, 0.0});
    labels[Limb::RightHand] = test::nodeNear(s, {-0.3, 0.3, 0.0});
    labels[Limb::LeftFoot] = test::nodeNear(s, {0.06, 0.02, 0.04});
    labels[Limb::RightFoot] = test::nodeNear(s, {-0.06, 0.02, 0.04});
    const FitResult fit = fitTemplate(s, labels, builtinTemplate("humanoid21"));
    EXPECT_FALSE(fit.legsJoinedByCloth) << (fit.notes.empty() ? "" : fit.notes.front());
    const double hipsHeight = fit.skeleton.bindPositions(*fit.skeleton.find("Hips"), 1);
    EXPECT_LT(hipsHeight, 0.36); // at the fork (0.28), not at 54 % of the height
}

} // namespace
} // namespace rig
