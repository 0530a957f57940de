#pragma once
/// @file weight_checks.h
/// `expectValidWeights()`: the properties every weight method's output must
/// have (tests of each method call it on their own inputs).

#include "core/skin/skin_weights.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rig::test {

/// #vertices rows, at most 4 slots, finite and non-negative, each row summing to 1 ± 1e-6.
inline void expectValidWeights(const SkinWeights& w, int vertices, int joints)
{
    ASSERT_EQ(w.vertexCount(), vertices);
    EXPECT_LE(w.maxInfluences, 4);
    EXPECT_NO_THROW(validateSkinWeights(w, vertices, joints));
    for (int i = 0; i < vertices; ++i) {
        double sum = 0.0;
        for (int s = 0; s < w.maxInfluences; ++s) {
            ASSERT_TRUE(std::isfinite(w.weights(i, s)));
            ASSERT_GE(w.weights(i, s), 0.0f);
            sum += w.weights(i, s);
        }
        ASSERT_NEAR(sum, 1.0, 1e-6) << "vertex " << i;
    }
}

} // namespace rig::test
