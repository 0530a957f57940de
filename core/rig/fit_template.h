#pragma once
/// @file fit_template.h
/// Logic skeleton adjustment (thesis §2.5, "Skeleton adjustment" and "Scaling
/// segments"): a `RigTemplate` is fitted onto a labelled geometric skeleton by
/// normalized arc length along matching segments, then every bone gets a bind
/// frame with a documented roll (`orientBones()`).
///
/// Segments. `assignRoot()` (core/skeleton/root.h) gives the hips, the chest
/// and node paths; the five geometric segments are
///   spine: hips -> chest -> head end node,  arms: chest -> hand end node,
///   legs: hips -> foot end node,
/// and the template's chains (template.h) are the same five. A joint whose
/// normalized rest arc length along its chain is t is placed at normalized arc
/// length t along the geometric segment, interpolating linearly between the two
/// nodes around it (thesis: "find their equivalent within the geometric
/// skeleton nodes ... that have approximately the same normalized distance").
/// Only distances along the curve are used, so the template's pose does not
/// matter (T-pose template, A-pose character). The curve skeleton runs through
/// the middle of each limb, so joints are centred in the limb.
///
/// One departure from the thesis, on by default (`FitOptions::extendTips`): a
/// curve skeleton stops about one local radius short of the surface (its end
/// node is the centre of the last maximal ball), while a template chain ends at
/// the extremity (its End Site: the top of the head, a fingertip, a toe tip). So
/// each geometric segment is extended past its end node by the end node's radius
/// along its last direction. Without it, every joint of a chain slides towards
/// the body by up to that radius (10 cm for the head at 1.75 m).
///
/// A second departure, also on by default (`FitOptions::armsFromShoulders`):
/// an arm segment starts at the chest node, on the midline and a hand below the
/// shoulders, so along it the clavicle lands inside the chest and the whole arm
/// slides inwards (5 cm at the elbows of the bundled humanoid). Instead, for an
/// arm chain that starts with a clavicle: the clavicle keeps its rest offset
/// from its spine joint (scaled with the spine; sideways towards the arm; up
/// along the fitted spine less its component across the body, from one arm's
/// root to the other's, so that a spine kinked off the midline does not carry
/// both clavicles to one side); the upper-arm joint goes where the segment
/// gets the clavicle's rest length away from it, which is where the arm leaves
/// the trunk; the elbow, wrist and hand follow at their rest arc lengths from
/// it along the segment, scaled by the segment's remaining length over the
/// template's, but never by less than the body's scale, the longest of the
/// spine's and the legs' (the curve skeleton of a flat hand stops half the
/// hand's width short of the fingertips, more than the tip extension restores;
/// bends only shorten a segment), except where the segment ends in a finger
/// (its end node's radius under 0.4 of the forearm's: it then reaches within
/// a finger's radius of the tip, and the floor stretched short arms, the
/// devset players' elbows 5-6 % of the height out along the arm). Only where
/// the arm segment's scale is within 15 % of the spine's (the template is in
/// the character's proportions; else, as for a CMU skeleton on the humanoid,
/// the thesis's placement).
///
/// A third departure, on by default (`FitOptions::kneesAtBends`): a curve
/// skeleton rounds a bent knee off inside the corner, so by normalized arc
/// length the knee slides down the shin (4 cm for the bundled humanoid
/// sitting). Where a leg segment bends by more than `FitOptions::minKneeBend`
/// near the knee's arc-length placement, the knee (the leg chain's inner joint
/// between its two longest bones) goes where the straight stretches of the
/// segment before and after the bend meet (joint placement at the point of
/// maximum bend). The knee's bend is measured no further down than half the
/// shin above the ankle's placement, so the ankle's own bend (on short legs
/// over long feet, or a boot's rim) is not taken for the knee.
///
/// A fourth, on by default (`FitOptions::anklesOnShins`): a curve skeleton
/// turns from the shin into the foot through the middle of the foot, rounding
/// the heel off, so by normalized arc length the ankle lands on the foot, ahead
/// of the leg's line (2-4 % of the height forward on the devset's players,
/// issue 14). Where the template's leg turns at the ankle, the ankle goes to
/// the point of the shin's straight line (fitted through the segment between
/// the knee's and the ankle's arc-length placements) nearest to its arc-length
/// placement: over the heel, at the same height. The other leg joints keep the
/// thesis's normalized arc length.
///
/// A fifth, on by default (`FitOptions::hipsOnThighs`): a curve skeleton
/// leaves its fork (the hips) diagonally through the groin to the middle of
/// the thigh, a longer way than the template's short hips-to-upper-leg bone,
/// so by normalized arc length the hip joint lands down the thigh below the
/// crotch (6 % of the height low on the devset's re_male) and inside the
/// thigh's axis, whereas the anatomical hip joint lies level with the fork
/// and above the thigh's axis (Drillis & Contini: hip joint 0.53 H). The upper
/// leg goes to the point of the thigh's axis (a line fitted through the
/// segment between the upper leg's and the knee's arc-length placements)
/// nearest to the template's offset from the hips, scaled with the leg, kept
/// in the hips' frontal plane; the leg's line is re-routed from the hips
/// through it onto the thigh's axis, so the knee, ankle and toe are measured
/// from the hip joint (their arc length, `kneesAtBends`, `anklesOnShins`).
/// Not with `legsJoinedByCloth`, which places the hip joints itself.
///
/// A sixth, on by default (`FitOptions::headAtNeck`): the head joint (the
/// base of the skull, on every humanoid the top of the neck) by normalized arc
/// length sits where the template's head proportion puts it, which fails on
/// any head or neck not in the template's proportions: 6.6 % of the height
/// too high on Cesium Man's large head, 1.9 % too low on re_male's long neck
/// (issue 14). The mesh says where the neck is: it is the narrowest part of
/// the spine between the chest and the head, and the skull starts where it
/// widens again. Along the spine's segment above the spine-top joint (the
/// template's chest), the head's widest ball is the largest radius above the
/// thesis's head placement; the neck is the smallest radius between the two;
/// the head joint goes to the top of the neck's narrowest stretch (from that
/// smallest radius upwards while the radius stays equal to it, within
/// `FitOptions::neckRadiusTolerance`: along a uniform neck the distance
/// field's radii repeat exactly; a 1 % tolerance let the top drift up re_drone's
/// V-shaped neck at n = 255, 0.8 % of the height). Only where the neck is a waist (its
/// radius under `FitOptions::maxNeckToHead` of the head's widest ball): a
/// character with no visible neck (a helmet on the shoulders, a hood) keeps
/// the arc length. The neck joint (the base of the neck, C7) goes to the
/// other end of the neck: below the narrowest stretch, where the radius has
/// grown to `FitOptions::neckBaseWidening` times the narrowest, as the neck
/// flares into the shoulders (on the devset the artists' neck joints sit at
/// 1.1-1.15 times, the generated character's at 1.15-1.2; by arc length the
/// neck was 6.6 % of the height low on re_male, 3.3 % high on Cesium Man).
/// Further joints between it and the head keep their rest shares of that
/// stretch, and any above the head their share of the rest up to the tip.
/// A template whose last spine joint is the head's tip itself (no End Site)
/// keeps the thesis's placement.
///
/// Joints off the five chains (fingers beside the main finger, thumbs, a tail)
/// keep their rest offset from their parent, scaled by the chain's length ratio
/// and turned with the parent's bone.

#include "core/rig/skeleton.h"
#include "core/rig/template.h"
#include "core/skeleton/curve_skeleton.h"
#include "core/skeleton/end_nodes.h"
#include "core/skeleton/root.h"

#include <optional>
#include <string>
#include <vector>

namespace rig {

struct FitOptions {
    /// Extend each geometric segment past its end node by that node's radius
    /// (see the file comment). Off: the thesis as written, the tip is the end node.
    bool extendTips = true;
    /// How far back from the end node (in multiples of its radius, along the
    /// segment) the direction of the extension is measured.
    double tipDirectionSpan = 1.5;
    /// Fit the arms from the shoulders (see the file comment). Off: every arm
    /// joint by normalized arc length along the whole segment (the thesis).
    bool armsFromShoulders = true;
    /// Place a bent knee where the leg's straight stretches meet (see the file
    /// comment). Off: the thesis's normalized arc length, as for the other leg joints.
    bool kneesAtBends = true;
    /// The least bend, in degrees, of the leg's segment at the knee for
    /// `kneesAtBends` to move it; a straighter knee keeps the arc length.
    double minKneeBend = 30.0;
    /// Move the ankle onto the shin's line (see the file comment), where the
    /// template's leg turns by more than `minKneeBend` at the ankle. Off: the
    /// thesis's normalized arc length.
    bool anklesOnShins = true;
    /// Put the upper legs (hip joints) on the thighs' axes at the template's
    /// offset from the hips and measure the leg from them (see the file
    /// comment). Off: the thesis's normalized arc length along the leg from
    /// the fork.
    bool hipsOnThighs = true;
    /// Put the head joint at the top of the neck's narrowest stretch (see the
    /// file comment). Off: the thesis's normalized arc length.
    bool headAtNeck = true;
    /// See `headAtNeck`: radii within this fraction above the neck's smallest
    /// count as the same narrow stretch (equal up to rounding).
    double neckRadiusTolerance = 1e-6;
    /// See `headAtNeck`: the neck's smallest radius must be under this share
    /// of the head's widest ball for the neck to count as one.
    double maxNeckToHead = 0.85;
    /// See `headAtNeck`: the neck joint goes where the neck, below its
    /// narrowest stretch, has widened to this many times its smallest radius.
    double neckBaseWidening = 1.15;
    /// Legs joined by cloth (a long skirt, a robe, a long coat: issue 14): the
    /// curve skeleton forks at the hem, far below the hips. When the fork
    /// (the hips node) sits lower than `minForkProportion` of the template's
    /// hips height (both as fractions of the height from the soles, the lower
    /// foot end less its radius, to the head's tip, the head end plus its
    /// radius), the hips go on the spine line at the template's proportion,
    /// each leg runs from them to its hip joint (the template's offset,
    /// sideways towards its foot) and on to where the leg's own curve skeleton
    /// leaves the cloth, and the leg joints follow by arc length (no
    /// `kneesAtBends`: the corners of these lines are not knees).
    /// The result says so (`FitResult::notes`).
    bool legsJoinedByCloth = true;
    double minForkProportion = 0.75; ///< See `legsJoinedByCloth`, in (0, 1].
    Vec3 up = Vec3::UnitY();    ///< For `orientBones()`.
    Vec3 front = Vec3::UnitZ(); ///< For `orientBones()`: the character's facing direction.
};

struct FitResult {
    /// The fitted rig: the template's joints, names and hierarchy, with bind
    /// positions on the curve skeleton and bind orientations from `orientBones()`.
    Skeleton skeleton;
    /// #J geometric node each joint sits on or next to (the node of nearest arc
    /// length on its segment); -1 for joints off the five chains.
    std::vector<int> jointNode;
    /// The labelled, pruned geometric skeleton: hips, chest and segments.
    LimbChains chains;
    /// Per chain (indexed by `Limb`), the geometric length (tip extension
    /// included) over the template's rest length.
    std::array<double, limbCount> chainScales = {1.0, 1.0, 1.0, 1.0, 1.0};
    /// The facing direction the bind orientations were computed with (re-used
    /// when a joint is moved by hand).
    Vec3 front = Vec3::UnitZ();
    /// True when the legs were found joined by cloth (`FitOptions::legsJoinedByCloth`).
    bool legsJoinedByCloth = false;
    /// What the fit did beyond the thesis's placement that the user should
    /// know (one sentence each), for the report and the Rig dock.
    std::vector<std::string> notes;
};

/// Fits `rigTemplate` onto `skeleton` labelled by `labels` (see the file comment).
/// @throws rig::InvalidInput from `validateLabels()` / `assignRoot()` for bad
///         labels (named in the message), and (naming `rig::fitTemplate()`) for
///         a geometric segment of zero length.
FitResult fitTemplate(const CurveSkeleton& skeleton, const EndNodeLabels& labels, const RigTemplate& rigTemplate,
                      const FitOptions& options = {});

/// Orientation frame options for `orientBones()`.
struct OrientOptions {
    Vec3 up = Vec3::UnitY();    ///< World up of the character.
    Vec3 front = Vec3::UnitZ(); ///< The direction the character faces.
};

/// Sets every bind orientation from the bind positions (the roll convention of
/// skeleton.h). The columns of the rotation are the joint's local axes:
///  - +Y points along the bone to the joint's child: its first child; for the
///    root, the child highest along `up` (the spine, whatever the file order).
///    A child at the joint's own position (zero-length bone, CMU "LHipJoint")
///    is looked through to the first descendant that is not. A leaf, or a joint
///    whose descendants all coincide with it, continues its parent's +Y (the
///    root of a one-joint skeleton: +up).
///  - Roll: +Z is `front` made orthogonal to +Y (Gram-Schmidt), so for an
///    upright character +Z faces forward on the spine, arms and legs. For a bone
///    within 10 degrees of ±front (feet, toes, a forward-reaching arm) +Z is
///    `up` made orthogonal to +Y instead (+Z points up on a bone pointing
///    forward). The switch is a jump of the roll by up to 90 degrees across that
///    10-degree cone, which no bone of an upright character crosses.
///  - +X = Y × Z (right-handed); for the default axes that is the character's left
///    on a vertical bone pointing up.
/// @throws rig::InvalidInput when `up`/`front` are zero, non-finite or parallel.
void orientBones(Skeleton& skeleton, const OrientOptions& options = {});

/// The node of `skeleton` nearest to `point` (the manual adjust `ajM` of thesis
/// Ch. 5: a dragged joint snaps to the curve skeleton). When `candidates` is not
/// empty, only nodes with candidates[i] true are considered (for example
/// `LimbChains::kept`). std::nullopt when there is no candidate node.
std::optional<int> snapToNode(const CurveSkeleton& skeleton, const Vec3& point,
                              const std::vector<bool>& candidates = {});

} // namespace rig
