#include "ui/viewport/weight_colors.h"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

namespace rig::ui {
namespace {

TEST(WeightColors, UnsegmentedVerticesAreMagentaInBothViews)
{
    Segmentation seg;
    seg.bone = {-1, 2};
    seg.delta = {0.0, 0.5};
    SkinWeights w;
    w.joints.setZero(2, 4);
    w.weights.setZero(2, 4);
    w.weights(0, 0) = w.weights(1, 0) = 1.0f;
    EXPECT_EQ(segmentColors(seg)[0], glm::vec3(1, 0, 1));
    EXPECT_EQ(weightColors(w, seg, 0)[0], glm::vec3(1, 0, 1));
    EXPECT_NE(weightColors(w, seg, 0)[1], glm::vec3(1, 0, 1));
}

TEST(WeightColors, HeatMapRunsFromBlueToRedAndClamps)
{
    EXPECT_GT(heatColor(0.0f).b, heatColor(0.0f).r);
    EXPECT_GT(heatColor(1.0f).r, heatColor(1.0f).b);
    EXPECT_EQ(heatColor(-3.0f), heatColor(0.0f));
    EXPECT_EQ(heatColor(7.0f), heatColor(1.0f));
    EXPECT_EQ(heatColor(std::nanf("")), heatColor(0.0f));
}

TEST(WeightColors, HeatMapSumsTheJointsSlots)
{
    Segmentation seg;
    seg.bone = {1};
    seg.delta = {1.0};
    SkinWeights w;
    w.joints.resize(1, 4);
    w.joints << 3, 5, 0, 0;
    w.weights.resize(1, 4);
    w.weights << 0.75f, 0.25f, 0.0f, 0.0f;
    EXPECT_EQ(weightColors(w, seg, 3)[0], heatColor(0.75f));
    EXPECT_EQ(weightColors(w, seg, 5)[0], heatColor(0.25f));
    // Joint 0 fills the unused slots with weight 0: it must read as 0.
    EXPECT_EQ(weightColors(w, seg, 0)[0], heatColor(0.0f));
}

TEST(WeightColors, TheHumanoidsBonesGetDistinctColours)
{
    for (int a = -1; a < 21; ++a)
        for (int b = a + 1; b < 21; ++b)
            EXPECT_GT(glm::distance(segmentColor(a), segmentColor(b)), 0.1f) << a << " vs " << b;
}

} // namespace
} // namespace rig::ui
