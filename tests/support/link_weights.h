#pragma once
/// @file link_weights.h
/// Weights of a segmentation for tests and benches: each link's vertices
/// follow its parent joint, blending 50/50 into the neighbouring joint at
/// either end (smoothstep over a quarter of the link). Simple and continuous
/// along chains; independent of the weights stage, so a test's pixels do not
/// move when the product's weights improve. Header-only (the UI benches use it
/// without the test support library).

#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <algorithm>

namespace rig::test {

inline SkinWeights linkWeights(const Segmentation& seg, const Skeleton& s)
{
    const int n = seg.vertexCount();
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(n, s.jointCount());
    auto smooth = [](double x) {
        x = std::clamp(x, 0.0, 1.0);
        return x * x * (3 - 2 * x);
    };
    for (int i = 0; i < n; ++i) {
        const int c = seg.bone[size_t(i)];
        const double d = seg.delta[size_t(i)];
        if (c <= 0) {
            W(i, 0) = 1.0;
            continue;
        }
        const int p = s.parents[size_t(c)], gp = s.parents[size_t(p)];
        const double toChild = 0.5 * smooth((d - 0.75) / 0.25);
        const double toGrand = gp >= 0 ? 0.5 * smooth((0.25 - d) / 0.25) : 0.0;
        W(i, c) += toChild;
        if (gp >= 0)
            W(i, gp) += toGrand;
        W(i, p) += 1.0 - toChild - toGrand;
    }
    return skinWeightsFromDense(W, 4);
}

} // namespace rig::test
