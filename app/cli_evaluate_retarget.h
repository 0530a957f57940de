#pragma once
/// @file cli_evaluate_retarget.h
/// The retargeting section of `rigsmith evaluate` (issue 22): each of the
/// file's animations retargeted onto the auto rig and scored against the
/// artist's own deformation (core/eval/retarget_eval.h).

#include "core/eval/joint_map.h"
#include "core/project/rig_project.h"
#include "core/skin/weight_methods.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rig::app {

/// Scores every animation of the file skeleton of `fittedProject`'s character
/// (see the file comment) on its fitted rig, prints one table row per clip and
/// returns the JSON array of the report's "retarget" key. The auto rig is
/// weighted by core's weights stage with `weights` (evaluate's --retarget-weights
/// method with the --weight-params given for it; the header names them).
/// Per clip failures are reported in the row, never thrown.
nlohmann::json evaluateRetargetSection(const RigProject& fittedProject, const CanonicalJointMap& artistMap, double height,
                                       const WeightOptions& weights);

} // namespace rig::app
