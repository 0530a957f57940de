#include "core/import/assimp_animation.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <unordered_map>

namespace rig {
namespace {

/// One channel's keys, sorted by time (Assimp does not promise sorted keys).
struct Track {
    std::vector<std::pair<double, Vec3>> positions, scalings;
    std::vector<std::pair<double, Eigen::Quaterniond>> rotations;
    Vec3 restPosition, restScaling; ///< The node's own, for a channel without such keys.
    Eigen::Quaterniond restRotation;
};

Track trackOf(const aiNodeAnim* ch, const aiNode* node)
{
    Track t;
    for (unsigned k = 0; k < ch->mNumPositionKeys; ++k) {
        const aiVector3D& v = ch->mPositionKeys[k].mValue;
        t.positions.emplace_back(ch->mPositionKeys[k].mTime, Vec3(v.x, v.y, v.z));
    }
    for (unsigned k = 0; k < ch->mNumScalingKeys; ++k) {
        const aiVector3D& v = ch->mScalingKeys[k].mValue;
        t.scalings.emplace_back(ch->mScalingKeys[k].mTime, Vec3(v.x, v.y, v.z));
    }
    for (unsigned k = 0; k < ch->mNumRotationKeys; ++k) {
        const aiQuaternion& q = ch->mRotationKeys[k].mValue;
        Eigen::Quaterniond e(q.w, q.x, q.y, q.z);
        if (!(e.norm() > 1e-12))
            e = Eigen::Quaterniond::Identity();
        t.rotations.emplace_back(ch->mRotationKeys[k].mTime, e.normalized());
    }
    auto byTime = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::stable_sort(t.positions.begin(), t.positions.end(), byTime);
    std::stable_sort(t.scalings.begin(), t.scalings.end(), byTime);
    std::stable_sort(t.rotations.begin(), t.rotations.end(), byTime);
    aiVector3D s, p;
    aiQuaternion r;
    node->mTransformation.Decompose(s, r, p);
    t.restPosition = Vec3(p.x, p.y, p.z);
    t.restScaling = Vec3(s.x, s.y, s.z);
    t.restRotation = Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized();
    return t;
}

/// The keys around tick `t` and the blend between them (held before the first and after the last).
template <class Key>
std::tuple<const Key*, const Key*, double> bracket(const std::vector<Key>& keys, double t)
{
    const auto hi = std::upper_bound(keys.begin(), keys.end(), t, [](double x, const Key& k) { return x < k.first; });
    if (hi == keys.begin())
        return {&keys.front(), &keys.front(), 0.0};
    if (hi == keys.end())
        return {&keys.back(), &keys.back(), 0.0};
    const Key& lo = *(hi - 1);
    const double span = hi->first - lo.first;
    return {&lo, &*hi, span > 0.0 ? (t - lo.first) / span : 0.0};
}

Vec3 sampleVector(const std::vector<std::pair<double, Vec3>>& keys, double t, const Vec3& rest)
{
    if (keys.empty())
        return rest;
    const auto [a, b, u] = bracket(keys, t);
    return (1.0 - u) * a->second + u * b->second;
}

/// The node's local transform T·R·S at tick `t`.
Eigen::Matrix4d sampleTrack(const Track& track, double t)
{
    Eigen::Quaterniond r = track.restRotation;
    if (!track.rotations.empty()) {
        const auto [a, b, u] = bracket(track.rotations, t);
        r = a->second.slerp(u, b->second).normalized(); // Eigen's slerp takes the shorter arc
    }
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.block<3, 3>(0, 0) = r.toRotationMatrix() * sampleVector(track.scalings, t, track.restScaling).asDiagonal();
    m.block<3, 1>(0, 3) = sampleVector(track.positions, t, track.restPosition);
    return m;
}

} // namespace

Eigen::Matrix4d toEigen(const aiMatrix4x4& m)
{
    Eigen::Matrix4d e;
    e << m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4, m.d1, m.d2, m.d3, m.d4;
    return e;
}

void flatten(const aiNode* node, int parent, NodeTable& t)
{
    const int self = static_cast<int>(t.nodes.size());
    t.nodes.push_back(node);
    t.parent.push_back(parent);
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        flatten(node->mChildren[i], self, t);
}

/// The scene's animations that move the joints at `jointNode` (indices into
/// `table`), sampled at their key times; see `ImportedAnimation`.
std::vector<ImportedAnimation> sampleAnimations(const aiScene* scene, const NodeTable& table,
                                                const std::vector<int>& jointNode, const Eigen::Matrix4d& fix,
                                                int maxFrames)
{
    std::vector<ImportedAnimation> out;
    const size_t nn = table.nodes.size();
    std::unordered_map<std::string, int> nodeOfName;
    for (size_t i = 0; i < nn; ++i)
        nodeOfName.try_emplace(table.nodes[i]->mName.C_Str(), static_cast<int>(i)); // depth-first: the first wins
    std::vector<char> aboveJoint(nn, 0); // a joint's node or one of its ancestors
    std::vector<char> isJointNode(nn, 0);
    for (int n : jointNode) {
        isJointNode[static_cast<size_t>(n)] = 1;
        for (int a = n; a >= 0 && !aboveJoint[static_cast<size_t>(a)]; a = table.parent[static_cast<size_t>(a)])
            aboveJoint[static_cast<size_t>(a)] = 1;
    }
    for (unsigned ai = 0; ai < scene->mNumAnimations; ++ai) {
        const aiAnimation* anim = scene->mAnimations[ai];
        if (!anim)
            continue;
        const double tps = anim->mTicksPerSecond > 0.0 ? anim->mTicksPerSecond : 25.0;
        ImportedAnimation a;
        a.name = anim->mName.length ? anim->mName.C_Str() : "animation " + std::to_string(ai + 1);
        a.duration = std::isfinite(anim->mDuration) ? anim->mDuration / tps : 0.0;
        a.channels = static_cast<int>(anim->mNumChannels);
        std::vector<std::optional<Track>> tracks(nn);
        std::vector<double> ticks;
        for (unsigned c = 0; c < anim->mNumChannels; ++c) {
            const aiNodeAnim* ch = anim->mChannels[c];
            if (!ch)
                continue;
            const auto it = nodeOfName.find(ch->mNodeName.C_Str());
            if (it == nodeOfName.end() || !aboveJoint[static_cast<size_t>(it->second)] ||
                tracks[static_cast<size_t>(it->second)])
                continue; // a node that does not move the skeleton (or a second channel for one node)
            a.mappedChannels += isJointNode[static_cast<size_t>(it->second)];
            Track& t = tracks[static_cast<size_t>(it->second)].emplace(trackOf(ch, table.nodes[static_cast<size_t>(it->second)]));
            for (const auto& k : t.positions)
                ticks.push_back(k.first);
            for (const auto& k : t.rotations)
                ticks.push_back(k.first);
            for (const auto& k : t.scalings)
                ticks.push_back(k.first);
        }
        std::vector<char> moved(nn, 0);
        for (size_t i = 0; i < nn; ++i)
            moved[i] = tracks[i].has_value() || (table.parent[i] >= 0 && moved[static_cast<size_t>(table.parent[i])]);
        for (int n : jointNode)
            a.animatedJoints += moved[static_cast<size_t>(n)];
        ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [](double t) { return !std::isfinite(t); }), ticks.end());
        if (a.animatedJoints == 0 || ticks.empty())
            continue;
        std::sort(ticks.begin(), ticks.end());
        // Keys of different channels at the "same" time differ by float round-off.
        const double eps = 1e-6 * std::max(1.0, std::abs(ticks.back() - ticks.front()));
        std::vector<double> unique;
        for (double t : ticks)
            if (unique.empty() || t - unique.back() > eps)
                unique.push_back(t);
        if (static_cast<int>(unique.size()) > maxFrames && maxFrames >= 1) {
            const double t0 = unique.front(), t1 = unique.back();
            unique.resize(static_cast<size_t>(maxFrames));
            for (int f = 0; f < maxFrames; ++f)
                unique[static_cast<size_t>(f)] = maxFrames == 1 ? t0 : t0 + (t1 - t0) * f / (maxFrames - 1);
        }
        std::vector<Eigen::Matrix4d> global(nn);
        bool finite = true;
        for (double t : unique) {
            for (size_t i = 0; i < nn; ++i) {
                const Eigen::Matrix4d local = tracks[i] ? sampleTrack(*tracks[i], t) : toEigen(table.nodes[i]->mTransformation);
                global[i] = table.parent[i] < 0 ? local : Eigen::Matrix4d(global[static_cast<size_t>(table.parent[i])] * local);
            }
            std::vector<Eigen::Matrix4d> frame;
            frame.reserve(jointNode.size());
            for (int n : jointNode) {
                frame.push_back(fix * global[static_cast<size_t>(n)]);
                finite = finite && frame.back().allFinite();
            }
            a.times.push_back(t / tps);
            a.global.push_back(std::move(frame));
        }
        if (finite)
            out.push_back(std::move(a));
    }
    return out;
}

} // namespace rig
