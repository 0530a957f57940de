#pragma once
/// @file skinning_kernels.h
/// Private to core/deform (lbs.cpp, dqs.cpp, twist_lbs.cpp): the float per-vertex
/// pieces of linear blending, written with GCC/Clang vector extensions (SSE
/// on x86-64, NEON on ARM, scalar elsewhere). Not part of the engine's API.
///
/// A joint transform is a column-major 4×4 float matrix (one 64-byte cache
/// line): columns 0–2 the linear part, column 3 the translation, row 3
/// (0, 0, 0, 1), so a blend keeps w = Σ w_s = 1 for points and 0 for normals.
/// Blending k of them is 4k vector multiply-adds; applying the blend to a
/// point is three broadcasts and multiply-adds.

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/common/vertex_pool.h"
#include "core/deform/skin_binding.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// AVX2 + FMA kernels are compiled with a function-level target attribute (no
/// global -march) and chosen at run time (`skinning::useAvx2()`); the portable
/// vector-extension code below is the fallback.
#define RIG_SKINNING_AVX2 1
#define RIG_TARGET_AVX2 __attribute__((target("avx2,fma")))
#include <immintrin.h>
#else
#define RIG_SKINNING_AVX2 0
#endif

namespace rig::skinning {

using rig::parallelVertices; // the persistent pool (core/common/vertex_pool.h)
using rig::VertexPool;
using rig::vertexPool;

typedef float F4 __attribute__((vector_size(16)));

struct alignas(64) Mat4f {
    F4 c[4];
};

inline Mat4f toMat4f(const Eigen::Isometry3d& T)
{
    Mat4f m;
    for (int c = 0; c < 4; ++c) {
        const Eigen::Vector3d v = c < 3 ? Eigen::Vector3d(T.linear().col(c)) : Eigen::Vector3d(T.translation());
        m.c[c] = F4{static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z()), c < 3 ? 0.0f : 1.0f};
    }
    return m;
}

inline F4 splat(float x) { return F4{x, x, x, x}; }

/// The matrix at float offset `offset` (16 per joint) of M.
inline const Mat4f& at(const Mat4f* M, int offset)
{
    return M[offset >> 4];
}

/// Σ_s w_s M_{j_s}, K slots (K > 0 compile-time, else k); j_s are float
/// offsets (16 × joint, `SkinBinding::jointOffset`).
template <int K>
inline void blend(const Mat4f* M, const int* j, const float* w, int k, F4 out[4])
{
    const int kk = K > 0 ? K : k;
    const Mat4f& m0 = at(M, j[0]);
    const F4 w0 = splat(w[0]);
    F4 a0 = m0.c[0] * w0, a1 = m0.c[1] * w0, a2 = m0.c[2] * w0, a3 = m0.c[3] * w0;
    for (int s = 1; s < kk; ++s) {
        const Mat4f& m = at(M, j[s]);
        const F4 ws = splat(w[s]);
        a0 += m.c[0] * ws;
        a1 += m.c[1] * ws;
        a2 += m.c[2] * ws;
        a3 += m.c[3] * ws;
    }
    out[0] = a0;
    out[1] = a1;
    out[2] = a2;
    out[3] = a3;
}

/// 1/√x for x > 0 (float precision), 0 for x = 0.
inline float inverseLength(float len2)
{
#if defined(__SSE__)
    // rsqrt estimate plus one Newton step: ~1e-7 relative, no division.
    const float r = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(len2)));
    const float refined = r * (1.5f - 0.5f * len2 * r * r);
    return len2 > 0.0f ? refined : 0.0f;
#else
    return len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
#endif
}

/// Set to true to make every deformer take its portable path (tests compare
/// the two; not for production use).
inline std::atomic<bool> forceScalar{false};

/// True when the CPU has AVX2 and FMA and the scalar path is not forced.
inline bool useAvx2()
{
#if RIG_SKINNING_AVX2
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has && !forceScalar.load(std::memory_order_relaxed);
#else
    return false;
#endif
}

/// The per-call checks of the bound deformers: the pose fits the binding.
inline void checkPose(const char* fn, const SkinBinding& b, std::size_t transforms)
{
    if (static_cast<int>(transforms) != b.jointCount)
        throw InvalidInput(std::string(fn) + ": the pose has " + std::to_string(transforms) +
                           " joint transforms but the skin was bound to " + std::to_string(b.jointCount) +
                           " joints; bind it again (rig::bindSkin()) after the skeleton changed");
    if (b.influences < 1 || b.rest.size() != static_cast<size_t>(b.vertexCount) ||
        b.jointOffset.size() != b.rest.size() * static_cast<size_t>(b.influences) ||
        b.weights.size() != b.jointOffset.size() || b.dqOffset.size() != b.jointOffset.size())
        throw InvalidInput(std::string(fn) + ": the skin binding is inconsistent; make it with rig::bindSkin()");
}

/// A unit dual quaternion in the kernels' float layout: real part (x, y, z, w)
/// then dual part (x⁰, y⁰, z⁰, w⁰), 32 bytes (one 256-bit load).
struct alignas(32) DualQuatf {
    F4 r, d;
};

/// From 8 numbers (w, x, y, z | w⁰, x⁰, y⁰, z⁰) (`dualQuaternion()` of dqs.h),
/// times `sign` (±1: the hemisphere alignment).
inline DualQuatf toDualQuatf(const Eigen::Matrix<double, 8, 1>& d, double sign = 1.0)
{
    auto f = [&](int i) { return static_cast<float>(sign * d[i]); };
    return DualQuatf{F4{f(1), f(2), f(3), f(0)}, F4{f(5), f(6), f(7), f(4)}};
}

/// The rigid transform of a blended (unnormalized) dual quaternion as a
/// column-major 4×4 float matrix: b̂ / ‖b_0‖, rotation from the real part,
/// translation t = 2 (w₀ v⁰ − w⁰ v₀ + v₀ × v⁰) (Kavan et al. 2008, Alg. 1).
inline void dualQuatMatrix(F4 br, F4 bd, F4 A[4])
{
    const F4 sq = br * br;
    const float inv = inverseLength((sq[0] + sq[1]) + (sq[2] + sq[3]));
    br *= splat(inv);
    bd *= splat(inv);
    const float x0 = br[0], y0 = br[1], z0 = br[2], w0 = br[3];
    const float xe = bd[0], ye = bd[1], ze = bd[2], we = bd[3];
    const float tx = 2.0f * (w0 * xe - we * x0 + (y0 * ze - z0 * ye));
    const float ty = 2.0f * (w0 * ye - we * y0 + (z0 * xe - x0 * ze));
    const float tz = 2.0f * (w0 * ze - we * z0 + (x0 * ye - y0 * xe));
    const float xx = x0 * x0, yy = y0 * y0, zz = z0 * z0;
    const float xy = x0 * y0, xz = x0 * z0, yz = y0 * z0;
    const float wx = w0 * x0, wy = w0 * y0, wz = w0 * z0;
    A[0] = F4{1.0f - 2.0f * (yy + zz), 2.0f * (xy + wz), 2.0f * (xz - wy), 0.0f};
    A[1] = F4{2.0f * (xy - wz), 1.0f - 2.0f * (xx + zz), 2.0f * (yz + wx), 0.0f};
    A[2] = F4{2.0f * (xz + wy), 2.0f * (yz - wx), 1.0f - 2.0f * (xx + yy), 0.0f};
    A[3] = F4{tx, ty, tz, 0.0f};
}

/// Σ_s w_s D[j_s] (real, dual), K slots (K > 0 compile-time, else k); j_s
/// are float offsets (8 × entry).
template <int K>
inline void blendDualQuat(const DualQuatf* D, const int* j, const float* w, int k, F4& br, F4& bd)
{
    const int kk = K > 0 ? K : k;
    br = D[j[0] >> 3].r * splat(w[0]);
    bd = D[j[0] >> 3].d * splat(w[0]);
    for (int s = 1; s < kk; ++s) {
        br += D[j[s] >> 3].r * splat(w[s]);
        bd += D[j[s] >> 3].d * splat(w[s]);
    }
}

/// A·(x, y, z, 1) into p[0..3] (lane 3 = 0).
inline void applyPoint(const F4 A[4], const float* v, float* p)
{
    const F4 r = A[0] * splat(v[0]) + A[1] * splat(v[1]) + A[2] * splat(v[2]) + A[3];
    for (int c = 0; c < 4; ++c)
        p[c] = r[c];
}

/// A's linear part times n into out[0..3]; normalized when `unit`.
inline void applyNormal(const F4 A[4], const float* n, float* out, bool unit)
{
    F4 r = A[0] * splat(n[0]) + A[1] * splat(n[1]) + A[2] * splat(n[2]);
    if (unit)
        r *= splat(inverseLength(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]));
    for (int c = 0; c < 4; ++c)
        out[c] = r[c];
}

/// sin φ and cos φ − 1 (accurate near 0: no cancellation) for a float angle
/// (radians, |φ| up to ~1e4): Cody–Waite reduction by π/2, float polynomials
/// on [−π/4, π/4] (error < 1e-6).
inline void sinCosm1(float x, float& s, float& cm1)
{
    const float q = std::nearbyint(x * 0.636619772f);
    float r = x - q * 1.5707963705062866f;
    r -= q * -4.371139e-8f;
    const long quadrant = static_cast<long>(q) & 3;
    const float r2 = r * r;
    const float sr = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040))));
    const float crm1 = r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320))));
    switch (quadrant) {
    case 0: s = sr; cm1 = crm1; break;
    case 1: s = 1.0f + crm1; cm1 = -sr - 1.0f; break;
    case 2: s = -sr; cm1 = -crm1 - 2.0f; break;
    default: s = -(1.0f + crm1); cm1 = sr - 1.0f; break;
    }
}

#if RIG_SKINNING_AVX2
// ---------------------------------------------------------------------------
// AVX2 + FMA pieces. A vertex's position and normal travel together in one
// 256-bit register, PN = (x, y, z, 1 | nx, ny, nz, 0): the PackedVertex
// record of skin_binding.h.

/// A blended matrix (lo = (c0 | c1), hi = (c2 | c3), the Mat4f layout read as
/// two 256-bit halves) applied to PN: (A p | A n), the normal not normalized.
RIG_TARGET_AVX2 inline __m256 applyPN(__m256 lo, __m256 hi, __m256 PN)
{
    const __m256 px = _mm256_permutevar8x32_ps(PN, _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
    const __m256 pz = _mm256_permutevar8x32_ps(PN, _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3));
    const __m256 nx = _mm256_permutevar8x32_ps(PN, _mm256_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5));
    const __m256 nz = _mm256_permutevar8x32_ps(PN, _mm256_setr_epi32(6, 6, 6, 6, 7, 7, 7, 7));
    const __m256 rp = _mm256_fmadd_ps(hi, pz, _mm256_mul_ps(lo, px));
    const __m256 rn = _mm256_fmadd_ps(hi, nz, _mm256_mul_ps(lo, nx));
    return _mm256_add_ps(_mm256_permute2f128_ps(rp, rn, 0x20), _mm256_permute2f128_ps(rp, rn, 0x31));
}

/// Both halves normalized (lane 3 of each = 0; a zero vector stays zero).
RIG_TARGET_AVX2 inline __m256 normalize3x2(__m256 r)
{
    const __m256 sq = _mm256_mul_ps(r, r);
    const __m256 s2 = _mm256_add_ps(sq, _mm256_permute_ps(sq, _MM_SHUFFLE(2, 3, 0, 1)));
    const __m256 len2 = _mm256_add_ps(s2, _mm256_permute_ps(s2, _MM_SHUFFLE(1, 0, 3, 2)));
    const __m256 e = _mm256_rsqrt_ps(len2);
    __m256 inv = _mm256_mul_ps(e, _mm256_fnmadd_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), len2), _mm256_mul_ps(e, e),
                                                   _mm256_set1_ps(1.5f)));
    inv = _mm256_and_ps(inv, _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ));
    return _mm256_mul_ps(r, inv);
}

/// The normal halves of two (position | normal) registers normalized together.
RIG_TARGET_AVX2 inline void normalizeNormals2(__m256& a, __m256& b)
{
    const __m256 nn = normalize3x2(_mm256_permute2f128_ps(a, b, 0x31));
    a = _mm256_permute2f128_ps(a, nn, 0x20);
    b = _mm256_permute2f128_ps(b, nn, 0x30);
}

/// The normal half of one (position | normal) register normalized.
RIG_TARGET_AVX2 inline __m256 normalizeNormal(__m256 a)
{
    return _mm256_blend_ps(a, normalize3x2(a), 0xF0);
}

/// Σ_s w_s M_{j_s} as (lo, hi); j_s float offsets (16 × joint).
template <int K>
RIG_TARGET_AVX2 inline void blendLoHi(const Mat4f* M, const int* j, const float* w, int k, __m256& lo, __m256& hi)
{
    const int kk = K > 0 ? K : k;
    const float* base = reinterpret_cast<const float*>(M);
    const float* m = base + j[0];
    __m256 ws = _mm256_broadcast_ss(w);
    lo = _mm256_mul_ps(_mm256_load_ps(m), ws);
    hi = _mm256_mul_ps(_mm256_load_ps(m + 8), ws);
    for (int s = 1; s < kk; ++s) {
        m = base + j[s];
        ws = _mm256_broadcast_ss(w + s);
        lo = _mm256_fmadd_ps(_mm256_load_ps(m), ws, lo);
        hi = _mm256_fmadd_ps(_mm256_load_ps(m + 8), ws, hi);
    }
}

/// a × b in lanes 0–2 of each 128-bit half, given a's (y, z, x) permutation:
/// (a ⊙ b.yzx − a.yzx ⊙ b).yzx, three shuffles instead of four.
RIG_TARGET_AVX2 inline __m256 cross256(__m256 a, __m256 ayzx, __m256 b)
{
    const __m256 byzx = _mm256_permute_ps(b, _MM_SHUFFLE(3, 0, 2, 1));
    const __m256 w = _mm256_fmsub_ps(a, byzx, _mm256_mul_ps(ayzx, b));
    return _mm256_permute_ps(w, _MM_SHUFFLE(3, 0, 2, 1));
}

/// Σ_s w_s D[j_s] for the 8-float dual quaternions at float offsets j_s of D.
template <int K>
RIG_TARGET_AVX2 inline __m256 blendDualQuat8(const float* D, const int* j, const float* w, int k)
{
    const int kk = K > 0 ? K : k;
    __m256 b = _mm256_mul_ps(_mm256_load_ps(D + j[0]), _mm256_broadcast_ss(w));
    for (int s = 1; s < kk; ++s)
        b = _mm256_fmadd_ps(_mm256_load_ps(D + j[s]), _mm256_broadcast_ss(w + s), b);
    return b;
}

/// The rigid motions of two blended (unnormalized, hemisphere-aligned) dual
/// quaternions ba, bb applied to two (position | normal) records: the
/// positions get rotation and translation, the normals the rotation only (a
/// unit normal stays unit). The two vertices share every register: real
/// parts R = (v₀, w₀ of a | of b), dual parts E likewise, so the
/// normalization and the translation are computed once for both. With
/// s = 1/‖b_0‖²: v' = v + 2 s v₀ × (v₀ × v + w₀ v),
/// t = 2 s (w₀ v⁰ − w⁰ v₀ + v₀ × v⁰) (Kavan et al. 2008, Alg. 1).
RIG_TARGET_AVX2 inline void dualQuatApply2(__m256 ba, __m256 bb, __m256& PNa, __m256& PNb)
{
    const __m256 R = _mm256_permute2f128_ps(ba, bb, 0x20);
    const __m256 E = _mm256_permute2f128_ps(ba, bb, 0x31);
    const __m256 P = _mm256_permute2f128_ps(PNa, PNb, 0x20);
    const __m256 N = _mm256_permute2f128_ps(PNa, PNb, 0x31);
    // 2/‖b_0‖² per half (rcp + one Newton step), 0 for a zero blend.
    const __m256 sq = _mm256_mul_ps(R, R);
    const __m256 s2 = _mm256_add_ps(sq, _mm256_permute_ps(sq, _MM_SHUFFLE(2, 3, 0, 1)));
    const __m256 n2 = _mm256_add_ps(s2, _mm256_permute_ps(s2, _MM_SHUFFLE(1, 0, 3, 2)));
    const __m256 e = _mm256_rcp_ps(n2);
    __m256 two = _mm256_mul_ps(e, _mm256_fnmadd_ps(n2, e, _mm256_set1_ps(2.0f)));
    two = _mm256_and_ps(_mm256_add_ps(two, two), _mm256_cmp_ps(n2, _mm256_setzero_ps(), _CMP_GT_OQ));
    const __m256 Rw = _mm256_permute_ps(R, _MM_SHUFFLE(3, 3, 3, 3));
    const __m256 Ew = _mm256_permute_ps(E, _MM_SHUFFLE(3, 3, 3, 3));
    const __m256 Ryzx = _mm256_permute_ps(R, _MM_SHUFFLE(3, 0, 2, 1));
    const __m256 t = _mm256_add_ps(_mm256_fmsub_ps(Rw, E, _mm256_mul_ps(Ew, R)), cross256(R, Ryzx, E));
    const __m256 uP = _mm256_fmadd_ps(Rw, P, cross256(R, Ryzx, P));
    const __m256 uN = _mm256_fmadd_ps(Rw, N, cross256(R, Ryzx, N));
    // Lanes 3 and 7 keep the records' w (1 for positions, 0 for normals).
    const __m256 keepW = _mm256_castsi256_ps(_mm256_setr_epi32(-1, -1, -1, 0, -1, -1, -1, 0));
    const __m256 twoW = _mm256_and_ps(two, keepW);
    const __m256 P2 = _mm256_fmadd_ps(twoW, _mm256_add_ps(cross256(R, Ryzx, uP), t), P);
    const __m256 N2 = _mm256_fmadd_ps(twoW, cross256(R, Ryzx, uN), N);
    PNa = _mm256_permute2f128_ps(P2, N2, 0x20);
    PNb = _mm256_permute2f128_ps(P2, N2, 0x31);
}

/// One vertex: `dualQuatApply2()` with a copy of itself.
RIG_TARGET_AVX2 inline __m256 dualQuatApply1(__m256 b, __m256 PN)
{
    __m256 other = PN;
    dualQuatApply2(b, b, PN, other);
    return PN;
}
#endif

} // namespace rig::skinning
