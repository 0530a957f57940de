#include "core/rig/fit_checks.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rig {
namespace {

std::string percent(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * v);
    return buf;
}

} // namespace

std::vector<FitWarning> checkFit(const Skeleton& s, const RigTemplate& t, const FitCheckOptions& options)
{
    if (s.jointCount() != t.jointCount())
        throw InvalidInput("rig::checkFit(): the skeleton has " + std::to_string(s.jointCount()) +
                           " joints, the template " + std::to_string(t.jointCount()));
    std::vector<FitWarning> out;
    if (t.hips < 0 || t.chest < 0)
        return out;
    for (const auto& c : t.chainJoints)
        if (c.empty())
            return out;
    const Vec3 up = options.up.normalized();
    const auto pos = [&](int j) -> Vec3 { return s.bindPositions.row(j).transpose(); };
    const auto height = [&](int j) { return pos(j).dot(up); };
    const auto chain = [&](Limb l) -> const std::vector<int>& { return t.chainJoints[static_cast<size_t>(l)]; };
    const auto name = [&](int j) { return s.names[static_cast<size_t>(j)]; };
    const auto length = [&](Limb l) {
        const std::vector<int>& c = chain(l);
        double len = 0.0;
        for (size_t k = 1; k < c.size(); ++k)
            len += (pos(c[k]) - pos(c[k - 1])).norm();
        return len;
    };

    const auto limbRoot = [&](Limb l) {
        for (int j : chain(l))
            if (j != t.hips && j != t.chest)
                return j;
        return chain(l).front();
    };
    // Hips below the knees.
    for (Limb leg : {Limb::LeftFoot, Limb::RightFoot}) {
        std::vector<int> c; // the leg's own joints (the chain may start at the hips)
        for (int j : chain(leg))
            if (j != t.hips)
                c.push_back(j);
        if (c.size() < 3)
            continue;
        const int knee = c[1];
        if (height(t.hips) < height(knee)) {
            out.push_back({"hips_below_knees", t.hips,
                           "the hips (" + name(t.hips) + ") sit below the knee " + name(knee) +
                               ": the legs' fork may be at a skirt's or robe's hem, or the feet labels are wrong; "
                               "check the labels, or move the hips up to where the legs join the body"});
            break;
        }
    }
    // Left against right.
    const std::pair<Limb, Limb> pairs[] = {{Limb::LeftHand, Limb::RightHand}, {Limb::LeftFoot, Limb::RightFoot}};
    for (const auto& [l, r] : pairs) {
        const double a = length(l), b = length(r);
        if (std::min(a, b) <= 0.0 || std::max(a, b) / std::min(a, b) <= options.maxSideRatio)
            continue;
        const Limb shorter = a < b ? l : r;
        const int root = limbRoot(shorter);
        out.push_back({"limb_lengths_differ", root,
                       "the " + std::string(l == Limb::LeftHand ? "arms" : "legs") + " differ in length: " +
                           name(root) + "'s chain is " + percent(std::min(a, b) / std::max(a, b)) +
                           " of the other's; a label may sit on the wrong end (a finger, a toe, a prop), "
                           "or the two sides merged on the curve skeleton"});
    }
    // A limb far shorter than the template's proportion.
    const double spine = length(Limb::Head), spineRest = t.chainLengths[static_cast<size_t>(Limb::Head)];
    if (spine > 0.0 && spineRest > 0.0) {
        for (Limb l : {Limb::LeftHand, Limb::RightHand, Limb::LeftFoot, Limb::RightFoot}) {
            const double rest = t.chainLengths[static_cast<size_t>(l)];
            if (rest <= 0.0)
                continue;
            const double proportion = (length(l) / rest) / (spine / spineRest);
            if (proportion < options.minLimbProportion) {
                const int root = limbRoot(l);
                out.push_back({"limb_too_short", root,
                               name(root) + "'s limb is " + percent(proportion) +
                                   " of the template's proportion to the spine: its end label may be on a "
                                   "nearby spur (a thumb, a heel, cloth) rather than the hand or foot"});
            }
        }
    }
    // The spine top below the shoulders.
    const int ls = limbRoot(Limb::LeftHand), rs = limbRoot(Limb::RightHand);
    const double shoulders = std::min(height(ls), height(rs));
    if (shoulders > height(t.hips) && height(t.chest) < height(t.hips) + 0.5 * (shoulders - height(t.hips)))
        out.push_back({"spine_top_low", t.chest,
                       "the spine top (" + name(t.chest) +
                           ") sits in the lower half between the hips and the shoulders: the arms probably "
                           "join the curve skeleton low (arms close to the body); move it up to the chest"});
    return out;
}

std::vector<FitWarning> fitWarnings(const FitResult& fit, const RigTemplate& rigTemplate, const FitCheckOptions& options)
{
    std::vector<FitWarning> out = checkFit(fit.skeleton, rigTemplate, options);
    if (!fit.legsJoinedByCloth)
        return out;
    const std::vector<int>& leg = rigTemplate.chainJoints[static_cast<size_t>(Limb::LeftFoot)];
    const auto upperLeg = std::find_if(leg.begin(), leg.end(), [&](int j) { return j != rigTemplate.hips; });
    out.push_back({"legs_from_proportions", upperLeg == leg.end() ? -1 : *upperLeg,
                   "the legs are joined by cloth (a robe, a skirt or a long coat) and do not show on the curve "
                   "skeleton: the hips, upper legs and knees were placed by the template's proportions; check them"});
    return out;
}

} // namespace rig
