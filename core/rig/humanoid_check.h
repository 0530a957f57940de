#pragma once
/// @file humanoid_check.h
/// "Does this look like a humanoid?" - checked before the 21-joint humanoid
/// template is fitted (thesis §2.4-2.5 assume a standing humanoid with five
/// skeleton ends: head, two hands, two feet). Without it a truck, an engine, a
/// quadruped or the bone boxes Assimp builds for a BVH clip all have five ends
/// and were rigged as humanoids with no notice (issue 21).
///
/// The check reads the mesh's proportions in the +Y-up frame of import and the
/// ends of its curve skeleton:
/// - no body axis: the figure is much wider or deeper than it is tall
///   (height < `minHeightRatio` x its largest horizontal extent; a standing
///   humanoid, even in a T-pose, is about as wide as it is tall), or as deep
///   and as wide as it is tall (a vehicle; `maxThicknessRatio`);
/// - many limbs: more than `maxLongEnds` skeleton ends at the tip of a branch
///   longer than `longBranch` of the figure's size (the segment from the end
///   to its junction): the eight legs of a spider. A humanoid has at most five
///   (head, hands, feet); its fingers and toes, once the curve skeleton
///   resolves them, are short branches off the hand and foot;
/// - many ends: more than `maxEnds` skeleton ends of any length (the parts of
///   a machine). Before, this bound (12) was the only one and refused
///   `mrfixit.iqm` at resolutions 200-255, whose eight fingers the curve
///   skeleton resolves there (13 ends: 2 feet, 3 at the head, 8 fingertips);
/// - quadruped proportions: `maxGroundEnds` + 1 or more ends reach the ground
///   band (the lowest `groundBand` of the height) - legs, not two feet -
///   unless they form two or three feet: ends joined by the skeleton below
///   `footHeight` of the height are one foot, as a fine skeleton forks a foot
///   into heel and toe ends (before, `rig --ends auto --resolution 255`
///   refused both Red Eclipse players as "4 skeleton ends reach the ground");
///   ends that all meet low (one blob: a figure on its head) stay refused;
/// - legs across: more than `maxMidLimbs` long-branch ends between the ground
///   band and the top band, where a standing humanoid has its two hands
///   (three on the devset's Cesium Man, none to two on the others at n = 80,
///   155 and 255). `--up auto` takes a figure's longest axis as up, which stands
///   a quadruped on its nose or tail with its four legs sticking out sideways:
///   Testwuson.X so oriented has four, and before this reason it was refused only
///   while enough of its head's short ends happened to reach the ground band;
/// The three counts above (many limbs, many ends, legs across) and "as deep
/// and as wide as it is tall" apply only when
/// no head, two arms and two legs are found among the ends
/// (`findHumanoidEnds()`, core/skeleton/humanoid_ends.h, issue 39) with at
/// least `plausibleBody` confidence: with a body found, the other ends are
/// hair, hats, capes, tails, wings and weapons, which also make an upright
/// biped's box deep. A body found with less than `confidentBody` rigs with a
/// doubt (`HumanoidCheck::doubts`, a warning), not a refusal: the artist
/// checks four labels rather than placing five. Extra ground ends beside the
/// feet of a confident body (a robe's hem, a cape, a staff, a tail) are a
/// doubt too; beside a doubtful one they stay "legs of an animal";
/// - a partial skeleton: the refined curve skeleton (its largest piece) spans
///   less than `minSkeletonSpan` of the height, where a humanoid's runs from
///   its feet to its head (0.87-0.92 of the height on the devset, BCN, the
///   default character's poses at n = 80-255): E-AT-AT.q3o at n = 155 keeps a
///   piece 0.20 of its height, which before was refused only because its five
///   automatic labels happened not to make a head, two arms and two legs;
/// - no end on the ground: no skeleton end within `groundBand` of the bottom,
///   where a humanoid's feet are (every humanoid of the devset, BCN, the
///   default character's poses, mrfixit, HUMAN.blend and human.zae has two to
///   four there): the Collada duck, whose curve runs from its tail to its
///   beak, and a house (regr01.obj) were rigged as humanoids;
/// - a motion clip's skeleton: a BVH file read as a character is a set of bone boxes.
/// `explainTooFewEnds()` names the cause when the skeleton has too few ends
/// (flat, collinear, in pieces) and `looksUpsideDown()` a figure standing on its head.

#include "core/mesh/mesh.h"
#include "core/skeleton/curve_skeleton.h"

#include <string>
#include <vector>

namespace rig {

struct HumanoidCheckOptions {
    double minHeightRatio = 0.45; ///< Height over the largest horizontal extent below this: no body axis.
    /// The smaller horizontal extent over the height above this: no body axis
    /// either (a humanoid is thin front to back: 0.17 in a T-pose, 0.54 sitting).
    double maxThicknessRatio = 0.75;
    /// More skeleton ends than this: not a humanoid's five (head, hands, feet)
    /// with its fingers and a few more for toes, ears or hair.
    int maxEnds = 24;
    /// More ends than this at the tip of a long branch (see `longBranch`):
    /// limbs of a spider, not a humanoid's head, two hands and two feet.
    int maxLongEnds = 6;
    /// A branch (end to junction, along the curve skeleton) at least this
    /// fraction of the figure's size (its largest extent) is a limb; shorter
    /// ones are fingers, toes, ears (mrfixit: fingers 7-10 %, feet 53 %; the
    /// spider's legs 67-78 %).
    double longBranch = 0.2;
    double groundBand = 0.1;      ///< Fraction of the height above the lowest point that counts as the ground.
    int maxGroundEnds = 3;        ///< More feet than this on the ground: legs of a quadruped.
    /// Ground ends joined by the skeleton's nodes below this fraction of the
    /// height are one foot (heel and toe meet at the foot or the ankle; two
    /// legs meet at the body, higher up).
    double footHeight = 0.2;
    /// More ends of long branches (`longBranch`) than this between the ground
    /// band and the top band (`groundBand` of the height each): legs across.
    int maxMidLimbs = 3;
    /// The curve skeleton spanning less than this fraction of the height: a partial skeleton.
    double minSkeletonSpan = 0.5;
    /// A body (head, two arms, two legs: `findHumanoidEnds()`) found with at
    /// least this confidence explains ends and limbs beyond five as extra
    /// branches; below it they count against the figure as before.
    double confidentBody = 0.5;
    /// A body found with less confidence than this explains nothing: its best
    /// head, arms and legs are too far from a standing humanoid's. On
    /// rignet-val (n = 155) the bodies of the refused humanoids had 0.08-0.49,
    /// those of the non-humanoids 0.04-0.49 (issue 39, bench/notes/standard-benchmark.md).
    double plausibleBody = 0.2;
};

/// Something that does not refuse the figure but makes its rig doubtful: a
/// warning in the report ("kind": "doubtful_body", "extra_ground_ends").
struct HumanoidDoubt {
    std::string kind;
    std::string message;
};

struct HumanoidCheck {
    /// Why the figure does not look like a humanoid, one phrase each; empty when it does.
    std::vector<std::string> reasons;
    /// The body found in the skeleton (core/skeleton/humanoid_ends.h), or why none was.
    std::string body;
    double bodyConfidence = 0.0; ///< Its confidence, 0 when none was found.
    bool bodyConfident = false;  ///< Found with at least `HumanoidCheckOptions::confidentBody`.
    /// What makes the rig of a figure that passes doubtful: its body found
    /// with little confidence or not at all ("the head, hands and feet were
    /// chosen with little confidence (...): check the labels"), ends on the
    /// ground beside its feet. Empty for a figure refused.
    std::vector<HumanoidDoubt> doubts;
    bool looksHumanoid() const { return reasons.empty(); }
    /// "This does not look like a humanoid (REASON; REASON): the humanoid rig will be wrong." or empty.
    std::string message() const;
};

/// Checks a mesh (in the +Y-up frame of import) and its curve skeleton.
/// `format` is the file's extension as import reports it ("bvh", "fbx", ...).
HumanoidCheck checkHumanoid(const Mesh& mesh, const CurveSkeleton& skeleton, const std::string& format = {},
                            const HumanoidCheckOptions& options = {});

/// Why a curve skeleton has fewer than five ends, when the mesh says so: "the
/// mesh is flat (...)", "the mesh is nearly a line (...)", "the mesh is in N
/// separate pieces (...)"; empty when no such cause is seen.
std::string explainTooFewEnds(const Mesh& mesh, const CurveSkeleton& skeleton);

/// True when the figure seems to stand on its head: one end on the ground and
/// two or more at the top (feet up), the opposite of a standing humanoid.
bool looksUpsideDown(const Mesh& mesh, const CurveSkeleton& skeleton, const HumanoidCheckOptions& options = {});

} // namespace rig
