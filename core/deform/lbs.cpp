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

/// The portable vertex loop. K > 0 fixes the influence count at compile time
/// (the common k = 4 unrolls); K = 0 reads it from k.
template <int K>
void lbsRange(const SkinBinding& b, const Mat4f* M, PackedVertex* out, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : b.influences;
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        F4 A[4];
        skinning::blend<K>(M, b.jointOffset.data() + i * kk, b.weights.data() + i * kk, kk, A);
        skinning::applyPoint(A, b.rest[static_cast<size_t>(i)].p, out[i].p);
        skinning::applyNormal(A, b.rest[static_cast<size_t>(i)].n, out[i].n, b.hasNormals);
    }
}

#if RIG_SKINNING_AVX2
/// The same with AVX2 + FMA: the k matrices are blended as two 256-bit halves
/// (8 FMAs for k = 4), position and normal applied in one pass, two vertices'
/// normals normalized together.
template <int K, bool HasN>
RIG_TARGET_AVX2 void lbsRangeAvx2(const SkinBinding& b, const Mat4f* M, PackedVertex* out, std::ptrdiff_t begin,
                                  std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : b.influences;
    const int* J = b.jointOffset.data();
    const float* W = b.weights.data();
    const float* in = reinterpret_cast<const float*>(b.rest.data());
    float* o = reinterpret_cast<float*>(out);
    std::ptrdiff_t i = begin;
    for (; i + 1 < end; i += 2) {
        __m256 lo, hi;
        skinning::blendLoHi<K>(M, J + i * kk, W + i * kk, kk, lo, hi);
        __m256 ra = skinning::applyPN(lo, hi, _mm256_load_ps(in + 8 * i));
        skinning::blendLoHi<K>(M, J + (i + 1) * kk, W + (i + 1) * kk, kk, lo, hi);
        __m256 rb = skinning::applyPN(lo, hi, _mm256_load_ps(in + 8 * i + 8));
        if constexpr (HasN)
            skinning::normalizeNormals2(ra, rb);
        _mm256_store_ps(o + 8 * i, ra);
        _mm256_store_ps(o + 8 * i + 8, rb);
    }
    if (i < end) {
        __m256 lo, hi;
        skinning::blendLoHi<K>(M, J + i * kk, W + i * kk, kk, lo, hi);
        __m256 r = skinning::applyPN(lo, hi, _mm256_load_ps(in + 8 * i));
        if constexpr (HasN)
            r = skinning::normalizeNormal(r);
        _mm256_store_ps(o + 8 * i, r);
    }
}
#endif

template <int K>
void lbsDispatch(const SkinBinding& b, const Mat4f* M, PackedVertex* out, std::ptrdiff_t begin, std::ptrdiff_t end)
{
#if RIG_SKINNING_AVX2
    if (skinning::useAvx2()) {
        if (b.hasNormals)
            lbsRangeAvx2<K, true>(b, M, out, begin, end);
        else
            lbsRangeAvx2<K, false>(b, M, out, begin, end);
        return;
    }
#endif
    lbsRange<K>(b, M, out, begin, end);
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

void lbs(const SkinBinding& b, std::span<const Eigen::Isometry3d> M, SkinnedMesh& out, const SkinningOptions& options)
{
    skinning::checkPose("rig::lbs()", b, M.size());
    std::vector<Mat4f> A(M.size());
    for (size_t j = 0; j < M.size(); ++j)
        A[j] = skinning::toMat4f(M[j]);
    out.vertices.resize(static_cast<size_t>(b.vertexCount));
    const Mat4f* pA = A.data();
    PackedVertex* o = out.vertices.data();
    skinning::parallelVertices(b.vertexCount, options.threads, kMinChunk, [&](std::ptrdiff_t s, std::ptrdiff_t e) {
        switch (b.influences) {
        case 4: lbsDispatch<4>(b, pA, o, s, e); break;
        case 2: lbsDispatch<2>(b, pA, o, s, e); break;
        case 8: lbsDispatch<8>(b, pA, o, s, e); break;
        default: lbsDispatch<0>(b, pA, o, s, e); break;
        }
    });
}

void toDeformedMesh(const SkinnedMesh& s, bool normals, DeformedMesh& out)
{
    const Eigen::Index n = s.vertexCount();
    out.V.resize(n, 3);
    out.N.resize(normals ? n : 0, 3);
    for (Eigen::Index i = 0; i < n; ++i) {
        const PackedVertex& v = s.vertices[static_cast<size_t>(i)];
        out.V.row(i) << v.p[0], v.p[1], v.p[2];
        if (normals)
            out.N.row(i) << v.n[0], v.n[1], v.n[2];
    }
}

void lbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
         DeformedMesh& out, const SkinningOptions& options)
{
    const SkinBinding b = bindSkin(V, N, W, static_cast<int>(M.size()));
    SkinnedMesh posed;
    lbs(b, M, posed, options);
    toDeformedMesh(posed, b.hasNormals, out);
}

DeformedMesh lbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
                 const SkinningOptions& options)
{
    DeformedMesh out;
    lbs(V, N, W, M, out, options);
    return out;
}

} // namespace rig
