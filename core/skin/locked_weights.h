#pragma once
/// @file locked_weights.h
/// Rewriting one vertex's influence list under joint locks: the one place the
/// weight-painting tools (weight_paint.h) and the mirror (weight_mirror.h) keep
/// the invariants of skin_weights.h after an edit.
///
/// The rule, per vertex: locked joints keep their current weight bit for bit
/// (including a weight of 0: a locked joint never gains influence); the
/// unlocked joints share what the locked ones leave, A = 1 − Σ locked, in the
/// proportions the edit asked for (the normalization of thesis eq. 4.2 applied
/// to the unlocked part only); then the row is cut to `maxInfluences` entries,
/// dropping the smallest unlocked ones and spreading their weight
/// proportionally over the unlocked ones kept (the continuous limit of
/// `skinWeightsFromDense()`); slots are sorted by decreasing weight, ties to
/// the lower joint index, unused slots 0 / joint 0.

#include "core/skin/skin_weights.h"

#include <vector>

namespace rig {

/// One (joint, weight) pair of an edited row.
struct WeightEntry {
    int joint = 0;
    double weight = 0.0;
};

/// Replaces row `v` of `w` by `entries` under the locks.
///
/// - Entries of locked joints are ignored (the row's current locked weights stay);
///   repeated joints add up; non-positive weights are dropped.
/// - `fixedJoint` (or −1 for none): an unlocked joint whose entry is the weight it
///   must have (the painted joint), clamped to [0, A]; the other unlocked entries
///   are scaled to fill A − its weight. When nothing else is left to take that
///   remainder the fixed joint takes it (its weight becomes A).
/// - Without a fixed joint every unlocked entry is scaled to fill A.
/// - When the unlocked entries are all zero but A > 0, the row stays as it was
///   (returns false): there is no proportion to scale.
///
/// Expects v in [0, #V), joints in [0, #J), `locked` empty or #J flags (non-zero = locked),
/// the current row valid.
/// @return whether the row was rewritten (it may be bit-identical).
bool setLockedRow(SkinWeights& w, int v, std::vector<WeightEntry> entries, int fixedJoint,
                  const std::vector<char>& locked);

/// The influences of row `v` as entries (weights > 0 only).
std::vector<WeightEntry> weightRow(const SkinWeights& w, int v);

} // namespace rig
