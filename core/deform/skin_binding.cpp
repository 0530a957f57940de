#include "core/deform/skin_binding.h"

#include <cmath>

#include "core/common/error.h"
#include "core/deform/lbs.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace rig {

SkinBinding bindSkin(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, int jointCount)
{
    validateSkinningInput("rig::bindSkin()", V, N, W, jointCount);
    if (!V.allFinite() || (N.size() != 0 && !N.allFinite()))
        throw InvalidInput("rig::bindSkin(): the rest mesh has a non-finite position or normal (NaN or infinity)");
    SkinBinding b;
    const int n = static_cast<int>(V.rows());
    const int k = W.maxInfluences;
    b.vertexCount = n;
    b.jointCount = jointCount;
    b.influences = k;
    b.hasNormals = N.size() != 0;
    b.rest.resize(static_cast<size_t>(n));
    b.jointOffset.resize(static_cast<size_t>(n) * k);
    b.weights.resize(static_cast<size_t>(n) * k);
    b.dqOffset.resize(static_cast<size_t>(n) * k);
    // (pivot, joint) → table entry: a dense #J × #J lookup for skeletons of
    // usual size, a map beyond.
    const bool dense = jointCount <= 256;
    std::vector<std::int32_t> denseKeys(dense ? static_cast<size_t>(jointCount) * jointCount : 0, -1);
    std::map<std::array<std::int32_t, 2>, std::int32_t> sparseKeys;
    auto entry = [&](std::int32_t pivot, std::int32_t joint) {
        if (dense) {
            std::int32_t& e = denseKeys[static_cast<size_t>(pivot) * jointCount + joint];
            if (e < 0) {
                e = static_cast<std::int32_t>(b.dqKeys.size());
                b.dqKeys.push_back({pivot, joint});
            }
            return e;
        }
        const auto [it, fresh] = sparseKeys.try_emplace({pivot, joint}, static_cast<std::int32_t>(b.dqKeys.size()));
        if (fresh)
            b.dqKeys.push_back({pivot, joint});
        return it->second;
    };
    std::vector<int> order(static_cast<size_t>(k));
    for (int i = 0; i < n; ++i) {
        PackedVertex& r = b.rest[static_cast<size_t>(i)];
        for (int c = 0; c < 3; ++c) {
            r.p[c] = static_cast<float>(V(i, c));
            r.n[c] = b.hasNormals ? static_cast<float>(N(i, c)) : 0.0f;
        }
        r.p[3] = 1.0f;
        r.n[3] = 0.0f;
        // Decreasing weight, stable (the builders already sort; hand-made
        // weights may not be): insertion sort of k slots.
        for (int s = 0; s < k; ++s) {
            int at = s;
            while (at > 0 && W.weights(i, order[static_cast<size_t>(at - 1)]) < W.weights(i, s)) {
                order[static_cast<size_t>(at)] = order[static_cast<size_t>(at - 1)];
                --at;
            }
            order[static_cast<size_t>(at)] = s;
        }
        const std::int32_t pivot = W.joints(i, order[0]);
        for (int s = 0; s < k; ++s) {
            const size_t at = static_cast<size_t>(i) * k + s;
            const std::int32_t joint = W.joints(i, order[static_cast<size_t>(s)]);
            b.jointOffset[at] = 16 * joint;
            b.weights[at] = W.weights(i, order[static_cast<size_t>(s)]);
            b.dqOffset[at] = 8 * entry(pivot, joint);
        }
    }
    return b;
}

void bindTwist(SkinBinding& b, const Segmentation& seg, const MatrixX3d& axisPoint, const MatrixX3d& axisDirection)
{
    validateSegmentation(seg, b.vertexCount, b.jointCount);
    if (axisPoint.rows() != b.jointCount || axisDirection.rows() != b.jointCount)
        throw InvalidInput("rig::bindTwist(): " + std::to_string(axisPoint.rows()) + " axis points and " +
                           std::to_string(axisDirection.rows()) + " axis directions for " +
                           std::to_string(b.jointCount) + " joints");
    const int n = b.vertexCount, k = b.influences;
    b.axisPoint = axisPoint;
    b.axisDirection = axisDirection;
    b.segment.assign(seg.bone.begin(), seg.bone.end());
    b.delta.resize(static_cast<size_t>(n));
    b.arm.assign(static_cast<size_t>(n), PackedVertex{});
    b.armCross.assign(static_cast<size_t>(n), PackedVertex{});
    b.twistOffset.assign(static_cast<size_t>(n) * k, 0);
    b.twistKeys.clear();
    // (segment, pivot, joint) → table entry; joints < 2^21 each (the binding's
    // joint count is an int, and skeletons of millions of joints are rejected below).
    if (b.jointCount >= (1 << 21))
        throw InvalidInput("rig::bindTwist(): " + std::to_string(b.jointCount) + " joints are too many");
    std::unordered_map<std::uint64_t, std::int32_t> keys;
    for (int i = 0; i < n; ++i) {
        const size_t I = static_cast<size_t>(i);
        b.delta[I] = static_cast<float>(seg.delta[I]);
        const int c = seg.bone[I];
        if (c < 0)
            continue; // plain LBS
        const Vec3 u = axisDirection.row(c).transpose();
        const PackedVertex& r = b.rest[I];
        // The arm about the axis (b_c, u_c): the part of p − b orthogonal to u
        // (for the normal, of n), and its quarter turn u × r.
        const Vec3 d = Vec3(r.p[0], r.p[1], r.p[2]) - axisPoint.row(c).transpose();
        const Vec3 nv(r.n[0], r.n[1], r.n[2]);
        const Vec3 rp = d - d.dot(u) * u, rn = nv - nv.dot(u) * u;
        const Vec3 cp = u.cross(rp), cn = u.cross(rn);
        for (int a = 0; a < 3; ++a) {
            b.arm[I].p[a] = static_cast<float>(rp[a]);
            b.arm[I].n[a] = static_cast<float>(rn[a]);
            b.armCross[I].p[a] = static_cast<float>(cp[a]);
            b.armCross[I].n[a] = static_cast<float>(cn[a]);
        }
        const std::int32_t pivot = b.jointOffset[I * k] / 16;
        for (int s = 0; s < k; ++s) {
            const size_t at = I * k + s;
            const std::int32_t joint = b.jointOffset[at] / 16;
            const std::uint64_t key = (std::uint64_t(c) << 42) | (std::uint64_t(pivot) << 21) | std::uint64_t(joint);
            const auto [it, fresh] = keys.try_emplace(key, static_cast<std::int32_t>(b.twistKeys.size()));
            if (fresh)
                b.twistKeys.push_back({c, pivot, joint});
            b.twistOffset[at] = 8 * it->second;
        }
    }
}

void recomputeNormals(const MatrixX3i& F, SkinnedMesh& out)
{
    for (PackedVertex& v : out.vertices)
        v.n[0] = v.n[1] = v.n[2] = v.n[3] = 0.0f;
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const int a = F(f, 0), b = F(f, 1), c = F(f, 2);
        const Vec3 n = (out.position(b) - out.position(a)).cross(out.position(c) - out.position(a)); // twice the area
        for (const int v : {a, b, c})
            for (int k = 0; k < 3; ++k)
                out.vertices[static_cast<size_t>(v)].n[k] += static_cast<float>(n[k]);
    }
    for (PackedVertex& v : out.vertices) {
        const float len = std::sqrt(v.n[0] * v.n[0] + v.n[1] * v.n[1] + v.n[2] * v.n[2]);
        if (len > 0.0f)
            for (int k = 0; k < 3; ++k)
                v.n[k] /= len;
    }
}

} // namespace rig
