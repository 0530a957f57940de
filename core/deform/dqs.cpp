#include "core/deform/dqs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/skinning_kernels.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

using skinning::DualQuatf;
using skinning::F4;

constexpr std::ptrdiff_t kMinChunk = 4096;

/// The portable vertex loop: blend of the vertex's hemisphere-aligned table
/// entries, converted to a matrix and applied.
template <int K>
void dqsRange(const SkinBinding& b, const DualQuatf* D, PackedVertex* out, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : b.influences;
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        F4 br, bd, A[4];
        skinning::blendDualQuat<K>(D, b.dqOffset.data() + i * kk, b.weights.data() + i * kk, kk, br, bd);
        // Rotation as a column-major matrix: cheaper than two quaternion
        // sandwiches when both the position and the normal are rotated.
        skinning::dualQuatMatrix(br, bd, A);
        skinning::applyPoint(A, b.rest[static_cast<size_t>(i)].p, out[i].p);
        out[i].p[3] = 1.0f;
        skinning::applyNormal(A, b.rest[static_cast<size_t>(i)].n, out[i].n, false);
    }
}

#if RIG_SKINNING_AVX2
/// The same with AVX2 + FMA: one 256-bit FMA per influence blends the whole
/// dual quaternion; the blend is applied to position and normal together as
/// v + 2 v₀ × (v₀ × v + w₀ v) (no matrix).
template <int K>
RIG_TARGET_AVX2 void dqsRangeAvx2(const SkinBinding& b, const DualQuatf* D, PackedVertex* out, std::ptrdiff_t begin,
                                  std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : b.influences;
    const int* S = b.dqOffset.data();
    const float* W = b.weights.data();
    const float* T = reinterpret_cast<const float*>(D);
    const float* in = reinterpret_cast<const float*>(b.rest.data());
    float* o = reinterpret_cast<float*>(out);
    std::ptrdiff_t i = begin;
    for (; i + 1 < end; i += 2) {
        const __m256 ba = skinning::blendDualQuat8<K>(T, S + i * kk, W + i * kk, kk);
        const __m256 bb = skinning::blendDualQuat8<K>(T, S + (i + 1) * kk, W + (i + 1) * kk, kk);
        __m256 pa = _mm256_load_ps(in + 8 * i), pb = _mm256_load_ps(in + 8 * i + 8);
        skinning::dualQuatApply2(ba, bb, pa, pb);
        _mm256_store_ps(o + 8 * i, pa);
        _mm256_store_ps(o + 8 * i + 8, pb);
    }
    if (i < end)
        _mm256_store_ps(o + 8 * i, skinning::dualQuatApply1(skinning::blendDualQuat8<K>(T, S + i * kk, W + i * kk, kk),
                                                            _mm256_load_ps(in + 8 * i)));
}
#endif

template <int K>
void dqsDispatch(const SkinBinding& b, const DualQuatf* D, PackedVertex* out, std::ptrdiff_t begin, std::ptrdiff_t end)
{
#if RIG_SKINNING_AVX2
    if (skinning::useAvx2()) {
        dqsRangeAvx2<K>(b, D, out, begin, end);
        return;
    }
#endif
    dqsRange<K>(b, D, out, begin, end);
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

static std::vector<skinning::DualQuatf> alignedDualQuatTable(std::span<const Eigen::Matrix<double, 8, 1>> q,
                                                     std::span<const std::array<std::int32_t, 2>> keys)
{
    std::vector<skinning::DualQuatf> table(keys.size());
    for (size_t e = 0; e < keys.size(); ++e) {
        const auto& a = q[static_cast<size_t>(keys[e][0])];
        const auto& c = q[static_cast<size_t>(keys[e][1])];
        // Kavan et al. 2008 §4: blend in the hemisphere of the pivot (the
        // vertex's most-weighted influence): q_c · q_pivot < 0 flips q_c.
        table[e] = skinning::toDualQuatf(c, a.head<4>().dot(c.head<4>()) < 0.0 ? -1.0 : 1.0);
    }
    return table;
}

void dqs(const SkinBinding& b, std::span<const Eigen::Isometry3d> M, SkinnedMesh& out, const SkinningOptions& options)
{
    skinning::checkPose("rig::dqs()", b, M.size());
    std::vector<Eigen::Matrix<double, 8, 1>> q(M.size());
    for (size_t j = 0; j < M.size(); ++j)
        q[j] = dualQuaternion(M[j]);
    const std::vector<DualQuatf> D = alignedDualQuatTable(q, b.dqKeys);
    out.vertices.resize(static_cast<size_t>(b.vertexCount));
    const DualQuatf* pD = D.data();
    PackedVertex* o = out.vertices.data();
    skinning::parallelVertices(b.vertexCount, options.threads, kMinChunk, [&](std::ptrdiff_t s, std::ptrdiff_t e) {
        switch (b.influences) {
        case 4: dqsDispatch<4>(b, pD, o, s, e); break;
        case 2: dqsDispatch<2>(b, pD, o, s, e); break;
        default: dqsDispatch<0>(b, pD, o, s, e); break;
        }
    });
}

void dqs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
         DeformedMesh& out, const SkinningOptions& options)
{
    const SkinBinding b = bindSkin(V, N, W, static_cast<int>(M.size()));
    SkinnedMesh posed;
    dqs(b, M, posed, options);
    toDeformedMesh(posed, b.hasNormals, out);
}

DeformedMesh dqs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, std::span<const Eigen::Isometry3d> M,
                 const SkinningOptions& options)
{
    DeformedMesh out;
    dqs(V, N, W, M, out, options);
    return out;
}

} // namespace rig
