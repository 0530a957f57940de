#pragma once
/// @file skinning_kernels.h
/// Private to core/deform (lbs.cpp, dqs.cpp, twist_lbs.cpp): the float per-vertex
/// pieces of linear blending, written with GCC/Clang vector extensions (SSE
/// on x86-64, NEON on ARM, scalar elsewhere). Not part of the engine's API.
///
/// A joint transform is a column-major 4×4 float matrix (one 64-byte cache
/// line): columns 0–2 the linear part, column 3 the translation, row 3 zero.
/// Blending k of them is 4k vector multiply-adds; applying the blend to a
/// point is three broadcasts and multiply-adds.

#include "core/common/parallel.h"

#include <Eigen/Geometry>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__SSE__)
#include <xmmintrin.h>
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

typedef float F4 __attribute__((vector_size(16)));

struct alignas(64) Mat4f {
    F4 c[4];
};

inline Mat4f toMat4f(const Eigen::Isometry3d& T)
{
    Mat4f m;
    for (int c = 0; c < 4; ++c) {
        const Eigen::Vector3d v = c < 3 ? Eigen::Vector3d(T.linear().col(c)) : Eigen::Vector3d(T.translation());
        m.c[c] = F4{static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z()), 0.0f};
    }
    return m;
}

inline F4 splat(float x) { return F4{x, x, x, x}; }

/// Σ_s w_s M_{j_s}, K slots (K > 0 compile-time, else k).
template <int K>
inline void blend(const Mat4f* M, const int* j, const float* w, int k, F4 out[4])
{
    const int kk = K > 0 ? K : k;
    const Mat4f& m0 = M[j[0]];
    const F4 w0 = splat(w[0]);
    F4 a0 = m0.c[0] * w0, a1 = m0.c[1] * w0, a2 = m0.c[2] * w0, a3 = m0.c[3] * w0;
    for (int s = 1; s < kk; ++s) {
        const Mat4f& m = M[j[s]];
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

/// Persistent worker threads for the deformers' vertex loops: started once
/// (on first use, growing to the largest thread count asked for) and parked
/// on a condition variable between calls, so a per-frame deformation does not
/// pay thread start-up. One job at a time: a call made while the pool is busy
/// (another thread deforming, or a nested call) falls back to `parallelFor()`.
class VertexPool {
public:
    ~VertexPool()
    {
        {
            std::lock_guard lock(m_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_)
            t.join();
    }

    /// Calls body(begin, end) on `threads` contiguous chunks of [0, n) (the
    /// same cut as `parallelFor()`), the caller running the first.
    void run(std::ptrdiff_t n, int threads, const std::function<void(std::ptrdiff_t, std::ptrdiff_t)>& body)
    {
        std::unique_lock job(job_, std::try_to_lock);
        if (!job.owns_lock()) {
            parallelFor(n, threads, 1, body);
            return;
        }
        {
            std::lock_guard lock(m_);
            while (static_cast<int>(workers_.size()) < threads - 1) {
                const int index = static_cast<int>(workers_.size());
                workers_.emplace_back([this, index, g = generation_] { work(index, g); });
            }
            body_ = &body;
            n_ = n;
            chunks_ = threads;
            remaining_ = threads - 1;
            ++generation_;
        }
        wake_.notify_all();
        body(0, n / threads);
        std::unique_lock lock(m_);
        done_.wait(lock, [this] { return remaining_ == 0; });
        body_ = nullptr;
    }

private:
    /// Worker `index` runs chunk index + 1 of each job posted after generation `seen`.
    void work(int index, std::uint64_t seen)
    {
        for (;;) {
            std::unique_lock lock(m_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_)
                return;
            seen = generation_;
            const int chunk = index + 1;
            if (chunk >= chunks_)
                continue;
            const auto* body = body_;
            const std::ptrdiff_t n = n_, t = chunks_;
            lock.unlock();
            (*body)(n * chunk / t, n * (chunk + 1) / t);
            lock.lock();
            if (--remaining_ == 0)
                done_.notify_one();
        }
    }

    std::mutex job_, m_;
    std::condition_variable wake_, done_;
    std::vector<std::thread> workers_;
    const std::function<void(std::ptrdiff_t, std::ptrdiff_t)>* body_ = nullptr;
    std::ptrdiff_t n_ = 0;
    int chunks_ = 0, remaining_ = 0;
    std::uint64_t generation_ = 0;
    bool stop_ = false;
};

/// The deformers' shared pool.
inline VertexPool& vertexPool()
{
    static VertexPool pool;
    return pool;
}

/// `parallelFor()` on the persistent pool: the same chunks (so results do not
/// depend on which runs them), at least `minChunk` indices per chunk.
template <class Body>
void parallelVertices(std::ptrdiff_t n, int threads, std::ptrdiff_t minChunk, const Body& body)
{
    if (n <= 0)
        return;
    const std::ptrdiff_t maxChunks = std::max<std::ptrdiff_t>(1, n / std::max<std::ptrdiff_t>(1, minChunk));
    const int t = static_cast<int>(std::min<std::ptrdiff_t>(resolveThreadCount(threads), maxChunks));
    if (t <= 1) {
        body(std::ptrdiff_t{0}, n);
        return;
    }
    vertexPool().run(n, t, std::function<void(std::ptrdiff_t, std::ptrdiff_t)>(std::cref(body)));
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

/// Unit dual quaternions of the joints in the kernels' float layout: real part
/// (x, y, z, w) then dual part (x⁰, y⁰, z⁰, w⁰), 32 bytes, and, for at most 64
/// joints, the hemisphere table: bit b of `flip[a]` is set when q_a · q_b < 0
/// (so the per-vertex hemisphere test of DQS is a shift, not four dot products).
struct alignas(32) DualQuatf {
    F4 r, d;
};

struct DualQuatTable {
    std::vector<DualQuatf> q;
    std::vector<std::uint64_t> flip; ///< Empty for more than 64 joints: test per vertex.
};

/// From 8 numbers (w, x, y, z | w⁰, x⁰, y⁰, z⁰) per joint (`dualQuaternion()` of dqs.h).
inline DualQuatf toDualQuatf(const Eigen::Matrix<double, 8, 1>& d)
{
    return DualQuatf{F4{static_cast<float>(d[1]), static_cast<float>(d[2]), static_cast<float>(d[3]),
                        static_cast<float>(d[0])},
                     F4{static_cast<float>(d[5]), static_cast<float>(d[6]), static_cast<float>(d[7]),
                        static_cast<float>(d[4])}};
}

inline void buildFlipTable(DualQuatTable& t)
{
    const size_t n = t.q.size();
    t.flip.clear();
    if (n > 64)
        return;
    t.flip.assign(n, 0);
    for (size_t a = 0; a < n; ++a)
        for (size_t b = 0; b < n; ++b) {
            const F4 p = t.q[a].r * t.q[b].r;
            if ((p[0] + p[1]) + (p[2] + p[3]) < 0.0f)
                t.flip[a] |= std::uint64_t{1} << b;
        }
}

/// The hemisphere-aligned weights of one vertex: slot s gets −w_s when q_{j_s}
/// lies in the other hemisphere than the most-weighted influence (Kavan et al.
/// 2008, §4: DLB blends in the pivot's hemisphere). The pivot is searched, so
/// hand-made (unsorted) weights work too.
inline void alignedWeights(const DualQuatTable& t, const int* j, const float* w, int k, float* out)
{
    int pivot = 0;
    for (int s = 1; s < k; ++s)
        if (w[s] > w[pivot])
            pivot = s;
    if (!t.flip.empty()) {
        const std::uint64_t mask = t.flip[static_cast<size_t>(j[pivot])];
        for (int s = 0; s < k; ++s)
            out[s] = ((mask >> j[s]) & 1u) ? -w[s] : w[s];
        return;
    }
    const F4 p = t.q[static_cast<size_t>(j[pivot])].r;
    for (int s = 0; s < k; ++s) {
        const F4 pr = t.q[static_cast<size_t>(j[s])].r * p;
        out[s] = (pr[0] + pr[1]) + (pr[2] + pr[3]) < 0.0f ? -w[s] : w[s];
    }
}

/// The rigid transform of a blended (unnormalized) dual quaternion as a
/// column-major 4×4 float matrix: b̂ / ‖b_0‖, rotation from the real part,
/// translation t = 2 (w₀ v⁰ − w⁰ v₀ + v₀ × v⁰) (Kavan et al. 2008, Alg. 1).
inline void dualQuatMatrix(F4 br, F4 bd, F4 A[4])
{
    const F4 sq = br * br;
    const float len2 = (sq[0] + sq[1]) + (sq[2] + sq[3]);
    float inv = 0.0f;
#if defined(__SSE__)
    if (len2 > 0.0f) {
        const float r = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(len2)));
        inv = r * (1.5f - 0.5f * len2 * r * r);
    }
#else
    inv = len2 > 0.0f ? 1.0f / std::sqrt(len2) : 0.0f;
#endif
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

/// Writes A·(x, y, z, 1) to p[0..2].
inline void applyPoint(const F4 A[4], float x, float y, float z, double* p)
{
    const F4 r = A[0] * splat(x) + A[1] * splat(y) + A[2] * splat(z) + A[3];
    p[0] = r[0];
    p[1] = r[1];
    p[2] = r[2];
}

/// Writes normalize(A's linear part · n) to out[0..2].
inline void applyNormal(const F4 A[4], float x, float y, float z, double* out)
{
    const F4 r = A[0] * splat(x) + A[1] * splat(y) + A[2] * splat(z);
    const float inv = inverseLength(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    out[0] = r[0] * inv;
    out[1] = r[1] * inv;
    out[2] = r[2] * inv;
}

#if RIG_SKINNING_AVX2
// ---------------------------------------------------------------------------
// AVX2 + FMA pieces. A vertex's position and normal travel together in one
// 256-bit register, PN = (x, y, z, 1 | nx, ny, nz, 0); input and output stay
// double (3 per vertex), converted on load and store.

/// (x, y, z, w) from 3 doubles and a given w.
RIG_TARGET_AVX2 inline __m128 loadVec3(const double* v, double w)
{
    const __m128d xy = _mm_loadu_pd(v);
    const __m128d zw = _mm_set_pd(w, v[2]);
    return _mm_movelh_ps(_mm_cvtpd_ps(xy), _mm_cvtpd_ps(zw));
}

/// (x, y, z, ·) from 4 doubles: reads one double past the vertex (the next
/// vertex's x), so only for vertices that are not the array's last.
RIG_TARGET_AVX2 inline __m128 loadVec3Fast(const double* v)
{
    return _mm256_cvtpd_ps(_mm256_loadu_pd(v));
}

/// Stores lanes 0–2 as doubles and lane 3 over the next vertex's x: only for
/// vertices whose successor the same thread writes afterwards.
RIG_TARGET_AVX2 inline void storeVec3Fast(double* o, __m128 r)
{
    _mm256_storeu_pd(o, _mm256_cvtps_pd(r));
}

/// Lane 3 of v replaced by w.
RIG_TARGET_AVX2 inline __m128 withW(__m128 v, float w)
{
    return _mm_blend_ps(v, _mm_set1_ps(w), 0x8);
}

/// A blended (lo, hi) matrix applied to a point p (lane 3 = 1) and a normal n
/// (lane 3 = 0): (A p | normalize(A n)).
RIG_TARGET_AVX2 inline __m256 applyLoHiPN(__m256 lo, __m256 hi, __m128 p, __m128 n)
{
    const __m256i ixy = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i izw = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    const __m256 P = _mm256_castps128_ps256(p), Q = _mm256_castps128_ps256(n);
    const __m256 rp = _mm256_fmadd_ps(hi, _mm256_permutevar8x32_ps(P, izw),
                                      _mm256_mul_ps(lo, _mm256_permutevar8x32_ps(P, ixy)));
    const __m256 rn = _mm256_fmadd_ps(hi, _mm256_permutevar8x32_ps(Q, izw),
                                      _mm256_mul_ps(lo, _mm256_permutevar8x32_ps(Q, ixy)));
    const __m256 r = _mm256_add_ps(_mm256_permute2f128_ps(rp, rn, 0x20), _mm256_permute2f128_ps(rp, rn, 0x31));
    // 1/‖n‖ in the upper half (rsqrt + one Newton step), 1 in the lower.
    const __m256 sq = _mm256_mul_ps(r, r);
    const __m256 s2 = _mm256_add_ps(sq, _mm256_permute_ps(sq, _MM_SHUFFLE(2, 3, 0, 1)));
    const __m256 len2 = _mm256_add_ps(s2, _mm256_permute_ps(s2, _MM_SHUFFLE(1, 0, 3, 2)));
    const __m256 e = _mm256_rsqrt_ps(len2);
    __m256 inv = _mm256_mul_ps(e, _mm256_fnmadd_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), len2), _mm256_mul_ps(e, e),
                                                   _mm256_set1_ps(1.5f)));
    inv = _mm256_and_ps(inv, _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ));
    return _mm256_mul_ps(r, _mm256_blend_ps(_mm256_set1_ps(1.0f), inv, 0xF0));
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

/// (A p | A n) for a blended (lo, hi) matrix, p with lane 3 = 1 and n with
/// lane 3 = 0; no normalization.
RIG_TARGET_AVX2 inline __m256 applyLoHiRaw(__m256 lo, __m256 hi, __m128 p, __m128 n)
{
    const __m256i ixy = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i izw = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    const __m256 P = _mm256_castps128_ps256(p), Q = _mm256_castps128_ps256(n);
    const __m256 rp = _mm256_fmadd_ps(hi, _mm256_permutevar8x32_ps(P, izw),
                                      _mm256_mul_ps(lo, _mm256_permutevar8x32_ps(P, ixy)));
    const __m256 rn = _mm256_fmadd_ps(hi, _mm256_permutevar8x32_ps(Q, izw),
                                      _mm256_mul_ps(lo, _mm256_permutevar8x32_ps(Q, ixy)));
    return _mm256_add_ps(_mm256_permute2f128_ps(rp, rn, 0x20), _mm256_permute2f128_ps(rp, rn, 0x31));
}

/// Stores lanes 0–2 as doubles.
RIG_TARGET_AVX2 inline void storeVec3(double* o, __m128 r)
{
    const __m256d d = _mm256_cvtps_pd(r);
    _mm_storeu_pd(o, _mm256_castpd256_pd128(d));
    _mm_store_sd(o + 2, _mm256_extractf128_pd(d, 1));
}

/// r / ‖r‖ for r with lane 3 = 0 (rsqrt estimate + one Newton step); 0 stays 0.
RIG_TARGET_AVX2 inline __m128 normalize3(__m128 r)
{
    const __m128 sq = _mm_mul_ps(r, r);
    const __m128 s2 = _mm_add_ps(sq, _mm_movehl_ps(sq, sq));
    const __m128 s = _mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1));
    const __m128 e = _mm_rsqrt_ss(s);
    // e (1.5 − 0.5 s e²)
    __m128 inv = _mm_mul_ss(e, _mm_fnmadd_ss(_mm_mul_ss(_mm_set_ss(0.5f), s), _mm_mul_ss(e, e), _mm_set_ss(1.5f)));
    inv = _mm_and_ps(inv, _mm_cmpgt_ss(s, _mm_setzero_ps()));
    return _mm_mul_ps(r, _mm_shuffle_ps(inv, inv, 0));
}

/// A blended 3×4 matrix as two registers, lo = (c0 | c1), hi = (c2 | c3)
/// (the Mat4f layout read as two 256-bit halves), applied to (x, y, z, w).
RIG_TARGET_AVX2 inline __m128 applyLoHi(__m256 lo, __m256 hi, __m128 p)
{
    const __m256 P = _mm256_castps128_ps256(p);
    const __m256 xy = _mm256_permutevar8x32_ps(P, _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
    const __m256 zw = _mm256_permutevar8x32_ps(P, _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3));
    const __m256 r = _mm256_fmadd_ps(hi, zw, _mm256_mul_ps(lo, xy));
    return _mm_add_ps(_mm256_castps256_ps128(r), _mm256_extractf128_ps(r, 1));
}

/// Σ_s w_s M_{j_s} as (lo, hi).
template <int K>
RIG_TARGET_AVX2 inline void blendLoHi(const Mat4f* M, const int* j, const float* w, int k, __m256& lo, __m256& hi)
{
    const int kk = K > 0 ? K : k;
    const float* m = reinterpret_cast<const float*>(&M[j[0]]);
    __m256 ws = _mm256_broadcast_ss(w);
    lo = _mm256_mul_ps(_mm256_load_ps(m), ws);
    hi = _mm256_mul_ps(_mm256_load_ps(m + 8), ws);
    for (int s = 1; s < kk; ++s) {
        m = reinterpret_cast<const float*>(&M[j[s]]);
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

RIG_TARGET_AVX2 inline __m256 yzx(__m256 a)
{
    return _mm256_permute_ps(a, _MM_SHUFFLE(3, 0, 2, 1));
}

/// The dot product of lanes 0–3 of each half, broadcast within the half.
RIG_TARGET_AVX2 inline __m256 dot4x2(__m256 a, __m256 b)
{
    const __m256 m = _mm256_mul_ps(a, b);
    const __m256 s = _mm256_add_ps(m, _mm256_permute_ps(m, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm256_add_ps(s, _mm256_permute_ps(s, _MM_SHUFFLE(1, 0, 3, 2)));
}

/// Blends a vertex's dual quaternions with hemisphere-aligned weights `ws`,
/// normalizes, and applies the rigid motion to PN: the position half gets
/// rotation and translation, the normal half the rotation only.
RIG_TARGET_AVX2 inline __m256 dualQuatApply(const DualQuatf* D, const int* j, const float* ws, int k, __m256 PN)
{
    __m256 b = _mm256_mul_ps(_mm256_load_ps(reinterpret_cast<const float*>(&D[j[0]])), _mm256_broadcast_ss(ws));
    for (int s = 1; s < k; ++s)
        b = _mm256_fmadd_ps(_mm256_load_ps(reinterpret_cast<const float*>(&D[j[s]])), _mm256_broadcast_ss(ws + s),
                            b);
    // 1/‖b_0‖ over the real part (lanes 0–3).
    const __m128 r = _mm256_castps256_ps128(b);
    const __m128 sq = _mm_mul_ps(r, r);
    const __m128 s2 = _mm_add_ps(sq, _mm_movehl_ps(sq, sq));
    const __m128 n2 = _mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1));
    const __m128 e = _mm_rsqrt_ss(n2);
    __m128 inv = _mm_mul_ss(e, _mm_fnmadd_ss(_mm_mul_ss(_mm_set_ss(0.5f), n2), _mm_mul_ss(e, e), _mm_set_ss(1.5f)));
    inv = _mm_and_ps(inv, _mm_cmpgt_ss(n2, _mm_setzero_ps()));
    b = _mm256_mul_ps(b, _mm256_broadcastss_ps(inv));
    const __m256 R = _mm256_permute2f128_ps(b, b, 0x00); // (v₀, w₀ | v₀, w₀)
    const __m256 E = _mm256_permute2f128_ps(b, b, 0x11); // (v⁰, w⁰ | v⁰, w⁰)
    const __m256 Rw = _mm256_permute_ps(R, _MM_SHUFFLE(3, 3, 3, 3));
    const __m256 Ew = _mm256_permute_ps(E, _MM_SHUFFLE(3, 3, 3, 3));
    const __m256 Ryzx = yzx(R);
    // v' = v + 2 v₀ × (v₀ × v + w₀ v)
    const __m256 u = _mm256_fmadd_ps(Rw, PN, cross256(R, Ryzx, PN));
    const __m256 two = _mm256_set1_ps(2.0f);
    __m256 out = _mm256_fmadd_ps(two, cross256(R, Ryzx, u), PN);
    // t = 2 (w₀ v⁰ − w⁰ v₀ + v₀ × v⁰), added to the position half only.
    const __m256 t = _mm256_add_ps(_mm256_fmsub_ps(Rw, E, _mm256_mul_ps(Ew, R)), cross256(R, Ryzx, E));
    return _mm256_fmadd_ps(_mm256_setr_ps(2, 2, 2, 2, 0, 0, 0, 0), t, out);
}
#endif

} // namespace rig::skinning
