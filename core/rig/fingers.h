#pragma once
/// @file fingers.h
/// Fingers (issue 18): the finger joints of a template with fingers (the
/// bundled `humanoid51`: thumb + four fingers, three joints each, Mixamo /
/// Unreal names `LeftHandThumb1..3`, `LeftHandIndex1..3`, `LeftHandMiddle1..3`,
/// `LeftHandRing1..3`, `LeftHandPinky1..3`, the same on the right) placed on the
/// mesh after the thesis's fit (fit_template.h) has placed the arms.
///
/// The thesis's curve skeleton (§2.1-2.3, voxel resolution n = 155 by
/// default) does not resolve fingers: a finger is one or two voxels thick. So
/// the fingertips are found on the surface instead, per hand:
///  1. The hand region: the mesh vertices beyond a plane `wristBack` forearm
///     lengths before the fitted wrist (normal: the forearm's direction, elbow
///     to wrist; a thumb's root lies beside the wrist, and a curve skeleton's
///     wrist may lie out in the palm), within `handReach` forearm lengths of
///     the wrist, in the edge-connected piece that holds the region's vertex
///     nearest the wrist (a thigh under a hand in an A-pose is another piece).
///  2. The geodesic distance d from the wrist over the region's edges
///     (Dijkstra from its vertices within `seedBand` forearm lengths of the
///     plane, the wrist's cross-section).
///  3. Fingertips are the maxima of d that persist: vertices are swept by
///     decreasing d, growing pieces by union-find; where two pieces meet at a
///     vertex (a saddle: the web between two fingers) the one with the lower
///     maximum ends, its persistence the drop from its maximum to the saddle
///     (0-dimensional topological persistence: Edelsbrunner, Letscher and
///     Zomorodian, "Topological persistence and simplification", 2002).
///     Maxima persisting by more than `minProminence` of the hand's geodesic
///     length are fingertips; a knuckle's bump or a mitten's corner is not.
///  4. Each fingertip's finger is the set of vertices above its saddle
///     connected to it; its centreline runs through the centroids of its
///     vertices in `bands` level bands of d (the rings around the finger), from
///     the saddle to the tip. The longest finger (which never meets a higher
///     one) ends at the highest saddle of the others.
///  5. Order: the fingertips sorted along the hand's width axis from the thumb
///     side (the character's front, as in a T-pose with the palms down or an
///     A-pose with the palms in): thumb, index, middle, ring, pinky.
///  6. The joints of a finger lie on its line from the knuckle to the tip at the
///     template's rest proportions (the fraction of the finger's rest length,
///     joint 1 to its End Site, at which each joint lies). The knuckle lies
///     below the web: the line is continued from the saddle's centroid back
///     towards the wrist by `knuckleDepth` (fingers) or `thumbDepth` (the
///     thumb, whose first joint is near the wrist) times the finger's length
///     above the web.
/// Fingers the mesh does not resolve are placed from the hand's shape: the
/// template's rest hand is mapped onto the region's box (length along the
/// hand's axis, width across it at the knuckles, the thumb side towards the
/// front), so a mitten gets the template's fingers side by side along its
/// length. With 3 or more fingertips resolved they take the first fingers in
/// order (thumb, index, ...) and the rest come from the shape; with 2 the one
/// on the thumb side is the thumb and the others come from the shape; with 1
/// (a mitten) all come from the shape.
///
/// Measured (bench/README.md, Real characters): re_male and re_female 5 + 5
/// fingers, each tip joint within 0.71 % of the height of the artist's;
/// mrfixit.iqm 4 + 4; the bundled character's mittens one tip each.
///
/// Finger joints are recognised by name (`fingerJoint()`); a template
/// without them is fitted as before.

#include "core/mesh/mesh.h"
#include "core/rig/fit_template.h"
#include "core/rig/template.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rig {

/// The five fingers, thumb first: the order in which `FingerOptions::count` keeps them.
enum class Finger : std::int8_t { Thumb, Index, Middle, Ring, Pinky };
inline constexpr int maxFingers = 5;

/// "Thumb", "Index", "Middle", "Ring", "Pinky" (the template's name parts).
std::string_view fingerName(Finger finger);

/// How the fingers of a template with fingers are placed.
enum class FingerMode : std::int8_t {
    None,  ///< No fingers: the template's finger joints are removed (humanoid51 becomes humanoid21).
    Auto,  ///< Fingertips found on the mesh where its fingers are separate, else from the hand's shape.
    Shape, ///< From the hand's shape only (a mitten: the fingers side by side along its length).
};

/// Stable ids "none", "auto", "shape" (CLI, project file).
std::string_view fingerModeId(FingerMode mode);
/// @throws rig::InvalidInput naming the accepted ids.
FingerMode parseFingerMode(std::string_view id);

struct FingerOptions {
    FingerMode mode = FingerMode::None;
    /// Fingers per hand, 0-5, kept in the order of `Finger` (4: no pinky);
    /// -1: as many as the mesh resolves on either hand when that is 3 or more,
    /// else all five.
    int count = -1;
    /// Least persistence of a fingertip, as a fraction of the hand's geodesic
    /// length (wrist to farthest tip); the fingers measured rise 0.10-0.38 above
    /// their web (mrfixit's left thumb 0.104), a mitten's corners below 0.03.
    double minProminence = 0.1;
    double handReach = 1.2;   ///< The hand region: within this many forearm lengths of the wrist.
    double wristBack = 0.2;   ///< The hand region starts this many forearm lengths before the wrist.
    double seedBand = 0.08;   ///< Wrist cross-section: within this many forearm lengths of the plane.
    int bands = 6;            ///< Level bands of a finger's centreline.
    double knuckleDepth = 0.3; ///< Knuckle below the web, in finger lengths above it.
    double thumbDepth = 0.6;   ///< The thumb's first joint below its web, likewise.

    bool operator==(const FingerOptions&) const = default;
};

/// A finger joint's name in the template convention, read back:
/// "LeftHandIndex2" (any "prefix:" dropped) is the left index's joint 2.
struct FingerJointName {
    bool left = true;
    Finger finger = Finger::Thumb;
    int segment = 1; ///< 1 at the knuckle.
};
std::optional<FingerJointName> fingerJoint(const std::string& name);

/// Whether any joint of `t` is a finger joint.
bool hasFingers(const RigTemplate& t);

/// `t` with the finger joints of the first `count` fingers only (0: none),
/// the chains found again (an arm's chain runs to its deepest fingertip).
/// @throws rig::InvalidInput for a count outside 0-5, as `makeTemplate()`.
RigTemplate templateWithFingers(const RigTemplate& t, int count);

/// The template `fitWithFingers()` fitted `fitted` with, from the template it
/// was given (`t`, or humanoid51 for humanoid21): the one of its finger counts
/// whose joints are the rig's; `t` itself when none is (joint edits elsewhere).
RigTemplate templateOfFit(const RigTemplate& t, const Skeleton& fitted);

/// One hand as the mesh shows it.
struct HandTips {
    /// Fingertips the mesh resolves (surface vertices), most persistent first.
    std::vector<Vec3> tips;
    std::vector<double> persistence; ///< Per tip, as a fraction of the hand's geodesic length.
    int regionVertices = 0;          ///< Vertices of the hand region.
};

/// Finds the fingertips of the hand at `wrist` (steps 1-3 of the file
/// comment). An empty result when the region has no vertices.
/// Expects: elbow != wrist.
HandTips findFingertips(const Mesh& mesh, const Vec3& elbow, const Vec3& wrist, const FingerOptions& options = {});

/// What `placeFingers()` did, per hand (0 left, 1 right).
struct FingerReport {
    std::array<int, 2> resolved = {0, 0}; ///< Fingertips found on the mesh.
    std::array<int, 2> fromMesh = {0, 0}; ///< Fingers placed on a resolved tip.
    std::array<int, 2> fromShape = {0, 0};///< Fingers placed from the hand's shape.
    /// Per hand and finger (`Finger` order), the fingertip the finger was
    /// placed to (NaN for a finger the template lacks).
    std::array<std::array<Vec3, maxFingers>, 2> tips;
};

/// Places the finger joints of `rig` (fitted with `t`) on `mesh` (the file
/// comment's method) and re-orients the bones with `fit.up` / `fit.front`.
/// Joints that are not finger joints do not move. A note per hand goes to `rig.notes`.
/// @throws rig::InvalidInput when `t` and `rig` differ in joints.
FingerReport placeFingers(FitResult& rig, const RigTemplate& t, const Mesh& mesh, const FitOptions& fit,
                          const FingerOptions& options);

/// The fit with fingers: `fitTemplate()`, then with `options.mode` None the
/// template without fingers; else the finger count (`options.count`, or from
/// the tips resolved on both hands), the template with that many fingers
/// fitted and `placeFingers()`. A template without finger joints is fitted as is.
/// @throws as `fitTemplate()` and `placeFingers()`.
FitResult fitWithFingers(const CurveSkeleton& skeleton, const EndNodeLabels& labels, const RigTemplate& t,
                         const Mesh& mesh, const FitOptions& fit, const FingerOptions& options,
                         FingerReport* report = nullptr);

} // namespace rig
