#include "core/skin/weight_mirror.h"

#include "core/common/error.h"
#include "core/rig/joint_names.h"
#include "core/skin/locked_weights.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

namespace rig {
namespace {

std::string joinWords(const std::vector<std::string>& words)
{
    std::string key;
    for (const std::string& w : words) {
        if (!key.empty())
            key += ' ';
        key += w;
    }
    return key;
}

} // namespace

std::string nameKey(const std::string& name) { return joinWords(jointNameWords(name)); }

std::optional<std::string> mirroredNameKey(const std::string& name)
{
    std::vector<std::string> words = jointNameWords(name);
    static const std::pair<std::string_view, std::string_view> swaps[] = {
        {"left", "right"}, {"right", "left"}, {"l", "r"}, {"r", "l"}};
    for (std::string& w : words) {
        for (const auto& [from, to] : swaps)
            if (w == from) {
                w = to;
                return joinWords(words);
            }
        // All-lower-case compounds ("leftarm"), as jointNameRole() reads them.
        for (const auto& [from, to] : swaps)
            if (from.size() > 1 && w.size() > from.size() && w.rfind(from, 0) == 0) {
                w = std::string(to) + w.substr(from.size());
                return joinWords(words);
            }
    }
    return std::nullopt;
}

JointMirror mirrorJoints(const Skeleton& skeleton)
{
    validateSkeleton(skeleton);
    const int n = skeleton.jointCount();
    JointMirror m;
    m.twin.resize(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j)
        m.twin[static_cast<size_t>(j)] = j;

    std::map<std::string, int> byKey;
    for (int j = 0; j < n; ++j)
        byKey.emplace(nameKey(skeleton.names[static_cast<size_t>(j)]), j); // first joint of a key wins
    double midSum = 0.0;
    for (int j = 0; j < n; ++j) {
        const auto key = mirroredNameKey(skeleton.names[static_cast<size_t>(j)]);
        if (!key)
            continue;
        const auto it = byKey.find(*key);
        if (it == byKey.end() || it->second == j)
            continue;
        const int k = it->second;
        if (m.twin[static_cast<size_t>(k)] != k && m.twin[static_cast<size_t>(k)] != j)
            continue; // k already paired with another spelling
        m.twin[static_cast<size_t>(j)] = k;
        m.twin[static_cast<size_t>(k)] = j;
        if (j < k) {
            ++m.namePairs;
            midSum += 0.5 * (skeleton.bindPositions(j, 0) + skeleton.bindPositions(k, 0));
        }
    }
    m.plane.offset = m.namePairs > 0 ? midSum / m.namePairs : skeleton.bindPositions(0, 0);

    // Position pairs among the joints names left alone and off the plane.
    Box3 box;
    for (int j = 0; j < n; ++j)
        box.extend(skeleton.bindPositions.row(j).transpose());
    const double extent = box.diagonal();
    std::vector<int> loose;
    for (int j = 0; j < n; ++j)
        if (m.twin[static_cast<size_t>(j)] == j &&
            std::abs(m.plane.signedDistance(skeleton.bindPositions.row(j).transpose())) > 0.005 * extent)
            loose.push_back(j);
    const auto nearestReflection = [&](int j) {
        const Vec3 r = m.plane.reflect(skeleton.bindPositions.row(j).transpose());
        int best = -1;
        double bestD = std::numeric_limits<double>::infinity();
        for (int k : loose) {
            if (k == j || m.twin[static_cast<size_t>(k)] != k)
                continue;
            const double d = (skeleton.bindPositions.row(k).transpose() - r).norm();
            if (d < bestD) {
                bestD = d;
                best = k;
            }
        }
        return std::pair{best, bestD};
    };
    for (int j : loose) {
        if (m.twin[static_cast<size_t>(j)] != j)
            continue;
        const auto [k, d] = nearestReflection(j);
        if (k < 0 || d > 0.05 * extent || nearestReflection(k).first != j)
            continue;
        // The two must lie on opposite sides.
        if (m.plane.signedDistance(skeleton.bindPositions.row(j).transpose()) *
                m.plane.signedDistance(skeleton.bindPositions.row(k).transpose()) >= 0.0)
            continue;
        m.twin[static_cast<size_t>(j)] = k;
        m.twin[static_cast<size_t>(k)] = j;
        ++m.positionPairs;
    }
    return m;
}

VertexMirror vertexMirror(const MatrixX3d& V, const SymmetryPlane& plane, double planeTolerance)
{
    if (!std::isfinite(plane.offset))
        throw InvalidInput("rig::vertexMirror(): the symmetry plane's offset is not finite");
    const PointGrid grid(V); // throws on a non-finite vertex
    Box3 box;
    for (Eigen::Index i = 0; i < V.rows(); ++i)
        box.extend(V.row(i).transpose());
    const double tol = planeTolerance >= 0.0 ? planeTolerance : 1e-5 * box.diagonal();
    const int n = static_cast<int>(V.rows());
    VertexMirror m;
    m.twin.resize(static_cast<size_t>(n));
    m.side.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const Vec3 p = V.row(i).transpose();
        const double d = plane.signedDistance(p);
        m.side[static_cast<size_t>(i)] = d > tol ? 1 : (d < -tol ? -1 : 0);
        const Vec3 r = plane.reflect(p);
        const int t = *grid.nearest(r);
        m.twin[static_cast<size_t>(i)] = t;
        m.maxDistance = std::max(m.maxDistance, (V.row(t).transpose() - r).norm());
    }
    m.preStart.assign(static_cast<size_t>(n) + 1, 0);
    for (int i = 0; i < n; ++i)
        ++m.preStart[static_cast<size_t>(m.twin[static_cast<size_t>(i)]) + 1];
    for (int i = 0; i < n; ++i)
        m.preStart[static_cast<size_t>(i) + 1] += m.preStart[static_cast<size_t>(i)];
    m.preimage.resize(static_cast<size_t>(n));
    std::vector<int> fill(m.preStart.begin(), m.preStart.end() - 1);
    for (int i = 0; i < n; ++i)
        m.preimage[static_cast<size_t>(fill[static_cast<size_t>(m.twin[static_cast<size_t>(i)])]++)] = i;
    return m;
}

namespace {

void checkSizes(const SkinWeights& w, const VertexMirror& mirror, const std::vector<int>& jointTwins,
                const std::vector<char>& locked, const char* fn)
{
    if (w.vertexCount() != static_cast<int>(mirror.twin.size()))
        throw InvalidInput(std::string(fn) + ": the weights cover " + std::to_string(w.vertexCount()) +
                           " vertices, the mirror map " + std::to_string(mirror.twin.size()));
    if (!locked.empty() && locked.size() != jointTwins.size())
        throw InvalidInput(std::string(fn) + ": " + std::to_string(locked.size()) + " lock flags for " +
                           std::to_string(jointTwins.size()) + " joints");
    for (Eigen::Index i = 0; i < w.joints.rows(); ++i)
        for (int s = 0; s < w.maxInfluences; ++s)
            if (w.joints(i, s) < 0 || w.joints(i, s) >= static_cast<int>(jointTwins.size()))
                throw InvalidInput(std::string(fn) + ": vertex " + std::to_string(i) + " names joint " +
                                   std::to_string(w.joints(i, s)) + " of " + std::to_string(jointTwins.size()));
}

/// Row `from` of `src`, joints replaced by their twins, written to row `to` of `dst`.
void copyMirrored(const SkinWeights& src, int from, SkinWeights& dst, int to, const std::vector<int>& jointTwins,
                  const std::vector<char>& locked)
{
    std::vector<WeightEntry> row = weightRow(src, from);
    for (WeightEntry& e : row)
        e.joint = jointTwins[static_cast<size_t>(e.joint)];
    setLockedRow(dst, to, std::move(row), -1, locked);
}

} // namespace

SkinWeights mirrorWeights(const SkinWeights& w, const VertexMirror& mirror, const std::vector<int>& jointTwins,
                          MirrorDirection direction, const std::vector<char>& locked)
{
    checkSizes(w, mirror, jointTwins, locked, "rig::mirrorWeights()");
    const signed char source = direction == MirrorDirection::LeftToRight ? 1 : -1;
    SkinWeights out = w;
    for (int u = 0; u < w.vertexCount(); ++u) {
        const int t = mirror.twin[static_cast<size_t>(u)];
        if (mirror.side[static_cast<size_t>(u)] == -source && mirror.side[static_cast<size_t>(t)] != -source)
            copyMirrored(w, t, out, u, jointTwins, locked);
    }
    return out;
}

void mirrorRows(SkinWeights& w, const VertexMirror& mirror, const std::vector<int>& jointTwins,
                const std::vector<int>& sources, int sourceSide, const std::vector<char>& locked,
                std::vector<int>& changed)
{
    for (int t : sources) {
        if (mirror.side[static_cast<size_t>(t)] != sourceSide)
            continue;
        for (int p = mirror.preStart[static_cast<size_t>(t)]; p < mirror.preStart[static_cast<size_t>(t) + 1]; ++p) {
            const int u = mirror.preimage[static_cast<size_t>(p)];
            if (mirror.side[static_cast<size_t>(u)] != -sourceSide)
                continue;
            copyMirrored(w, t, w, u, jointTwins, locked);
            changed.push_back(u);
        }
    }
}

} // namespace rig
