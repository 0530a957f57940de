#include "core/skin/limbs.h"

#include "core/common/error.h"

namespace rig {

std::vector<int> jointLimbs(const Skeleton& skeleton)
{
    validateSkeleton(skeleton);
    const int n = skeleton.jointCount();
    const auto children = childrenOf(skeleton);
    std::vector<int> leaves(static_cast<size_t>(n), 0);
    for (int j = n - 1; j >= 0; --j) { // children after parents: accumulate bottom-up
        if (children[j].empty())
            leaves[j] = 1;
        if (skeleton.parents[j] >= 0)
            leaves[skeleton.parents[j]] += leaves[j];
    }
    std::vector<int> limb(static_cast<size_t>(n), -1);
    std::vector<bool> trunk(static_cast<size_t>(n), false);
    // Walk the trunk: continue into the child with the most leaves while it has
    // more than all its siblings together.
    int j = 0;
    trunk[0] = true;
    while (true) {
        const auto& ch = children[j];
        if (ch.empty())
            break;
        int best = ch[0], others = 0;
        for (int c : ch)
            if (leaves[c] > leaves[best])
                best = c;
        for (int c : ch)
            if (c != best)
                others += leaves[c];
        if (leaves[best] <= others)
            break;
        trunk[best] = true;
        j = best;
    }
    for (int c = 1; c < n; ++c) {
        const int p = skeleton.parents[c];
        if (trunk[c])
            continue;
        limb[c] = trunk[p] ? c : limb[p];
    }
    return limb;
}

} // namespace rig
