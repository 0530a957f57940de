#include "core/motion/skeleton_structure.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <initializer_list>
#include <set>

namespace rig {
namespace {

/// Name words that mark a joint (and what hangs from it) as not part of the body.
const std::set<std::string> helperWords = {
    "ik", "fk", "pole", "target", "tgt", "goal", "helper", "socket", "attach", "attachment", "weapon", "prop",
    "tag", "twist", "roll", "end", "nub", "site", "null", "dummy", "effector", "ctrl", "ctl", "control", "wgt",
    "mch", "org", "locator", "grip", "slot", "camera", "lookat", "handle", "top", "tip"};

/// Name words of the face and hair: they move the face, not the body's chains
/// (BCN_Epileptic.X hangs eyes, lids, brows, lips, jaw, cheeks and a ponytail
/// from its head joint; the highest of them, an eyebrow, was taken for the
/// head and drove the rig's Head with the brow's animation).
const std::set<std::string> faceWords = {"eye",  "eyes",  "eyeball", "brow",  "eyebrow", "lid",  "eyelid", "lip",
                                         "lips", "jaw",   "cheek",   "mouth", "tongue",  "teeth", "tooth",  "nose",
                                         "chin", "ear",  "ears",  "tail",   "ponytail", "hair", "braid"};

std::string helperReason(const std::string& name)
{
    for (const std::string& w : jointNameWords(name)) {
        if (helperWords.count(w))
            return "helper joint (name word '" + w + "')";
        if (faceWords.count(w))
            return "helper joint of the face or hair (name word '" + w + "')";
    }
    return {};
}

/// The kept tree and the geometry every step reads.
struct Tree {
    const std::vector<std::string>& names;
    const MatrixX3d& p;
    std::vector<int> parent;                // kept parent
    std::vector<std::vector<int>> children; // kept children
    std::vector<std::string> aside;
    std::vector<double> low, high;          // lowest / highest y in the kept subtree
    std::vector<char> shortened;            // the bone to the parent was shortened (searchPositions)
    double height = 1.0, ground = 0.0;

    int count() const { return static_cast<int>(parent.size()); }
    bool kept(int j) const { return aside[static_cast<size_t>(j)].empty(); }
    Vec3 at(int j) const { return p.row(j).transpose(); }
    const std::vector<int>& kids(int j) const { return children[static_cast<size_t>(j)]; }
};

void setAsideHelpers(Tree& t, const std::vector<int>& parents, const BodyStructureOptions& o)
{
    const int n = t.count();
    std::vector<char> weightedBelow(static_cast<size_t>(n), 0);
    const bool useWeights = static_cast<int>(o.weighted.size()) == n &&
                            std::any_of(o.weighted.begin(), o.weighted.end(), [](bool w) { return w; });
    if (useWeights) {
        for (int j = n - 1; j >= 0; --j) {
            weightedBelow[static_cast<size_t>(j)] |= static_cast<char>(o.weighted[static_cast<size_t>(j)]);
            if (const int q = parents[static_cast<size_t>(j)]; q >= 0)
                weightedBelow[static_cast<size_t>(q)] |= weightedBelow[static_cast<size_t>(j)];
        }
    }
    for (int j = 0; j < n; ++j) {
        const int q = parents[static_cast<size_t>(j)];
        std::string& why = t.aside[static_cast<size_t>(j)];
        const std::string& above = q >= 0 ? t.aside[static_cast<size_t>(q)] : why;
        if (q >= 0 && above.rfind("below helper", 0) == 0)
            why = above;
        else if (q >= 0 && above.rfind("helper", 0) == 0)
            why = "below helper joint '" + t.names[static_cast<size_t>(q)] + "'";
        else
            why = helperReason(t.names[static_cast<size_t>(j)]);
        if (why.empty() && useWeights && !weightedBelow[static_cast<size_t>(j)])
            why = "carries no skin weight (nor does anything below it)";
    }
}

void linkKeptTree(Tree& t, const std::vector<int>& parents)
{
    const int n = t.count();
    for (int j = 0; j < n; ++j) {
        int q = parents[static_cast<size_t>(j)];
        while (q >= 0 && !t.kept(q))
            q = parents[static_cast<size_t>(q)];
        t.parent[static_cast<size_t>(j)] = t.kept(j) ? q : -1;
    }
    t.children.assign(static_cast<size_t>(n), {});
    for (int j = 0; j < n; ++j)
        if (t.kept(j) && t.parent[static_cast<size_t>(j)] >= 0)
            t.children[static_cast<size_t>(t.parent[static_cast<size_t>(j)])].push_back(j);
}

void measure(Tree& t)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int j = 0; j < t.count(); ++j)
        if (t.kept(j)) {
            lo = std::min(lo, t.p(j, 1));
            hi = std::max(hi, t.p(j, 1));
        }
    t.ground = std::isfinite(lo) ? lo : 0.0;
    t.height = hi > lo ? hi - lo : 1.0;
    t.low.assign(static_cast<size_t>(t.count()), std::numeric_limits<double>::infinity());
    t.high.assign(static_cast<size_t>(t.count()), -std::numeric_limits<double>::infinity());
    for (int j = t.count() - 1; j >= 0; --j) { // parents before children in the file order: children first here
        if (!t.kept(j))
            continue;
        t.low[static_cast<size_t>(j)] = std::min(t.low[static_cast<size_t>(j)], t.p(j, 1));
        t.high[static_cast<size_t>(j)] = std::max(t.high[static_cast<size_t>(j)], t.p(j, 1));
        if (const int q = t.parent[static_cast<size_t>(j)]; q >= 0) {
            t.low[static_cast<size_t>(q)] = std::min(t.low[static_cast<size_t>(q)], t.low[static_cast<size_t>(j)]);
            t.high[static_cast<size_t>(q)] = std::max(t.high[static_cast<size_t>(q)], t.high[static_cast<size_t>(j)]);
        }
    }
}

/// Zero-length joints: a parent with this one child gives way to it (the
/// child's world rotation includes the parent's).
void dropZeroLength(Tree& t, const std::vector<int>& parents)
{
    for (int j = 0; j < t.count(); ++j) {
        const int q = t.parent[static_cast<size_t>(j)];
        if (!t.kept(j) || q < 0 || (t.at(j) - t.at(q)).norm() > 1e-3 * t.height)
            continue;
        // (A zero-length leaf stays: it never wins a branch, and a thumb at the palm is still a thumb.)
        if (t.kids(q).size() != 1)
            continue;
        t.aside[static_cast<size_t>(q)] = "zero-length joint (its child '" + t.names[static_cast<size_t>(j)] + "' takes its place)";
        linkKeptTree(t, parents);
    }
}

/// Positions for the search: a bone more than 100 times the median bone length
/// (an absurd OFFSET, 1e308 in a hostile file) is shortened to the median along
/// its direction, so that one broken joint does not flatten the rest.
MatrixX3d searchPositions(const std::vector<std::string>& names, const std::vector<int>& parents, const MatrixX3d& p,
                          std::vector<std::string>& messages, std::vector<char>& shortened)
{
    const Eigen::Index n = p.rows();
    shortened.assign(static_cast<size_t>(n), 0);
    std::vector<double> lengths;
    for (Eigen::Index j = 0; j < n; ++j)
        if (const int q = parents[static_cast<size_t>(j)]; q >= 0) {
            const double len = (p.row(j) - p.row(q)).norm();
            if (len > 0.0 && std::isfinite(len))
                lengths.push_back(len);
        }
    if (lengths.empty())
        return p;
    std::nth_element(lengths.begin(), lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2), lengths.end());
    const double median = lengths[lengths.size() / 2];
    MatrixX3d out = p;
    for (Eigen::Index j = 0; j < n; ++j) {
        const int q = parents[static_cast<size_t>(j)];
        const Vec3 bone = q < 0 ? Vec3::Zero() : Vec3((p.row(j) - p.row(q)).transpose());
        const double len = bone.norm();
        if (q >= 0 && (!std::isfinite(len) || len > 100.0 * median)) {
            const Vec3 dir = bone.stableNormalized();
            out.row(j) = out.row(q) + median * (dir.allFinite() && dir.norm() > 0.5 ? dir : Vec3::UnitY()).transpose();
            shortened[static_cast<size_t>(j)] = 1;
            messages.push_back("joint '" + names[static_cast<size_t>(j)] + "' has an implausibly long bone; shortened to find the structure");
        } else if (q >= 0) {
            out.row(j) = out.row(q) + bone.transpose();
        } else if (!p.row(j).allFinite()) {
            out.row(j).setZero();
        }
    }
    return out;
}

/// Largest distance from `from` of a joint in j's kept subtree.
double reach(const Tree& t, int j, const Vec3& from)
{
    double r = (t.at(j) - from).norm();
    for (int c : t.kids(j))
        r = std::max(r, reach(t, c, from));
    return r;
}

/// The chain from `start`: single children, or at a branch the child reaching much farther.
std::vector<int> followChain(const Tree& t, int start)
{
    std::vector<int> chain{start};
    int j = start;
    while (!t.kids(j).empty()) {
        if (t.kids(j).size() == 1) {
            j = t.kids(j)[0];
        } else {
            std::vector<std::pair<double, int>> r;
            for (int c : t.kids(j))
                r.push_back({reach(t, c, t.at(j)), c});
            std::sort(r.rbegin(), r.rend());
            if (r[0].first <= 2.5 * r[1].first)
                break;
            j = r[0].second;
        }
        chain.push_back(j);
    }
    return chain;
}

double arc(const Tree& t, const std::vector<int>& chain, size_t a, size_t b)
{
    double s = 0.0;
    for (size_t k = a; k < b; ++k)
        s += (t.at(chain[k + 1]) - t.at(chain[k])).norm();
    return s;
}

/// Root and middle of a limb among chain[0..endIndex) (see the file comment, step 5).
void pickRootAndMiddle(const Tree& t, const std::vector<int>& chain, size_t endIndex, double ratio, JointPart rootPart,
                       JointPart middlePart, BodyLimb& limb)
{
    // Where a bone had to be shortened, proportions say nothing: names decide.
    bool broken = false;
    for (size_t k = 1; k <= endIndex && k < chain.size(); ++k)
        broken |= t.shortened[static_cast<size_t>(chain[k])] != 0;
    const double nameBonus = broken ? 10.0 : 0.5;
    double best = std::numeric_limits<double>::infinity();
    for (size_t a = 0; a + 1 < endIndex; ++a)
        for (size_t b = a + 1; b < endIndex; ++b) {
            const double upper = arc(t, chain, a, b), lower = arc(t, chain, b, endIndex);
            if (!(upper > 0.0) || !(lower > 0.0))
                continue;
            double cost = std::abs(std::log(upper / lower) - std::log(ratio));
            if (jointNameRole(t.names[static_cast<size_t>(chain[a])]).part == rootPart)
                cost -= nameBonus;
            if (jointNameRole(t.names[static_cast<size_t>(chain[b])]).part == middlePart)
                cost -= nameBonus;
            if (cost < best) {
                best = cost;
                limb.root = chain[a];
                limb.middle = chain[b];
            }
        }
    if (limb.root < 0 && endIndex >= 1)
        limb.root = chain[0];
}

BodyLimb legFrom(const Tree& t, int attachment, int start)
{
    BodyLimb leg;
    leg.attachment = attachment;
    leg.chain = followChain(t, start);
    const auto& c = leg.chain;
    size_t ankle = c.size() - 1;
    for (size_t k = 2; k + 1 < c.size(); ++k) {
        const Vec3 d = t.at(c[k + 1]) - t.at(c[k]);
        if (std::hypot(d.x(), d.z()) > std::abs(d.y())) {
            ankle = k;
            break;
        }
    }
    leg.end = c[ankle];
    leg.tip = ankle + 1 < c.size() ? c[ankle + 1] : -1;
    leg.chain.resize(std::min(c.size(), ankle + 2));
    pickRootAndMiddle(t, leg.chain, ankle, 1.05, JointPart::Thigh, JointPart::Shin, leg);
    return leg;
}

BodyLimb armFrom(const Tree& t, int attachment, int start)
{
    BodyLimb arm;
    arm.attachment = attachment;
    arm.chain = followChain(t, start);
    // A joint named as the hand ends the arm when geometry alone runs on (a mitten, a single finger chain).
    size_t wrist = arm.chain.size() - 1;
    for (size_t k = 2; k < arm.chain.size(); ++k)
        if (jointNameRole(t.names[static_cast<size_t>(arm.chain[k])]).part == JointPart::Hand) {
            wrist = k;
            break;
        }
    arm.chain.resize(wrist + 1);
    arm.end = arm.chain[wrist];
    pickRootAndMiddle(t, arm.chain, wrist, 1.1, JointPart::UpperArm, JointPart::ForeArm, arm);
    return arm;
}

int deepestDepth(const Tree& t, int j)
{
    int d = 0;
    for (int q = t.parent[static_cast<size_t>(j)]; q >= 0; q = t.parent[static_cast<size_t>(q)])
        ++d;
    return d;
}

/// Step 2: the pelvis and the two leg starts.
std::vector<int> findLegs(const Tree& t, int& pelvis)
{
    std::vector<int> best;
    int bestDepth = -1;
    for (int j = 0; j < t.count(); ++j) {
        if (!t.kept(j))
            continue;
        std::vector<std::pair<double, int>> legs;
        for (int c : t.kids(j))
            if (t.low[static_cast<size_t>(c)] <= t.ground + 0.1 * t.height && t.low[static_cast<size_t>(c)] < t.p(j, 1) - 0.2 * t.height)
                legs.push_back({t.low[static_cast<size_t>(c)], c});
        if (legs.size() < 2)
            continue;
        std::sort(legs.begin(), legs.end());
        const int depth = deepestDepth(t, j);
        if (depth > bestDepth) {
            bestDepth = depth;
            pelvis = j;
            best = {legs[0].second, legs[1].second};
        }
    }
    return best;
}

/// The path from `start` to the highest leaf of its kept subtree.
std::vector<int> pathUp(const Tree& t, int start)
{
    std::vector<int> path{start};
    int j = start;
    while (!t.kids(j).empty()) {
        int next = t.kids(j)[0];
        for (int c : t.kids(j))
            if (t.high[static_cast<size_t>(c)] > t.high[static_cast<size_t>(next)])
                next = c;
        j = next;
        path.push_back(j);
    }
    return path;
}

JointSide nameSide(const Tree& t, const std::vector<int>& chain)
{
    int l = 0, r = 0;
    for (int j : chain) {
        const JointSide s = jointNameRole(t.names[static_cast<size_t>(j)]).side;
        l += s == JointSide::Left;
        r += s == JointSide::Right;
    }
    return l > r ? JointSide::Left : r > l ? JointSide::Right : JointSide::None;
}

/// Mean position of a limb's chain joints.
Vec3 chainCentre(const Tree& t, const BodyLimb& l)
{
    Vec3 c = Vec3::Zero();
    for (int j : l.chain)
        c += t.at(j);
    return c / static_cast<double>(std::max<size_t>(1, l.chain.size()));
}

Vec3 horizontal(Vec3 v)
{
    v.y() = 0.0;
    return v;
}

/// Step 6: the front from the feet, else from the names' sides, else +Z.
void findFacing(const Tree& t, const std::vector<BodyLimb>& legs, const std::vector<BodyLimb>& arms, BodyStructure& b)
{
    Vec3 front = Vec3::Zero();
    for (const BodyLimb& leg : legs)
        if (leg.tip >= 0)
            front += horizontal(t.at(leg.tip) - t.at(leg.end)).normalized();
    if (front.norm() > 0.5) {
        b.front = front.normalized();
        b.sidesFrom = "feet";
    } else {
        Vec3 left = Vec3::Zero();
        for (const auto* limbs : {&legs, &arms})
            for (const BodyLimb& l : *limbs) {
                const JointSide s = nameSide(t, l.chain);
                if (s != JointSide::None && l.attachment >= 0)
                    left += (s == JointSide::Left ? 1.0 : -1.0) * horizontal(chainCentre(t, l) - t.at(l.attachment));
            }
        b.front = left.norm() > 1e-12 ? Vec3(left.normalized().cross(Vec3::UnitY())) : Vec3::UnitZ();
        b.sidesFrom = left.norm() > 1e-12 ? "names" : "default";
    }
    b.left = Vec3::UnitY().cross(b.front).normalized();
}

/// Puts two limbs left (0) and right (1) by geometry, noting names that disagree.
std::array<BodyLimb, 2> bySide(const Tree& t, std::vector<BodyLimb> limbs, bool arm, BodyStructure& b)
{
    std::array<BodyLimb, 2> out;
    if (limbs.empty())
        return out;
    auto lateral = [&](const BodyLimb& l) { return (chainCentre(t, l) - t.at(l.attachment)).dot(b.left); };
    std::sort(limbs.begin(), limbs.end(), [&](const BodyLimb& a, const BodyLimb& c) { return lateral(a) > lateral(c); });
    if (limbs.size() == 1) {
        out[lateral(limbs[0]) >= 0.0 ? 0 : 1] = limbs[0];
    } else {
        out[0] = limbs[0];
        out[1] = limbs.back();
    }
    for (int s = 0; s < 2; ++s) {
        if (!out[static_cast<size_t>(s)].found())
            continue;
        const JointSide named = nameSide(t, out[static_cast<size_t>(s)].chain);
        if (named != JointSide::None && (named == JointSide::Left) != (s == 0))
            b.messages.push_back("the " + limbLabel(arm, s) + " (from '" + t.names[static_cast<size_t>(out[static_cast<size_t>(s)].root)] +
                                 "') is named as the other side; the geometry (" + b.sidesFrom + ") decides");
    }
    return out;
}

/// Step 4: arm candidates leaving the head path sideways.
std::vector<BodyLimb> findArms(const Tree& t, const std::vector<int>& path)
{
    struct Candidate {
        double reach;
        int at, child;
    };
    std::vector<Candidate> cands;
    for (size_t k = 1; k < path.size(); ++k)
        for (int c : t.kids(path[k])) {
            if (k + 1 < path.size() && c == path[k + 1])
                continue;
            // The branch's reach: its farthest joint from the spine joint, in
            // 3D. Horizontally, arms hanging at the sides reach only the
            // shoulders' half width (0.14-0.16 of the height), and the fitted
            // left arm of BCN_Epileptic.X (0.142) fell under the bound; the
            // spine's own continuation (neck, head) is on the path, not a branch.
            const Vec3 from = t.at(path[k]);
            double reach = 0.0;
            std::vector<int> stack{c};
            while (!stack.empty()) {
                const int j = stack.back();
                stack.pop_back();
                reach = std::max(reach, (t.at(j) - from).norm());
                for (int g : t.kids(j))
                    stack.push_back(g);
            }
            if (reach > 0.15 * t.height)
                cands.push_back({reach, path[k], c});
        }
    std::vector<BodyLimb> arms;
    for (const Candidate& c : cands)
        arms.push_back(armFrom(t, c.at, c.child));
    // The two reaching farthest in opposite horizontal directions.
    double best = -1.0;
    std::vector<BodyLimb> pair;
    for (size_t a = 0; a < arms.size(); ++a)
        for (size_t b = a + 1; b < arms.size(); ++b) {
            const Vec3 da = horizontal(t.at(arms[a].end) - t.at(arms[a].attachment));
            const Vec3 db = horizontal(t.at(arms[b].end) - t.at(arms[b].attachment));
            if (da.dot(db) >= 0.0)
                continue;
            const double score = da.norm() + db.norm();
            if (score > best) {
                best = score;
                pair = {arms[a], arms[b]};
            }
        }
    if (pair.empty() && !arms.empty())
        pair = {arms[0]};
    return pair;
}

/// The child of `j` (other than `skip` and the leg starts) whose subtree
/// reaches highest, if it rises above the pelvis; else -1.
int risingChild(const Tree& t, int j, int skip, const std::vector<int>& legStarts, double pelvisHeight)
{
    int best = -1;
    for (int c : t.kids(j))
        if (c != skip && std::find(legStarts.begin(), legStarts.end(), c) == legStarts.end() &&
            (best < 0 || t.high[static_cast<size_t>(c)] > t.high[static_cast<size_t>(best)]))
            best = c;
    return best >= 0 && t.high[static_cast<size_t>(best)] > pelvisHeight ? best : -1;
}

/// Step 3: the spine from the pelvis up, its arms, chest, neck and head. The
/// spine usually hangs from the pelvis; some rigs hang the legs' pelvis and
/// the spine side by side from a root above both (BCN_Epileptic.X:
/// B_Root_Pelvis_L carries B_LowerPelvis with the legs and B_Root_Pelvis_T
/// with the spine), so without a rising child the pelvis's ancestors are
/// searched, nearest first.
void findUpperBody(const Tree& t, const std::vector<int>& legStarts, BodyStructure& b, std::vector<BodyLimb>& arms)
{
    const double pelvisHeight = t.p(b.pelvis, 1);
    int spineStart = risingChild(t, b.pelvis, -1, legStarts, pelvisHeight);
    for (int below = b.pelvis, a = t.parent[static_cast<size_t>(b.pelvis)]; spineStart < 0 && a >= 0;
         below = a, a = t.parent[static_cast<size_t>(a)])
        if ((spineStart = risingChild(t, a, below, legStarts, pelvisHeight)) >= 0)
            b.messages.push_back("the spine hangs from '" + t.names[static_cast<size_t>(a)] + "', beside the legs' pelvis '" +
                                 t.names[static_cast<size_t>(b.pelvis)] + "'");
    if (spineStart < 0) {
        b.messages.push_back("no spine found: nothing above the pelvis '" + t.names[static_cast<size_t>(b.pelvis)] + "'");
        return;
    }
    std::vector<int> path{b.pelvis};
    for (int j : pathUp(t, spineStart))
        path.push_back(j);
    arms = findArms(t, path);
    size_t chestAt = path.size() - 1;
    if (!arms.empty()) {
        chestAt = 0;
        for (const BodyLimb& a : arms)
            chestAt = std::max(chestAt, static_cast<size_t>(std::find(path.begin(), path.end(), a.attachment) - path.begin()));
    } else {
        // Without arms there is no chest to split the path at: it is all spine, up to the head.
        chestAt = path.size() - 1;
        b.messages.push_back("no arms found: no chain leaves the spine sideways");
    }
    size_t headAt = path.size() - 1;
    for (size_t k = chestAt + 1; k < path.size(); ++k)
        if (jointNameRole(t.names[static_cast<size_t>(path[k])]).part == JointPart::Head) {
            headAt = k;
            break;
        }
    b.chest = path[chestAt];
    b.spine.assign(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(chestAt) + 1);
    if (arms.empty()) {
        b.head = path.back();
    } else if (headAt > chestAt) {
        b.head = path[headAt];
        b.neck.assign(path.begin() + static_cast<std::ptrdiff_t>(chestAt), path.begin() + static_cast<std::ptrdiff_t>(headAt) + 1);
    } else {
        b.messages.push_back("no head found above the chest '" + t.names[static_cast<size_t>(b.chest)] + "'");
    }
}

} // namespace

std::string limbLabel(bool arm, int side) { return std::string(side == 0 ? "left " : "right ") + (arm ? "arm" : "leg"); }

std::vector<std::vector<int>> BodyStructure::keptChildren() const
{
    std::vector<std::vector<int>> out(keptParent.size());
    for (size_t j = 0; j < keptParent.size(); ++j)
        if (kept(static_cast<int>(j)) && keptParent[j] >= 0)
            out[static_cast<size_t>(keptParent[j])].push_back(static_cast<int>(j));
    return out;
}

std::vector<JointNameRole> BodyStructure::roles(const std::vector<std::string>& names) const
{
    std::vector<JointNameRole> out(names.size());
    auto set = [&](int j, JointPart part, JointSide side) {
        if (j >= 0)
            out[static_cast<size_t>(j)] = {part, side, {}};
    };
    // Names fill in the open joints of a chain with a part that chain may have and does not have yet.
    auto fill = [&](const std::vector<int>& chain, std::initializer_list<JointPart> allowed, JointSide side) {
        for (int j : chain) {
            if (out[static_cast<size_t>(j)].part != JointPart::None)
                continue;
            const JointPart named = jointNameRole(names[static_cast<size_t>(j)]).part;
            const bool ok = std::find(allowed.begin(), allowed.end(), named) != allowed.end();
            const bool taken = std::any_of(chain.begin(), chain.end(), [&](int k) { return out[static_cast<size_t>(k)].part == named; });
            if (ok && !taken)
                set(j, named, side);
        }
    };
    set(pelvis, JointPart::Hips, JointSide::None);
    if (neck.size() >= 3)
        set(neck[1], JointPart::Neck, JointSide::None);
    set(head, JointPart::Head, JointSide::None);
    if (!neck.empty())
        fill(std::vector<int>(neck.begin() + 1, neck.end()), {JointPart::Neck}, JointSide::None);
    for (int s = 0; s < 2; ++s) {
        const JointSide side = s == 0 ? JointSide::Left : JointSide::Right;
        const BodyLimb& a = arms[static_cast<size_t>(s)];
        if (a.found()) {
            if (a.chain.front() != a.root)
                set(a.chain.front(), JointPart::Clavicle, side);
            set(a.root, JointPart::UpperArm, side);
            set(a.middle, JointPart::ForeArm, side);
            set(a.end, JointPart::Hand, side);
        }
        const BodyLimb& l = legs[static_cast<size_t>(s)];
        if (l.found()) {
            set(l.root, JointPart::Thigh, side);
            set(l.middle, JointPart::Shin, side);
            set(l.end, JointPart::Foot, side);
            set(l.tip, JointPart::Toe, side);
        }
    }
    return out;
}

BodyStructure findBodyStructure(const std::vector<std::string>& names, const std::vector<int>& parents,
                                const MatrixX3d& positions, const BodyStructureOptions& options)
{
    BodyStructure b;
    std::vector<char> shortened;
    const MatrixX3d p = searchPositions(names, parents, positions, b.messages, shortened);
    b.shortenedBones = std::any_of(shortened.begin(), shortened.end(), [](char c) { return c != 0; });
    Tree t{names, p, std::vector<int>(names.size(), -1), {}, std::vector<std::string>(names.size()), {}, {}, shortened};
    setAsideHelpers(t, parents, options);
    linkKeptTree(t, parents);
    measure(t);
    dropZeroLength(t, parents);
    measure(t);
    b.setAside = t.aside;
    b.keptParent = t.parent;
    if (t.count() == 0)
        return b;

    std::vector<BodyLimb> legs, arms;
    const std::vector<int> legStarts = findLegs(t, b.pelvis);
    for (int c : legStarts)
        legs.push_back(legFrom(t, b.pelvis, c));
    if (b.pelvis < 0) {
        b.messages.push_back("no legs found: no joint has two chains reaching the ground");
        // The pelvis is then the kept root with the largest subtree.
        for (int j = 0; j < t.count(); ++j)
            if (t.kept(j) && t.parent[static_cast<size_t>(j)] < 0) {
                b.pelvis = j;
                break;
            }
    }
    if (b.pelvis >= 0)
        findUpperBody(t, legStarts, b, arms);
    findFacing(t, legs, arms, b);
    b.legs = bySide(t, legs, false, b);
    b.arms = bySide(t, arms, true, b);
    for (int s = 0; s < 2; ++s) {
        if (!b.legs[static_cast<size_t>(s)].found() && !legs.empty())
            b.messages.push_back("no " + limbLabel(false, s) + " found");
        if (!b.arms[static_cast<size_t>(s)].found() && !arms.empty())
            b.messages.push_back("no " + limbLabel(true, s) + " found");
    }
    return b;
}

} // namespace rig
