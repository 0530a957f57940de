#pragma once
/// @file skeletons.h
/// Skeletons the tests build: a chain of joints at given positions, and the
/// generator's own (ground-truth) skeleton of a humanoid.

#include "core/common/types.h"
#include "core/character/humanoid.h"
#include "core/rig/skeleton.h"
#include "core/rig/template.h"

#include <vector>

namespace rig::test {

/// Names "j0", "j1", …, parents[i] = i − 1; bind orientations the identity,
/// or (with `orient`) from `orientBones()`.
Skeleton chainSkeleton(const std::vector<Vec3>& points, bool orient = false);

/// A tree: names "j0", "j1", …, `parents` (parents[i] < i), joints at
/// `points`, bones oriented (`orientBones()`).
Skeleton treeSkeleton(const std::vector<int>& parents, const std::vector<Vec3>& points);

/// The generator's joints of `h` as a skeleton, bones oriented (`orientBones()`).
Skeleton groundTruthSkeleton(const Humanoid& h);

/// A template's rest pose as a rig: its names, parents and rest positions,
/// bind orientations the identity (a plausible fit by construction).
Skeleton restSkeleton(const RigTemplate& t);

} // namespace rig::test
