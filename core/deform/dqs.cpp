#include "core/deform/dqs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"

#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

/// A unit dual quaternion in float: q[0..3] = real part (w, x, y, z),
/// q[4..7] = dual part. 32 bytes, two 4-wide vectors.
struct alignas(32) DualQuatf {
    float q[8];
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
        const float* p = D[ji[pivot]].q;
        alignas(32) float b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int s = 0; s < kk; ++s) {
            const float* d = D[ji[s]].q;
            const float dot = d[0] * p[0] + d[1] * p[1] + d[2] * p[2] + d[3] * p[3];
            const float w = dot < 0.0f ? -wi[s] : wi[s];
            for (int t = 0; t < 8; ++t)
                b[t] += w * d[t];
        }
        const float len2 = b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3];
        const float inv = 1.0f / std::sqrt(len2);
        const float w0 = b[0] * inv, x0 = b[1] * inv, y0 = b[2] * inv, z0 = b[3] * inv;
        const float we = b[4] * inv, xe = b[5] * inv, ye = b[6] * inv, ze = b[7] * inv;
        // Translation t = 2 (w0 ve − we v0 + v0 × ve) (Kavan et al. 2008, Alg. 1).
        const float tx = 2.0f * (w0 * xe - we * x0 + (y0 * ze - z0 * ye));
        const float ty = 2.0f * (w0 * ye - we * y0 + (z0 * xe - x0 * ze));
        const float tz = 2.0f * (w0 * ze - we * z0 + (x0 * ye - y0 * xe));
        // Rotation as a matrix: cheaper than two quaternion sandwiches when
        // both the position and the normal are rotated.
        const float xx = x0 * x0, yy = y0 * y0, zz = z0 * z0;
        const float xy = x0 * y0, xz = x0 * z0, yz = y0 * z0;
        const float wx = w0 * x0, wy = w0 * y0, wz = w0 * z0;
        const float r00 = 1.0f - 2.0f * (yy + zz), r01 = 2.0f * (xy - wz), r02 = 2.0f * (xz + wy);
        const float r10 = 2.0f * (xy + wz), r11 = 1.0f - 2.0f * (xx + zz), r12 = 2.0f * (yz - wx);
        const float r20 = 2.0f * (xz - wy), r21 = 2.0f * (yz + wx), r22 = 1.0f - 2.0f * (xx + yy);
        const float x = static_cast<float>(V[3 * i]), y = static_cast<float>(V[3 * i + 1]),
                    z = static_cast<float>(V[3 * i + 2]);
        outV[3 * i] = r00 * x + r01 * y + r02 * z + tx;
        outV[3 * i + 1] = r10 * x + r11 * y + r12 * z + ty;
        outV[3 * i + 2] = r20 * x + r21 * y + r22 * z + tz;
        if constexpr (HasN) {
            const float nx = static_cast<float>(N[3 * i]), ny = static_cast<float>(N[3 * i + 1]),
                        nz = static_cast<float>(N[3 * i + 2]);
            // A rotation keeps unit normals unit: no renormalization needed.
            outN[3 * i] = r00 * nx + r01 * ny + r02 * nz;
            outN[3 * i + 1] = r10 * nx + r11 * ny + r12 * nz;
            outN[3 * i + 2] = r20 * nx + r21 * ny + r22 * nz;
        }
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
        for (int t = 0; t < 8; ++t)
            D[j].q[t] = static_cast<float>(d[t]);
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
