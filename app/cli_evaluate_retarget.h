#pragma once
/// @file cli_evaluate_retarget.h
/// The retargeting section of `rigsmith evaluate` (issue 22): each of the
/// file's animations retargeted onto the auto rig and scored against the
/// artist's own deformation (core/eval/retarget_eval.h).

#include "core/eval/joint_map.h"
#include "core/import/mesh_import.h"
#include "core/mesh/mesh.h"
#include "core/rig/fit_template.h"
#include "core/skin/weight_methods.h"
#include "core/voxel/voxel_grid.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rig::app {

/// Scores every animation of `file` (see the file comment), prints one table
/// row per clip and returns the JSON array of the report's "retarget" key.
/// The auto rig is weighted with `weights` (evaluate's --retarget-weights
/// method with the --weight-params given for it; the header names them).
/// Per clip failures are reported in the row, never thrown.
nlohmann::json evaluateRetargetSection(const Mesh& mesh, const ImportedSkeleton& file, const CanonicalJointMap& artistMap,
                                       const FitResult& fitted, const VoxelGrid* solid, double height,
                                       const WeightOptions& weights);

} // namespace rig::app
