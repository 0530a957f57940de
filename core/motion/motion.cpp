#include "core/motion/motion.h"

#include "core/common/error.h"

#include <array>
#include <cmath>
#include <numbers>
#include <unordered_set>

namespace rig {
namespace {

constexpr std::array<std::string_view, 6> kChannelNames = {"Xposition", "Yposition", "Zposition",
                                                           "Xrotation", "Yrotation", "Zrotation"};

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

std::string jointLabel(const Motion& m, int j)
{
    return "joint " + std::to_string(j) + " ('" + m.names[static_cast<size_t>(j)] + "')";
}

void checkFrame(const Motion& m, int frame, const char* function)
{
    if (frame < 0 || frame >= m.frameCount())
        throw InvalidInput(std::string(function) + ": frame " + std::to_string(frame) + " is out of range [0, " +
                           std::to_string(m.frameCount()) + ")");
}

} // namespace

std::string_view channelName(Channel c)
{
    return kChannelNames[static_cast<size_t>(c)];
}

std::optional<Channel> parseChannelName(std::string_view name)
{
    for (size_t i = 0; i < kChannelNames.size(); ++i)
        if (equalsIgnoreCase(name, kChannelNames[i]))
            return static_cast<Channel>(i);
    return std::nullopt;
}

std::span<const Channel> Motion::jointChannels(int j) const
{
    const auto begin = static_cast<size_t>(channelStarts[static_cast<size_t>(j)]);
    const auto end = static_cast<size_t>(channelStarts[static_cast<size_t>(j) + 1]);
    return std::span<const Channel>(channels).subspan(begin, end - begin);
}

std::optional<int> Motion::find(std::string_view name) const
{
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<int>(i);
    return std::nullopt;
}

void validateMotion(const Motion& m)
{
    const std::string fn = "rig::validateMotion(): ";
    const size_t n = m.names.size();
    if (n == 0)
        throw InvalidInput(fn + "the motion has no joints");
    if (m.parents.size() != n || static_cast<size_t>(m.offsets.rows()) != n || m.channelStarts.size() != n + 1)
        throw InvalidInput(fn + "names, parents, offsets and channelStarts differ in length");
    if (m.channelStarts.front() != 0 || static_cast<size_t>(m.channelStarts.back()) != m.channels.size())
        throw InvalidInput(fn + "channelStarts must run from 0 to #channels");
    if (m.endSiteParents.size() != static_cast<size_t>(m.endSiteOffsets.rows()))
        throw InvalidInput(fn + "endSiteParents and endSiteOffsets differ in length");
    if (m.frames.cols() != static_cast<Eigen::Index>(m.channels.size()) && m.frames.rows() > 0)
        throw InvalidInput(fn + "frames have " + std::to_string(m.frames.cols()) + " columns for " +
                           std::to_string(m.channels.size()) + " channels");
    if (!(m.frameTime > 0.0) || !std::isfinite(m.frameTime))
        throw InvalidInput(fn + "frameTime must be positive and finite");
    std::unordered_set<std::string_view> seen;
    for (size_t i = 0; i < n; ++i) {
        const int j = static_cast<int>(i);
        const std::string& name = m.names[i];
        if (name.empty())
            throw InvalidInput(fn + "joint " + std::to_string(i) + " has no name");
        if (name.find_first_of("{}\r\n") != std::string::npos || name.front() == ' ' || name.front() == '\t' ||
            name.back() == ' ' || name.back() == '\t')
            throw InvalidInput(fn + jointLabel(m, j) + " has a name a BVH file cannot hold");
        if (!seen.insert(name).second)
            throw InvalidInput(fn + "joint name '" + name + "' is used twice");
        const int p = m.parents[i];
        if (i == 0 ? p != -1 : (p < 0 || p >= j))
            throw InvalidInput(fn + jointLabel(m, j) + " has parent " + std::to_string(p) +
                               "; need one root at index 0 and parents[i] < i");
        if (!m.offsets.row(j).allFinite())
            throw InvalidInput(fn + jointLabel(m, j) + " has a NaN or infinite offset");
        const int begin = m.channelStarts[i], end = m.channelStarts[i + 1];
        if (end < begin || end - begin > 6)
            throw InvalidInput(fn + jointLabel(m, j) + " has " + std::to_string(end - begin) +
                               " channels; a joint has 0 to 6");
        unsigned used = 0;
        for (int c = begin; c < end; ++c) {
            const unsigned bit = 1u << static_cast<unsigned>(m.channels[static_cast<size_t>(c)]);
            if (used & bit)
                throw InvalidInput(fn + jointLabel(m, j) + " lists a channel twice");
            used |= bit;
        }
    }
    for (size_t e = 0; e < m.endSiteParents.size(); ++e) {
        const int p = m.endSiteParents[e];
        if (p < 0 || p >= static_cast<int>(n))
            throw InvalidInput(fn + "End Site " + std::to_string(e) + " has no valid joint");
        if (!m.endSiteOffsets.row(static_cast<Eigen::Index>(e)).allFinite())
            throw InvalidInput(fn + "End Site " + std::to_string(e) + " has a NaN or infinite offset");
    }
    if (!m.frames.allFinite())
        throw InvalidInput(fn + "the frames hold NaN or infinite values");
    if (!m.bindValues.empty() && m.bindValues.size() != m.channels.size())
        throw InvalidInput(fn + "the bind pose has " + std::to_string(m.bindValues.size()) + " values for " +
                           std::to_string(m.channels.size()) + " channels");
    for (double v : m.bindValues)
        if (!std::isfinite(v))
            throw InvalidInput(fn + "the bind pose holds NaN or infinite values");
    if (!m.weighted.empty() && m.weighted.size() != n)
        throw InvalidInput(fn + "weighted has " + std::to_string(m.weighted.size()) + " entries for " +
                           std::to_string(n) + " joints");
}

MotionPose restPose(const Motion& m)
{
    MotionPose pose;
    pose.localRotations.assign(static_cast<size_t>(m.jointCount()), Eigen::Quaterniond::Identity());
    pose.translations = MatrixX3d::Zero(m.jointCount(), 3);
    return pose;
}

void evaluateValues(const Motion& m, std::span<const double> values, MotionPose& pose)
{
    if (values.size() != m.channels.size())
        throw InvalidInput("rig::evaluateValues(): got " + std::to_string(values.size()) + " values for " +
                           std::to_string(m.channels.size()) + " channels");
    constexpr double degree = std::numbers::pi / 180.0;
    pose.localRotations.resize(static_cast<size_t>(m.jointCount()));
    pose.translations.setZero(m.jointCount(), 3);
    for (int j = 0; j < m.jointCount(); ++j) {
        Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
        for (int c = m.channelStarts[static_cast<size_t>(j)]; c < m.channelStarts[static_cast<size_t>(j) + 1]; ++c) {
            const Channel ch = m.channels[static_cast<size_t>(c)];
            const double v = values[static_cast<size_t>(c)];
            const int axis = channelAxis(ch);
            if (isRotation(ch))
                q = q * Eigen::Quaterniond(Eigen::AngleAxisd(v * degree, Vec3::Unit(axis)));
            else
                pose.translations(j, axis) = v;
        }
        pose.localRotations[static_cast<size_t>(j)] = q.normalized();
    }
}

MotionPose evaluateValues(const Motion& m, std::span<const double> values)
{
    MotionPose pose;
    evaluateValues(m, values, pose);
    return pose;
}

MotionPose evaluateFrame(const Motion& m, int frame)
{
    checkFrame(m, frame, "rig::evaluateFrame()");
    return evaluateValues(m, std::span<const double>(m.frames.row(frame).data(), m.channels.size()));
}

void worldTransforms(const Motion& m, const MotionPose& pose, MotionWorld& w)
{
    const int n = m.jointCount();
    if (static_cast<int>(pose.localRotations.size()) != n || pose.translations.rows() != n)
        throw InvalidInput("rig::worldTransforms(): the pose has " + std::to_string(pose.localRotations.size()) +
                           " rotations and " + std::to_string(pose.translations.rows()) + " translations for " +
                           std::to_string(n) + " joints");
    w.positions.resize(n, 3);
    w.orientations.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int p = m.parents[static_cast<size_t>(i)];
        const Vec3 local = (m.offsets.row(i) + pose.translations.row(i)).transpose();
        const Eigen::Quaterniond& rotation = pose.localRotations[static_cast<size_t>(i)];
        if (p < 0) {
            w.orientations[static_cast<size_t>(i)] = rotation;
            w.positions.row(i) = local.transpose();
        } else {
            const Eigen::Quaterniond& parent = w.orientations[static_cast<size_t>(p)];
            w.orientations[static_cast<size_t>(i)] = (parent * rotation).normalized();
            w.positions.row(i) = w.positions.row(p) + (parent * local).transpose();
        }
    }
    w.endSitePositions.resize(m.endSiteCount(), 3);
    for (int e = 0; e < m.endSiteCount(); ++e) {
        const int j = m.endSiteParents[static_cast<size_t>(e)];
        const Vec3 o = m.endSiteOffsets.row(e).transpose();
        w.endSitePositions.row(e) = w.positions.row(j) + (w.orientations[static_cast<size_t>(j)] * o).transpose();
    }
}

MotionWorld worldTransforms(const Motion& m, const MotionPose& pose)
{
    MotionWorld w;
    worldTransforms(m, pose, w);
    return w;
}

MatrixX3d worldPositions(const Motion& m, int frame)
{
    return worldTransforms(m, evaluateFrame(m, frame)).positions;
}

Skeleton motionSkeleton(const Motion& m, const MotionSkeletonOptions& options)
{
    const MotionWorld rest = worldTransforms(m, restPose(m));
    Skeleton s;
    s.names = m.names;
    s.parents = m.parents;
    const int extra = options.includeEndSites ? m.endSiteCount() : 0;
    s.bindPositions.resize(m.jointCount() + extra, 3);
    s.bindPositions.topRows(m.jointCount()) = rest.positions;
    if (extra > 0) {
        s.bindPositions.bottomRows(extra) = rest.endSitePositions;
        std::unordered_set<std::string> taken(m.names.begin(), m.names.end());
        for (int e = 0; e < extra; ++e) {
            const int j = m.endSiteParents[static_cast<size_t>(e)];
            const std::string base = m.names[static_cast<size_t>(j)] + "_end";
            std::string name = base;
            for (int k = 2; taken.count(name); ++k)
                name = base + std::to_string(k);
            taken.insert(name);
            s.names.push_back(name);
            s.parents.push_back(j);
        }
    }
    s.bindOrientations.assign(s.names.size(), Eigen::Quaterniond::Identity());
    return s;
}

Pose motionPose(const Motion& m, int frame, const MotionSkeletonOptions& options)
{
    checkFrame(m, frame, "rig::motionPose()");
    MotionPose mp = evaluateFrame(m, frame);
    Pose pose;
    pose.localRotations = std::move(mp.localRotations);
    if (options.includeEndSites)
        pose.localRotations.resize(pose.localRotations.size() + static_cast<size_t>(m.endSiteCount()),
                                   Eigen::Quaterniond::Identity());
    if (m.jointCount() > 0)
        pose.rootTranslation = mp.translations.row(0).transpose();
    return pose;
}

} // namespace rig
