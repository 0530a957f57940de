#include "core/deform/dqs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/skinning_kernels.h"

#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

using skinning::F4;

/// A unit dual quaternion in float: r = real part (w, x, y, z), d = dual part.
struct alignas(32) DualQuatf {
    F4 r, d;
};

constexpr std::ptrdiff_t kMinChunk = 4096;

template <int K, bool HasN>
void dqsRange(const double* V, const double* N, const int* J, const float* W, int k, const DualQuatf* D,
              double* outV, double* outN, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        const int* ji = J + i * kk;
        const float* wi = W + i * kk;
        // Hemisphere pivot: the most-weighted influence (slot 0 after the
        // builders' sort; searched anyway so hand-made weights work too).
        int pivot = 0;
        for (int s = 1; s < kk; ++s)
            if (wi[s] > wi[pivot])
                pivot = s;
        const F4 p = D[ji[pivot]].r;
        F4 br = skinning::splat(0.0f), bd = br;
        for (int s = 0; s < kk; ++s) {
            const DualQuatf& q = D[ji[s]];
            const F4 pr = q.r * p;
            const float dot = (pr[0] + pr[1]) + (pr[2] + pr[3]);
            const F4 w = skinning::splat(dot < 0.0f ? -wi[s] : wi[s]);
            br += w * q.r;
            bd += w * q.d;
        }
        const F4 sq = br * br;
        const float inv = skinning::inverseLength((sq[0] + sq[1]) + (sq[2] + sq[3]));
        br *= skinning::splat(inv);
        bd *= skinning::splat(inv);
        const float w0 = br[0], x0 = br[1], y0 = br[2], z0 = br[3];
        const float we = bd[0], xe = bd[1], ye = bd[2], ze = bd[3];
        // Translation t = 2 (w0 ve − we v0 + v0 × ve) (Kavan et al. 2008, Alg. 1).
        const float tx = 2.0f * (w0 * xe - we * x0 + (y0 * ze - z0 * ye));
        const float ty = 2.0f * (w0 * ye - we * y0 + (z0 * xe - x0 * ze));
        const float tz = 2.0f * (w0 * ze - we * z0 + (x0 * ye - y0 * xe));
        // Rotation as a column-major matrix: cheaper than two quaternion
        // sandwiches when both the position and the normal are rotated.
        const float xx = x0 * x0, yy = y0 * y0, zz = z0 * z0;
        const float xy = x0 * y0, xz = x0 * z0, yz = y0 * z0;
        const float wx = w0 * x0, wy = w0 * y0, wz = w0 * z0;
        const F4 A[4] = {
            F4{1.0f - 2.0f * (yy + zz), 2.0f * (xy + wz), 2.0f * (xz - wy), 0.0f},
            F4{2.0f * (xy - wz), 1.0f - 2.0f * (xx + zz), 2.0f * (yz + wx), 0.0f},
            F4{2.0f * (xz + wy), 2.0f * (yz - wx), 1.0f - 2.0f * (xx + yy), 0.0f},
            F4{tx, ty, tz, 0.0f},
        };
        skinning::applyPoint(A, static_cast<float>(V[3 * i]), static_cast<float>(V[3 * i + 1]),
                             static_cast<float>(V[3 * i + 2]), outV + 3 * i);
        if constexpr (HasN)
            skinning::applyNormal(A, static_cast<float>(N[3 * i]), static_cast<float>(N[3 * i + 1]),
                                  static_cast<float>(N[3 * i + 2]), outN + 3 * i);
    }
}

template <int K>
void dqsDispatchN(bool hasN, const double* V, const double* N, const int* J, const float* W, int k,
                  const DualQuatf* D, double* outV, double* outN, std::ptrdiff_t b, std::ptrdiff_t e)
{
    if (hasN)
        dqsRange<K, true>(V, N, J, W, k, D, outV, outN, b, e);
    else
        dqsRange<K, false>(V, N, J, W, k, D, outV, outN, b, e);
}

} // namespace

Eigen::Matrix<double, 8, 1> dualQuaternion(const Eigen::Isometry3d& M)
{
    const Eigen::Matrix3d R = M.linear();
    if (!R.allFinite() || !M.translation().allFinite() ||
        !(R.transpose() * R).isApprox(Eigen::Matrix3d::Identity(), 1e-6) || R.determinant() < 0.0)
        throw InvalidInput("rig::dqs(): a skinning transform is not a rigid motion (scale, shear, mirror or NaN); "
                           "dual quaternions represent rotations and translations only");
    Eigen::Quaterniond q(R);
    q.normalize();
    if (q.w() < 0.0)
        q.coeffs() = -q.coeffs();
    const Vec3 t = M.translation();
    const Vec3 v = q.vec();
    // q⁰ = ½ (0, t) q = ½ (−t·v, w t + t × v).
    const double ew = -0.5 * t.dot(v);
    const Vec3 ev = 0.5 * (q.w() * t + t.cross(v));
    Eigen::Matrix<double, 8, 1> d;
    d << q.w(), q.x(), q.y(), q.z(), ew, ev.x(), ev.y(), ev.z();
    return d;
}

void dqs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
         DeformedMesh& out, const SkinningOptions& options)
{
    validateSkinningInput("rig::dqs()", V, N, W, static_cast<int>(M.size()));
    std::vector<DualQuatf> D(M.size());
    for (size_t j = 0; j < M.size(); ++j) {
        const Eigen::Matrix<double, 8, 1> d = dualQuaternion(M[j]);
        D[j].r = F4{static_cast<float>(d[0]), static_cast<float>(d[1]), static_cast<float>(d[2]), static_cast<float>(d[3])};
        D[j].d = F4{static_cast<float>(d[4]), static_cast<float>(d[5]), static_cast<float>(d[6]), static_cast<float>(d[7])};
    }
    const bool hasN = N.size() != 0;
    out.V.resize(V.rows(), 3);
    out.N.resize(hasN ? V.rows() : 0, 3);
    const int k = W.maxInfluences;
    const double* pV = V.data();
    const double* pN = N.data();
    const int* pJ = W.joints.data();
    const float* pW = W.weights.data();
    const DualQuatf* pD = D.data();
    double* oV = out.V.data();
    double* oN = out.N.data();
    parallelFor(V.rows(), options.threads, kMinChunk, [&](std::ptrdiff_t b, std::ptrdiff_t e) {
        switch (k) {
        case 4: dqsDispatchN<4>(hasN, pV, pN, pJ, pW, k, pD, oV, oN, b, e); break;
        case 2: dqsDispatchN<2>(hasN, pV, pN, pJ, pW, k, pD, oV, oN, b, e); break;
        case 8: dqsDispatchN<8>(hasN, pV, pN, pJ, pW, k, pD, oV, oN, b, e); break;
        default: dqsDispatchN<0>(hasN, pV, pN, pJ, pW, k, pD, oV, oN, b, e); break;
        }
    });
}

DeformedMesh dqs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
                 const SkinningOptions& options)
{
    DeformedMesh out;
    dqs(V, N, W, M, out, options);
    return out;
}

} // namespace rig
