#include "core/skin/locked_weights.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rig {
namespace {

/// One vertex with the given (joint, weight) slots, k = 4.
SkinWeights lockedRowOf(std::vector<std::pair<int, float>> slots)
{
    SkinWeights w;
    w.joints.setZero(1, 4);
    w.weights.setZero(1, 4);
    for (size_t s = 0; s < slots.size(); ++s) {
        w.joints(0, static_cast<int>(s)) = slots[s].first;
        w.weights(0, static_cast<int>(s)) = slots[s].second;
    }
    return w;
}

double lockedWeightOf(const SkinWeights& w, int joint)
{
    for (int s = 0; s < w.maxInfluences; ++s)
        if (w.joints(0, s) == joint && w.weights(0, s) > 0.0f)
            return w.weights(0, s);
    return 0.0;
}

double lockedRowSum(const SkinWeights& w)
{
    double sum = 0.0;
    for (int s = 0; s < w.maxInfluences; ++s)
        sum += w.weights(0, s);
    return sum;
}

std::vector<char> lockedFlags(std::initializer_list<int> joints)
{
    std::vector<char> f(10, 0);
    for (int j : joints)
        f[static_cast<size_t>(j)] = 1;
    return f;
}

TEST(LockedWeights, LockedJointsKeepTheirFloatsAndTheRestFillsWhatTheyLeave)
{
    SkinWeights w = lockedRowOf({{1, 0.5f}, {2, 0.3f}, {3, 0.2f}});
    const float locked = w.weights(0, 1); // joint 2
    // Paint joint 1 to 0.9: joint 2 is locked at 0.3, so joint 1 gets at most 0.7 and joint 3 nothing.
    ASSERT_TRUE(setLockedRow(w, 0, {{1, 0.9}, {2, 0.6}, {3, 0.2}}, 1, lockedFlags({2})));
    EXPECT_EQ(static_cast<float>(lockedWeightOf(w, 2)), locked);
    EXPECT_NEAR(lockedWeightOf(w, 1), 0.7, 1e-6);
    EXPECT_EQ(lockedWeightOf(w, 3), 0.0);
    EXPECT_NEAR(lockedRowSum(w), 1.0, 1e-6);
}

TEST(LockedWeights, TheFixedJointKeepsItsWeightAndTheOthersShareTheRestInProportion)
{
    SkinWeights w = lockedRowOf({{1, 0.6f}, {2, 0.3f}, {3, 0.1f}});
    ASSERT_TRUE(setLockedRow(w, 0, {{1, 0.6}, {2, 0.3}, {3, 0.1}, {4, 0.5}}, 4, {}));
    EXPECT_NEAR(lockedWeightOf(w, 4), 0.5, 1e-6);
    EXPECT_NEAR(lockedWeightOf(w, 1), 0.3, 1e-6);
    EXPECT_NEAR(lockedWeightOf(w, 2), 0.15, 1e-6);
    EXPECT_NEAR(lockedWeightOf(w, 3), 0.05, 1e-6);
    // Slots sorted by decreasing weight.
    for (int s = 1; s < 4; ++s)
        EXPECT_GE(w.weights(0, s - 1), w.weights(0, s));
}

TEST(LockedWeights, AFifthInfluenceDropsTheSmallestUnlockedOne)
{
    SkinWeights w = lockedRowOf({{1, 0.4f}, {2, 0.3f}, {3, 0.2f}, {5, 0.1f}});
    ASSERT_TRUE(setLockedRow(w, 0, {{1, 0.4}, {2, 0.3}, {3, 0.2}, {5, 0.1}, {6, 0.05}}, 6, lockedFlags({5})));
    EXPECT_NEAR(lockedWeightOf(w, 6), 0.05, 1e-6);                     // the painted joint stays
    EXPECT_EQ(static_cast<float>(lockedWeightOf(w, 5)), 0.1f);          // locked, though smallest
    EXPECT_EQ(lockedWeightOf(w, 3), 0.0);                              // the smallest unlocked went
    EXPECT_NEAR(lockedWeightOf(w, 1) / lockedWeightOf(w, 2), 0.4 / 0.3, 1e-5);
    EXPECT_NEAR(lockedRowSum(w), 1.0, 1e-6);
}

TEST(LockedWeights, AFullyLockedRowNeverChanges)
{
    const SkinWeights start = lockedRowOf({{1, 0.4f}, {2, 0.3f}, {3, 0.2f}, {4, 0.1f}});
    SkinWeights w = start;
    setLockedRow(w, 0, {{7, 1.0}}, 7, lockedFlags({1, 2, 3, 4}));
    EXPECT_TRUE(w.weights == start.weights);
    EXPECT_TRUE(w.joints == start.joints);
}

TEST(LockedWeights, NothingUnlockedToScaleLeavesTheRowAsItWas)
{
    const SkinWeights start = lockedRowOf({{1, 0.5f}, {2, 0.5f}});
    SkinWeights w = start;
    EXPECT_FALSE(setLockedRow(w, 0, {{1, 0.0}, {2, -1.0}}, -1, lockedFlags({1})));
    EXPECT_TRUE(w.weights == start.weights);
    // A fixed joint with nothing else unlocked takes all that the locks leave.
    ASSERT_TRUE(setLockedRow(w, 0, {{2, 0.2}}, 2, lockedFlags({1})));
    EXPECT_NEAR(lockedWeightOf(w, 2), 0.5, 1e-6);
    EXPECT_NEAR(lockedRowSum(w), 1.0, 1e-6);
}

} // namespace
} // namespace rig
