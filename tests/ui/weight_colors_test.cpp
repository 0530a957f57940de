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

// Issue 19 item 6: the segment view's palette is assigned by graph colouring,
// so segments that touch on the surface never share a colour.
TEST(WeightColors, TouchingSegmentsGetDifferentPaletteColours)
{
    // A fan of 12 triangles around vertex 0 (bone 0), rim vertices bones 1..12
    // in turn: bone k touches 0, k-1 and k+1 (a wheel graph, 4-colourable).
    Segmentation seg;
    seg.bone.push_back(0);
    seg.delta.push_back(1.0);
    for (int k = 1; k <= 12; ++k) {
        seg.bone.push_back(k);
        seg.delta.push_back(1.0);
    }
    MatrixX3i F(12, 3);
    for (int k = 0; k < 12; ++k)
        F.row(k) << 0, 1 + k, 1 + (k + 1) % 12;
    const auto adjacency = segmentAdjacency(seg, F);
    ASSERT_EQ(adjacency.size(), 13u);
    EXPECT_EQ(adjacency[0].size(), 12u);
    EXPECT_EQ(adjacency[5], (std::vector<int>{0, 4, 6}));
    const std::vector<int> colour = colourSegments(adjacency);
    for (int a = 0; a < 13; ++a) {
        ASSERT_GE(colour[size_t(a)], 0);
        ASSERT_LT(colour[size_t(a)], segmentPaletteSize);
        for (int b : adjacency[size_t(a)])
            EXPECT_NE(colour[size_t(a)], colour[size_t(b)]) << a << " touches " << b;
    }
    // The vertex colours follow: every edge between two segments joins two colours.
    const std::vector<glm::vec3> c = segmentColors(seg, F);
    for (int k = 0; k < 12; ++k)
        EXPECT_GT(glm::distance(c[size_t(1 + k)], c[size_t(1 + (k + 1) % 12)]), 0.1f);
    EXPECT_GT(glm::distance(c[0], c[1]), 0.1f);
}

TEST(WeightColors, ThePaletteColoursAreFarApartAndFarFromMagenta)
{
    for (int a = 0; a < segmentPaletteSize; ++a) {
        EXPECT_GT(glm::distance(paletteColor(a), glm::vec3(1, 0, 1)), 0.45f) << a;
        for (int b = a + 1; b < segmentPaletteSize; ++b)
            EXPECT_GT(glm::distance(paletteColor(a), paletteColor(b)), 0.35f) << a << " vs " << b;
    }
}

} // namespace
} // namespace rig::ui
