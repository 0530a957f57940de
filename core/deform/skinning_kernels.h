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

#include <Eigen/Geometry>

#include <cmath>

#if defined(__SSE__)
#include <xmmintrin.h>
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

} // namespace rig::skinning
