#include "ui/viewport/weight_colors.h"

#include <glm/common.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace rig::ui {
namespace {

const glm::vec3 unsegmented(1.0f, 0.0f, 1.0f);

glm::vec3 hsv(float h, float s, float v)
{
    const float c = v * s;
    const float hp = std::fmod(h, 1.0f) * 6.0f;
    const float x = c * (1.0f - std::abs(std::fmod(hp, 2.0f) - 1.0f));
    glm::vec3 rgb;
    switch (int(hp)) {
    case 0: rgb = {c, x, 0}; break;
    case 1: rgb = {x, c, 0}; break;
    case 2: rgb = {0, c, x}; break;
    case 3: rgb = {0, x, c}; break;
    case 4: rgb = {x, 0, c}; break;
    default: rgb = {c, 0, x}; break;
    }
    return rgb + glm::vec3(v - c);
}

} // namespace

glm::vec3 segmentColor(int bone)
{
    if (bone < 0)
        return unsegmented;
    // Golden-angle hues squeezed into [0, 0.8) (the magenta band is kept for
    // errors), with three saturations and three values in turn, so the 21
    // bones of the humanoid stay far apart (tested).
    const float h = 0.8f * std::fmod(0.07f + 0.61803398875f * float(bone), 1.0f);
    static const float s[3] = {0.85f, 0.55f, 0.7f};
    static const float v[3] = {0.95f, 0.75f, 0.85f};
    return hsv(h, s[bone % 3], v[(bone / 3) % 3]);
}

glm::vec3 heatColor(float weight)
{
    static const std::array<glm::vec3, 5> stops = {glm::vec3(0.05f, 0.08f, 0.45f), glm::vec3(0.0f, 0.75f, 0.9f),
                                                   glm::vec3(0.15f, 0.85f, 0.2f), glm::vec3(1.0f, 0.9f, 0.1f),
                                                   glm::vec3(0.95f, 0.1f, 0.05f)};
    const float w = std::isfinite(weight) ? std::clamp(weight, 0.0f, 1.0f) : 0.0f;
    const float t = w * float(stops.size() - 1);
    const int i = std::min(int(t), int(stops.size()) - 2);
    return glm::mix(stops[size_t(i)], stops[size_t(i) + 1], t - float(i));
}

std::vector<glm::vec3> segmentColors(const Segmentation& segmentation)
{
    std::vector<glm::vec3> out(size_t(segmentation.vertexCount()));
    for (int v = 0; v < segmentation.vertexCount(); ++v) {
        const int bone = segmentation.bone[size_t(v)];
        const float delta = v < int(segmentation.delta.size()) ? float(segmentation.delta[size_t(v)]) : 1.0f;
        out[size_t(v)] = bone < 0 ? unsegmented : segmentColor(bone) * (0.7f + 0.3f * std::clamp(delta, 0.0f, 1.0f));
    }
    return out;
}

glm::vec3 paletteColor(int index)
{
    // Hand-picked: neighbours on the colour wheel alternate in lightness.
    static const std::array<glm::vec3, segmentPaletteSize> palette = {
        glm::vec3(0.90f, 0.30f, 0.24f), glm::vec3(0.20f, 0.42f, 0.92f), glm::vec3(0.98f, 0.80f, 0.22f),
        glm::vec3(0.24f, 0.70f, 0.30f), glm::vec3(0.58f, 0.38f, 0.82f), glm::vec3(0.98f, 0.62f, 0.72f),
        glm::vec3(0.25f, 0.88f, 0.85f), glm::vec3(0.50f, 0.32f, 0.18f), glm::vec3(0.72f, 0.92f, 0.45f)};
    const int n = segmentPaletteSize;
    return palette[size_t(((index % n) + n) % n)];
}

std::vector<std::vector<int>> segmentAdjacency(const Segmentation& segmentation, const MatrixX3i& F)
{
    int bones = 0;
    for (int b : segmentation.bone)
        bones = std::max(bones, b + 1);
    std::vector<std::vector<int>> adjacent(static_cast<size_t>(bones));
    const int n = segmentation.vertexCount();
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int k = 0; k < 3; ++k) {
            const int u = F(f, k), v = F(f, (k + 1) % 3);
            if (u < 0 || v < 0 || u >= n || v >= n)
                continue;
            const int a = segmentation.bone[size_t(u)], b = segmentation.bone[size_t(v)];
            if (a < 0 || b < 0 || a == b)
                continue;
            adjacent[size_t(a)].push_back(b);
            adjacent[size_t(b)].push_back(a);
        }
    for (auto& list : adjacent) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return adjacent;
}

std::vector<int> colourSegments(const std::vector<std::vector<int>>& adjacency)
{
    const int bones = int(adjacency.size());
    std::vector<int> order(static_cast<size_t>(bones));
    for (int b = 0; b < bones; ++b)
        order[size_t(b)] = b;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return adjacency[size_t(a)].size() > adjacency[size_t(b)].size(); });
    std::vector<int> colour(static_cast<size_t>(bones), -1);
    std::array<int, segmentPaletteSize> used{};
    for (int b : order) {
        std::array<int, segmentPaletteSize> taken{}; // how many coloured neighbours have each colour
        for (int n : adjacency[size_t(b)])
            if (n >= 0 && n < bones && colour[size_t(n)] >= 0)
                ++taken[size_t(colour[size_t(n)])];
        int best = 0;
        for (int c = 1; c < segmentPaletteSize; ++c)
            if (std::pair(taken[size_t(c)], used[size_t(c)]) < std::pair(taken[size_t(best)], used[size_t(best)]))
                best = c;
        colour[size_t(b)] = best;
        ++used[size_t(best)];
    }
    return colour;
}

std::vector<glm::vec3> segmentColors(const Segmentation& segmentation, const MatrixX3i& F)
{
    const std::vector<int> colour = colourSegments(segmentAdjacency(segmentation, F));
    std::vector<glm::vec3> out(size_t(segmentation.vertexCount()));
    for (int v = 0; v < segmentation.vertexCount(); ++v) {
        const int bone = segmentation.bone[size_t(v)];
        const float delta = v < int(segmentation.delta.size()) ? float(segmentation.delta[size_t(v)]) : 1.0f;
        out[size_t(v)] = bone < 0 ? unsegmented
                                  : paletteColor(colour[size_t(bone)]) * (0.7f + 0.3f * std::clamp(delta, 0.0f, 1.0f));
    }
    return out;
}

std::vector<glm::vec3> weightColors(const SkinWeights& weights, const Segmentation& segmentation, int joint)
{
    std::vector<glm::vec3> out(size_t(weights.vertexCount()));
    for (int v = 0; v < weights.vertexCount(); ++v) {
        if (v < segmentation.vertexCount() && segmentation.bone[size_t(v)] < 0) {
            out[size_t(v)] = unsegmented;
            continue;
        }
        float w = 0.0f;
        for (int k = 0; k < weights.maxInfluences; ++k)
            if (weights.joints(v, k) == joint)
                w += weights.weights(v, k);
        out[size_t(v)] = heatColor(w);
    }
    return out;
}

} // namespace rig::ui
