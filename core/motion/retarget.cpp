#include "core/motion/retarget.h"

#include "core/motion/retarget_rest.h"
#include "core/motion/retarget_segments.h"
#include "core/motion/retarget_transfer.h"

#include "core/common/error.h"
#include "core/rig/joint_names.h"
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
using retarget::mapChildren;
using retarget::mapSegmentPair;
using retarget::Segment;
using retarget::segmentAlong;
using retarget::segmentsBelow;
using retarget::segmentsOf;
using retarget::setSources;
using retarget::checkInputs;
using retarget::checkMapping;
using retarget::finishMapping;
using retarget::lowest;
using retarget::sourceRest;
using retarget::structural;
using retarget::targetRest;
using retarget::useStructure;

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

} // namespace

namespace retarget {

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

Rest sourceRest(const Motion& m, RetargetRest rest, MotionWorld* world)
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

} // namespace retarget

namespace {

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

} // namespace

namespace retarget {

double lowest(const MatrixX3d& p, const std::vector<int>& joints)
{
    double y = std::numeric_limits<double>::infinity();
    for (int j : joints)
        y = std::min(y, p(j, 1));
    if (joints.empty())
        y = p.col(1).minCoeff();
    return y;
}

} // namespace retarget

namespace {

// ------------------------------------------------------------------ checks

} // namespace

namespace retarget {

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

} // namespace retarget

namespace {

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

} // namespace

namespace retarget {

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

} // namespace retarget

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

} // namespace rig
