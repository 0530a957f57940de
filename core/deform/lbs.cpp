#include "core/deform/lbs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"

#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

/// A rigid (or any affine) transform as a row-major 3×4 float matrix: rows
/// (r0 | t0), (r1 | t1), (r2 | t2). 48 bytes, 16-byte aligned, so blending is
/// three 4-wide vector multiply-adds per influence.
struct alignas(16) Affine34f {
    float m[12];
};

Affine34f toAffine34f(const Eigen::Isometry3d& T)
{
    Affine34f a{};
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            a.m[4 * r + c] = static_cast<float>(T.linear()(r, c));
        a.m[4 * r + 3] = static_cast<float>(T.translation()(r));
    }
    return a;
}

/// Vertices per thread below which threads are not worth starting.
constexpr std::ptrdiff_t kMinChunk = 4096;

/// The vertex loop. K > 0 fixes the influence count at compile time (the
/// common k = 4 unrolls); K = 0 reads it from k. HasN: normals present.
template <int K, bool HasN>
void lbsRange(const double* V, const double* N, const int* J, const float* W, int k, const Affine34f* M,
              double* outV, double* outN, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        const int* ji = J + i * kk;
        const float* wi = W + i * kk;
        alignas(16) float a[12];
        {
            const float w = wi[0];
            const float* m = M[ji[0]].m;
            for (int t = 0; t < 12; ++t)
                a[t] = w * m[t];
        }
        for (int s = 1; s < kk; ++s) {
            const float w = wi[s];
            const float* m = M[ji[s]].m;
            for (int t = 0; t < 12; ++t)
                a[t] += w * m[t];
        }
        const float x = static_cast<float>(V[3 * i]), y = static_cast<float>(V[3 * i + 1]),
                    z = static_cast<float>(V[3 * i + 2]);
        outV[3 * i] = a[0] * x + a[1] * y + a[2] * z + a[3];
        outV[3 * i + 1] = a[4] * x + a[5] * y + a[6] * z + a[7];
        outV[3 * i + 2] = a[8] * x + a[9] * y + a[10] * z + a[11];
        if constexpr (HasN) {
            const float nx = static_cast<float>(N[3 * i]), ny = static_cast<float>(N[3 * i + 1]),
                        nz = static_cast<float>(N[3 * i + 2]);
            const float ox = a[0] * nx + a[1] * ny + a[2] * nz;
            const float oy = a[4] * nx + a[5] * ny + a[6] * nz;
            const float oz = a[8] * nx + a[9] * ny + a[10] * nz;
            const float len2 = ox * ox + oy * oy + oz * oz;
            const float inv = len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
            outN[3 * i] = ox * inv;
            outN[3 * i + 1] = oy * inv;
            outN[3 * i + 2] = oz * inv;
        }
    }
}

template <int K>
void lbsDispatchN(bool hasN, const double* V, const double* N, const int* J, const float* W, int k,
                  const Affine34f* M, double* outV, double* outN, std::ptrdiff_t b, std::ptrdiff_t e)
{
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
    std::vector<Affine34f> A(M.size());
    for (size_t j = 0; j < M.size(); ++j)
        A[j] = toAffine34f(M[j]);
    const bool hasN = N.size() != 0;
    out.V.resize(V.rows(), 3);
    out.N.resize(hasN ? V.rows() : 0, 3);
    const int k = W.maxInfluences;
    const double* pV = V.data();
    const double* pN = N.data();
    const int* pJ = W.joints.data();
    const float* pW = W.weights.data();
    const Affine34f* pA = A.data();
    double* oV = out.V.data();
    double* oN = out.N.data();
    parallelFor(V.rows(), options.threads, kMinChunk, [&](std::ptrdiff_t b, std::ptrdiff_t e) {
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
