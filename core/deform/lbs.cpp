#include "core/deform/lbs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/skinning_kernels.h"

#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

using skinning::F4;
using skinning::Mat4f;

/// Vertices per thread below which threads are not worth starting.
constexpr std::ptrdiff_t kMinChunk = 4096;

/// The vertex loop. K > 0 fixes the influence count at compile time (the
/// common k = 4 unrolls); K = 0 reads it from k. HasN: normals present.
template <int K, bool HasN>
void lbsRange(const double* V, const double* N, const int* J, const float* W, int k, const Mat4f* M,
              double* outV, double* outN, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        F4 A[4];
        skinning::blend<K>(M, J + i * kk, W + i * kk, kk, A);
        skinning::applyPoint(A, static_cast<float>(V[3 * i]), static_cast<float>(V[3 * i + 1]),
                             static_cast<float>(V[3 * i + 2]), outV + 3 * i);
        if constexpr (HasN)
            skinning::applyNormal(A, static_cast<float>(N[3 * i]), static_cast<float>(N[3 * i + 1]),
                                  static_cast<float>(N[3 * i + 2]), outN + 3 * i);
    }
}

#if RIG_SKINNING_AVX2
/// The same loop with AVX2 + FMA: the k matrices are blended as two 256-bit
/// halves (8 FMAs for k = 4), position and normal in one pass; all but the
/// last vertex of the range load and store 4 doubles at once (see
/// loadVec3Fast / storeVec3Fast).
template <int K, bool HasN, bool Fast>
RIG_TARGET_AVX2 inline void lbsVertexAvx2(const double* V, const double* N, const int* J, const float* W, int kk,
                                          const Mat4f* M, double* outV, double* outN, std::ptrdiff_t i)
{
    __m256 lo, hi;
    skinning::blendLoHi<K>(M, J + i * kk, W + i * kk, kk, lo, hi);
    const __m128 p = Fast ? skinning::withW(skinning::loadVec3Fast(V + 3 * i), 1.0f) : skinning::loadVec3(V + 3 * i, 1.0);
    if constexpr (HasN) {
        const __m128 n =
            Fast ? skinning::withW(skinning::loadVec3Fast(N + 3 * i), 0.0f) : skinning::loadVec3(N + 3 * i, 0.0);
        const __m256 r = skinning::applyLoHiPN(lo, hi, p, n);
        if constexpr (Fast) {
            skinning::storeVec3Fast(outV + 3 * i, _mm256_castps256_ps128(r));
            skinning::storeVec3Fast(outN + 3 * i, _mm256_extractf128_ps(r, 1));
        } else {
            skinning::storeVec3(outV + 3 * i, _mm256_castps256_ps128(r));
            skinning::storeVec3(outN + 3 * i, _mm256_extractf128_ps(r, 1));
        }
    } else {
        const __m128 r = skinning::applyLoHi(lo, hi, p);
        if constexpr (Fast)
            skinning::storeVec3Fast(outV + 3 * i, r);
        else
            skinning::storeVec3(outV + 3 * i, r);
    }
}

/// Two vertices at a time (both not the range's last): their normals are
/// normalized together in one 256-bit register.
template <int K>
RIG_TARGET_AVX2 inline void lbsPairAvx2(const double* V, const double* N, const int* J, const float* W, int kk,
                                        const Mat4f* M, double* outV, double* outN, std::ptrdiff_t i)
{
    __m256 lo, hi;
    skinning::blendLoHi<K>(M, J + i * kk, W + i * kk, kk, lo, hi);
    const __m256 ra = skinning::applyLoHiRaw(lo, hi, skinning::withW(skinning::loadVec3Fast(V + 3 * i), 1.0f),
                                             skinning::withW(skinning::loadVec3Fast(N + 3 * i), 0.0f));
    skinning::blendLoHi<K>(M, J + (i + 1) * kk, W + (i + 1) * kk, kk, lo, hi);
    const __m256 rb = skinning::applyLoHiRaw(lo, hi, skinning::withW(skinning::loadVec3Fast(V + 3 * i + 3), 1.0f),
                                             skinning::withW(skinning::loadVec3Fast(N + 3 * i + 3), 0.0f));
    skinning::storeVec3Fast(outV + 3 * i, _mm256_castps256_ps128(ra));
    skinning::storeVec3Fast(outV + 3 * i + 3, _mm256_castps256_ps128(rb));
    const __m256 nn = skinning::normalize3x2(_mm256_permute2f128_ps(ra, rb, 0x31));
    skinning::storeVec3Fast(outN + 3 * i, _mm256_castps256_ps128(nn));
    skinning::storeVec3Fast(outN + 3 * i + 3, _mm256_extractf128_ps(nn, 1));
}

template <int K, bool HasN>
RIG_TARGET_AVX2 void lbsRangeAvx2(const double* V, const double* N, const int* J, const float* W, int k,
                                  const Mat4f* M, double* outV, double* outN, std::ptrdiff_t begin,
                                  std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
    std::ptrdiff_t i = begin;
    if constexpr (HasN)
        for (; i + 2 < end; i += 2)
            lbsPairAvx2<K>(V, N, J, W, kk, M, outV, outN, i);
    for (; i + 1 < end; ++i)
        lbsVertexAvx2<K, HasN, true>(V, N, J, W, kk, M, outV, outN, i);
    if (end > begin)
        lbsVertexAvx2<K, HasN, false>(V, N, J, W, kk, M, outV, outN, end - 1);
}
#endif

template <int K>
void lbsDispatchN(bool hasN, const double* V, const double* N, const int* J, const float* W, int k,
                  const Mat4f* M, double* outV, double* outN, std::ptrdiff_t b, std::ptrdiff_t e)
{
#if RIG_SKINNING_AVX2
    if (skinning::useAvx2()) {
        if (hasN)
            lbsRangeAvx2<K, true>(V, N, J, W, k, M, outV, outN, b, e);
        else
            lbsRangeAvx2<K, false>(V, N, J, W, k, M, outV, outN, b, e);
        return;
    }
#endif
    if (hasN)
        lbsRange<K, true>(V, N, J, W, k, M, outV, outN, b, e);
    else
        lbsRange<K, false>(V, N, J, W, k, M, outV, outN, b, e);
}

} // namespace

void validateSkinningInput(const char* fn, const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W,
                           int jointCount)
{
    const std::string f = std::string(fn) + ": ";
    const Eigen::Index n = V.rows();
    if (N.size() != 0 && N.rows() != n)
        throw InvalidInput(f + "the mesh has " + std::to_string(n) + " vertices but " + std::to_string(N.rows()) +
                           " normals");
    if (W.maxInfluences < 1 || W.joints.cols() != W.maxInfluences || W.weights.cols() != W.maxInfluences)
        throw InvalidInput(f + "the weights need maxInfluences >= 1 columns in joints and weights");
    if (W.joints.rows() != n || W.weights.rows() != n)
        throw InvalidInput(f + "the weights cover " + std::to_string(W.joints.rows()) + " vertices, the mesh has " +
                           std::to_string(n));
    if (jointCount < 1)
        throw InvalidInput(f + "no joint transforms were given");
    if (n > 0 && (W.joints.minCoeff() < 0 || W.joints.maxCoeff() >= jointCount))
        throw InvalidInput(f + "the weights name joints outside [0, " + std::to_string(jointCount) +
                           "); the pose has " + std::to_string(jointCount) + " joints");
}

void lbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
         DeformedMesh& out, const SkinningOptions& options)
{
    validateSkinningInput("rig::lbs()", V, N, W, static_cast<int>(M.size()));
    if (&out.V == &V || &out.N == &N || &out.V == &N || &out.N == &V) {
        DeformedMesh fresh; // in place: the kernels write ahead of what they read
        lbs(V, N, W, M, fresh, options);
        out = std::move(fresh);
        return;
    }
    std::vector<Mat4f> A(M.size());
    for (size_t j = 0; j < M.size(); ++j)
        A[j] = skinning::toMat4f(M[j]);
    const bool hasN = N.size() != 0;
    out.V.resize(V.rows(), 3);
    out.N.resize(hasN ? V.rows() : 0, 3);
    const int k = W.maxInfluences;
    const double* pV = V.data();
    const double* pN = N.data();
    const int* pJ = W.joints.data();
    const float* pW = W.weights.data();
    const Mat4f* pA = A.data();
    double* oV = out.V.data();
    double* oN = out.N.data();
    skinning::parallelVertices(V.rows(), options.threads, kMinChunk, [&](std::ptrdiff_t b, std::ptrdiff_t e) {
        switch (k) {
        case 4: lbsDispatchN<4>(hasN, pV, pN, pJ, pW, k, pA, oV, oN, b, e); break;
        case 2: lbsDispatchN<2>(hasN, pV, pN, pJ, pW, k, pA, oV, oN, b, e); break;
        case 8: lbsDispatchN<8>(hasN, pV, pN, pJ, pW, k, pA, oV, oN, b, e); break;
        default: lbsDispatchN<0>(hasN, pV, pN, pJ, pW, k, pA, oV, oN, b, e); break;
        }
    });
}

DeformedMesh lbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
                 const SkinningOptions& options)
{
    DeformedMesh out;
    lbs(V, N, W, M, out, options);
    return out;
}

} // namespace rig
