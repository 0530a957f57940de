#include "core/deform/dqs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/skinning_kernels.h"

#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

using skinning::DualQuatf;
using skinning::DualQuatTable;
using skinning::F4;

constexpr std::ptrdiff_t kMinChunk = 4096;

template <int K, bool HasN>
void dqsRange(const double* V, const double* N, const int* J, const float* W, int k, const DualQuatTable& D,
              double* outV, double* outN, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
    float wsBuf[K > 0 ? K : 16];
    std::vector<float> wsHeap(K > 0 || kk <= 16 ? 0 : static_cast<size_t>(kk));
    float* ws = wsHeap.empty() ? wsBuf : wsHeap.data();
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        const int* ji = J + i * kk;
        skinning::alignedWeights(D, ji, W + i * kk, kk, ws);
        F4 br = skinning::splat(0.0f), bd = br;
        for (int s = 0; s < kk; ++s) {
            const DualQuatf& q = D.q[static_cast<size_t>(ji[s])];
            const F4 w = skinning::splat(ws[s]);
            br += w * q.r;
            bd += w * q.d;
        }
        // Rotation as a column-major matrix: cheaper than two quaternion
        // sandwiches when both the position and the normal are rotated.
        F4 A[4];
        skinning::dualQuatMatrix(br, bd, A);
        skinning::applyPoint(A, static_cast<float>(V[3 * i]), static_cast<float>(V[3 * i + 1]),
                             static_cast<float>(V[3 * i + 2]), outV + 3 * i);
        if constexpr (HasN)
            skinning::applyNormal(A, static_cast<float>(N[3 * i]), static_cast<float>(N[3 * i + 1]),
                                  static_cast<float>(N[3 * i + 2]), outN + 3 * i);
    }
}

#if RIG_SKINNING_AVX2
/// The same with AVX2 + FMA: one 256-bit FMA per influence blends the whole
/// dual quaternion; the blend is applied to position and normal together as
/// v + 2 v₀ × (v₀ × v + w₀ v) (no matrix).
template <int K, bool HasN, bool Fast>
RIG_TARGET_AVX2 inline void dqsVertexAvx2(const double* V, const double* N, const int* J, const float* W, int kk,
                                          const DualQuatTable& D, float* ws, double* outV, double* outN,
                                          std::ptrdiff_t i)
{
    const int* ji = J + i * kk;
    skinning::alignedWeights(D, ji, W + i * kk, kk, ws);
    const __m128 p = Fast ? skinning::loadVec3Fast(V + 3 * i) : skinning::loadVec3(V + 3 * i, 1.0);
    const __m128 n = !HasN ? _mm_setzero_ps()
                           : (Fast ? skinning::loadVec3Fast(N + 3 * i) : skinning::loadVec3(N + 3 * i, 0.0));
    const __m256 r = skinning::dualQuatApply(D.q.data(), ji, ws, kk, _mm256_set_m128(n, p));
    if constexpr (Fast) {
        skinning::storeVec3Fast(outV + 3 * i, _mm256_castps256_ps128(r));
        if constexpr (HasN)
            skinning::storeVec3Fast(outN + 3 * i, _mm256_extractf128_ps(r, 1));
    } else {
        skinning::storeVec3(outV + 3 * i, _mm256_castps256_ps128(r));
        if constexpr (HasN)
            skinning::storeVec3(outN + 3 * i, _mm256_extractf128_ps(r, 1));
    }
}

template <int K, bool HasN>
RIG_TARGET_AVX2 void dqsRangeAvx2(const double* V, const double* N, const int* J, const float* W, int k,
                                  const DualQuatTable& D, double* outV, double* outN, std::ptrdiff_t begin,
                                  std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
    float wsBuf[K > 0 ? K : 16];
    std::vector<float> wsHeap(K > 0 || kk <= 16 ? 0 : static_cast<size_t>(kk));
    float* ws = wsHeap.empty() ? wsBuf : wsHeap.data();
    for (std::ptrdiff_t i = begin; i + 1 < end; ++i)
        dqsVertexAvx2<K, HasN, true>(V, N, J, W, kk, D, ws, outV, outN, i);
    if (end > begin)
        dqsVertexAvx2<K, HasN, false>(V, N, J, W, kk, D, ws, outV, outN, end - 1);
}
#endif

template <int K>
void dqsDispatchN(bool hasN, const double* V, const double* N, const int* J, const float* W, int k,
                  const DualQuatTable& D, double* outV, double* outN, std::ptrdiff_t b, std::ptrdiff_t e)
{
#if RIG_SKINNING_AVX2
    if (skinning::useAvx2()) {
        if (hasN)
            dqsRangeAvx2<K, true>(V, N, J, W, k, D, outV, outN, b, e);
        else
            dqsRangeAvx2<K, false>(V, N, J, W, k, D, outV, outN, b, e);
        return;
    }
#endif
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
    if (&out.V == &V || &out.N == &N || &out.V == &N || &out.N == &V) {
        DeformedMesh fresh; // in place: the kernels write ahead of what they read
        dqs(V, N, W, M, fresh, options);
        out = std::move(fresh);
        return;
    }
    DualQuatTable D;
    D.q.resize(M.size());
    for (size_t j = 0; j < M.size(); ++j)
        D.q[j] = skinning::toDualQuatf(dualQuaternion(M[j]));
    skinning::buildFlipTable(D);
    const bool hasN = N.size() != 0;
    out.V.resize(V.rows(), 3);
    out.N.resize(hasN ? V.rows() : 0, 3);
    const int k = W.maxInfluences;
    const double* pV = V.data();
    const double* pN = N.data();
    const int* pJ = W.joints.data();
    const float* pW = W.weights.data();
    double* oV = out.V.data();
    double* oN = out.N.data();
    skinning::parallelVertices(V.rows(), options.threads, kMinChunk, [&](std::ptrdiff_t b, std::ptrdiff_t e) {
        switch (k) {
        case 4: dqsDispatchN<4>(hasN, pV, pN, pJ, pW, k, D, oV, oN, b, e); break;
        case 2: dqsDispatchN<2>(hasN, pV, pN, pJ, pW, k, D, oV, oN, b, e); break;
        case 8: dqsDispatchN<8>(hasN, pV, pN, pJ, pW, k, D, oV, oN, b, e); break;
        default: dqsDispatchN<0>(hasN, pV, pN, pJ, pW, k, D, oV, oN, b, e); break;
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
