#pragma once
/// @file cli_evaluate_standard.h
/// Private to app/: the standard benchmark's figures in `rigsmith evaluate`'s
/// report (issue 38): RigNet's skeleton metrics of the fitted rig against the
/// artist's (core/eval/skeleton_metrics.h), the skinning scores of each weight
/// method on the artist's skeleton (core/eval/skin_metrics.h), the outcome a
/// user of `fit --ends auto` would get, and the files the reference scorer reads.

#include "app/cli_common.h"
#include "core/eval/skeleton_metrics.h"
#include "core/eval/skin_metrics.h"
#include "core/rig/humanoid_check.h"

#include <optional>
#include <string>

namespace rig::app {

/// What `fit --ends auto` with the same options does with the character:
/// "rigged", "warned" (rigged with warnings), "refused" (the humanoid check's
/// reasons) or "failed" (labelling or fitting threw `fitError`).
json outcomeJson(const HumanoidCheck& check, const std::string& fitError, const json& warnings);

/// RigNet's skeleton metrics of `fitted` against `artist`, both in the frame of
/// `mesh` (the welded mesh, whose bounding box sets the normalised frame).
SkeletonMetrics standardSkeleton(const Skeleton& fitted, const Skeleton& artist, const Mesh& mesh);

/// The report's "standard.skeleton" object (CDs null where a skeleton has no bone).
json standardSkeletonJson(const SkeletonMetrics& m);

/// One skinning row: the method and its scores, in the units of the README.
json standardSkinJson(const std::string& method, const SkinMetrics& m);

/// The rig in the frame import read the file in (undoing `rotation`, the
/// orientation's), as `rigsmith fit --out` writes it, for `score.py skeleton`.
void writeRigInFileFrame(const std::string& path, const Skeleton& skeleton, const Eigen::Matrix3d& rotation,
                         const std::string& templateName);

/// The weights over the file's vertices, in the file's order, as the reference
/// scorer reads them (`{"joint_names", "joints", "weights"}`, sparse rows).
void writeWeightsForScorer(const std::string& path, const Skeleton& skeleton, const SkinWeights& weights,
                           std::span<const int> weldMap);

} // namespace rig::app
