#include "core/skin/locked_weights.h"

#include <algorithm>
#include <cassert>

namespace rig {

std::vector<WeightEntry> weightRow(const SkinWeights& w, int v)
{
    std::vector<WeightEntry> row;
    for (int s = 0; s < w.maxInfluences; ++s)
        if (w.weights(v, s) > 0.0f)
            row.push_back({w.joints(v, s), static_cast<double>(w.weights(v, s))});
    return row;
}

bool setLockedRow(SkinWeights& w, int v, std::vector<WeightEntry> entries, int fixedJoint,
                  const std::vector<char>& locked)
{
    const auto isLocked = [&](int j) { return !locked.empty() && locked[static_cast<size_t>(j)] != 0; };
    const int k = w.maxInfluences;
    assert(fixedJoint < 0 || !isLocked(fixedJoint));

    // The locked part of the current row, kept as stored (floats, bit for bit).
    struct Kept {
        int joint;
        float weight;
    };
    std::vector<Kept> lockedRow;
    double lockedSum = 0.0;
    for (int s = 0; s < k; ++s)
        if (w.weights(v, s) > 0.0f && isLocked(w.joints(v, s))) {
            lockedRow.push_back({w.joints(v, s), w.weights(v, s)});
            lockedSum += w.weights(v, s);
        }
    const double available = std::max(0.0, 1.0 - lockedSum);
    const int lockedCount = static_cast<int>(lockedRow.size());
    if (lockedCount >= k) // every slot is locked: nothing can change
        fixedJoint = -1;

    // Merge the unlocked entries; drop locked and non-positive ones.
    std::sort(entries.begin(), entries.end(),
              [](const WeightEntry& a, const WeightEntry& b) { return a.joint < b.joint; });
    std::vector<WeightEntry> free;
    for (const WeightEntry& e : entries) {
        if (isLocked(e.joint) || !(e.weight > 0.0))
            continue;
        if (!free.empty() && free.back().joint == e.joint)
            free.back().weight += e.weight;
        else
            free.push_back(e);
    }
    double fixedWeight = 0.0;
    std::vector<WeightEntry> others;
    for (const WeightEntry& e : free) {
        if (e.joint == fixedJoint)
            fixedWeight = std::min(e.weight, available);
        else
            others.push_back(e);
    }
    if (fixedJoint < 0 && others.empty() && available > 0.0 && lockedCount < k)
        return false;

    // Cut to k slots: drop the smallest of the others (ties: the higher joint index).
    const int fixedCount = fixedJoint >= 0 ? 1 : 0;
    std::sort(others.begin(), others.end(), [](const WeightEntry& a, const WeightEntry& b) {
        return a.weight > b.weight || (a.weight == b.weight && a.joint < b.joint);
    });
    const int room = std::max(0, k - lockedCount - fixedCount);
    if (static_cast<int>(others.size()) > room)
        others.resize(static_cast<size_t>(room));

    // Scale the others to fill what the locked joints and the fixed joint leave.
    double otherSum = 0.0;
    for (const WeightEntry& e : others)
        otherSum += e.weight;
    const double rest = available - fixedWeight;
    if (otherSum > 0.0) {
        for (WeightEntry& e : others)
            e.weight *= rest / otherSum;
    } else if (fixedJoint >= 0) {
        fixedWeight = available; // nothing else can take the remainder
    }

    struct Slot {
        int joint;
        float weight;
    };
    std::vector<Slot> row;
    for (const Kept& e : lockedRow)
        row.push_back({e.joint, e.weight});
    if (fixedJoint >= 0 && fixedWeight > 0.0)
        row.push_back({fixedJoint, static_cast<float>(fixedWeight)});
    for (const WeightEntry& e : others)
        if (e.weight > 0.0)
            row.push_back({e.joint, static_cast<float>(e.weight)});
    // A fixed joint may still overflow when every slot is locked (then A = 0 and it was dropped above).
    assert(static_cast<int>(row.size()) <= k);
    std::sort(row.begin(), row.end(), [](const Slot& a, const Slot& b) {
        return a.weight > b.weight || (a.weight == b.weight && a.joint < b.joint);
    });
    for (int s = 0; s < k; ++s) {
        const bool used = s < static_cast<int>(row.size());
        w.joints(v, s) = used ? row[static_cast<size_t>(s)].joint : 0;
        w.weights(v, s) = used ? row[static_cast<size_t>(s)].weight : 0.0f;
    }
    return true;
}

} // namespace rig
