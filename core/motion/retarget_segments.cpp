#include "core/motion/retarget_segments.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rig::retarget {

using NameRole = JointNameRole;
using Side = JointSide;

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

namespace {

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

} // namespace

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

namespace {

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

} // namespace

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

} // namespace rig::retarget
