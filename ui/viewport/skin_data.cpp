#include "ui/viewport/skin_data.h"

#include "core/common/error.h"
#include "core/deform/dqs.h"
#include "core/deform/twist_lbs.h"

#include <algorithm>
#include <string>

namespace rig::ui {
namespace {

/// Three rows (linear | translation) of a transform.
void putRows(glm::vec4* out, const Eigen::Isometry3d& T)
{
    for (int r = 0; r < 3; ++r)
        out[r] = glm::vec4(float(T.linear()(r, 0)), float(T.linear()(r, 1)), float(T.linear()(r, 2)),
                           float(T.translation()(r)));
}

} // namespace

std::vector<SkinVertex> makeSkinVertices(const SkinWeights& W, const Segmentation& seg, const Skeleton& skeleton)
{
    if (seg.vertexCount() == 0)
        return makeSkinVertices(W, nullptr);
    const Segmentation twist = twistSegmentation(seg, W, skeleton);
    return makeSkinVertices(W, &twist);
}

std::vector<SkinVertex> makeSkinVertices(const SkinWeights& W, const Segmentation* seg)
{
    const int n = W.vertexCount();
    const int k = W.maxInfluences;
    if (W.joints.cols() != k || W.weights.rows() != n || W.weights.cols() != k)
        throw InvalidInput("rig::ui::makeSkinVertices(): the weights arrays are not #V by maxInfluences");
    const bool hasSeg = seg && seg->vertexCount() > 0;
    if (hasSeg && (seg->vertexCount() != n || static_cast<int>(seg->delta.size()) != n))
        throw InvalidInput("rig::ui::makeSkinVertices(): the segmentation has " + std::to_string(seg->vertexCount()) +
                           " vertices for " + std::to_string(n) + " weighted vertices; recompute the skinning");
    std::vector<SkinVertex> out(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        SkinVertex& v = out[static_cast<size_t>(i)];
        if (k <= 4) {
            for (int s = 0; s < k; ++s) {
                v.joints[s] = W.joints(i, s);
                v.weights[s] = W.weights(i, s);
            }
        } else {
            // Keep the 4 largest (rows are sorted, but hand-made ones may not be).
            std::vector<int> slot(static_cast<size_t>(k));
            for (int s = 0; s < k; ++s)
                slot[static_cast<size_t>(s)] = s;
            std::partial_sort(slot.begin(), slot.begin() + 4, slot.end(),
                              [&](int a, int b) { return W.weights(i, a) > W.weights(i, b); });
            float sum = 0.0f;
            for (int s = 0; s < 4; ++s)
                sum += W.weights(i, slot[static_cast<size_t>(s)]);
            for (int s = 0; s < 4; ++s) {
                v.joints[s] = W.joints(i, slot[static_cast<size_t>(s)]);
                v.weights[s] = sum > 0.0f ? W.weights(i, slot[static_cast<size_t>(s)]) / sum : (s == 0 ? 1.0f : 0.0f);
            }
        }
        if (hasSeg) {
            v.segment = seg->bone[static_cast<size_t>(i)];
            v.delta = float(seg->delta[static_cast<size_t>(i)]);
        }
    }
    return out;
}

std::vector<glm::vec4> makeSkinTexels(const Skeleton& skeleton, const Pose& pose, std::span<const double> twist)
{
    const PosedSkeleton posed = forwardKinematics(skeleton, pose);
    const TwistTransforms T = twistTransforms(skeleton, pose, posed, twist);
    const int n = skeleton.jointCount();
    std::vector<glm::vec4> texels(static_cast<size_t>(n) * skinTexelsPerJoint, glm::vec4(0.0f));
    for (int j = 0; j < n; ++j) {
        const size_t J = static_cast<size_t>(j);
        glm::vec4* t = texels.data() + J * skinTexelsPerJoint;
        putRows(t + 0, posed.skinning[J]);
        const Eigen::Matrix<double, 8, 1> dq = dualQuaternion(posed.skinning[J]);
        t[3] = glm::vec4(float(dq[0]), float(dq[1]), float(dq[2]), float(dq[3]));
        t[4] = glm::vec4(float(dq[4]), float(dq[5]), float(dq[6]), float(dq[7]));
        putRows(t + 5, T.untwisted[J]);
        // As twist_lbs.cpp: q = Hl·Rot(u, θδ)·(p − b) + H(b).
        const Vec3 b = T.axisPoint.row(j).transpose();
        const Vec3 u = T.axisDirection.row(j).transpose();
        Eigen::Isometry3d Hb = T.segmentBase[J];
        Hb.translation() = T.segmentBase[J] * b;
        putRows(t + 8, Hb);
        const double theta = u.squaredNorm() > 0.0 ? T.angle[J] : 0.0;
        const bool identity = theta == 0.0 && T.segmentBase[J].matrix().isIdentity(0.0);
        t[11] = glm::vec4(float(b.x()), float(b.y()), float(b.z()), float(theta));
        t[12] = glm::vec4(float(u.x()), float(u.y()), float(u.z()), identity ? 1.0f : 0.0f);
        const Eigen::Matrix<double, 8, 1> g = dualQuaternion(T.untwisted[J]);
        t[13] = glm::vec4(float(g[0]), float(g[1]), float(g[2]), float(g[3]));
        t[14] = glm::vec4(float(g[4]), float(g[5]), float(g[6]), float(g[7]));
    }
    return texels;
}

Skeleton posedSkeleton(const Skeleton& skeleton, const PosedSkeleton& posed)
{
    Skeleton s = skeleton;
    s.bindPositions = posed.positions;
    s.bindOrientations = posed.orientations;
    return s;
}

} // namespace rig::ui
