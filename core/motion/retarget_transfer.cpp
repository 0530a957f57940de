// The transfer of frames (retarget.h): retargetClip() with a mapping and
// ClipRetargeter, a block of source frames at a time.
#include "core/motion/retarget.h"

#include "core/motion/retarget_transfer.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

namespace rig {
namespace {

using Quat = Eigen::Quaterniond;
using retarget::checkInputs;
using retarget::checkMapping;
using retarget::finishMapping;
using retarget::lowest;
using retarget::Rest;
using retarget::sourceRest;
using retarget::structural;
using retarget::targetRest;
using retarget::useStructure;

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
    const double x = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(v.size() - 1);
    const auto k = v.begin() + static_cast<std::ptrdiff_t>(std::floor(x));
    std::nth_element(v.begin(), k, v.end()); // the sorted order's element, without sorting 10^6 values
    return *k;
}

double verticalExtent(const MatrixX3d& p) { return p.rows() ? p.col(1).maxCoeff() - p.col(1).minCoeff() : 0.0; }

} // namespace

RetargetedClip retargetClip(const Motion& source, const Skeleton& target, const RetargetMapping& mapping,
                            const RetargetOptions& options, const Progress& progress)
{
    checkInputs(source, target, "rig::retargetClip()");
    checkMapping(mapping, source, target);
    if (source.frameCount() < 1)
        throw InvalidInput("rig::retargetClip(): the clip has no frames");
    ClipRetargeter retargeter(source, target, mapping, options, source.frameCount());
    retargeter.add(source.frames, progress);
    return retargeter.finish(progress);
}

namespace {

/// The clip's hierarchy and channels without its frames (0 by #C).
Motion withoutFrames(const Motion& m)
{
    Motion h;
    h.names = m.names;
    h.parents = m.parents;
    h.offsets = m.offsets;
    h.channels = m.channels;
    h.channelStarts = m.channelStarts;
    h.endSiteParents = m.endSiteParents;
    h.endSiteOffsets = m.endSiteOffsets;
    h.frameTime = m.frameTime;
    h.frames.resize(0, m.channelCount());
    h.bindValues = m.bindValues;
    h.weighted = m.weighted;
    return h;
}

} // namespace

struct ClipRetargeter::State {
    Motion source; ///< The hierarchy, without frames.
    Skeleton target;
    RetargetOptions options;
    Rest sourceRest;
    RetargetedClip clip;
    Vec3 rootRest = Vec3::Zero();
    Eigen::Index sourceFrames = 0;   ///< Source frames added so far.
    Eigen::Index expectedFrames = 0; ///< For progress.
    // Per target frame, for the ground (finish()).
    std::vector<double> sourceFoot, sourceRootHeight;
    // Per-frame scratch: sized once, so that add() allocates nothing per frame.
    std::vector<Quat> delta, posed;
    MotionPose sourcePose;
    MotionWorld world;

    /// Retargets source frame `values` (#C) as the next target frame.
    void addFrame(std::span<const double> values);
};

ClipRetargeter::ClipRetargeter(const Motion& source, const Skeleton& target, const RetargetMapping& mapping,
                               const RetargetOptions& options, Eigen::Index expectedFrames)
    : m_state(std::make_unique<State>())
{
    State& st = *m_state;
    st.source = withoutFrames(source);
    checkInputs(st.source, target, "rig::retargetClip()");
    checkMapping(mapping, source, target);
    if (options.frameStep < 1)
        throw InvalidInput("rig::retargetClip(): frameStep must be 1 or more, got " + std::to_string(options.frameStep));
    st.target = target;
    st.options = options;
    st.expectedFrames = expectedFrames;
    MotionWorld restWorld;
    const RetargetRest rest = resolveRetargetRest(source, options.rest);
    st.sourceRest = sourceRest(source, rest, &restWorld);
    Rest& sr = st.sourceRest;
    Rest tr = targetRest(target);
    if (!structural(tr, sr, options)) {
        useStructure(sr, source.names, false);
        useStructure(tr, target.names, false);
    }

    RetargetedClip& clip = st.clip;
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
    st.rootRest = sr.at(m.sourceRoot);

    // Flat storage, reserved for the expected frames: no per-frame allocation (issue 47).
    const int nt = target.jointCount();
    const auto frames = static_cast<size_t>(expectedFrames > 0 ? (expectedFrames - 1) / options.frameStep + 1 : 0);
    clip.frames.jointCount = nt;
    clip.frames.rotations.reserve(frames * static_cast<size_t>(nt));
    clip.frames.rootTranslations.reserve(frames);
    st.sourceFoot.reserve(frames);
    st.sourceRootHeight.reserve(frames);
    st.delta.resize(static_cast<size_t>(source.jointCount()));
    st.posed.resize(static_cast<size_t>(nt));
}

ClipRetargeter::~ClipRetargeter() = default;

void ClipRetargeter::add(const MotionFrames& frames, const Progress& progress)
{
    State& st = *m_state;
    if (frames.cols() != st.source.channelCount())
        throw InvalidInput("rig::ClipRetargeter::add(): frames of " + std::to_string(frames.cols()) + " values for " +
                           std::to_string(st.source.channelCount()) + " channels");
    if (!frames.allFinite())
        throw InvalidInput("rig::ClipRetargeter::add(): the frames hold NaN or infinite values");
    const auto columns = static_cast<size_t>(frames.cols());
    const double expected = static_cast<double>(std::max(st.expectedFrames, st.sourceFrames + frames.rows()));
    for (Eigen::Index r = 0; r < frames.rows(); ++r, ++st.sourceFrames) {
        if ((st.sourceFrames & 255) == 0)
            progress.update("retarget", static_cast<double>(st.sourceFrames) / expected);
        if (st.sourceFrames % st.options.frameStep == 0)
            st.addFrame(std::span<const double>(frames.row(r).data(), columns));
    }
}

void ClipRetargeter::State::addFrame(std::span<const double> values)
{
    const RetargetMapping& m = clip.mapping;
    const int nt = target.jointCount(), ns = source.jointCount();
    evaluateValues(source, values, sourcePose);
    worldTransforms(source, sourcePose, world);
    for (int k = 0; k < ns; ++k)
        delta[static_cast<size_t>(k)] = world.orientations[static_cast<size_t>(k)] * sourceRest.orientations[static_cast<size_t>(k)].conjugate();
    const size_t first = clip.frames.rotations.size();
    clip.frames.rotations.resize(first + static_cast<size_t>(nt));
    const std::span<Quat> local(clip.frames.rotations.data() + first, static_cast<size_t>(nt));
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
        local[static_cast<size_t>(i)] = (B.conjugate() * parentDelta.conjugate() * O).normalized();
    }
    clip.frames.rootTranslations.push_back(m.translationScale * (world.positions.row(m.sourceRoot).transpose() - rootRest));
    sourceFoot.push_back(lowest(world.positions, m.sourceFeet));
    sourceRootHeight.push_back(world.positions(m.sourceRoot, 1));
}

RetargetedClip ClipRetargeter::finish(const Progress& progress)
{
    State& st = *m_state;
    if (st.clip.frames.empty())
        throw InvalidInput("rig::retargetClip(): the clip has no frames");
    RetargetedClip& clip = st.clip;
    const RetargetMapping& m = clip.mapping;
    const RetargetOptions& options = st.options;
    const Skeleton& target = st.target;
    const double s = m.translationScale;
    // Feet on the ground: the clip's ground is a low percentile of the lowest
    // source foot joint; the target's is its bind pose.
    // The root's height above the clip's ground is taken relative to its rest
    // height above the rest pose's feet, scaled: the target's root keeps its
    // own rest height, whatever height each skeleton gives its pelvis joint.
    const double sourceGround = percentile(st.sourceFoot, options.groundPercentile);
    const double targetGround = lowest(target.bindPositions, m.targetFeet);
    const double sourceRestRootAbove = m.sourceFeet.empty() ? st.rootRest.y() - sourceGround
                                                            : st.rootRest.y() - lowest(st.sourceRest.positions, m.sourceFeet);
    const double contact = options.contactTolerance * clip.sourceHeight;
    const double norm = clip.targetHeight > 0.0 ? clip.targetHeight : 1.0;
    MatrixX3d targetPositions;
    for (size_t f = 0; f < clip.frames.size(); ++f) {
        const std::span<const Quat> local = clip.frames.rotationsOf(f);
        Vec3& root = clip.frames.rootTranslations[f];
        if (options.rootHeightFromGround)
            root.y() = s * (st.sourceRootHeight[f] - sourceGround - sourceRestRootAbove);
        const double hs = st.sourceFoot[f] - sourceGround;
        posedJoints(target, local, root, st.posed, targetPositions);
        const double ht = lowest(targetPositions, m.targetFeet) - targetGround;
        const double dy = s * hs - ht;
        if (options.keepFeetOnGround)
            root.y() += dy;
        if (hs <= contact) {
            // The source stands on its ground: how far is the target's lowest foot from its own?
            ++clip.contactFrames;
            clip.footErrorBefore = std::max(clip.footErrorBefore, std::abs(ht) / norm);
            posedJoints(target, local, root, st.posed, targetPositions);
            const double after = lowest(targetPositions, m.targetFeet) - targetGround;
            clip.footErrorAfter = std::max(clip.footErrorAfter, std::abs(after) / norm);
        }
    }
    progress.update("retarget", 1.0);
    return std::move(clip);
}

} // namespace rig
