#include "core/deform/twist_lbs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/dqs.h"
#include "core/deform/skinning_kernels.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace rig {
namespace {

using skinning::F4;
using skinning::Mat4f;

using skinning::DualQuatf;
using skinning::DualQuatTable;

/// Per-segment data of the vertex loop. The per-vertex transform
/// H_c · T_c(φ), φ = θ_c δ, is the 3×4 matrix cos φ · C0 + sin φ · C1 + C2:
/// with T(φ) = rotation by φ about the line (b, u) (Rodrigues, eq. 4.9:
/// R(φ) = cos φ I + sin φ [u]× + (1 − cos φ) u uᵀ) and A0 = Hl, A1 = Hl [u]×,
/// A2 = Hl u uᵀ (Hl, h: H's linear part and translation),
///     C0 = [A0 − A2 | −(A0 − A2) b],  C1 = [A1 | −A1 b],  C2 = [A2 | h − A2 b].
/// Per vertex: one sin/cos (vectorized over blocks of vertices) and 4 FMAs.
struct alignas(64) SegmentF {
    Mat4f c0, c1, c2;
    double theta; ///< θ_c, unwrapped (0 when the link has no axis).
    int identity; ///< 1 when H = I and θ = 0: the vertex is used as is.
};

constexpr std::ptrdiff_t kMinChunk = 4096;

/// sin and cos of x (radians, |x| up to ~1e6): range reduction in double,
/// then float polynomials on [−π/4, π/4] (error < 4e-7, float precision).
inline void fastSinCos(double x, float& s, float& c)
{
    const double q = std::nearbyint(x * (2.0 / std::numbers::pi));
    const float r = static_cast<float>(x - q * (std::numbers::pi / 2));
    const long long quadrant = static_cast<long long>(q) & 3;
    const float r2 = r * r;
    const float sr = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040))));
    const float cr = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320))));
    const bool swap = quadrant & 1;
    const float sv = swap ? cr : sr;
    const float cv = swap ? sr : cr;
    s = (quadrant & 2) ? -sv : sv;
    c = ((quadrant + 1) & 2) ? -cv : cv;
}

/// The per-vertex loop: unsegmented vertices (c < 0) are plain LBS with M;
/// the others get the partial twist and segment base, then the rigid blend
/// (DLB) of the untwisted transforms G.
template <int K, bool HasN>
void twistRange(const double* V, const double* N, const int* J, const float* W, int k, const int* bone,
                const double* delta, const DualQuatTable& G, const Mat4f* M, const SegmentF* S, double* outV,
                double* outN, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
    float wsBuf[K > 0 ? K : 16];
    std::vector<float> wsHeap(K > 0 || kk <= 16 ? 0 : static_cast<size_t>(kk));
    float* ws = wsHeap.empty() ? wsBuf : wsHeap.data();
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        float x = static_cast<float>(V[3 * i]), y = static_cast<float>(V[3 * i + 1]),
              z = static_cast<float>(V[3 * i + 2]);
        float nx = 0, ny = 0, nz = 0;
        if constexpr (HasN) {
            nx = static_cast<float>(N[3 * i]);
            ny = static_cast<float>(N[3 * i + 1]);
            nz = static_cast<float>(N[3 * i + 2]);
        }
        const int c = bone[i];
        const int* ji = J + i * kk;
        const float* wi = W + i * kk;
        F4 A[4];
        if (c < 0) {
            skinning::blend<K>(M, ji, wi, kk, A);
        } else {
            const SegmentF& sg = S[c];
            if (!sg.identity) {
                // Per-vertex part: H_c · T_c(θ_c δ) = cos φ C0 + sin φ C1 + C2.
                float sn, cs;
                fastSinCos(sg.theta * delta[i], sn, cs);
                F4 T[4];
                for (int col = 0; col < 4; ++col)
                    T[col] = sg.c0.c[col] * skinning::splat(cs) + sg.c1.c[col] * skinning::splat(sn) + sg.c2.c[col];
                const F4 q = T[0] * skinning::splat(x) + T[1] * skinning::splat(y) + T[2] * skinning::splat(z) + T[3];
                x = q[0];
                y = q[1];
                z = q[2];
                if constexpr (HasN) {
                    const F4 m = T[0] * skinning::splat(nx) + T[1] * skinning::splat(ny) + T[2] * skinning::splat(nz);
                    nx = m[0];
                    ny = m[1];
                    nz = m[2];
                }
            }
            skinning::alignedWeights(G, ji, wi, kk, ws);
            F4 br = skinning::splat(0.0f), bd = br;
            for (int s = 0; s < kk; ++s) {
                const DualQuatf& q = G.q[static_cast<size_t>(ji[s])];
                br += skinning::splat(ws[s]) * q.r;
                bd += skinning::splat(ws[s]) * q.d;
            }
            skinning::dualQuatMatrix(br, bd, A);
        }
        skinning::applyPoint(A, x, y, z, outV + 3 * i);
        if constexpr (HasN)
            skinning::applyNormal(A, nx, ny, nz, outN + 3 * i);
    }
}

#if RIG_SKINNING_AVX2
/// sin and cos of 4 angles: `fastSinCos()` 4 lanes at a time (double range
/// reduction, float polynomials).
RIG_TARGET_AVX2 inline void sinCos4(const double* x, float* s, float* c)
{
    const __m256d xd = _mm256_loadu_pd(x);
    const __m256d q = _mm256_round_pd(_mm256_mul_pd(xd, _mm256_set1_pd(2.0 / std::numbers::pi)),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m128 r = _mm256_cvtpd_ps(_mm256_fnmadd_pd(q, _mm256_set1_pd(std::numbers::pi / 2), xd));
    const __m128i quadrant = _mm256_cvtpd_epi32(q);
    const __m128 r2 = _mm_mul_ps(r, r);
    __m128 sp = _mm_fmadd_ps(r2, _mm_set1_ps(-1.0f / 5040), _mm_set1_ps(1.0f / 120));
    sp = _mm_fmadd_ps(r2, sp, _mm_set1_ps(-1.0f / 6));
    sp = _mm_fmadd_ps(r2, sp, _mm_set1_ps(1.0f));
    const __m128 sr = _mm_mul_ps(r, sp);
    __m128 cr = _mm_fmadd_ps(r2, _mm_set1_ps(1.0f / 40320), _mm_set1_ps(-1.0f / 720));
    cr = _mm_fmadd_ps(r2, cr, _mm_set1_ps(1.0f / 24));
    cr = _mm_fmadd_ps(r2, cr, _mm_set1_ps(-0.5f));
    cr = _mm_fmadd_ps(r2, cr, _mm_set1_ps(1.0f));
    const __m128 swap = _mm_castsi128_ps(
        _mm_cmpeq_epi32(_mm_and_si128(quadrant, _mm_set1_epi32(1)), _mm_set1_epi32(1)));
    const __m128 sv = _mm_blendv_ps(sr, cr, swap);
    const __m128 cv = _mm_blendv_ps(cr, sr, swap);
    const __m128 sSign = _mm_castsi128_ps(_mm_slli_epi32(_mm_and_si128(quadrant, _mm_set1_epi32(2)), 30));
    const __m128 cSign = _mm_castsi128_ps(
        _mm_slli_epi32(_mm_and_si128(_mm_add_epi32(quadrant, _mm_set1_epi32(1)), _mm_set1_epi32(2)), 30));
    _mm_storeu_ps(s, _mm_xor_ps(sv, sSign));
    _mm_storeu_ps(c, _mm_xor_ps(cv, cSign));
}

template <int K, bool HasN, bool Fast>
RIG_TARGET_AVX2 inline void twistVertexAvx2(const double* V, const double* N, const int* J, const float* W, int kk,
                                            const int* bone, const DualQuatTable& G, const Mat4f* M,
                                            const SegmentF* S, float sn, float cs, float* ws, double* outV,
                                            double* outN, std::ptrdiff_t i)
{
    const __m128 p = Fast ? skinning::withW(skinning::loadVec3Fast(V + 3 * i), 1.0f) : skinning::loadVec3(V + 3 * i, 1.0);
    const __m128 n = !HasN ? _mm_setzero_ps()
                           : (Fast ? skinning::withW(skinning::loadVec3Fast(N + 3 * i), 0.0f)
                                   : skinning::loadVec3(N + 3 * i, 0.0));
    const int c = bone[i];
    const int* ji = J + i * kk;
    const float* wi = W + i * kk;
    __m256 out;
    if (c < 0) {
        __m256 lo, hi;
        skinning::blendLoHi<K>(M, ji, wi, kk, lo, hi);
        out = skinning::applyLoHiPN(lo, hi, p, n);
    } else {
        const SegmentF& sg = S[c];
        __m256 PN;
        if (!sg.identity) {
            const float* c0 = reinterpret_cast<const float*>(&sg.c0);
            const float* c1 = reinterpret_cast<const float*>(&sg.c1);
            const float* c2 = reinterpret_cast<const float*>(&sg.c2);
            const __m256 vc = _mm256_set1_ps(cs), vs = _mm256_set1_ps(sn);
            const __m256 lo = _mm256_fmadd_ps(_mm256_load_ps(c0), vc,
                                              _mm256_fmadd_ps(_mm256_load_ps(c1), vs, _mm256_load_ps(c2)));
            const __m256 hi = _mm256_fmadd_ps(_mm256_load_ps(c0 + 8), vc,
                                              _mm256_fmadd_ps(_mm256_load_ps(c1 + 8), vs, _mm256_load_ps(c2 + 8)));
            PN = skinning::applyLoHiRaw(lo, hi, p, n);
        } else {
            PN = _mm256_set_m128(n, p);
        }
        skinning::alignedWeights(G, ji, wi, kk, ws);
        out = skinning::dualQuatApply(G.q.data(), ji, ws, kk, PN);
    }
    if constexpr (Fast) {
        skinning::storeVec3Fast(outV + 3 * i, _mm256_castps256_ps128(out));
        if constexpr (HasN)
            skinning::storeVec3Fast(outN + 3 * i, _mm256_extractf128_ps(out, 1));
    } else {
        skinning::storeVec3(outV + 3 * i, _mm256_castps256_ps128(out));
        if constexpr (HasN)
            skinning::storeVec3(outN + 3 * i, _mm256_extractf128_ps(out, 1));
    }
}

/// The same with AVX2 + FMA, position and normal in one 256-bit register; the
/// partial-twist angles' sines and cosines are computed 4 at a time for
/// blocks of vertices first.
template <int K, bool HasN>
RIG_TARGET_AVX2 void twistRangeAvx2(const double* V, const double* N, const int* J, const float* W, int k,
                                    const int* bone, const double* delta, const DualQuatTable& G, const Mat4f* M,
                                    const SegmentF* S, double* outV, double* outN, std::ptrdiff_t begin,
                                    std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
    float wsBuf[K > 0 ? K : 16];
    std::vector<float> wsHeap(K > 0 || kk <= 16 ? 0 : static_cast<size_t>(kk));
    float* ws = wsHeap.empty() ? wsBuf : wsHeap.data();
    constexpr int kBlock = 64;
    alignas(32) double phi[kBlock];
    alignas(16) float sn[kBlock], cs[kBlock];
    for (std::ptrdiff_t b0 = begin; b0 < end; b0 += kBlock) {
        const int m = static_cast<int>(std::min<std::ptrdiff_t>(kBlock, end - b0));
        for (int t = 0; t < m; ++t) {
            const int c = bone[b0 + t];
            phi[t] = c >= 0 ? S[c].theta * delta[b0 + t] : 0.0;
        }
        for (int t = m; t < ((m + 3) & ~3); ++t)
            phi[t] = 0.0;
        for (int t = 0; t < m; t += 4)
            sinCos4(phi + t, sn + t, cs + t);
        const std::ptrdiff_t fastEnd = std::min(b0 + m, end - 1);
        for (std::ptrdiff_t i = b0; i < fastEnd; ++i)
            twistVertexAvx2<K, HasN, true>(V, N, J, W, kk, bone, G, M, S, sn[i - b0], cs[i - b0], ws, outV, outN, i);
        if (fastEnd < b0 + m) // the range's last vertex
            twistVertexAvx2<K, HasN, false>(V, N, J, W, kk, bone, G, M, S, sn[m - 1], cs[m - 1], ws, outV, outN,
                                            fastEnd);
    }
}
#endif

template <int K, bool HasN>
void twistDispatch(const double* V, const double* N, const int* J, const float* W, int k, const int* bone,
                   const double* delta, const DualQuatTable& G, const Mat4f* M, const SegmentF* S, double* outV,
                   double* outN, std::ptrdiff_t b, std::ptrdiff_t e)
{
#if RIG_SKINNING_AVX2
    if (skinning::useAvx2()) {
        twistRangeAvx2<K, HasN>(V, N, J, W, k, bone, delta, G, M, S, outV, outN, b, e);
        return;
    }
#endif
    twistRange<K, HasN>(V, N, J, W, k, bone, delta, G, M, S, outV, outN, b, e);
}

/// Rotation by θ about the line through b with unit direction u (identity
/// when u is zero).
Eigen::Isometry3d rotationAboutLine(const Vec3& b, const Vec3& u, double theta)
{
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    if (u.squaredNorm() == 0.0 || theta == 0.0)
        return T;
    T.linear() = Eigen::AngleAxisd(theta, u).toRotationMatrix();
    T.translation() = b - T.linear() * b;
    return T;
}

} // namespace

SwingTwist swingTwist(const Eigen::Quaterniond& q, const Vec3& axis)
{
    SwingTwist st;
    const double p = q.vec().dot(axis);
    Eigen::Quaterniond t(q.w(), p * axis.x(), p * axis.y(), p * axis.z());
    const double n = t.norm();
    if (n < 1e-12) {
        // Swing of 180°: any twist fits; take none.
        st.twist = Eigen::Quaterniond::Identity();
        st.swing = q;
        st.angle = 0.0;
        return st;
    }
    t.coeffs() /= n;
    if (t.w() < 0.0)
        t.coeffs() = -t.coeffs(); // same rotation; the angle then lies in [−π, π]
    st.twist = t;
    st.swing = q * t.conjugate();
    st.angle = 2.0 * std::atan2(t.vec().dot(axis), t.w());
    return st;
}

double unwrapAngle(double reference, double wrapped)
{
    const double twoPi = 2.0 * std::numbers::pi;
    return wrapped + twoPi * std::round((reference - wrapped) / twoPi);
}

Vec3 twistAxis(const Skeleton& s, int j)
{
    const int p = s.parents[static_cast<size_t>(j)];
    if (p < 0)
        return Vec3::Zero();
    const Vec3 d = (s.bindPositions.row(j) - s.bindPositions.row(p)).transpose();
    const double len = d.norm();
    return len > 1e-12 ? Vec3(d / len) : Vec3::Zero();
}

std::vector<double> twistAngles(const Skeleton& s, const Pose& pose)
{
    if (pose.localRotations.size() != s.parents.size())
        throw InvalidInput("rig::twistAngles(): the pose has " + std::to_string(pose.localRotations.size()) +
                           " rotations for " + std::to_string(s.parents.size()) + " joints");
    std::vector<double> a(s.parents.size(), 0.0);
    for (int j = 1; j < static_cast<int>(a.size()); ++j) {
        const Vec3 u = twistAxis(s, j);
        if (u.squaredNorm() == 0.0)
            continue;
        // The local rotation lives in the joint's bind frame: express the axis there.
        const Vec3 local = s.bindOrientations[static_cast<size_t>(j)].conjugate() * u;
        a[static_cast<size_t>(j)] = swingTwist(pose.localRotations[static_cast<size_t>(j)].normalized(), local).angle;
    }
    return a;
}

TwistTransforms twistTransforms(const Skeleton& s, const Pose& pose, const PosedSkeleton& posed,
                                std::span<const double> unwrappedTwist)
{
    validateSkeleton(s);
    const int n = s.jointCount();
    if (static_cast<int>(posed.skinning.size()) != n)
        throw InvalidInput("rig::twistTransforms(): the posed skeleton has " + std::to_string(posed.skinning.size()) +
                           " transforms for " + std::to_string(n) + " joints");
    if (!unwrappedTwist.empty() && static_cast<int>(unwrappedTwist.size()) != n)
        throw InvalidInput("rig::twistTransforms(): " + std::to_string(unwrappedTwist.size()) +
                           " unwrapped twist angles for " + std::to_string(n) + " joints");
    TwistTransforms T;
    T.skinning = posed.skinning;
    T.angle = twistAngles(s, pose);
    for (int j = 1; j < n && !unwrappedTwist.empty(); ++j) {
        const double a = unwrappedTwist[static_cast<size_t>(j)];
        const double off = std::remainder(a - T.angle[static_cast<size_t>(j)], 2.0 * std::numbers::pi);
        if (!std::isfinite(a) || std::abs(off) > 1e-4)
            throw InvalidInput("rig::twistTransforms(): the unwrapped twist " + std::to_string(a) + " of joint '" +
                               s.names[static_cast<size_t>(j)] + "' does not match the pose's twist " +
                               std::to_string(T.angle[static_cast<size_t>(j)]) + " modulo 2 pi");
        if (twistAxis(s, j).squaredNorm() > 0.0)
            T.angle[static_cast<size_t>(j)] = a;
    }
    T.axisPoint = s.bindPositions;
    T.axisDirection.resize(n, 3);
    T.untwisted.resize(static_cast<size_t>(n));
    T.segmentBase.resize(static_cast<size_t>(n));
    std::vector<Eigen::Isometry3d> U(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j) {
        const size_t J = static_cast<size_t>(j);
        const Vec3 u = twistAxis(s, j);
        T.axisDirection.row(j) = u.transpose();
        const int p = s.parents[J];
        const Eigen::Isometry3d Tj = rotationAboutLine(s.bindPositions.row(j).transpose(), u, T.angle[J]);
        U[J] = p < 0 ? Eigen::Isometry3d::Identity() : Eigen::Isometry3d(U[static_cast<size_t>(p)] * Tj);
        T.segmentBase[J] = p < 0 ? Eigen::Isometry3d::Identity() : U[static_cast<size_t>(p)];
        T.untwisted[J] = posed.skinning[J] * U[J].inverse();
    }
    return T;
}

void twistLbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, const Segmentation& seg,
              const TwistTransforms& T, DeformedMesh& out, const SkinningOptions& options)
{
    const int nJ = static_cast<int>(T.untwisted.size());
    validateSkinningInput("rig::twistLbs()", V, N, W, nJ);
    if (static_cast<int>(T.skinning.size()) != nJ || static_cast<int>(T.segmentBase.size()) != nJ ||
        T.axisPoint.rows() != nJ || T.axisDirection.rows() != nJ || static_cast<int>(T.angle.size()) != nJ)
        throw InvalidInput("rig::twistLbs(): the twist transforms have inconsistent sizes; build them with "
                           "rig::twistTransforms()");
    validateSegmentation(seg, static_cast<int>(V.rows()), nJ);
    if (&out.V == &V || &out.N == &N || &out.V == &N || &out.N == &V) {
        DeformedMesh fresh; // in place: the kernels write ahead of what they read
        twistLbs(V, N, W, seg, T, fresh, options);
        out = std::move(fresh);
        return;
    }

    for (int j = 0; j < nJ; ++j)
        if (!(T.untwisted[static_cast<size_t>(j)].linear().transpose() * T.untwisted[static_cast<size_t>(j)].linear())
                 .isApprox(Eigen::Matrix3d::Identity(), 1e-6))
            throw InvalidInput("rig::twistLbs(): an untwisted transform is not a rigid motion (scale or shear); "
                               "build the twist transforms with rig::twistTransforms() from a rigid pose");
    DualQuatTable G;
    G.q.resize(static_cast<size_t>(nJ));
    std::vector<Mat4f> M(static_cast<size_t>(nJ));
    std::vector<SegmentF> S(static_cast<size_t>(nJ));
    for (int j = 0; j < nJ; ++j) {
        const size_t J = static_cast<size_t>(j);
        G.q[J] = skinning::toDualQuatf(dualQuaternion(T.untwisted[J]));
        M[J] = skinning::toMat4f(T.skinning[J]);
        const Eigen::Isometry3d& H = T.segmentBase[J];
        const Vec3 b = T.axisPoint.row(j).transpose();
        const Vec3 u = T.axisDirection.row(j).transpose();
        SegmentF& sg = S[J];
        const double theta = u.squaredNorm() > 0.0 ? T.angle[J] : 0.0;
        sg.theta = theta;
        sg.identity = (theta == 0.0 && H.matrix().isIdentity(0.0)) ? 1 : 0;
        // C0, C1, C2 of SegmentF (see there).
        const Eigen::Matrix3d Hl = H.linear();
        Eigen::Matrix3d ux;
        ux << 0, -u.z(), u.y(), u.z(), 0, -u.x(), -u.y(), u.x(), 0;
        const Eigen::Matrix3d A0 = Hl, A1 = Hl * ux, A2 = Hl * u * u.transpose();
        auto pack = [](const Eigen::Matrix3d& L, const Vec3& t) {
            Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
            X.linear() = L; // not rigid: only the 3×4 numbers matter here
            X.translation() = t;
            return skinning::toMat4f(X);
        };
        sg.c0 = pack(A0 - A2, -(A0 - A2) * b);
        sg.c1 = pack(A1, -A1 * b);
        sg.c2 = pack(A2, H.translation() + Hl * b - A2 * b);
    }
    skinning::buildFlipTable(G);

    const bool hasN = N.size() != 0;
    out.V.resize(V.rows(), 3);
    out.N.resize(hasN ? V.rows() : 0, 3);
    const int k = W.maxInfluences;
    const double* pV = V.data();
    const double* pN = N.data();
    const int* pJ = W.joints.data();
    const float* pW = W.weights.data();
    const int* pB = seg.bone.data();
    const double* pD = seg.delta.data();
    double* oV = out.V.data();
    double* oN = out.N.data();
    const Mat4f* pM = M.data();
    const SegmentF* pS = S.data();
    skinning::parallelVertices(V.rows(), options.threads, kMinChunk, [&](std::ptrdiff_t b, std::ptrdiff_t e) {
        if (k == 4) {
            if (hasN)
                twistDispatch<4, true>(pV, pN, pJ, pW, k, pB, pD, G, pM, pS, oV, oN, b, e);
            else
                twistDispatch<4, false>(pV, pN, pJ, pW, k, pB, pD, G, pM, pS, oV, oN, b, e);
        } else {
            if (hasN)
                twistDispatch<0, true>(pV, pN, pJ, pW, k, pB, pD, G, pM, pS, oV, oN, b, e);
            else
                twistDispatch<0, false>(pV, pN, pJ, pW, k, pB, pD, G, pM, pS, oV, oN, b, e);
        }
    });
}

DeformedMesh twistLbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, const Segmentation& seg,
                      const TwistTransforms& T, const SkinningOptions& options)
{
    DeformedMesh out;
    twistLbs(V, N, W, seg, T, out, options);
    return out;
}

} // namespace rig
