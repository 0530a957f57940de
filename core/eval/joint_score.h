#pragma once
/// @file joint_score.h
/// Scores a fitted rig against an artist's skeleton of the same mesh, joint by
/// canonical joint (joint_map.h), and checks the five end-node labels.
///
/// A joint's error is the distance between the fitted and the artist's
/// canonical joint in % of the character's height (the rest mesh's extent
/// along up, `heightAlong()` in weight_compare.h). The signed offset (fitted
/// minus artist) is also given along the character's left, up and front, so
/// that systematic biases (knees low, shoulders in) show.
///
/// A label is right when the end node it names is nearer to the artist's
/// matching limb than to the other four. A limb is its extremity joint (head;
/// left/right wrist; left/right ankle) with the bone into it and every bone
/// below it (a head's eyes, jaw and hair, a hand's fingers, a foot's toes):
/// the end of a large head lies at its top, nearer to a raised wrist than to
/// the head joint at the skull's base, yet on the head's bones.
///
/// Left and right are the character's own (left = up × front): an artist's
/// file whose left wrist and ankle both lie on the character's right names its
/// sides as seen from the front (`artistSidesMirrored()`); its map is scored
/// with the sides swapped (`swapSides()`), for the joints and the labels.

#include "core/eval/joint_map.h"
#include "core/rig/skeleton.h"
#include "core/skeleton/curve_skeleton.h"
#include "core/skeleton/end_nodes.h"

#include <array>
#include <limits>
#include <string>
#include <vector>

namespace rig {

struct JointScoreOptions {
    Vec3 up = Vec3::UnitY();    ///< The character's up (unit after normalization).
    Vec3 front = Vec3::UnitZ(); ///< The direction the character faces; left = up × front.
};

/// One canonical joint compared.
struct CanonicalJointScore {
    CanonicalJoint joint = CanonicalJoint::Hips;
    int artist = -1; ///< Joint of the artist's skeleton, -1 when unmapped there.
    int fitted = -1; ///< Joint of the fitted rig, -1 when unmapped there.
    /// Distance in % of height; NaN when either side is unmapped.
    double errorPercent = std::numeric_limits<double>::quiet_NaN();
    /// Fitted minus artist along (left, up, front), % of height; zero when unscored.
    Vec3 offsetPercent = Vec3::Zero();
    bool scored() const { return artist >= 0 && fitted >= 0; }
};

/// Whether one label went to the right end.
struct EndLabelCheck {
    Limb limb = Limb::Head;
    int node = -1;        ///< The labelled end node, -1 when unlabelled.
    CanonicalJoint nearest = CanonicalJoint::Head; ///< The extremity of the artist's limb nearest to it.
    bool known = false;   ///< False when the label or the artist's five extremities are missing.
    bool right = false;   ///< `nearest` is this limb's extremity.
};

struct JointScores {
    std::vector<CanonicalJointScore> joints; ///< 16, in `CanonicalJoint` order.
    double height = 0.0;                     ///< The height the errors are divided by.
    int scored = 0;                          ///< Joints mapped on both sides.
    double meanPercent = std::numeric_limits<double>::quiet_NaN(); ///< Mean error of the scored joints.
    double maxPercent = std::numeric_limits<double>::quiet_NaN();  ///< Largest error.
    CanonicalJoint worst = CanonicalJoint::Hips;                   ///< The joint of the largest error.
};

/// Compares the canonical joints of `fitted` (mapped by `fittedMap`) with
/// those of `artist` (mapped by `artistMap`), in % of `height`.
/// @throws rig::InvalidInput (naming `rig::scoreJoints()`) when `height` is
///         not positive and finite or a map names a joint the skeleton lacks.
JointScores scoreJoints(const Skeleton& artist, const CanonicalJointMap& artistMap, const Skeleton& fitted,
                        const CanonicalJointMap& fittedMap, double height, const JointScoreOptions& options = {});

/// True when the artist's left wrist and left ankle both lie on the
/// character's right of their right twins (left = up × front of `options`).
bool artistSidesMirrored(const Skeleton& artist, const CanonicalJointMap& artistMap,
                         const JointScoreOptions& options = {});

/// The map with its left and right joints exchanged.
CanonicalJointMap swapSides(const CanonicalJointMap& map);

/// Checks each of the five labels against the artist's limbs (see the file
/// comment), in `Limb` order.
std::array<EndLabelCheck, limbCount> checkEndLabels(const CurveSkeleton& curve, const EndNodeLabels& labels,
                                                    const Skeleton& artist, const CanonicalJointMap& artistMap);

/// The canonical joint of a limb's extremity: Head, LeftWrist, RightWrist, LeftAnkle, RightAnkle.
CanonicalJoint extremityJoint(Limb limb);

} // namespace rig
