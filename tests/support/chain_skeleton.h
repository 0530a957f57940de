#pragma once
/// @file chain_skeleton.h
/// A chain of joints at given positions: names "j0", "j1", …, parents[i] = i − 1.

#include "core/common/types.h"
#include "core/rig/skeleton.h"

#include <vector>

namespace rig::test {

/// Bind orientations the identity, or (with `orient`) from `orientBones()`.
Skeleton chainSkeleton(const std::vector<Vec3>& points, bool orient = false);

} // namespace rig::test
