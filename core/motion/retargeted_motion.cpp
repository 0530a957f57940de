// retargetedMotion() and writeRetargetedBvh() of retarget.h: a retargeted clip
// as a BVH motion of the target skeleton (ZYX Euler channels, continuous from
// frame to frame).
#include "core/motion/retarget.h"

#include "core/common/error.h"
#include "core/motion/bvh_file.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>
#include <string>

namespace rig {

using Quat = Eigen::Quaterniond;

namespace {

// R = Rz(a) · Ry(b) · Rx(c), angles in degrees, b in [-90, 90].
Vec3 eulerZYX(const Eigen::Matrix3d& r)
{
    const double b = std::asin(std::clamp(-r(2, 0), -1.0, 1.0));
    double a, c;
    if (std::abs(r(2, 0)) < 1.0 - 1e-12) {
        a = std::atan2(r(1, 0), r(0, 0));
        c = std::atan2(r(2, 1), r(2, 2));
    } else { // gimbal lock: put everything in a
        a = std::atan2(-r(0, 1), r(1, 1));
        c = 0.0;
    }
    return Vec3(a, b, c) * (180.0 / std::numbers::pi);
}

double unwrap(double angle, double previous)
{
    return angle + 360.0 * std::round((previous - angle) / 360.0);
}

// Of the two ZYX triples of a rotation, (a, b, c) and (a + 180, 180 - b, c + 180),
// each shifted by whole turns, the one closest to the previous frame's.
Vec3 continuousEuler(const Vec3& e, const Vec3& previous)
{
    Vec3 best = e;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (Vec3 c : {e, Vec3(e[0] + 180.0, 180.0 - e[1], e[2] + 180.0)}) {
        for (int k = 0; k < 3; ++k)
            c[k] = unwrap(c[k], previous[k]);
        const double d = (c - previous).cwiseAbs().sum();
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    return best;
}

} // namespace

namespace {

/// retargetedMotion() without its frames: the target's hierarchy, channels,
/// End Sites and the clip's frame time.
Motion retargetedHierarchy(const RetargetedClip& clip, const Skeleton& target)
{
    try {
        validateSkeleton(target);
    } catch (const InvalidInput& e) {
        throw InvalidInput(std::string("rig::retargetedMotion(): the target skeleton is invalid: ") + e.what());
    }
    const int n = target.jointCount();
    Motion m;
    m.names = target.names;
    m.parents = target.parents;
    m.offsets.resize(n, 3);
    m.channelStarts.push_back(0);
    const auto children = childrenOf(target);
    for (int i = 0; i < n; ++i) {
        const int p = target.parents[static_cast<size_t>(i)];
        m.offsets.row(i) = p < 0 ? Vec3(target.bindPositions.row(i)) : Vec3(target.bindPositions.row(i) - target.bindPositions.row(p));
        if (p < 0)
            for (Channel c : {Channel::Xposition, Channel::Yposition, Channel::Zposition})
                m.channels.push_back(c);
        for (Channel c : {Channel::Zrotation, Channel::Yrotation, Channel::Xrotation})
            m.channels.push_back(c);
        m.channelStarts.push_back(static_cast<int>(m.channels.size()));
        if (children[static_cast<size_t>(i)].empty()) {
            const Vec3 bone = p < 0 ? Vec3(0.0, 0.1, 0.0) : Vec3(m.offsets.row(i).transpose());
            m.endSiteParents.push_back(i);
            m.endSiteOffsets.conservativeResize(m.endSiteOffsets.rows() + 1, 3);
            m.endSiteOffsets.row(m.endSiteOffsets.rows() - 1) = (bone.norm() > 0.0 ? Vec3(0.5 * bone) : Vec3(0.0, 0.05, 0.0)).transpose();
        }
    }
    m.frameTime = clip.frameTime;
    return m;
}

/// Per-frame scratch of retargetedFrame(): sized once, reused for every frame.
struct FrameScratch {
    std::vector<Quat> posed; ///< #J posed orientations O_i.
    MatrixX3d positions;     ///< #J by 3 posed positions (unused).
    std::vector<Quat> world; ///< #J rotations W_i = O_i · B_i⁻¹.
};

/// Frame f's channel values (`row`, #C), its angles continued from
/// `previous` (frame f - 1's values; ignored for f = 0). Allocates nothing
/// once `scratch` is sized.
void retargetedFrame(const RetargetedClip& clip, const Skeleton& target, size_t f, std::span<const double> previous,
                     FrameScratch& scratch, std::span<double> row)
{
    const int n = target.jointCount();
    const Vec3& rootTranslation = clip.frames.rootTranslations[f];
    posedJoints(target, clip.frames.rotationsOf(f), rootTranslation, scratch.posed, scratch.positions);
    std::vector<Quat>& world = scratch.world;
    world.resize(static_cast<size_t>(n));
    size_t col = 0;
    for (int i = 0; i < n; ++i) {
        world[static_cast<size_t>(i)] = scratch.posed[static_cast<size_t>(i)] * target.bindOrientations[static_cast<size_t>(i)].conjugate();
        const int p = target.parents[static_cast<size_t>(i)];
        const Quat local = p < 0 ? world[static_cast<size_t>(i)] : Quat(world[static_cast<size_t>(p)].conjugate() * world[static_cast<size_t>(i)]);
        if (p < 0)
            for (int a = 0; a < 3; ++a)
                row[col++] = rootTranslation[a];
        Vec3 e = eulerZYX(local.normalized().toRotationMatrix());
        if (f > 0)
            e = continuousEuler(e, Vec3(previous[col], previous[col + 1], previous[col + 2]));
        for (int a = 0; a < 3; ++a)
            row[col++] = e[a];
    }
}

} // namespace

Motion retargetedMotion(const RetargetedClip& clip, const Skeleton& target)
{
    Motion m = retargetedHierarchy(clip, target);
    const auto columns = static_cast<size_t>(m.channelCount());
    m.frames.resize(static_cast<Eigen::Index>(clip.frames.size()), m.channelCount());
    FrameScratch scratch;
    for (size_t f = 0; f < clip.frames.size(); ++f) {
        const auto previous = f > 0 ? std::span<const double>(m.frames.row(static_cast<Eigen::Index>(f - 1)).data(), columns)
                                    : std::span<const double>();
        retargetedFrame(clip, target, f, previous, scratch,
                        std::span<double>(m.frames.row(static_cast<Eigen::Index>(f)).data(), columns));
    }
    validateMotion(m);
    return m;
}

void writeRetargetedBvh(const RetargetedClip& clip, const Skeleton& target, const std::string& path)
{
    const Motion m = retargetedHierarchy(clip, target);
    FrameScratch scratch;
    std::vector<double> previous(static_cast<size_t>(m.channelCount()));
    writeBvh(m, static_cast<Eigen::Index>(clip.frames.size()),
             [&](Eigen::Index f, std::span<double> row) {
                 retargetedFrame(clip, target, static_cast<size_t>(f), previous, scratch, row);
                 std::copy(row.begin(), row.end(), previous.begin());
             },
             path);
}

} // namespace rig
