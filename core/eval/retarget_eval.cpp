#include "core/eval/retarget_eval.h"

#include "core/common/error.h"
#include "core/rig/pose.h"

#include <Eigen/SVD>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace rig {
namespace {

using CJ = CanonicalJoint;

const std::array<std::pair<CJ, CJ>, 10> canonicalBones = {{
    {CJ::Hips, CJ::SpineTop}, {CJ::SpineTop, CJ::Head},
    {CJ::LeftShoulder, CJ::LeftElbow}, {CJ::LeftElbow, CJ::LeftWrist},
    {CJ::RightShoulder, CJ::RightElbow}, {CJ::RightElbow, CJ::RightWrist},
    {CJ::LeftHip, CJ::LeftKnee}, {CJ::LeftKnee, CJ::LeftAnkle},
    {CJ::RightHip, CJ::RightKnee}, {CJ::RightKnee, CJ::RightAnkle},
}};

/// The artist's deformation of frame f: Σ_j W_vj · G_j(f) · B_j⁻¹ · V_v.
MatrixX3d artistFrame(const ArtistAnimation& a, int f)
{
    const ImportedSkeleton& s = *a.skeleton;
    const auto& g = s.animations[static_cast<size_t>(a.animation)].global[static_cast<size_t>(f)];
    std::vector<Eigen::Matrix4d> M(g.size());
    for (size_t j = 0; j < g.size(); ++j)
        M[j] = g[j] * s.bindGlobal[j].inverse();
    const MatrixX3d& V = *a.V;
    MatrixX3d out = MatrixX3d::Zero(V.rows(), 3);
    for (Eigen::Index v = 0; v < s.W.outerSize(); ++v) {
        const Eigen::Vector4d x(V(v, 0), V(v, 1), V(v, 2), 1.0);
        double sum = 0.0;
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(s.W, v); it; ++it) {
            out.row(v) += it.value() * (M[static_cast<size_t>(it.col())] * x).head<3>().transpose();
            sum += it.value();
        }
        if (sum <= 0.0)
            out.row(v) = V.row(v); // unweighted: stays
    }
    return out;
}

/// Our deformation: linear blend skinning with our weights and pose.
MatrixX3d ourFrame(const MatrixX3d& V, const SkinWeights& w, const PosedSkeleton& posed)
{
    MatrixX3d out = MatrixX3d::Zero(V.rows(), 3);
    for (Eigen::Index v = 0; v < V.rows(); ++v) {
        const Vec3 x = V.row(v).transpose();
        for (int k = 0; k < w.maxInfluences; ++k)
            if (const double wt = w.weights(v, k); wt > 0.0)
                out.row(v) += wt * (posed.skinning[static_cast<size_t>(w.joints(v, k))] * x).transpose();
    }
    return out;
}

double meanDistance(const MatrixX3d& a, const MatrixX3d& b) { return (a - b).rowwise().norm().mean(); }

/// Mean distance after the rigid motion that best moves `a` onto `b` (Kabsch).
double alignedDistance(const MatrixX3d& a, const MatrixX3d& b)
{
    const Eigen::RowVector3d ca = a.colwise().mean(), cb = b.colwise().mean();
    const MatrixX3d pa = a.rowwise() - ca, pb = b.rowwise() - cb;
    const Eigen::Matrix3d h = pa.transpose() * pb;
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(h, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
    d(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
    const Eigen::Matrix3d r = svd.matrixV() * d * svd.matrixU().transpose();
    return meanDistance((pa * r.transpose()), pb);
}

void checkInputs(const ArtistAnimation& a, const RetargetedRig& o)
{
    const std::string fn = "rig::evaluateRetarget(): ";
    if (!a.V || !a.skeleton || !a.map || !o.skeleton || !o.weights || !o.map || !o.clip)
        throw InvalidInput(fn + "an input is missing");
    if (a.animation < 0 || a.animation >= static_cast<int>(a.skeleton->animations.size()))
        throw InvalidInput(fn + "no animation " + std::to_string(a.animation));
    const int frames = a.skeleton->animations[static_cast<size_t>(a.animation)].frameCount();
    if (static_cast<int>(o.clip->frames.size()) != frames)
        throw InvalidInput(fn + "the clip has " + std::to_string(o.clip->frames.size()) + " frames, the animation " +
                           std::to_string(frames));
    if (a.skeleton->W.rows() != a.V->rows() || o.weights->vertexCount() != a.V->rows())
        throw InvalidInput(fn + "the weights do not fit the mesh's vertices");
}

double angleDegrees(const Vec3& a, const Vec3& b)
{
    if (a.norm() <= 0.0 || b.norm() <= 0.0)
        return 0.0;
    return std::acos(std::clamp(a.normalized().dot(b.normalized()), -1.0, 1.0)) * 180.0 / std::numbers::pi;
}

} // namespace

RetargetEvaluation evaluateRetarget(const ArtistAnimation& a, const RetargetedRig& o, double height)
{
    checkInputs(a, o);
    const ImportedAnimation& anim = a.skeleton->animations[static_cast<size_t>(a.animation)];
    const double h = height > 0.0 ? height : 1.0;
    RetargetEvaluation e;
    std::vector<double> boneSum(canonicalBones.size(), 0.0);
    for (int f = 0; f < anim.frameCount(); ++f) {
        const MatrixX3d A = artistFrame(a, f);
        const PosedSkeleton posed = forwardKinematics(*o.skeleton, o.clip->frames.pose(static_cast<size_t>(f)));
        const MatrixX3d R = ourFrame(*a.V, *o.weights, posed);
        RetargetFrameError fe{100.0 * meanDistance(R, A) / h, 100.0 * alignedDistance(R, A) / h,
                              100.0 * meanDistance(*a.V, A) / h, 100.0 * alignedDistance(*a.V, A) / h};
        e.frames.push_back(fe);
        for (size_t b = 0; b < canonicalBones.size(); ++b) {
            const auto [p, c] = canonicalBones[b];
            const int ap = (*a.map)[p], ac = (*a.map)[c], op = (*o.map)[p], oc = (*o.map)[c];
            if (ap < 0 || ac < 0 || op < 0 || oc < 0)
                continue;
            const auto& g = anim.global[static_cast<size_t>(f)];
            const Vec3 da = g[static_cast<size_t>(ac)].block<3, 1>(0, 3) - g[static_cast<size_t>(ap)].block<3, 1>(0, 3);
            const Vec3 dr = (posed.positions.row(oc) - posed.positions.row(op)).transpose();
            boneSum[b] += angleDegrees(da, dr);
        }
    }
    const double n = static_cast<double>(std::max<size_t>(1, e.frames.size()));
    for (const RetargetFrameError& fe : e.frames) {
        e.mean.raw += fe.raw / n;
        e.mean.aligned += fe.aligned / n;
        e.mean.unposedRaw += fe.unposedRaw / n;
        e.mean.unposedAligned += fe.unposedAligned / n;
    }
    for (size_t b = 0; b < canonicalBones.size(); ++b) {
        const auto [p, c] = canonicalBones[b];
        if ((*a.map)[p] < 0 || (*a.map)[c] < 0 || (*o.map)[p] < 0 || (*o.map)[c] < 0)
            continue;
        e.bones.push_back({std::string(canonicalJointKey(p)) + "-" + std::string(canonicalJointKey(c)), boneSum[b] / n});
        e.meanBoneDegrees += boneSum[b] / n;
    }
    if (!e.bones.empty())
        e.meanBoneDegrees /= static_cast<double>(e.bones.size());
    return e;
}

} // namespace rig
