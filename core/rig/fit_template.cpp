#include "core/rig/fit_template.h"

#include "core/common/error.h"
#include "core/rig/fit_lines.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

namespace rig {
namespace {

using namespace rig::fit; // the polyline and the placement rules (fit_lines.h)

// Legs joined by cloth (FitOptions::legsJoinedByCloth). Returns a note when
// it re-routed the spine and leg lines, else an empty string.
/// Hips placed by the template's proportions above this share of the chest
/// node's height: not cloth (see below).
constexpr double kMaxHipsOfChest = 0.9;

std::string joinLegsUnderCloth(const CurveSkeleton& s, const EndNodeLabels& labels, const RigTemplate& t,
                               const FitOptions& options, std::array<Polyline, limbCount>& lines)
{
    const Vec3 up = options.up.normalized();
    const auto height = [&](const Vec3& p) { return p.dot(up); };
    // The character's extent: the soles (the lower foot end less its radius)
    // to the top of the head (its end node plus its radius).
    double floor = std::numeric_limits<double>::infinity();
    for (Limb l : {Limb::LeftFoot, Limb::RightFoot}) {
        const int v = labels[l];
        floor = std::min(floor, height(nodePosition(s, v)) - s.radii[static_cast<size_t>(v)]);
    }
    const int headNode = labels[Limb::Head];
    const double top = height(nodePosition(s, headNode)) + s.radii[static_cast<size_t>(headNode)];
    // The template's: its lowest point to its head's tip.
    double floorT = std::numeric_limits<double>::infinity();
    for (int j = 0; j < t.jointCount(); ++j)
        floorT = std::min(floorT, t.restPositions(j, 1));
    for (const Vec3& tip : t.chainTips)
        floorT = std::min(floorT, tip.y());
    const double topT = t.chainTips[static_cast<size_t>(Limb::Head)].y();
    if (!(top > floor) || !(topT > floorT) || t.hips < 0)
        return {};
    // Whether the fork is low: in proportions of the chest's height (where the
    // arms join the spine), not of the head's tip: stylized heads take from an eighth to half of the
    // height, the trunk and legs below the arms far less. Measured on the
    // head's tip, the fork of big-headed figures in shorts was "low", and their
    // hips went into the belly (issue 39: the rule fired on 52 rignet-val
    // humanoids; without it their mean joint error fell from 17 to 12 % of the
    // height, while the robes' and long dresses' (forks at 4-15 %) rose).
    if (t.chest < 0)
        return {};
    const double chestT = t.restPositions(t.chest, 1) - floorT;
    const double chest = height(lines[static_cast<size_t>(Limb::LeftHand)].points.front()) - floor;
    if (!(chestT > 0.0) || !(chest > 0.0) || chest > top - floor)
        return {};
    const double hipsT = (t.restPositions(t.hips, 1) - floorT) / chestT;
    const Polyline& spine = lines[0];
    const double fork = (height(spine.points.front()) - floor) / chest;
    if (fork >= options.minForkProportion * hipsT)
        return {};
    // Under the cloth, the hips go where the template's proportion of the
    // whole height puts them: the chest node lies where the arms reach the
    // spine's curve, below the shoulders by an arm's thickness or more.
    const double hipsTop = (t.restPositions(t.hips, 1) - floorT) / (topT - floorT);
    // A sitting or crouching body also has its fork low, but its legs keep
    // their length; cloth leaves only the legs below the hem, short against
    // the (lengthened) spine.
    const auto scaleOf = [&](Limb l) {
        const auto c = static_cast<size_t>(l);
        return t.chainLengths[c] > 0.0 ? lines[c].length() / t.chainLengths[c] : 0.0;
    };
    const double legs = 0.5 * (scaleOf(Limb::LeftFoot) + scaleOf(Limb::RightFoot));
    constexpr double maxClothLegScale = 0.6; // legs shorter than this share of the spine's scale
    if (legs >= maxClothLegScale * scaleOf(Limb::Head))
        return {};
    // 1. The hips where the template's proportion puts them, on the spine line
    //    (it runs through the middle of the skirt or robe).
    const double target = floor + hipsTop * (top - floor);
    // A head far larger than the template's puts that height at or above the
    // chest: the proportions do not hold, and the fork is the figure's own.
    if (target - floor >= kMaxHipsOfChest * chest)
        return {};
    double arc = -1.0;
    for (size_t k = 0; k + 1 < spine.points.size(); ++k) {
        const double a = height(spine.points[k]), b = height(spine.points[k + 1]);
        if (a <= target && b >= target) {
            const double u = b > a ? (target - a) / (b - a) : 0.0;
            arc = spine.arc[k] + u * (spine.arc[k + 1] - spine.arc[k]);
            break;
        }
    }
    if (arc < 0.0)
        return {};
    lines[0] = spine.from(arc);
    const Vec3 hips = lines[0].points.front();
    const double scale = (top - floor) / (topT - floorT);
    // 2. Each leg from the new hips: to its hip joint by the template's offset
    //    (sideways towards its foot), then straight down to where the leg's own
    //    curve skeleton leaves the cloth (its first point more than half the
    //    hip offset away from the spine's vertical), then along it.
    for (Limb l : {Limb::LeftFoot, Limb::RightFoot}) {
        const auto c = static_cast<size_t>(l);
        const std::vector<int>& joints = t.chainJoints[c];
        int upLeg = -1;
        for (int j : joints)
            if (j != t.hips) {
                upLeg = j;
                break;
            }
        if (upLeg < 0)
            return {};
        const Vec3 restOffset = (t.restPositions.row(upLeg) - t.restPositions.row(t.hips)).transpose();
        const Polyline& leg = lines[c];
        const Vec3 foot = leg.points.back();
        // Sideways only: a foot end lies ahead of the hips (the toes), which
        // must not pull the hip joint forward.
        const Vec3 left = up.cross(options.front.normalized()).normalized();
        const double sideways = scale * std::abs(restOffset.x());
        const Vec3 aside = ((foot - hips).dot(left) >= 0.0 ? 1.0 : -1.0) * sideways * left;
        const Vec3 hipJoint = hips + aside + scale * restOffset.y() * up;
        Polyline out;
        out.add(hips, leg.nodes.front());
        out.add(hipJoint, -1);
        size_t k = 0;
        for (; k < leg.points.size(); ++k) {
            Vec3 d = leg.points[k] - hips;
            d -= d.dot(up) * up;
            if (d.norm() > 0.5 * sideways && height(leg.points[k]) < height(hipJoint))
                break;
        }
        for (; k < leg.points.size(); ++k)
            out.add(leg.points[k], leg.nodes[k]);
        if (out.points.size() < 3)
            return {};
        lines[c] = out;
    }
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "legs joined by cloth: the legs' fork is at %.0f%% of the chest's height, the template's hips at %.0f%%; "
                  "hips, upper legs and knees placed by the template's proportions",
                  100.0 * fork, 100.0 * hipsT);
    return buf;
}

void checkAxes(const Vec3& up, const Vec3& front, const char* fn)
{
    if (!up.allFinite() || !front.allFinite() || up.norm() == 0.0 || front.norm() == 0.0 ||
        up.normalized().cross(front.normalized()).norm() < 1e-6)
        throw InvalidInput(std::string(fn) + "up and front must be finite, non-zero and not parallel");
}

} // namespace

FitResult fitTemplate(const CurveSkeleton& s, const EndNodeLabels& labels, const RigTemplate& t,
                      const FitOptions& options)
{
    const char* fn = "rig::fitTemplate(): ";
    checkAxes(options.up, options.front, fn);
    FitResult result;
    result.chains = assignRoot(s, labels);
    const LimbChains& c = result.chains;

    // The five geometric segments; the spine runs on through the chest to the head.
    std::array<Polyline, limbCount> lines;
    std::vector<int> spine = c.spine;
    spine.insert(spine.end(), c.limb(Limb::Head).begin() + 1, c.limb(Limb::Head).end());
    lines[0] = polyline(s, spine, options);
    for (Limb l : {Limb::LeftHand, Limb::RightHand, Limb::LeftFoot, Limb::RightFoot})
        lines[static_cast<size_t>(l)] = polyline(s, c.limb(l), options);
    if (options.legsJoinedByCloth)
        if (std::string note = joinLegsUnderCloth(s, labels, t, options, lines); !note.empty()) {
            result.legsJoinedByCloth = true;
            result.notes.push_back(std::move(note));
        }
    const int n = t.jointCount();
    std::vector<std::optional<std::pair<Vec3, int>>> placed(static_cast<size_t>(n));
    if (options.hipsOnThighs && !result.legsJoinedByCloth) // under cloth the hip joints are placed already
        placeHipJoints(t, lines, options.up.normalized(), options.front.normalized(), placed);
    for (Limb l : allLimbs) {
        const auto i = static_cast<size_t>(l);
        if (lines[i].length() <= 0.0)
            throw InvalidInput(std::string(fn) + "the " + std::string(limbKey(l)) +
                               " segment of the geometric skeleton has zero length");
        result.chainScales[i] = t.chainLengths[i] > 0.0 ? lines[i].length() / t.chainLengths[i] : 1.0;
    }

    Skeleton& k = result.skeleton;
    k.names = t.names;
    k.parents = t.parents;
    k.bindPositions.resize(n, 3);
    k.bindOrientations.assign(static_cast<size_t>(n), Eigen::Quaterniond::Identity());
    result.jointNode.assign(static_cast<size_t>(n), -1);
    if (options.armsFromShoulders)
        placeArms(s, t, lines, result.chainScales, options.up.normalized(), placed);
    if (options.headAtNeck)
        placeHead(s, t, lines[0], options.neckRadiusTolerance, options.maxNeckToHead, options.neckBaseWidening, placed);
    if ((options.kneesAtBends || options.anklesOnShins) && !result.legsJoinedByCloth) // legs under cloth are straight lines by construction
        placeLegs(t, lines, result.chainScales, options.minKneeBend * std::numbers::pi / 180.0, options.kneesAtBends,
                  options.anklesOnShins, placed);
    std::vector<int> chainOfJoint(static_cast<size_t>(n), -1); // nearest chain up the hierarchy, for scales
    for (int j = 0; j < n; ++j) {
        const Chain chain = t.chains[static_cast<size_t>(j)];
        const int p = t.parents[static_cast<size_t>(j)];
        if (chain != Chain::None) {
            const auto [position, node] = placed[static_cast<size_t>(j)]
                                              ? *placed[static_cast<size_t>(j)]
                                              : lines[static_cast<size_t>(chain)].at(t.chainPositions[static_cast<size_t>(j)]);
            k.bindPositions.row(j) = position.transpose();
            result.jointNode[static_cast<size_t>(j)] = node;
            chainOfJoint[static_cast<size_t>(j)] = static_cast<int>(chain);
            continue;
        }
        // Off the chains: the rest offset, scaled and turned with the parent's bone.
        assert(p >= 0 && "the root is always on the spine");
        chainOfJoint[static_cast<size_t>(j)] = chainOfJoint[static_cast<size_t>(p)];
        const double scale = result.chainScales[static_cast<size_t>(std::max(0, chainOfJoint[static_cast<size_t>(p)]))];
        Eigen::Quaterniond turn = Eigen::Quaterniond::Identity();
        if (const int g = t.parents[static_cast<size_t>(p)]; g >= 0) {
            const Vec3 restBone = (t.restPositions.row(p) - t.restPositions.row(g)).transpose();
            const Vec3 fitBone = (k.bindPositions.row(p) - k.bindPositions.row(g)).transpose();
            if (restBone.norm() > 1e-9 && fitBone.norm() > 1e-9)
                turn = Eigen::Quaterniond::FromTwoVectors(restBone, fitBone);
        }
        k.bindPositions.row(j) = k.bindPositions.row(p) + (scale * (turn * t.offsets.row(j).transpose())).transpose();
    }
    orientBones(k, {.up = options.up, .front = options.front});
    result.front = options.front;
    return result;
}

void orientBones(Skeleton& k, const OrientOptions& options)
{
    const char* fn = "rig::orientBones(): ";
    checkAxes(options.up, options.front, fn);
    const Vec3 up = options.up.normalized(), front = options.front.normalized();
    const int n = k.jointCount();
    const auto children = childrenOf(k);
    const double eps = 1e-9 * std::max(1.0, k.bindPositions.cwiseAbs().maxCoeff());
    auto position = [&](int j) -> Vec3 { return k.bindPositions.row(j).transpose(); };
    // The first descendant of c (through first children) not at joint j's position.
    auto lookThrough = [&](int j, int c) -> std::optional<Vec3> {
        while (true) {
            const Vec3 d = position(c) - position(j);
            if (d.norm() > eps)
                return d;
            if (children[static_cast<size_t>(c)].empty())
                return std::nullopt;
            c = children[static_cast<size_t>(c)].front();
        }
    };
    std::vector<Vec3> yAxis(static_cast<size_t>(n), up);
    k.bindOrientations.resize(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j) {
        const int p = k.parents[static_cast<size_t>(j)];
        std::optional<Vec3> bone;
        if (j == 0) {
            double best = -std::numeric_limits<double>::infinity();
            for (int c : children[0])
                if (const auto d = lookThrough(0, c); d && d->normalized().dot(up) > best) {
                    best = d->normalized().dot(up);
                    bone = d;
                }
        } else {
            for (int c : children[static_cast<size_t>(j)])
                if ((bone = lookThrough(j, c)))
                    break;
        }
        const Vec3 y = bone ? bone->normalized() : (p >= 0 ? yAxis[static_cast<size_t>(p)] : up);
        yAxis[static_cast<size_t>(j)] = y;
        // Roll: front projected; near ±front, up projected (10 degrees: cos = 0.985).
        const Vec3 reference = std::abs(y.dot(front)) > 0.985 ? up : front;
        const Vec3 z = (reference - reference.dot(y) * y).normalized();
        Eigen::Matrix3d frame;
        frame.col(0) = y.cross(z);
        frame.col(1) = y;
        frame.col(2) = z;
        k.bindOrientations[static_cast<size_t>(j)] = Eigen::Quaterniond(frame).normalized();
    }
}

std::optional<int> snapToNode(const CurveSkeleton& s, const Vec3& point, const std::vector<bool>& candidates)
{
    std::optional<int> best;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int v = 0; v < s.nodeCount(); ++v) {
        if (!candidates.empty() && (static_cast<size_t>(v) >= candidates.size() || !candidates[static_cast<size_t>(v)]))
            continue;
        const double d = (s.positions.row(v).transpose() - point).squaredNorm();
        if (d < bestDistance) {
            bestDistance = d;
            best = v;
        }
    }
    return best;
}

} // namespace rig

