#pragma once
/// @file humanoid_ends.h
/// A humanoid's body found among the ends of its curve skeleton (issue 39;
/// not the retargeting's `BodyStructure` of a joint skeleton,
/// core/motion/skeleton_structure.h): of all the
/// skeleton's ends, the five that make a head, two arms and two legs, the
/// rest being extra branches the rig ignores (hair, ponytails, hats, capes,
/// weapons, shields, wings, tails). The humanoid check counts ends against a
/// figure only when no body is found with confidence (`checkHumanoid()`:
/// counting refused a knight with a helmet plume and a spear as "too many
/// limbs"), and the automatic labels are this body's (`suggestLabels()`).
///
/// Every choice of five ends (candidates: feet in the support band, a head in
/// the upper half, hands anywhere above the feet) is scored by how far it is
/// from a standing humanoid, as penalties in units of "clearly wrong" (1):
///  - the feet stand on the support (their height over `supportBand`);
///  - the legs, from each foot to the pelvis P (where the paths of the two
///    feet and the head meet in the skeleton), are of similar length and
///    at least `minLimb` of the height;
///  - the arms, from each hand to the chest C (where the paths of the two
///    hands and the head meet), are of similar length, at least `minLimb`,
///    leave the chest on opposite sides (their horizontal directions), and
///    reach as far from the chest's vertical as any end does (hands at rest
///    are the furthest ends: hair, ears and shoulder pads are nearer);
///  - the torso: C lies on the path from the head to P and above P, the head
///    above C and above P rather than ahead of it (the body upright, not a
///    bird's or a quadruped's running forward); each arm leaves the path from
///    the head to the feet above P; hands above the head cost (raised arms are
///    rare at rest), and so do hands at different heights (a rest pose is
///    symmetric), and hands on the support (legs).
/// The best choice is the body when its cost is at most `acceptCost`. The
/// confidence is 1 − cost / acceptCost.
/// Left and right come from where each limb leaves the body along
/// left = up × front.

#include "core/skeleton/curve_skeleton.h"
#include "core/skeleton/end_nodes.h"

#include <optional>
#include <string>
#include <vector>

namespace rig {

struct HumanoidEndsOptions {
    Vec3 up = Vec3::UnitY();    ///< The character stands along +up.
    Vec3 front = Vec3::UnitZ(); ///< It faces front (left = up × front).
    double supportBand = 0.2;   ///< Feet end within this fraction of the height above the lowest point.
    double headBand = 0.5;      ///< The head ends above this fraction of the height.
    double minLimb = 0.1;       ///< Shortest arm or leg, fraction of the height.
    double acceptCost = 1.5;    ///< A body costing more is not a humanoid's.
    int maxEnds = 64;           ///< Ends considered per role (the most relevant first).
};

struct HumanoidEnds {
    EndNodeLabels labels;        ///< The five ends.
    int pelvis = -1;             ///< Node where the legs meet the body.
    int chest = -1;              ///< Node where the arms meet the body.
    double cost = 0.0;           ///< Sum of the penalties (0: a textbook standing humanoid).
    double confidence = 0.0;     ///< In [0, 1].
    std::vector<int> extraEnds;  ///< The other ends, ascending.
    /// "head, two arms and two legs found (cost 0.21: legs 0.05, arms 0.12,
    /// torso 0.04; confidence 0.86, 3 extra branches)".
    std::string summary;
};

/// The best body of a standing humanoid in `skeleton` (a refined curve
/// skeleton); std::nullopt when it has fewer than five ends or no choice
/// costs at most `acceptCost` (`why`, when given, says what was missing).
/// `bottom` and `height` are the mesh's lowest point and extent along up.
std::optional<HumanoidEnds> findHumanoidEnds(const CurveSkeleton& skeleton, double bottom, double height,
                                               const HumanoidEndsOptions& options = {}, std::string* why = nullptr);

} // namespace rig
