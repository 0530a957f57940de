#include "core/rig/fit_lines.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rig::fit {

Vec3 nodePosition(const CurveSkeleton& s, int v) { return s.positions.row(v).transpose(); }

Polyline polyline(const CurveSkeleton& s, const std::vector<int>& path, const FitOptions& options)
{
    Polyline line;
    for (int v : path)
        line.add(nodePosition(s, v), v);
    if (options.extendTips && path.size() >= 2) {
        const int end = path.back();
        const double r = s.radii[static_cast<size_t>(end)];
        // Direction of the last stretch of the segment, over tipDirectionSpan radii.
        const double back = line.length() - options.tipDirectionSpan * r;
        size_t k = line.points.size() - 2;
        while (k > 0 && line.arc[k] > back)
            --k;
        const Vec3 d = line.points.back() - line.points[k];
        if (d.norm() > 0.0 && r > 0.0)
            line.add(line.points.back() + r * d.normalized(), -1);
    }
    return line;
}

// Whether an arm's segment ends in a finger: its end node's radius is less
// than `maxFingerRadius` of the forearm's (the median radius of the nodes
// between 0.3 and 0.6 of the segment from the shoulder, `tail`). A finger's
// radius is a fifth to a quarter of the forearm's; a mitten hand's half
// thickness, where the curve skeleton of a flat hand ends, half of it or more.
// A segment that runs into a finger reaches within the finger's radius of its
// tip, which the tip extension restores, so the arm keeps its own scale.
constexpr double maxFingerRadius = 0.4;
bool endsInAFinger(const CurveSkeleton& s, const Polyline& line, const Polyline& tail)
{
    int end = -1;
    for (int v : line.nodes)
        if (v >= 0)
            end = v;
    std::vector<double> radii;
    for (size_t k = 0; k < tail.points.size(); ++k)
        if (tail.nodes[k] >= 0 && tail.arc[k] > 0.3 * tail.length() && tail.arc[k] < 0.6 * tail.length())
            radii.push_back(s.radii[static_cast<size_t>(tail.nodes[k])]);
    if (end < 0 || radii.empty())
        return false;
    std::nth_element(radii.begin(), radii.begin() + static_cast<std::ptrdiff_t>(radii.size() / 2), radii.end());
    return s.radii[static_cast<size_t>(end)] < maxFingerRadius * radii[radii.size() / 2];
}

// The arms from the shoulders (FitOptions::armsFromShoulders). Per arm chain
// that starts with a clavicle hanging from a spine joint:
//  1. the clavicle by its rest offset from that joint, scaled with the spine:
//     along the fitted spine as at rest, sideways towards the arm;
//  2. the upper-arm joint on the segment at the clavicle's rest length from it
//     (Euclidean), where the arm leaves the trunk;
//  3. the joints after it by their rest arc lengths from it along the rest of
//     the segment, scaled by the longer of the segment's and the body's scale
//     (the longest of the spine and the legs); by the segment's own where it
//     ends in a finger (`endsInAFinger()`).
// The clavicles step up along the fitted spine less its component across the
// body (from one arm's root to the other's, level).
// `placed` receives (position, node) for the joints it places.
void placeArms(const CurveSkeleton& s, const RigTemplate& t, const std::array<Polyline, limbCount>& lines,
               const std::array<double, limbCount>& scales, const Vec3& up,
               std::vector<std::optional<std::pair<Vec3, int>>>& placed)
{
    const Polyline& spine = lines[0];
    auto onSpine = [&](int j) { return spine.at(t.chainPositions[static_cast<size_t>(j)]).first; };
    auto rest = [&](int j) -> Vec3 { return t.restPositions.row(j).transpose(); };
    const double scale = scales[0];
    // The character's scale: a pose's bends and a curve skeleton's short ends
    // shorten a segment, never lengthen it, so the longest of the spine and
    // the legs within 15 % of it (the T-pose's spine: 0.97, its legs 1.01
    // and 0.98).
    double body = scale;
    for (Limb leg : {Limb::LeftFoot, Limb::RightFoot})
        if (const double s = scales[static_cast<size_t>(leg)]; s > body && s <= 1.15 * scale)
            body = s;
    // Per arm: its clavicle's spine joint on the fitted spine, and the arm's
    // root, where the segment is as far from that joint as the shoulder is at
    // rest (the arm's root whatever the arm's pose).
    struct Root {
        int parent = -1;
        Vec3 spine = Vec3::Zero(), arm = Vec3::Zero();
    };
    std::array<std::optional<Root>, limbCount> roots;
    for (Limb l : {Limb::LeftHand, Limb::RightHand}) {
        const auto c = static_cast<size_t>(l);
        const std::vector<int>& joints = t.chainJoints[c];
        const Polyline& line = lines[c];
        // Only where the template's arm and spine are in the character's
        // proportions (the scales agree within 15 %): the spine's scale stands
        // in for the arm's below.
        if (joints.size() < 3 || line.points.size() < 2 || line.length() <= 0.0 || !(scale > 0.0) ||
            std::abs(scales[c] / scale - 1.0) > 0.15)
            continue;
        const int parent = t.parents[static_cast<size_t>(joints[0])];
        const int grand = parent >= 0 ? t.parents[static_cast<size_t>(parent)] : -1;
        if (grand < 0 || t.chains[static_cast<size_t>(parent)] != Chain::Spine ||
            t.chains[static_cast<size_t>(grand)] != Chain::Spine)
            continue;
        const Vec3 p = onSpine(parent);
        const double reach = scale * (rest(joints[1]) - rest(parent)).norm();
        roots[c] = Root{parent, p, line.at(line.arcAtDistance(p, reach) / line.length()).first};
    }
    // Both arms from the same spine joint: the character's left-right axis
    // from one arm's root to the other's. The fitted spine's direction loses
    // its component along it: a curve skeleton's spine kinks off the midline
    // by a centimetre or two below the chest, which tilts its direction
    // sideways by several degrees, and the clavicles' long step up along it
    // would carry both to one side (1.7 cm in the T-pose).
    const auto& left = roots[static_cast<size_t>(Limb::LeftHand)];
    const auto& right = roots[static_cast<size_t>(Limb::RightHand)];
    Vec3 across = Vec3::Zero();
    if (left && right && left->parent == right->parent) {
        across = left->arm - right->arm;
        across -= across.dot(up) * up;
        across = across.norm() > 0.0 ? Vec3(across.normalized()) : Vec3::Zero();
    }
    for (Limb l : {Limb::LeftHand, Limb::RightHand}) {
        const auto c = static_cast<size_t>(l);
        if (!roots[c])
            continue;
        const std::vector<int>& joints = t.chainJoints[c];
        const Polyline& line = lines[c];
        const int clavicle = joints[0], shoulder = joints[1];
        const int parent = roots[c]->parent, grand = t.parents[static_cast<size_t>(parent)];
        // 1. The clavicle.
        const Vec3 p = roots[c]->spine;
        Vec3 upRest = rest(parent) - rest(grand), upFit = p - onSpine(grand);
        upFit -= upFit.dot(across) * across;
        if (upRest.norm() <= 0.0 || upFit.norm() <= 0.0)
            continue;
        upRest.normalize();
        upFit.normalize();
        const Vec3 offset = rest(clavicle) - rest(parent);
        const double along = offset.dot(upRest);
        const double aside = (offset - along * upRest).norm();
        // Sideways: towards the arm's root.
        const Vec3 toArm = roots[c]->arm - p;
        Vec3 side = toArm - toArm.dot(upFit) * upFit;
        side = side.norm() > 0.0 ? Vec3(side.normalized()) : Vec3::Zero();
        const Vec3 anchor = p + scale * (along * upFit + aside * side);
        int node = line.nodes.front(); // the segment's node nearest to the clavicle
        double best = std::numeric_limits<double>::infinity();
        for (size_t k = 0; k < line.points.size(); ++k)
            if (line.nodes[k] >= 0 && (line.points[k] - anchor).norm() < best) {
                best = (line.points[k] - anchor).norm();
                node = line.nodes[k];
            }
        placed[static_cast<size_t>(clavicle)] = std::make_pair(anchor, node);
        // 2. The shoulder.
        const Polyline tail = line.from(line.arcAtDistance(anchor, scale * (rest(shoulder) - rest(clavicle)).norm()));
        // 3. The rest of the arm. A curve skeleton stops short of a flat
        // extremity (a mitten hand: by half its width, not the half thickness
        // the tip extension adds), which would pull every joint inwards; the
        // body's scale bounds the arm's from below, unless the segment runs
        // into a finger and so reaches the tip.
        const double tShoulder = t.chainPositions[static_cast<size_t>(shoulder)];
        const double restTail = (1.0 - tShoulder) * t.chainLengths[c];
        const double floor = endsInAFinger(s, line, tail) ? 0.0 : body;
        const double tailScale = restTail > 0.0 ? std::max(tail.length() / restTail, floor) : body;
        for (size_t k = 1; k < joints.size(); ++k) {
            const double arc = (t.chainPositions[static_cast<size_t>(joints[k])] - tShoulder) * t.chainLengths[c] * tailScale;
            placed[static_cast<size_t>(joints[k])] = tail.at(tail.length() > 0.0 ? arc / tail.length() : 0.0);
        }
    }
}

// A straight line through the part of `line` between arc lengths a and b:
// through the centroid of samples along it, along their principal direction.
std::pair<Vec3, Vec3> fitLine(const Polyline& line, double a, double b)
{
    constexpr int samples = 9;
    std::array<Vec3, samples> q;
    Vec3 centre = Vec3::Zero();
    for (int i = 0; i < samples; ++i) {
        q[static_cast<size_t>(i)] = line.at((a + (b - a) * i / (samples - 1)) / line.length()).first;
        centre += q[static_cast<size_t>(i)] / samples;
    }
    Eigen::Matrix3d scatter = Eigen::Matrix3d::Zero();
    for (const Vec3& x : q)
        scatter += (x - centre) * (x - centre).transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(scatter);
    Vec3 direction = eigen.eigenvectors().col(2);
    if (direction.dot(q.back() - q.front()) < 0.0)
        direction = -direction;
    return {centre, direction};
}

// The node of `line` nearest to `position`.
int nearestNode(const Polyline& line, const Vec3& position)
{
    int node = line.nodes.front();
    double best = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < line.points.size(); ++k)
        if (line.nodes[k] >= 0 && (line.points[k] - position).norm() < best) {
            best = (line.points[k] - position).norm();
            node = line.nodes[k];
        }
    return node;
}

// A corner of `line` near arc length `thesis`, with `before` and `after` the
// lengths of the (scaled) bones on either side of the joint placed there:
//  1. the bend: where, within half a neighbouring bone of `thesis`, the line
//     turns most between its direction over the w = a quarter of the shorter
//     bone before and after a point;
//  2. bent more than `minBend`: the corner is where the line's straight
//     stretches on either side (from w to 0.8 of the neighbouring bone away
//     from the bend) meet, the midpoint of their closest points. A curve
//     skeleton rounds a bend off inside the corner and is shorter there than
//     the bones, so by arc length the joint slides past the corner (a knee
//     4 cm down the shin when sitting; now 0.2-0.5 cm off). Shorter
//     stretches (w to 2w) catch the bumps of the curve skeleton (a right
//     shin's 1 cm bulge at the calf put the knee 1.1 cm back).
// std::nullopt when the line is straighter than `minBend` there.
// The bend is not measured past arc length `searchEnd`.
std::optional<Corner> cornerNear(const Polyline& line, double thesis, double before, double after, double minBend,
                                 double searchEnd)
{
    const double length = line.length();
    const double w = 0.25 * std::min(before, after);
    if (!(w > 0.0) || !(length > 0.0))
        return std::nullopt;
    auto point = [&](double s) { return line.at(s / length).first; };
    double bend = 0.0, at = thesis;
    constexpr int steps = 50;
    for (int i = 0; i <= steps; ++i) {
        const double s = thesis - 0.5 * before + 0.5 * (before + after) * i / steps;
        if (s - 2.0 * w < 0.0 || s + 2.0 * w > length || s + w > searchEnd)
            continue;
        const Vec3 in = point(s) - point(s - w), out = point(s + w) - point(s);
        if (const double angle = std::atan2(in.cross(out).norm(), in.dot(out)); angle > bend) {
            bend = angle;
            at = s;
        }
    }
    if (bend <= minBend)
        return std::nullopt;
    const auto [p1, d1] = fitLine(line, std::max(0.0, at - 0.8 * before), at - w);
    const auto [p2, d2] = fitLine(line, at + w, std::min(length, at + 0.8 * after));
    const Vec3 r = p1 - p2;
    const double b = d1.dot(d2), den = 1.0 - b * b; // d1, d2 are unit
    if (den < 1e-9)
        return std::nullopt;
    const double u = (b * d2.dot(r) - d1.dot(r)) / den, v = (d2.dot(r) - b * d1.dot(r)) / den;
    Vec3 position = 0.5 * ((p1 + u * d1) + (p2 + v * d2));
    if ((position - point(at)).norm() > w) // a stray fit: the bend itself
        position = point(at);
    return Corner{position, at};
}

// The knees at the bend and the ankles on the shin's line
// (FitOptions::kneesAtBends, anklesOnShins). Per leg chain:
//  1. the knee: its inner joint between the two longest bones (the largest
//     shorter neighbouring rest bone), so a hip joint or a toe never counts;
//     the ankle: the joint after it, when the template's chain turns there by
//     more than `minBend` (the shin down, the foot forward);
//  2. the ankle: the thesis's placement moved onto the shin's straight line
//     (fitted through the segment between a tenth of the shin below the
//     knee's and 0.35 of it above the ankle's arc-length placement), the
//     point of that line nearest to it. A curve skeleton turns from the shin
//     into the foot through the middle of the foot, rounding the heel off,
//     so by arc length the ankle lands on the foot, ahead of the leg's line
//     (3-4 % of the height forward on the devset's players, issue 14); the
//     projection keeps its height;
//  3. the knee at its bend (`cornerNear()`) when bent more than `minBend`,
//     its bend measured no further down than half the shin above the ankle's
//     placement: on short legs the bend of the ankle or a boot's rim lies
//     within half a shin of the knee's placement and drew the knee down to it
//     (14 % of the height low on re_male at resolution 255).
void placeLegs(const RigTemplate& t, const std::array<Polyline, limbCount>& lines,
               const std::array<double, limbCount>& scales, double minBend, bool knees, bool ankles,
               std::vector<std::optional<std::pair<Vec3, int>>>& placed)
{
    for (Limb l : {Limb::LeftFoot, Limb::RightFoot}) {
        const auto c = static_cast<size_t>(l);
        const std::vector<int>& joints = t.chainJoints[c];
        const Polyline& line = lines[c];
        const double length = line.length();
        if (joints.size() < 3 || line.points.size() < 3 || !(length > 0.0))
            continue;
        // 1. The knee and the ankle.
        auto restArc = [&](size_t k) {
            return k < joints.size() ? t.chainPositions[static_cast<size_t>(joints[k])] * t.chainLengths[c]
                                     : t.chainLengths[c];
        };
        size_t knee = 0;
        double bone = 0.0;
        for (size_t k = 1; k + 1 < joints.size(); ++k)
            if (const double b = std::min(restArc(k) - restArc(k - 1), restArc(k + 1) - restArc(k)); b > bone) {
                bone = b;
                knee = k;
            }
        if (knee == 0)
            continue;
        const double before = scales[c] * (restArc(knee) - restArc(knee - 1));
        const double shin = scales[c] * (restArc(knee + 1) - restArc(knee));
        const double kneeArc = t.chainPositions[static_cast<size_t>(joints[knee])] * length;
        double searchEnd = std::numeric_limits<double>::infinity();
        // 2. The ankle.
        if (const size_t ankle = knee + 1; ankle < joints.size()) {
            auto rest = [&](size_t k) -> Vec3 {
                return k < joints.size() ? Vec3(t.restPositions.row(joints[k]).transpose()) : t.chainTips[c];
            };
            const Vec3 down = rest(ankle) - rest(knee), foot = rest(ankle + 1) - rest(ankle);
            const double turn = std::atan2(down.cross(foot).norm(), down.dot(foot));
            const double ankleArc = t.chainPositions[static_cast<size_t>(joints[ankle])] * length;
            searchEnd = ankleArc - 0.5 * shin;
            const double from = std::max(0.0, kneeArc + 0.1 * shin), to = ankleArc - 0.35 * shin;
            if (ankles && turn > minBend && to > from) {
                const auto [p, d] = fitLine(line, from, to);
                const Vec3 q = line.at(ankleArc / length).first;
                const Vec3 onShin = p + d.dot(q - p) * d;
                placed[static_cast<size_t>(joints[ankle])] = std::make_pair(onShin, nearestNode(line, onShin));
            }
        }
        // 3. The knee.
        if (knees)
            if (const auto corner = cornerNear(line, kneeArc, before, shin, minBend, searchEnd))
                placed[static_cast<size_t>(joints[knee])] = std::make_pair(corner->position, nearestNode(line, corner->position));
    }
}

// The hip joints on the thighs' axes (FitOptions::hipsOnThighs). Per leg
// chain whose first joint (the upper leg) hangs from the hips, with the leg's
// scale its segment's length over the template chain's:
//  1. the thigh's axis: the straight line through the leg's segment from a
//     fifth of the thigh below the upper leg's arc-length placement to a
//     fifth of it above the knee's;
//  2. the upper leg: the point of that axis nearest to where the template's
//     offset from the hips (scaled) puts it, down by the rest offset along up
//     and sideways towards the leg's side, then moved along the facing
//     direction into the hips' frontal plane (the hip joints sit in the
//     pelvis beside the hips joint, as in the template; a thigh tilted
//     forward or back would carry the point of its axis off that plane). A
//     curve skeleton leaves the fork (the hips) diagonally through the groin
//     to the thigh's middle, longer than the template's short hips-to-upper-
//     leg bone, so by arc length the hip joint lands down the thigh, below
//     the crotch (6 % of the height low on re_male at n = 155), and inside
//     the thigh's axis, while the anatomical hip joint lies level with the
//     fork, above the thigh's axis;
//  3. the leg's line re-routed: the hips, the hip joint, then the segment
//     from the start of the thigh's axis fit on, so that the knee, ankle and
//     toe by normalized arc length (and `placeLegs()`) measure the leg from
//     the hip joint rather than down the groin's diagonal (the knees were
//     1.2 % of the height low on the devset, 0.6 % after).
void placeHipJoints(const RigTemplate& t, std::array<Polyline, limbCount>& lines, const Vec3& up, const Vec3& front,
                    std::vector<std::optional<std::pair<Vec3, int>>>& placed)
{
    if (t.hips < 0)
        return;
    const Vec3 left = up.cross(front).normalized(), forward = left.cross(up);
    for (Limb l : {Limb::LeftFoot, Limb::RightFoot}) {
        const auto c = static_cast<size_t>(l);
        const std::vector<int>& joints = t.chainJoints[c];
        const Polyline& line = lines[c];
        const double length = line.length();
        if (joints.size() < 3 || line.points.size() < 3 || !(length > 0.0) || !(t.chainLengths[c] > 0.0) ||
            t.parents[static_cast<size_t>(joints[0])] != t.hips)
            continue;
        const double scale = length / t.chainLengths[c];
        const int upLeg = joints[0], knee = joints[1];
        const double thigh = (t.chainPositions[static_cast<size_t>(knee)] - t.chainPositions[static_cast<size_t>(upLeg)]) *
                             t.chainLengths[c] * scale;
        const double from = t.chainPositions[static_cast<size_t>(upLeg)] * length + 0.2 * thigh;
        const double to = t.chainPositions[static_cast<size_t>(knee)] * length - 0.2 * thigh;
        if (!(thigh > 0.0) || !(to > from))
            continue;
        const auto [p, d] = fitLine(line, from, to);
        const Vec3 restOffset = (t.restPositions.row(upLeg) - t.restPositions.row(t.hips)).transpose();
        const Vec3 hips = line.points.front();
        const double side = (p - hips).dot(left) >= 0.0 ? 1.0 : -1.0;
        const Vec3 target = hips + scale * (side * std::abs(restOffset.x()) * left + restOffset.y() * up);
        Vec3 onThigh = p + d.dot(target - p) * d;
        onThigh += (target - onThigh).dot(forward) * forward; // in the hips' frontal plane
        placed[static_cast<size_t>(upLeg)] = std::make_pair(onThigh, nearestNode(line, onThigh));
        // 3. The rest of the leg from the hip joint: the leg's line re-routed
        //    from the hips through it to the thigh's axis and on.
        Polyline out;
        out.add(hips, line.nodes.front());
        out.add(onThigh, -1);
        const Polyline below = line.from(from);
        for (size_t k = 0; k < below.points.size(); ++k)
            out.add(below.points[k], below.nodes[k]);
        lines[c] = out;
    }
}

// The head at the top of the neck (FitOptions::headAtNeck), the neck joints
// between the spine top and it by their rest shares. On the spine's segment
// (`line`, hips to the head's tip):
//  1. a0, the spine top's (the template's chest joint) arc-length placement;
//     the head's widest ball, the largest radius at or above the thesis's
//     head placement (the skull; the chest and shoulders below are wider);
//  2. the neck, the smallest radius between a0 and that ball, and from it
//     upwards while the radius stays within `tolerance` of it: the head joint
//     at the top of that stretch, where the neck widens into the skull;
//  3. only where the neck's radius is under `maxNeckToHead` of the ball's;
//  4. the neck's base below it, where the radius has grown to
//     `neckBaseWidening` times the narrowest, for the neck joint.
// Returns whether it placed the head.
bool placeHead(const CurveSkeleton& s, const RigTemplate& t, const Polyline& line, double tolerance,
               double maxNeckToHead, double neckBaseWidening, std::vector<std::optional<std::pair<Vec3, int>>>& placed)
{
    const std::vector<int>& joints = t.chainJoints[0];
    if (joints.empty() || t.chest < 0 || t.chains[static_cast<size_t>(t.chest)] != Chain::Spine || line.points.size() < 3)
        return false;
    // The head: the spine's last joint, below the head's tip (a template whose
    // last spine joint is the tip itself, with no End Site, says nothing about
    // which joint is the skull's: left to the thesis).
    const int head = joints.back();
    const double length = line.length();
    const double tChest = t.chainPositions[static_cast<size_t>(t.chest)], tHead = t.chainPositions[static_cast<size_t>(head)];
    if (head == t.chest || !(tHead > tChest) || !(tHead < 1.0) || !(length > 0.0))
        return false;
    const double a0 = tChest * length, aThesis = tHead * length;
    auto radius = [&](size_t k) { return s.radii[static_cast<size_t>(line.nodes[k])]; };
    // 1. The head's widest ball.
    std::optional<size_t> ball;
    for (size_t k = 0; k < line.points.size(); ++k)
        if (line.nodes[k] >= 0 && line.arc[k] >= aThesis && (!ball || radius(k) > radius(*ball)))
            ball = k;
    if (!ball)
        return false;
    // 2. The neck's narrowest node between the spine top and the ball.
    std::optional<size_t> neck;
    for (size_t k = 0; k < *ball; ++k)
        if (line.nodes[k] >= 0 && line.arc[k] > a0 && (!neck || radius(k) < radius(*neck)))
            neck = k;
    if (!neck || !(radius(*neck) < maxNeckToHead * radius(*ball)))
        return false;
    const double narrow = radius(*neck);
    size_t top = *neck;
    for (size_t k = *neck + 1; k < *ball; ++k) {
        if (line.nodes[k] < 0)
            continue;
        if (radius(k) > (1.0 + tolerance) * narrow)
            break;
        top = k;
    }
    const double aHead = line.arc[top];
    placed[static_cast<size_t>(head)] = std::make_pair(line.points[top], line.nodes[top]);
    // 4. The neck's base: from the narrowest node down, where the radius has
    //    grown to `neckBaseWidening` times the narrowest (interpolated between
    //    the two nodes around it); no higher than the spine top's placement.
    double aBase = a0;
    for (size_t k = *neck; k-- > 0;) {
        if (line.nodes[k] < 0 || line.arc[k] <= a0)
            break;
        if (radius(k) >= neckBaseWidening * narrow) {
            size_t above = k + 1;
            while (above < *neck && line.nodes[above] < 0)
                ++above;
            const double r0 = radius(k), r1 = radius(above);
            const double u = r0 > r1 ? std::clamp((r0 - neckBaseWidening * narrow) / (r0 - r1), 0.0, 1.0) : 0.0;
            aBase = line.arc[k] + u * (line.arc[above] - line.arc[k]);
            break;
        }
    }
    // The joints between the spine top and the head: the lowest (the neck)
    // at the neck's base, any others between it and the head by their rest
    // shares; any above the head by their shares of the rest up to the tip.
    std::vector<int> between;
    for (int j : joints)
        if (const double tj = t.chainPositions[static_cast<size_t>(j)]; j != head && tj > tChest && tj < tHead)
            between.push_back(j);
    const double tBase = between.empty() ? tChest : t.chainPositions[static_cast<size_t>(between.front())];
    if (!(aBase > a0 && aBase < aHead)) // no neck's base found: the rest shares from the spine top
        aBase = a0 + (tBase - tChest) / (tHead - tChest) * (aHead - a0);
    auto place = [&](int j, double a) {
        const Vec3 p = line.at(a / length).first;
        placed[static_cast<size_t>(j)] = std::make_pair(p, nearestNode(line, p));
    };
    for (int j : between) {
        const double tj = t.chainPositions[static_cast<size_t>(j)];
        place(j, tHead > tBase ? aBase + (tj - tBase) / (tHead - tBase) * (aHead - aBase) : aBase);
    }
    for (int j : joints)
        if (const double tj = t.chainPositions[static_cast<size_t>(j)]; j != head && tj > tHead)
            place(j, aHead + (tj - tHead) / (1.0 - tHead) * (length - aHead));
    return true;
}

} // namespace rig::fit
