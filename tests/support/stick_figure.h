#pragma once
/// @file stick_figure.h
/// Hand-built curve skeletons for tests: polylines sampled every 5 cm, joined at
/// shared junction nodes. +Y up, facing +Z, the figure's left on +X.

#include "core/skeleton/curve_skeleton.h"

#include <array>
#include <vector>

namespace rig::test {

struct StickBuilder {
    std::vector<Vec3> points;
    std::vector<std::array<int, 2>> edges;
    /// Adds a lone node; returns its index.
    int add(const Vec3& p);
    /// Nodes from node `from` to point b (b included); returns b's node.
    int line(int from, const Vec3& b);
    /// The finalized curve skeleton (radii 4 cm).
    CurveSkeleton build() const;
};

/// The node of `s` nearest to `p` (the lowest index among equals): a stick
/// figure's nodes are renumbered by `build()`, so tests find them by position.
int nodeNear(const CurveSkeleton& s, const Vec3& p);

} // namespace rig::test
