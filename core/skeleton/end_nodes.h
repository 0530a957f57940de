#pragma once
/// @file end_nodes.h
/// End node selection (thesis §2.5, "End node selection"): which end node of the
/// geometric skeleton is the head, each hand and each foot. The thesis lets the
/// user pick them; `suggestEndNodeLabels()` guesses them for a character standing
/// upright (any reasonable arm and leg pose), and the UI lets the artist correct
/// the guess. End nodes left unlabelled (a tail, a hat, a weapon) are pruned by
/// `assignRoot()` (root.h).
///
/// The CLI form of a labelling is `head=ID,lhand=ID,rhand=ID,lfoot=ID,rfoot=ID`
/// with ID a node index of the refined `CurveSkeleton`.

#include "core/common/types.h"
#include "core/skeleton/curve_skeleton.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace rig {

/// The five labelled extremities of a full-body rig (thesis §2.4: "only five end
/// nodes are needed"). Left and right are the character's own.
enum class Limb : std::uint8_t { Head, LeftHand, RightHand, LeftFoot, RightFoot };

/// Number of `Limb` values.
inline constexpr int limbCount = 5;

/// Every limb, in declaration order.
inline constexpr std::array<Limb, limbCount> allLimbs = {Limb::Head, Limb::LeftHand, Limb::RightHand,
                                                        Limb::LeftFoot, Limb::RightFoot};

/// The CLI key of a limb: "head", "lhand", "rhand", "lfoot", "rfoot".
std::string_view limbKey(Limb limb);

/// The end node chosen for each limb (node indices of one `CurveSkeleton`).
struct EndNodeLabels {
    /// Node per limb, indexed by `Limb`; -1 where unlabelled.
    std::array<int, limbCount> nodes = {-1, -1, -1, -1, -1};

    int& operator[](Limb limb) { return nodes[static_cast<size_t>(limb)]; }
    int operator[](Limb limb) const { return nodes[static_cast<size_t>(limb)]; }
    bool operator==(const EndNodeLabels&) const = default;
};

/// Orientation of the character for `suggestEndNodeLabels()`.
struct LabelOptions {
    Vec3 up = Vec3::UnitY();    ///< The character stands along +up (need not be unit; not parallel to front).
    Vec3 front = Vec3::UnitZ(); ///< The direction the character faces. Its left is up × front (+X by default).
};

/// Guesses the labels of an upright character (thesis §2.5 notes that a model
/// "in a specific pose can be tagged automatically by the positions of its
/// segments"):
///  - head: the end node highest along `up`;
///  - feet: the two lowest of the others;
///  - hands: of the rest, the two whose branches lie furthest to the left and
///    to the right (with exactly five end nodes, simply the remaining two).
/// Left and right are decided per pair by the *proximal half* of each branch
/// (the segment from the end node back to its connection node, thesis §2.4):
/// the mean of its nodes nearer the body along left = up × front. A hand
/// reaching across the chest still starts on its own side, so an arm crossing
/// the midline keeps its label. Further end nodes stay unlabelled.
///
/// Throws rig::InvalidInput (naming `rig::suggestEndNodeLabels()`) when the
/// skeleton has fewer than five end nodes, or `up` and `front` are zero,
/// non-finite or parallel.
EndNodeLabels suggestEndNodeLabels(const CurveSkeleton& skeleton, const LabelOptions& options = {});

/// Checks a labelling against a skeleton: every limb labelled, each label a valid
/// node index of type End, no node used twice, all five in one connected
/// component.
/// @throws rig::InvalidInput naming the limb and node at fault (for example
///         "rig::validateLabels(): lhand = 12 is a flow node, not an end node").
void validateLabels(const CurveSkeleton& skeleton, const EndNodeLabels& labels);

/// Parses the CLI form `head=ID,lhand=ID,rhand=ID,lfoot=ID,rfoot=ID` (any order,
/// blanks around keys and values allowed).
/// @throws rig::InvalidInput (naming `rig::parseEndNodeLabels()`) for an unknown
///         key, a key given twice, a missing limb, a value that is not a
///         non-negative integer, or one node used for two limbs.
EndNodeLabels parseEndNodeLabels(std::string_view text);

/// Formats labels in the CLI form, in `Limb` order; unlabelled limbs are left out.
std::string formatEndNodeLabels(const EndNodeLabels& labels);

} // namespace rig
