#include "core/motion/retarget.h"

#include "core/motion/retarget_rest.h"

#include "core/common/error.h"
#include "core/motion/joint_names.h"
#include "core/motion/skeleton_structure.h"

#include <Eigen/SVD>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <limits>
#include <optional>
#include <numbers>
#include <sstream>

namespace rig {
namespace {

using Quat = Eigen::Quaterniond;
using Part = JointPart;
using Side = JointSide;
using NameRole = JointNameRole;
using retarget::computeRestOffsets;
using retarget::Rest;
using retarget::restHeight;

// ------------------------------------------------------------------ skeleton geometry

void fillChildren(Rest& r)
{
    r.children.assign(r.parents.size(), {});
    for (int j = 1; j < r.count(); ++j)
        r.children[static_cast<size_t>(r.parents[static_cast<size_t>(j)])].push_back(j);
}

MotionPose sourceRestPose(const Motion& m, RetargetRest rest)
{
    if (rest == RetargetRest::Zero)
        return restPose(m);
    if (rest == RetargetRest::Bind)
        return evaluateValues(m, m.bindValues);
    if (m.frameCount() < 1)
        throw InvalidInput("rig::mapSkeletons(): the clip has no frames, so frame 0 cannot be the rest pose; "
                           "use the zero pose (--rest zero)");
    return evaluateFrame(m, 0);
}

/// Roles and children from the body structure (structure-first mapping), or,
/// for a skeleton whose body was not found, from names over the whole hierarchy.
void useStructure(Rest& r, const std::vector<std::string>& names, bool structure)
{
    if (structure && r.body.pelvis >= 0) {
        r.roles = r.body.roles(names);
        r.children = r.body.keptChildren();
    } else {
        r.roles = jointNameRoles(names);
        fillChildren(r);
    }
}

Rest sourceRest(const Motion& m, RetargetRest rest, MotionWorld* world = nullptr)
{
    const MotionWorld w = worldTransforms(m, sourceRestPose(m, rest));
    Rest r;
    r.parents = m.parents;
    r.positions = w.positions;
    r.orientations = w.orientations;
    r.body = findBodyStructure(m.names, m.parents, w.positions, {.weighted = m.weighted});
    useStructure(r, m.names, true);
    if (world)
        *world = w;
    return r;
}

Rest targetRest(const Skeleton& s)
{
    Rest r;
    r.parents = s.parents;
    r.positions = s.bindPositions;
    r.orientations = s.bindOrientations;
    r.body = findBodyStructure(s.names, s.parents, s.bindPositions);
    useStructure(r, s.names, true);
    return r;
}

/// Both bodies can be used: map chain by chain. Else (a target that is not a
/// humanoid, or a source whose geometry is broken: absurd bone lengths)
/// segments over the whole hierarchies, with names.
bool structural(const Rest& tr, const Rest& sr, const RetargetOptions& o)
{
    return o.structureFirst && tr.body.pelvis >= 0 && tr.body.spine.size() >= 2 && !tr.body.shortenedBones &&
           !sr.body.shortenedBones;
}

// A segment (thesis Fig. 5.6): joints[0] is the root or a branch joint, the
// inner joints have one child, the last has none or several. Bone k (1-based)
// runs from joints[k-1] to joints[k]; ends[k-1] is its normalized end.
struct Segment {
    std::vector<int> joints;
    std::vector<double> ends;
    std::vector<double> lengths; // bone lengths
    Vec3 direction = Vec3::Zero();
    int level = 0;
    std::vector<int> childSegments;
    int bones() const { return static_cast<int>(joints.size()) - 1; }
    int last() const { return joints.back(); }
};

// A segment along the given joints (joints[0] its start).
Segment segmentAlong(const Rest& r, std::vector<int> joints, int level)
{
    Segment s;
    s.level = level;
    s.joints = std::move(joints);
    double total = 0.0;
    for (int k = 1; k < static_cast<int>(s.joints.size()); ++k) {
        const double len = (r.at(s.joints[static_cast<size_t>(k)]) - r.at(s.joints[static_cast<size_t>(k - 1)])).norm();
        s.lengths.push_back(len);
        total += len;
    }
    double acc = 0.0;
    for (size_t k = 0; k < s.lengths.size(); ++k) {
        acc += s.lengths[k];
        // Zero-length segments (and lengths that overflowed): spread the ends evenly.
        s.ends.push_back(total > 0.0 && std::isfinite(total)
                             ? acc / total
                             : static_cast<double>(k + 1) / static_cast<double>(s.lengths.size()));
    }
    const Vec3 d = r.at(s.last()) - r.at(s.joints[0]);
    const Vec3 unit = d.stableNormalized(); // no overflow for huge offsets
    if (d.squaredNorm() > 0.0 && unit.allFinite())
        s.direction = unit;
    return s;
}

// The segment from `start` through `first` and on while joints have exactly one child.
Segment grow(const Rest& r, int start, int first, int level)
{
    std::vector<int> joints{start};
    int j = first;
    while (j >= 0) {
        joints.push_back(j);
        const auto& ch = r.children[static_cast<size_t>(j)];
        j = ch.size() == 1 ? ch[0] : -1;
    }
    return segmentAlong(r, std::move(joints), level);
}

// Adds the child segments of out[from..] (of every segment ending at a branch;
// of out[0] whatever its children when `allOfFirst`).
void growChildren(const Rest& r, std::vector<Segment>& out, bool allOfFirst)
{
    for (size_t i = 0; i < out.size(); ++i) {
        const int end = out[i].last();
        const auto& ch = r.children[static_cast<size_t>(end)];
        if (ch.size() < 2 && !(allOfFirst && i == 0))
            continue;
        for (int c : ch) {
            out[i].childSegments.push_back(static_cast<int>(out.size()));
            out.push_back(grow(r, end, c, out[i].level + 1));
        }
    }
}

// Level 0 is the trunk from the root to the first joint without exactly one child.
std::vector<Segment> segmentsOf(const Rest& r)
{
    std::vector<Segment> out;
    Segment trunk;
    trunk.joints.push_back(0);
    const auto& ch0 = r.children[0];
    out.push_back(ch0.size() == 1 ? grow(r, 0, ch0[0], 0) : trunk);
    growChildren(r, out, false);
    return out;
}

// The segments hanging below `start` (out[0] is just `start`).
std::vector<Segment> segmentsBelow(const Rest& r, int start, int level)
{
    Segment top;
    top.joints.push_back(start);
    top.level = level;
    std::vector<Segment> out{top};
    growChildren(r, out, true);
    return out;
}

constexpr double big = 1e6;

// Order-preserving pairing of p <= q items: each a[i] gets a distinct b[pick[i]],
// pick increasing, the last a with the last b, minimizing the sum of cost(i, j).
template <typename Cost>
std::vector<int> pairInOrder(int p, int q, const Cost& cost)
{
    std::vector<int> pick(static_cast<size_t>(p), -1);
    if (p == 0)
        return pick;
    const double inf = std::numeric_limits<double>::infinity();
    // A cost that is not finite (bone lengths that overflowed: an offset of
    // 1e308 gave inf / inf = NaN) would leave no cell reachable and the walk
    // back below reading from[i][-1]: count it as the worst finite cost.
    auto safeCost = [&](int i, int j) {
        const double c = cost(i, j);
        return std::isfinite(c) ? c : 1e3 * big;
    };
    // best[i][j]: least cost of pairing a[0..i] with a[i] -> b[j].
    std::vector<std::vector<double>> best(static_cast<size_t>(p), std::vector<double>(static_cast<size_t>(q), inf));
    std::vector<std::vector<int>> from(static_cast<size_t>(p), std::vector<int>(static_cast<size_t>(q), -1));
    for (int j = 0; j < q; ++j)
        best[0][static_cast<size_t>(j)] = safeCost(0, j);
    for (int i = 1; i < p; ++i) {
        double runBest = inf;
        int runArg = -1;
        for (int j = 1; j < q; ++j) {
            if (best[static_cast<size_t>(i - 1)][static_cast<size_t>(j - 1)] < runBest) {
                runBest = best[static_cast<size_t>(i - 1)][static_cast<size_t>(j - 1)];
                runArg = j - 1;
            }
            if (runArg >= 0) {
                best[static_cast<size_t>(i)][static_cast<size_t>(j)] = runBest + safeCost(i, j);
                from[static_cast<size_t>(i)][static_cast<size_t>(j)] = runArg;
            }
        }
    }
    int j = q - 1; // the last with the last
    for (int i = p - 1; i >= 0; --i) {
        // With finite costs every cell with j >= i is reached; keep the walk in bounds regardless.
        if (j < i) {
            for (int k = i; k >= 0; --k)
                pick[static_cast<size_t>(k)] = k + (q - p);
            break;
        }
        pick[static_cast<size_t>(i)] = j;
        j = i > 0 ? from[static_cast<size_t>(i)][static_cast<size_t>(j)] : -1;
    }
    return pick;
}

// Number of (part, side) roles two segments share, and whether their sides conflict.
std::pair<int, bool> nameAgreement(const Segment& t, const Rest& tr, const Segment& s, const Rest& sr)
{
    int shared = 0;
    bool tl = false, trr = false, sl = false, srr = false;
    for (size_t a = 1; a < t.joints.size(); ++a) {
        const NameRole& x = tr.roles[static_cast<size_t>(t.joints[a])];
        tl |= x.side == Side::Left;
        trr |= x.side == Side::Right;
        for (size_t b = 1; b < s.joints.size(); ++b)
            if (sameJointRole(x, sr.roles[static_cast<size_t>(s.joints[b])])) {
                ++shared;
                break;
            }
    }
    for (size_t b = 1; b < s.joints.size(); ++b) {
        const NameRole& y = sr.roles[static_cast<size_t>(s.joints[b])];
        sl |= y.side == Side::Left;
        srr |= y.side == Side::Right;
    }
    const bool conflict = (tl && !trr && srr && !sl) || (trr && !tl && sl && !srr);
    return {shared, conflict};
}

// After pairing bone bt of the target with source bone pick[bt] (by its
// owner's name, as the upper arm with `upper_arm.01`), the source bones that
// follow it up to the next pair join it while they bring its end nearer the
// target bone's end: a source limb split in two bones per segment
// (`upper_arm.01/.02`, `forearm.01/.02`) gives the target's upper arm both
// halves, ending at the elbow, instead of lumping the upper arm's second half
// into the forearm. A bone named for another target bone is not taken.
template <class Anchored>
void extendToBoneEnds(std::vector<int>& pick, const Segment& t, const Segment& s, const Anchored& anchored)
{
    const int nt = t.bones(), ns = s.bones();
    for (int bt = 0; bt < nt; ++bt) {
        int& bs = pick[static_cast<size_t>(bt)];
        const int limit = bt + 1 < nt ? pick[static_cast<size_t>(bt + 1)] - 1 : ns - 1;
        const double end = t.ends[static_cast<size_t>(bt)];
        while (bs + 1 <= limit) {
            bool otherName = false;
            for (int k = 0; k < nt; ++k)
                otherName |= k != bt && anchored(k, bs + 1);
            if (otherName || !(std::abs(s.ends[static_cast<size_t>(bs + 1)] - end) <
                               std::abs(s.ends[static_cast<size_t>(bs)] - end)))
                break;
            ++bs;
        }
    }
}

void setSources(JointRetarget& j, std::vector<RetargetSource> sources, RetargetMatch match)
{
    j.sources = std::move(sources);
    j.match = j.sources.empty() ? RetargetMatch::Unmapped : match;
}

// Pairs the bones of matched segments t (target) and s (source) and fills the
// target joints they own (all but t.joints[0], which the branch rule sets).
void mapSegmentPair(const Segment& t, const Rest& tr, const Segment& s, const Rest& sr, const RetargetOptions& o,
                    RetargetMapping& m)
{
    const int nt = t.bones(), ns = s.bones();
    auto owner = [](const Segment& g, int bone) { return g.joints[static_cast<size_t>(bone)]; }; // bone 0-based: from joints[bone]
    // Bone 0 belongs to the branch joint (hips, chest), which the branch rule maps.
    auto anchored = [&](int bt, int bs) {
        return o.useNames && bt > 0 && bs > 0 && sameJointRole(tr.roles[static_cast<size_t>(owner(t, bt))], sr.roles[static_cast<size_t>(owner(s, bs))]);
    };
    // A bone with a name partner on the other side must pair with it.
    auto hasPartner = [&](bool target, int bone) {
        const int n = target ? ns : nt;
        for (int k = 0; k < n; ++k)
            if (target ? anchored(bone, k) : anchored(k, bone))
                return true;
        return false;
    };
    auto cost = [&](int bt, int bs) {
        double c = std::abs(t.ends[static_cast<size_t>(bt)] - s.ends[static_cast<size_t>(bs)]);
        if (anchored(bt, bs))
            c -= big;
        else if (hasPartner(true, bt) || hasPartner(false, bs))
            c += big;
        return c;
    };
    const int leafT = t.last();
    const bool targetEndIsBranch = tr.children[static_cast<size_t>(leafT)].size() >= 2;
    if (nt > 0 && ns > 0) {
        if (ns >= nt) {
            std::vector<int> pick = pairInOrder(nt, ns, cost);
            if (o.spanToBoneEnds)
                extendToBoneEnds(pick, t, s, anchored);
            int prev = -1;
            for (int bt = 0; bt < nt; ++bt) {
                const int bs = pick[static_cast<size_t>(bt)];
                // Source bones prev+1 .. bs blend into target bone bt (thesis Fig. 5.7).
                double total = 0.0;
                for (int k = prev + 1; k <= bs; ++k)
                    total += s.lengths[static_cast<size_t>(k)];
                std::vector<RetargetSource> src;
                for (int k = prev + 1; k <= bs; ++k) {
                    const double w = total > 0.0 && std::isfinite(total) ? s.lengths[static_cast<size_t>(k)] / total
                                                                         : (k == bs ? 1.0 : 0.0);
                    if (w > 0.0)
                        src.push_back({owner(s, k), w});
                }
                prev = bs;
                if (bt == 0)
                    continue; // owned by the branch joint
                setSources(m.joints[static_cast<size_t>(owner(t, bt))], std::move(src),
                           anchored(bt, bs) ? RetargetMatch::Name : RetargetMatch::Length);
            }
        } else {
            auto flipped = [&](int bs, int bt) { return cost(bt, bs); };
            const std::vector<int> pick = pairInOrder(ns, nt, flipped);
            std::vector<int> partner(static_cast<size_t>(nt), -1);
            for (int bs = 0; bs < ns; ++bs)
                partner[static_cast<size_t>(pick[static_cast<size_t>(bs)])] = bs;
            for (int bt = 1; bt < nt; ++bt) {
                JointRetarget& j = m.joints[static_cast<size_t>(owner(t, bt))];
                const int bs = partner[static_cast<size_t>(bt)];
                if (bs >= 0) {
                    setSources(j, {{owner(s, bs), 1.0}}, anchored(bt, bs) ? RetargetMatch::Name : RetargetMatch::Length);
                } else if (o.coverUnpaired) {
                    // The source bone whose span holds this bone's middle.
                    const double mid = 0.5 * ((bt > 0 ? t.ends[static_cast<size_t>(bt - 1)] : 0.0) + t.ends[static_cast<size_t>(bt)]);
                    int k = 0;
                    while (k + 1 < ns && s.ends[static_cast<size_t>(k)] < mid)
                        ++k;
                    setSources(j, {{owner(s, k), 1.0}}, RetargetMatch::Covered);
                }
            }
        }
    }
    // The segment's last joint follows the source segment's last joint (a leaf's
    // own rotation: the head, a hand, a toe; a branch: the chest, a palm).
    {
        const bool named = o.useNames && sameJointRole(tr.roles[static_cast<size_t>(leafT)], sr.roles[static_cast<size_t>(s.last())]);
        setSources(m.joints[static_cast<size_t>(leafT)], {{s.last(), 1.0}},
                   targetEndIsBranch ? RetargetMatch::Branch : named ? RetargetMatch::Name : RetargetMatch::Length);
    }
}

// Matches the child segments of two matched segments, recursively.
void mapChildren(const std::vector<Segment>& ts, const Rest& tr, int ti, const std::vector<Segment>& ss,
                 const Rest& sr, int si, const RetargetOptions& o, RetargetMapping& m)
{
    const auto& tc = ts[static_cast<size_t>(ti)].childSegments;
    const auto& sc = ss[static_cast<size_t>(si)].childSegments;
    struct Candidate {
        int t, s, names;
        double dot;
    };
    std::vector<Candidate> cands;
    for (int a : tc)
        for (int b : sc) {
            const Segment& x = ts[static_cast<size_t>(a)];
            const Segment& y = ss[static_cast<size_t>(b)];
            int names = 0;
            if (o.useNames) {
                const auto [shared, conflict] = nameAgreement(x, tr, y, sr);
                if (conflict)
                    continue;
                names = shared;
            }
            const double dot = x.direction.dot(y.direction);
            // Opposite main orientations never correspond (a zero-length
            // segment, such as a thumb at the palm's joint, has none).
            if (names == 0 && dot <= 0.0 && x.direction.squaredNorm() > 0.0 && y.direction.squaredNorm() > 0.0)
                continue;
            cands.push_back({a, b, names, dot});
        }
    std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
        return a.names != b.names ? a.names > b.names : a.dot > b.dot;
    });
    std::vector<int> usedT, usedS;
    for (const Candidate& c : cands) {
        if (std::find(usedT.begin(), usedT.end(), c.t) != usedT.end() ||
            std::find(usedS.begin(), usedS.end(), c.s) != usedS.end())
            continue;
        usedT.push_back(c.t);
        usedS.push_back(c.s);
        mapSegmentPair(ts[static_cast<size_t>(c.t)], tr, ss[static_cast<size_t>(c.s)], sr, o, m);
        mapChildren(ts, tr, c.t, ss, sr, c.s, o, m);
    }
}

// ------------------------------------------------------------------ structure first

std::string partLabel(const NameRole& r)
{
    const std::string side = r.side == Side::Left ? "left " : r.side == Side::Right ? "right " : "";
    switch (r.part) {
    case Part::None: return {};
    case Part::Hips: return "pelvis";
    case Part::Thigh: return side + "hip (upper leg)";
    case Part::Shin: return side + "knee";
    case Part::Foot: return side + "ankle";
    case Part::Toe: return side + "toe";
    case Part::Clavicle: return side + "clavicle";
    case Part::UpperArm: return side + "shoulder (upper arm)";
    case Part::ForeArm: return side + "elbow";
    case Part::Hand: return side + "wrist";
    case Part::Neck: return "neck";
    case Part::Head: return "head";
    }
    return {};
}

void noteUndriven(RetargetMapping& m, const std::vector<int>& joints, size_t from, const std::string& why)
{
    for (size_t k = from; k < joints.size(); ++k)
        if (m.joints[static_cast<size_t>(joints[k])].sources.empty())
            m.joints[static_cast<size_t>(joints[k])].note = why;
}

// One body chain of the target paired with the source's (joints[0] of each is where it hangs).
void pairChain(const std::vector<int>& t, const Rest& tr, const std::vector<int>& s, const Rest& sr,
               const std::string& label, int level, const RetargetOptions& o, RetargetMapping& m)
{
    if (t.size() < 2)
        return; // the target has no such chain
    if (s.size() < 2) {
        noteUndriven(m, t, 1, "not driven: the source has no " + label + " (see the messages)");
        return;
    }
    mapSegmentPair(segmentAlong(tr, t, level), tr, segmentAlong(sr, s, level), sr, o, m);
}

// What hangs below two corresponding joints (fingers, toes, jaw): segments, as the thesis.
void pairBelow(int t, const Rest& tr, int s, const Rest& sr, int level, const RetargetOptions& o, RetargetMapping& m)
{
    if (t < 0 || s < 0 || tr.children[static_cast<size_t>(t)].empty() || sr.children[static_cast<size_t>(s)].empty())
        return;
    mapChildren(segmentsBelow(tr, t, level), tr, 0, segmentsBelow(sr, s, level), sr, 0, o, m);
}

std::vector<int> limbSegment(const BodyLimb& l)
{
    if (!l.found())
        return {};
    std::vector<int> j{l.attachment};
    j.insert(j.end(), l.chain.begin(), l.chain.end());
    return j;
}

// The structure-first mapping (see the header). Expects structural(tr, sr, o).
void mapBody(const Rest& tr, const Rest& sr, const RetargetOptions& o, RetargetMapping& m)
{
    const BodyStructure& tb = tr.body;
    const BodyStructure& sb = sr.body;
    for (int j = tb.pelvis; j >= 0; j = tr.parents[static_cast<size_t>(j)]) {
        if (sb.pelvis >= 0)
            setSources(m.joints[static_cast<size_t>(j)], {{sb.pelvis, 1.0}}, RetargetMatch::Branch);
        else
            m.joints[static_cast<size_t>(j)].note = "not driven: no body found in the source";
    }
    if (sb.pelvis < 0)
        return;
    auto armed = [](const BodyStructure& b) { return b.arms[0].found() || b.arms[1].found(); };
    if (armed(tb) && armed(sb)) {
        pairChain(tb.spine, tr, sb.spine, sr, "spine", 1, o, m);
        pairChain(tb.neck, tr, sb.neck, sr, "neck and head", 2, o, m);
    } else {
        // No chest to split at on one side: pelvis to head as one chain.
        auto upper = [](const BodyStructure& b) {
            std::vector<int> j = b.spine;
            if (b.neck.size() > 1)
                j.insert(j.end(), b.neck.begin() + 1, b.neck.end());
            return j;
        };
        pairChain(upper(tb), tr, upper(sb), sr, "spine, neck and head", 1, o, m);
    }
    pairBelow(tb.head, tr, sb.head, sr, 3, o, m);
    for (size_t side = 0; side < 2; ++side) {
        const BodyLimb &ta = tb.arms[side], &sa = sb.arms[side], &tl = tb.legs[side], &sl = sb.legs[side];
        pairChain(limbSegment(ta), tr, limbSegment(sa), sr, limbLabel(true, static_cast<int>(side)), 2, o, m);
        pairBelow(ta.end, tr, sa.end, sr, 3, o, m);
        pairChain(limbSegment(tl), tr, limbSegment(sl), sr, limbLabel(false, static_cast<int>(side)), 1, o, m);
        const bool toes = tl.tip >= 0 && sl.tip >= 0;
        pairBelow(toes ? tl.tip : tl.end, tr, toes ? sl.tip : sl.end, sr, 2, o, m);
    }
}

// Every target joint says what it is driven as, or why it is not driven.
void explain(RetargetMapping& m, const Rest& tr)
{
    for (int i = 0; i < tr.count(); ++i) {
        JointRetarget& j = m.joints[static_cast<size_t>(i)];
        if (!j.note.empty() || j.match == RetargetMatch::User)
            continue;
        if (!j.sources.empty())
            j.note = partLabel(tr.roles[static_cast<size_t>(i)]);
        else if (!tr.body.setAside.empty() && !tr.body.kept(i))
            j.note = "not driven: not a body joint of the rig (" + tr.body.setAside[static_cast<size_t>(i)] + ")";
        else
            j.note = "not driven: no source joint corresponds (nothing there in the source's structure); follows its parent";
    }
}

// The last two joints of each level-1 segment pointing down (the legs).
std::vector<int> feetOf(const std::vector<Segment>& segs)
{
    std::vector<int> feet;
    for (const Segment& s : segs)
        if (s.level == 1 && s.direction.y() < -0.5 && s.joints.size() >= 2) {
            feet.push_back(s.joints[s.joints.size() - 2]);
            feet.push_back(s.joints.back());
        }
    return feet;
}

double lowest(const MatrixX3d& p, const std::vector<int>& joints)
{
    double y = std::numeric_limits<double>::infinity();
    for (int j : joints)
        y = std::min(y, p(j, 1));
    if (joints.empty())
        y = p.col(1).minCoeff();
    return y;
}


// ------------------------------------------------------------------ checks

void checkMapping(const RetargetMapping& m, const Motion& source, const Skeleton& target)
{
    const std::string fn = "rig::retargetClip(): ";
    if (m.sourceNames != source.names)
        throw InvalidInput(fn + "the mapping was made for another source skeleton (joint names differ); "
                                "rebuild it with rig::mapSkeletons()");
    if (m.targetNames != target.names || m.joints.size() != target.names.size())
        throw InvalidInput(fn + "the mapping was made for another target skeleton (joint names differ); "
                                "rebuild it with rig::mapSkeletons()");
    for (size_t i = 0; i < m.joints.size(); ++i) {
        double sum = 0.0;
        for (const auto& s : m.joints[i].sources) {
            if (s.joint < 0 || s.joint >= source.jointCount())
                throw InvalidInput(fn + "target joint '" + target.names[i] + "' has source joint index " +
                                   std::to_string(s.joint) + ", outside 0.." + std::to_string(source.jointCount() - 1));
            if (!std::isfinite(s.weight) || s.weight < 0.0)
                throw InvalidInput(fn + "target joint '" + target.names[i] + "' has a negative or non-finite weight");
            sum += s.weight;
        }
        if (!m.joints[i].sources.empty() && !(sum > 0.0))
            throw InvalidInput(fn + "the weights of target joint '" + target.names[i] + "' are all zero");
    }
}

void checkInputs(const Motion& source, const Skeleton& target, const char* fn)
{
    try {
        validateMotion(source);
    } catch (const InvalidInput& e) {
        throw InvalidInput(std::string(fn) + ": the source clip is invalid: " + e.what());
    }
    try {
        validateSkeleton(target);
    } catch (const InvalidInput& e) {
        throw InvalidInput(std::string(fn) + ": the target skeleton is invalid: " + e.what());
    }
}

// Everything mapSkeletons() computes, with the rests for the transfer.
struct Prepared {
    RetargetMapping mapping;
    Rest source, target;
};

// Feet of the legs mapped on both skeletons (ankle and toe), and the source root (pelvis).
void structuralFeet(RetargetMapping& m, const Rest& tr, const Rest& sr)
{
    m.sourceRoot = sr.body.pelvis;
    for (size_t side = 0; side < 2; ++side) {
        const BodyLimb &tl = tr.body.legs[side], &sl = sr.body.legs[side];
        if (!tl.found() || !sl.found() || m.joints[static_cast<size_t>(tl.end)].sources.empty())
            continue;
        for (int j : {tl.end, tl.tip})
            if (j >= 0)
                m.targetFeet.push_back(j);
        for (int j : {sl.end, sl.tip})
            if (j >= 0)
                m.sourceFeet.push_back(j);
    }
}

// The mean length of the legs found on both skeletons, hip joint to knee to
// ankle along the rest pose (0 when no side has a leg on both).
std::pair<double, double> legLengths(const Rest& tr, const Rest& sr)
{
    auto length = [](const Rest& r, const BodyLimb& l) {
        return l.middle >= 0 ? (r.at(l.middle) - r.at(l.root)).norm() + (r.at(l.end) - r.at(l.middle)).norm()
                             : (r.at(l.end) - r.at(l.root)).norm();
    };
    double t = 0.0, s = 0.0;
    int n = 0;
    for (size_t side = 0; side < 2; ++side)
        if (tr.body.legs[side].found() && sr.body.legs[side].found()) {
            t += length(tr, tr.body.legs[side]);
            s += length(sr, sr.body.legs[side]);
            ++n;
        }
    return n > 0 ? std::pair{t / n, s / n} : std::pair{0.0, 0.0};
}

// s: the leg-length ratio where both structures have legs (hip joint, knee and
// ankle, whatever height each skeleton gives its pelvis joint: Red Eclipse's
// sits below the hip joints, humanoid21's above, and their heights' ratio made
// the players' own clips 12-18 % too long a stride), else the pelvis-height
// ratio over the legs mapped on both sides, else the height ratio; warns when
// implausible.
void rootScale(RetargetMapping& m, const Rest& tr, const Rest& sr, const RetargetOptions& o)
{
    const double heightRatio = restHeight(sr) > 0.0 ? restHeight(tr) / restHeight(sr) : 1.0;
    const bool legs = !m.sourceFeet.empty() && !m.targetFeet.empty();
    const bool bodies = structural(tr, sr, o) && sr.body.pelvis >= 0;
    const auto [lt, ls] = bodies ? legLengths(tr, sr) : std::pair{0.0, 0.0};
    double hs = legs ? sr.positions(m.sourceRoot, 1) - lowest(sr.positions, m.sourceFeet) : 0.0;
    const int targetRoot = structural(tr, sr, o) ? tr.body.pelvis : 0;
    double ht = legs ? tr.positions(targetRoot, 1) - lowest(tr.positions, m.targetFeet) : 0.0;
    const char* what = "hip-height ratio";
    if (legs && lt > 1e-12 && ls > 1e-12) {
        ht = lt;
        hs = ls;
        what = "leg-length ratio";
    }
    std::ostringstream msg;
    if (hs > 1e-12 && ht > 1e-12 && std::isfinite(ht / hs)) {
        m.translationScale = ht / hs;
        const double off = m.translationScale / heightRatio;
        if (off > 1.5 || off < 1.0 / 1.5) {
            msg << "warning: the root motion scale " << m.translationScale << " (" << what << ") is " << off
                << " times the characters' size ratio " << heightRatio
                << "; check the legs' mapping (hips fitted at a skirt's hem?)";
            m.messages.push_back(msg.str());
        }
    } else {
        m.translationScale = heightRatio;
        msg << "no leg mapped on both skeletons: the root motion is scaled by the ratio of their heights (" << heightRatio << ")";
        m.messages.push_back(msg.str());
    }
}

void finishMapping(RetargetMapping& m, const Rest& tr, const Rest& sr, const RetargetOptions& o)
{
    const std::vector<Segment> ts = segmentsOf(tr), ss = segmentsOf(sr);
    m.sourceFeet.clear();
    m.targetFeet.clear();
    m.messages.clear();
    m.sourceRoot = 0;
    for (const std::string& s : sr.body.messages)
        m.messages.push_back("source: " + s);
    if (structural(tr, sr, o) && sr.body.pelvis >= 0) {
        structuralFeet(m, tr, sr);
    } else {
        m.sourceFeet = feetOf(ss);
        m.targetFeet = feetOf(ts);
    }
    m.translationScale = 1.0;
    if (o.scaleTranslation)
        rootScale(m, tr, sr, o);
    m.targetLevels.assign(static_cast<size_t>(tr.count()), 0);
    for (const Segment& s : ts)
        for (size_t k = 1; k < s.joints.size(); ++k)
            m.targetLevels[static_cast<size_t>(s.joints[k])] = s.level;
    computeRestOffsets(m, tr, sr, o.branchRestFromBody && structural(tr, sr, o));
    explain(m, tr);
}

Quat blend(const std::vector<RetargetSource>& sources, const std::vector<Quat>& delta)
{
    if (sources.size() == 1)
        return delta[static_cast<size_t>(sources[0].joint)];
    const RetargetSource* heaviest = &sources[0];
    for (const auto& s : sources)
        if (s.weight > heaviest->weight)
            heaviest = &s;
    const Eigen::Vector4d ref = delta[static_cast<size_t>(heaviest->joint)].coeffs();
    Eigen::Vector4d acc = Eigen::Vector4d::Zero();
    for (const auto& s : sources) {
        const Eigen::Vector4d q = delta[static_cast<size_t>(s.joint)].coeffs();
        acc += (q.dot(ref) < 0.0 ? -s.weight : s.weight) * q;
    }
    Quat out;
    out.coeffs() = acc.normalized();
    return out;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const double x = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(v.size() - 1);
    return v[static_cast<size_t>(std::floor(x))];
}

double verticalExtent(const MatrixX3d& p) { return p.rows() ? p.col(1).maxCoeff() - p.col(1).minCoeff() : 0.0; }

} // namespace

// ------------------------------------------------------------------ public

RetargetRest parseRetargetRest(std::string_view name)
{
    if (name == "frame0")
        return RetargetRest::FirstFrame;
    if (name == "zero")
        return RetargetRest::Zero;
    if (name == "bind")
        return RetargetRest::Bind;
    if (name == "auto")
        return RetargetRest::Auto;
    throw InvalidInput("rig::parseRetargetRest(): unknown rest pose '" + std::string(name) +
                       "': use 'auto' (the bind pose, else a T-pose first frame, else the zero pose), 'bind' (the "
                       "source file's bind pose), 'frame0' (the clip's first frame) or 'zero' (the BVH zero pose)");
}

RetargetRest resolveRetargetRest(const Motion& clip, RetargetRest rest)
{
    if (rest == RetargetRest::Bind && clip.bindValues.empty())
        throw InvalidInput("rig::resolveRetargetRest(): the clip has no bind pose (BVH files have none); "
                           "use --rest auto, frame0 or zero");
    if (rest != RetargetRest::Auto)
        return rest;
    return clip.bindValues.empty() ? detectRestPose(clip) : RetargetRest::Bind;
}

namespace {

/// Widest horizontal distance of a joint or End Site from the root, over the height.
double limbSpread(const Motion& m, const MotionPose& pose)
{
    const MotionWorld w = worldTransforms(m, pose);
    const Vec3 root = w.positions.row(0).transpose();
    double spread = 0.0, lo = root.y(), hi = root.y();
    auto visit = [&](const Vec3& p) {
        spread = std::max(spread, Eigen::Vector2d(p.x() - root.x(), p.z() - root.z()).norm());
        lo = std::min(lo, p.y());
        hi = std::max(hi, p.y());
    };
    for (Eigen::Index j = 0; j < w.positions.rows(); ++j)
        visit(w.positions.row(j).transpose());
    for (Eigen::Index e = 0; e < w.endSitePositions.rows(); ++e)
        visit(w.endSitePositions.row(e).transpose());
    return hi > lo ? spread / (hi - lo) : 0.0;
}

} // namespace

RetargetRest detectRestPose(const Motion& m)
{
    if (m.frameCount() < 1 || m.jointCount() == 0)
        return RetargetRest::Zero;
    const MotionPose first = evaluateFrame(m, 0);
    const double limit = 20.0 * std::numbers::pi / 180.0;
    bool close = true;
    for (size_t j = 1; j < first.localRotations.size() && close; ++j)
        close = first.localRotations[j].angularDistance(Eigen::Quaterniond::Identity()) <= limit;
    if (close)
        return RetargetRest::FirstFrame;
    return limbSpread(m, first) >= 0.95 * limbSpread(m, restPose(m)) ? RetargetRest::FirstFrame : RetargetRest::Zero;
}

std::string_view retargetRestName(RetargetRest rest)
{
    switch (rest) {
    case RetargetRest::FirstFrame: return "frame0";
    case RetargetRest::Zero: return "zero";
    case RetargetRest::Bind: return "bind";
    case RetargetRest::Auto: return "auto";
    }
    return "auto";
}

std::string_view retargetMatchName(RetargetMatch match)
{
    switch (match) {
    case RetargetMatch::Unmapped: return "unmapped";
    case RetargetMatch::Name: return "name";
    case RetargetMatch::Length: return "length";
    case RetargetMatch::Covered: return "covered";
    case RetargetMatch::Branch: return "branch";
    case RetargetMatch::User: return "user";
    }
    return "unmapped";
}

int RetargetMapping::mappedCount() const
{
    return static_cast<int>(std::count_if(joints.begin(), joints.end(), [](const JointRetarget& j) { return !j.sources.empty(); }));
}

std::string formatMappingTable(const RetargetMapping& m)
{
    size_t width = 6;
    for (const auto& n : m.targetNames)
        width = std::max(width, n.size());
    std::ostringstream out;
    out << std::left << std::setw(static_cast<int>(width)) << "target" << "  level  match     sources\n";
    std::vector<bool> used(m.sourceNames.size(), false);
    for (size_t i = 0; i < m.joints.size(); ++i) {
        const JointRetarget& j = m.joints[i];
        out << std::left << std::setw(static_cast<int>(width)) << (i < m.targetNames.size() ? m.targetNames[i] : "?") << "  "
            << std::setw(5) << (i < m.targetLevels.size() ? m.targetLevels[i] : 0) << "  " << std::setw(8)
            << retargetMatchName(j.match) << "  ";
        if (j.sources.empty())
            out << "(identity)" << (j.note.empty() ? "" : "  " + j.note);
        for (size_t k = 0; k < j.sources.size(); ++k) {
            const int s = j.sources[k].joint;
            if (s >= 0 && static_cast<size_t>(s) < used.size())
                used[static_cast<size_t>(s)] = true;
            out << (k ? ", " : "")
                << (s >= 0 && static_cast<size_t>(s) < m.sourceNames.size() ? m.sourceNames[static_cast<size_t>(s)] : "?")
                << ' ' << std::fixed << std::setprecision(2) << j.sources[k].weight;
        }
        if (!j.sources.empty() && !j.note.empty())
            out << "  [" << j.note << "]";
        out << '\n';
    }
    std::string unused;
    for (size_t s = 0; s < used.size(); ++s)
        if (!used[s])
            unused += (unused.empty() ? "" : ", ") + m.sourceNames[s];
    out << "unused source joints: " << (unused.empty() ? "none" : unused) << '\n';
    out << "source rest pose: " << retargetRestName(m.restUsed) << '\n';
    for (const std::string& msg : m.messages)
        out << "note: " << msg << '\n';
    return out.str();
}

void setRetargetSources(RetargetMapping& m, const std::string& target,
                        const std::vector<std::pair<std::string, double>>& sources)
{
    const std::string fn = "rig::setRetargetSources(): ";
    const auto t = std::find(m.targetNames.begin(), m.targetNames.end(), target);
    if (t == m.targetNames.end() || static_cast<size_t>(t - m.targetNames.begin()) >= m.joints.size())
        throw InvalidInput(fn + "no target joint named '" + target + "'");
    std::vector<RetargetSource> out;
    double sum = 0.0;
    for (const auto& [name, weight] : sources) {
        const auto s = std::find(m.sourceNames.begin(), m.sourceNames.end(), name);
        if (s == m.sourceNames.end())
            throw InvalidInput(fn + "no source joint named '" + name + "'");
        if (!std::isfinite(weight) || weight < 0.0)
            throw InvalidInput(fn + "the weight of '" + name + "' must be a non-negative number");
        out.push_back({static_cast<int>(s - m.sourceNames.begin()), weight});
        sum += weight;
    }
    if (!out.empty() && !(sum > 0.0))
        throw InvalidInput(fn + "the weights of '" + target + "' are all zero");
    for (auto& s : out)
        s.weight /= sum;
    JointRetarget& j = m.joints[static_cast<size_t>(t - m.targetNames.begin())];
    j.sources = std::move(out);
    j.match = RetargetMatch::User; // by hand, also when unmapped (the identity is then the artist's choice)
    j.note = j.sources.empty() ? "not driven: set by hand" : "set by hand";
}

RetargetMapping mapSkeletons(const Motion& source, const Skeleton& target, const RetargetOptions& options)
{
    checkInputs(source, target, "rig::mapSkeletons()");
    const RetargetRest rest = resolveRetargetRest(source, options.rest);
    Rest sr = sourceRest(source, rest);
    Rest tr = targetRest(target);
    RetargetMapping m;
    m.sourceNames = source.names;
    m.targetNames = target.names;
    m.restUsed = rest;
    m.joints.assign(static_cast<size_t>(target.jointCount()), {});
    if (structural(tr, sr, options)) {
        mapBody(tr, sr, options, m);
    } else {
        // Not a humanoid rig: segments over the whole hierarchies, names where both have them (thesis).
        useStructure(sr, source.names, false);
        useStructure(tr, target.names, false);
        const std::vector<Segment> ts = segmentsOf(tr), ss = segmentsOf(sr);
        // The trunks (root to first branch) correspond; the root follows the source root.
        setSources(m.joints[0], {{0, 1.0}}, RetargetMatch::Branch);
        mapSegmentPair(ts[0], tr, ss[0], sr, options, m);
        if (ts[0].bones() > 0 || ss[0].bones() > 0)
            m.joints[static_cast<size_t>(ts[0].last())].match = RetargetMatch::Branch;
        mapChildren(ts, tr, 0, ss, sr, 0, options, m);
    }
    finishMapping(m, tr, sr, options);
    return m;
}

RetargetedClip retargetClip(const Motion& source, const Skeleton& target, const RetargetOptions& options,
                            const Progress& progress)
{
    return retargetClip(source, target, mapSkeletons(source, target, options), options, progress);
}

RetargetedClip retargetClip(const Motion& source, const Skeleton& target, const RetargetMapping& mapping,
                            const RetargetOptions& options, const Progress& progress)
{
    checkInputs(source, target, "rig::retargetClip()");
    checkMapping(mapping, source, target);
    if (source.frameCount() < 1)
        throw InvalidInput("rig::retargetClip(): the clip has no frames");
    if (options.frameStep < 1)
        throw InvalidInput("rig::retargetClip(): frameStep must be 1 or more, got " + std::to_string(options.frameStep));
    MotionWorld restWorld;
    const RetargetRest rest = resolveRetargetRest(source, options.rest);
    Rest sr = sourceRest(source, rest, &restWorld);
    Rest tr = targetRest(target);
    if (!structural(tr, sr, options)) {
        useStructure(sr, source.names, false);
        useStructure(tr, target.names, false);
    }

    RetargetedClip clip;
    clip.mapping = mapping;
    RetargetMapping& m = clip.mapping;
    m.restUsed = rest;
    for (auto& j : m.joints) {
        double sum = 0.0;
        for (const auto& s : j.sources)
            sum += s.weight;
        for (auto& s : j.sources)
            s.weight /= sum;
    }
    finishMapping(m, tr, sr, options);
    clip.frameTime = source.frameTime * options.frameStep;
    {
        MatrixX3d all(restWorld.positions.rows() + restWorld.endSitePositions.rows(), 3);
        all << restWorld.positions, restWorld.endSitePositions;
        clip.sourceHeight = verticalExtent(all);
    }
    clip.targetHeight = verticalExtent(target.bindPositions);

    const int nt = target.jointCount(), ns = source.jointCount();
    const int frames = (source.frameCount() - 1) / options.frameStep + 1;
    const double s = m.translationScale;
    const Vec3 rootRest = sr.at(m.sourceRoot);
    std::vector<Quat> delta(static_cast<size_t>(ns));
    std::vector<Quat> posed(static_cast<size_t>(nt));
    std::vector<double> sourceFoot(static_cast<size_t>(frames)), sourceRootHeight(static_cast<size_t>(frames));
    clip.frames.resize(static_cast<size_t>(frames));
    for (int f = 0; f < frames; ++f) {
        if ((f & 255) == 0)
            progress.update("retarget", static_cast<double>(f) / frames);
        const MotionWorld w = worldTransforms(source, evaluateFrame(source, f * options.frameStep));
        for (int k = 0; k < ns; ++k)
            delta[static_cast<size_t>(k)] = w.orientations[static_cast<size_t>(k)] * sr.orientations[static_cast<size_t>(k)].conjugate();
        Pose& pose = clip.frames[static_cast<size_t>(f)];
        pose.localRotations.resize(static_cast<size_t>(nt));
        for (int i = 0; i < nt; ++i) {
            const JointRetarget& j = m.joints[static_cast<size_t>(i)];
            const Quat& B = target.bindOrientations[static_cast<size_t>(i)];
            const int p = target.parents[static_cast<size_t>(i)];
            // parentDelta maps bind-space directions to posed space at the parent (pose.h).
            const Quat parentDelta = p < 0 ? Quat::Identity()
                                           : Quat(posed[static_cast<size_t>(p)] * target.bindOrientations[static_cast<size_t>(p)].conjugate());
            Quat O = j.sources.empty() ? Quat(parentDelta * B) : Quat(blend(j.sources, delta) * j.restOffset * B);
            O.normalize();
            posed[static_cast<size_t>(i)] = O;
            pose.localRotations[static_cast<size_t>(i)] = (B.conjugate() * parentDelta.conjugate() * O).normalized();
        }
        pose.rootTranslation = s * (w.positions.row(m.sourceRoot).transpose() - rootRest);
        sourceFoot[static_cast<size_t>(f)] = lowest(w.positions, m.sourceFeet);
        sourceRootHeight[static_cast<size_t>(f)] = w.positions(m.sourceRoot, 1);
    }

    // Feet on the ground: the clip's ground is a low percentile of the lowest
    // source foot joint; the target's is its bind pose.
    // The root's height above the clip's ground is taken relative to its rest
    // height above the rest pose's feet, scaled: the target's root keeps its
    // own rest height, whatever height each skeleton gives its pelvis joint.
    const double sourceGround = percentile(sourceFoot, options.groundPercentile);
    const double targetGround = lowest(target.bindPositions, m.targetFeet);
    const double sourceRestRootAbove = m.sourceFeet.empty() ? rootRest.y() - sourceGround
                                                            : rootRest.y() - lowest(sr.positions, m.sourceFeet);
    const double contact = options.contactTolerance * clip.sourceHeight;
    const double norm = clip.targetHeight > 0.0 ? clip.targetHeight : 1.0;
    for (int f = 0; f < frames; ++f) {
        Pose& pose = clip.frames[static_cast<size_t>(f)];
        if (options.rootHeightFromGround)
            pose.rootTranslation.y() = s * (sourceRootHeight[static_cast<size_t>(f)] - sourceGround - sourceRestRootAbove);
        const double hs = sourceFoot[static_cast<size_t>(f)] - sourceGround;
        const double ht = lowest(forwardKinematics(target, pose).positions, m.targetFeet) - targetGround;
        const double dy = s * hs - ht;
        if (options.keepFeetOnGround)
            pose.rootTranslation.y() += dy;
        if (hs <= contact) {
            // The source stands on its ground: how far is the target's lowest foot from its own?
            ++clip.contactFrames;
            clip.footErrorBefore = std::max(clip.footErrorBefore, std::abs(ht) / norm);
            const double after = lowest(forwardKinematics(target, pose).positions, m.targetFeet) - targetGround;
            clip.footErrorAfter = std::max(clip.footErrorAfter, std::abs(after) / norm);
        }
    }
    progress.update("retarget", 1.0);
    return clip;
}

} // namespace rig
