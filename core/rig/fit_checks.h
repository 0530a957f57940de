#pragma once
/// @file fit_checks.h
/// Plausibility checks of a fitted rig (issue 14, "never silent"): a fit that
/// succeeded but put joints where no body has them carries a warning naming
/// the joint, what is wrong and what to try, instead of passing unnoticed.
///
/// Checks, on the template's chains (template.h) at the fitted positions,
/// heights along `up`:
///  - hips below the knees: the hips joint lower than either knee (the leg
///    chain's second joint). Typical of a skirt or robe, whose curve skeleton
///    forks at the hem, or of feet labels on the hands;
///  - left and right limbs of very different lengths: an arm or leg chain more
///    than `maxSideRatio` times as long as its twin (the shorter one is named);
///  - a limb shorter than a third of its template proportion: its length over
///    the template's, divided by the spine's length over the template's, below
///    `minLimbProportion`;
///  - the spine top below the shoulders: the chest joint lower than half way
///    from the hips to the upper-arm roots (the arm chains' first joints).

#include "core/rig/fit_template.h"
#include "core/rig/skeleton.h"
#include "core/rig/template.h"

#include <string>
#include <vector>

namespace rig {

struct FitWarning {
    std::string kind;    ///< "hips_below_knees", "limb_lengths_differ", "limb_too_short", "spine_top_low", "legs_from_proportions".
    int joint = -1;      ///< The joint it concerns (selected in the GUI).
    std::string message; ///< One sentence a user can act on.
};

struct FitCheckOptions {
    Vec3 up = Vec3::UnitY();         ///< The character's up.
    double maxSideRatio = 1.3;       ///< Longest over shortest of a left/right pair, > 1.
    double minLimbProportion = 1.0 / 3.0; ///< Of the template's proportion, (0, 1).
};

/// Checks `skeleton`, fitted from `rigTemplate` (same joints, same order).
/// Returns the warnings, empty for a plausible fit. A template without the
/// five chains, hips or chest is not checked (no warnings).
/// @throws rig::InvalidInput (naming `rig::checkFit()`) when the skeleton and
///         the template have different joint counts.
std::vector<FitWarning> checkFit(const Skeleton& skeleton, const RigTemplate& rigTemplate,
                                 const FitCheckOptions& options = {});

/// The warnings of a fit from `rigTemplate` (the template it was fitted with:
/// humanoid51 for a rig with fingers, `templateOfFit()`): `checkFit()`'s, and
/// "legs_from_proportions" (on the left upper leg) where the legs were found
/// joined by cloth (`FitResult::legsJoinedByCloth`): their hips, upper legs
/// and knees were placed by the template's proportions, not seen on the mesh
/// (issue 39: "robes ... from body proportions when it does not, with a
/// warning").
std::vector<FitWarning> fitWarnings(const FitResult& fit, const RigTemplate& rigTemplate,
                                    const FitCheckOptions& options = {});

} // namespace rig
