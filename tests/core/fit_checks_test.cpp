#include "core/rig/fit_checks.h"

#include "core/common/error.h"
#include "tests/support/skeletons.h"

#include <gtest/gtest.h>

namespace rig {
namespace {

const RigTemplate& humanoid21()
{
    static const RigTemplate t = builtinTemplate("humanoid21");
    return t;
}

/// The template's rest pose as a fitted rig: plausible by construction.
Skeleton restRig()
{
    return test::restSkeleton(humanoid21());
}

int joint(const Skeleton& s, const std::string& name)
{
    const auto j = s.find(name);
    EXPECT_TRUE(j.has_value()) << name;
    return j.value_or(0);
}

/// The first joint of a limb's chain that is neither the hips nor the chest.
int limbRoot(Limb l)
{
    const RigTemplate& t = humanoid21();
    for (int j : t.chainJoints[static_cast<size_t>(l)])
        if (j != t.hips && j != t.chest)
            return j;
    return -1;
}

bool has(const std::vector<FitWarning>& w, const std::string& kind, int joint)
{
    for (const FitWarning& x : w)
        if (x.kind == kind && x.joint == joint && !x.message.empty())
            return true;
    return false;
}

TEST(FitChecks, ThePlausibleRestRigHasNoWarning)
{
    EXPECT_TRUE(checkFit(restRig(), humanoid21()).empty());
    Skeleton wrong = restRig();
    wrong.names.pop_back();
    wrong.parents.pop_back();
    EXPECT_THROW(checkFit(wrong, humanoid21()), InvalidInput);
}

TEST(FitChecks, HipsBelowTheKnees)
{
    Skeleton s = restRig();
    const int hips = joint(s, "Hips");
    s.bindPositions(hips, 1) = s.bindPositions(joint(s, "LeftLeg"), 1) - 0.05; // at a skirt's hem
    EXPECT_TRUE(has(checkFit(s, humanoid21()), "hips_below_knees", hips));
}

TEST(FitChecks, LeftAndRightDiffer)
{
    Skeleton s = restRig();
    const int arm = joint(s, "LeftArm");
    for (const char* j : {"LeftForeArm", "LeftHand"}) { // pull the forearm and hand half way to the shoulder
        const int k = joint(s, j);
        s.bindPositions.row(k) = 0.5 * (s.bindPositions.row(k) + s.bindPositions.row(arm));
    }
    const auto w = checkFit(s, humanoid21());
    EXPECT_TRUE(has(w, "limb_lengths_differ", limbRoot(Limb::LeftHand)));
    EXPECT_FALSE(has(w, "limb_too_short", limbRoot(Limb::RightHand)));
}

TEST(FitChecks, ALimbFarTooShortAndALowSpineTop)
{
    Skeleton s = restRig();
    const RigTemplate& t = humanoid21();
    const auto& leg = t.chainJoints[static_cast<size_t>(Limb::RightFoot)];
    const int root = limbRoot(Limb::RightFoot);
    for (int j : leg) // the whole right leg shrunk to a fifth
        if (j != t.hips)
            s.bindPositions.row(j) = s.bindPositions.row(root) + 0.2 * (s.bindPositions.row(j) - s.bindPositions.row(root));
    const int chest = t.chest;
    s.bindPositions(chest, 1) = s.bindPositions(t.hips, 1) + 0.01;
    const auto w = checkFit(s, t);
    EXPECT_TRUE(has(w, "limb_too_short", limbRoot(Limb::RightFoot)));
    EXPECT_TRUE(has(w, "spine_top_low", chest));
}

} // namespace
} // namespace rig
