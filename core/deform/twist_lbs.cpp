#include "core/deform/twist_lbs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/dqs.h"
#include "core/deform/skinning_kernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

namespace rig {
namespace {

using skinning::F4;
using skinning::Mat4f;

using skinning::DualQuatf;

constexpr std::ptrdiff_t kMinChunk = 4096;
/// Vertices whose partial-twist sines and cosines are computed together.
constexpr int kBlock = 64;

/// The per-frame data of the vertex loop: the twist angle θ_c of each link,
/// the aligned table of ĝ_k ⊗ ĥ_c per (segment, pivot, joint) key of the
/// binding, and the skinning matrices M_k for unsegmented vertices.
struct TwistFrame {
    std::vector<float> theta; ///< #J + 1: 0, then θ_c at c + 1 (so unsegmented vertices, c = −1, read 0).
    std::vector<DualQuatf> table;
    std::vector<Mat4f> M;
};

/// φ = θ_c δ of a block's vertices (0 for unsegmented ones), then sin φ and
/// cos φ − 1.
void blockAngles(const SkinBinding& b, const float* theta, std::ptrdiff_t b0, int m, float* phi)
{
    for (int t = 0; t < m; ++t) {
        const int c = b.segment[static_cast<size_t>(b0 + t)];
        phi[t] = theta[c + 1] * b.delta[static_cast<size_t>(b0 + t)];
    }
}

/// The portable vertex loop: p_t = p + (cos φ − 1) r + sin φ (u × r) (the
/// partial twist about the link axis), then the rigid blend (DLB) of the
/// vertex's table entries; unsegmented vertices (c < 0) are plain LBS.
template <int K>
void twistRange(const SkinBinding& b, const TwistFrame& f, PackedVertex* out, std::ptrdiff_t begin,
                std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : b.influences;
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        const size_t I = static_cast<size_t>(i);
        const PackedVertex& rest = b.rest[I];
        F4 A[4];
        const int c = b.segment[I];
        if (c < 0) {
            skinning::blend<K>(f.M.data(), b.jointOffset.data() + i * kk, b.weights.data() + i * kk, kk, A);
            skinning::applyPoint(A, rest.p, out[i].p);
            skinning::applyNormal(A, rest.n, out[i].n, b.hasNormals);
            continue;
        }
        float sn, cm1;
        skinning::sinCosm1(f.theta[static_cast<size_t>(c) + 1] * b.delta[I], sn, cm1);
        PackedVertex t;
        for (int a = 0; a < 4; ++a) {
            t.p[a] = rest.p[a] + cm1 * b.arm[I].p[a] + sn * b.armCross[I].p[a];
            t.n[a] = rest.n[a] + cm1 * b.arm[I].n[a] + sn * b.armCross[I].n[a];
        }
        F4 br, bd;
        skinning::blendDualQuat<K>(f.table.data(), b.twistOffset.data() + i * kk, b.weights.data() + i * kk, kk, br, bd);
        skinning::dualQuatMatrix(br, bd, A);
        skinning::applyPoint(A, t.p, out[i].p);
        out[i].p[3] = 1.0f;
        skinning::applyNormal(A, t.n, out[i].n, false);
    }
}

#if RIG_SKINNING_AVX2
/// sin x and cos x − 1 of 8 float angles (`skinning::sinCosm1()` 8 lanes at a time).
RIG_TARGET_AVX2 inline void sinCosm1x8(const float* x, float* s, float* cm1)
{
    const __m256 X = _mm256_load_ps(x);
    const __m256 q = _mm256_round_ps(_mm256_mul_ps(X, _mm256_set1_ps(0.636619772f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(q, _mm256_set1_ps(1.5707963705062866f), X);
    r = _mm256_fnmadd_ps(q, _mm256_set1_ps(-4.371139e-8f), r);
    const __m256i quadrant = _mm256_and_si256(_mm256_cvtps_epi32(q), _mm256_set1_epi32(3));
    const __m256 r2 = _mm256_mul_ps(r, r);
    __m256 sp = _mm256_fmadd_ps(r2, _mm256_set1_ps(-1.0f / 5040), _mm256_set1_ps(1.0f / 120));
    sp = _mm256_fmadd_ps(r2, sp, _mm256_set1_ps(-1.0f / 6));
    const __m256 sr = _mm256_fmadd_ps(_mm256_mul_ps(r, r2), sp, r);
    __m256 cp = _mm256_fmadd_ps(r2, _mm256_set1_ps(1.0f / 40320), _mm256_set1_ps(-1.0f / 720));
    cp = _mm256_fmadd_ps(r2, cp, _mm256_set1_ps(1.0f / 24));
    cp = _mm256_fmadd_ps(r2, cp, _mm256_set1_ps(-0.5f));
    const __m256 crm1 = _mm256_mul_ps(r2, cp);
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 q1 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(quadrant, _mm256_set1_epi32(1)));
    const __m256 q2 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(quadrant, _mm256_set1_epi32(2)));
    const __m256 q3 = _mm256_castsi256_ps(_mm256_cmpeq_epi32(quadrant, _mm256_set1_epi32(3)));
    const __m256 sign = _mm256_set1_ps(-0.0f);
    // sin: sr, 1 + crm1, −sr, −(1 + crm1); cos − 1: crm1, −sr − 1, −crm1 − 2, sr − 1.
    const __m256 odd = _mm256_or_ps(q1, q3);
    const __m256 sv = _mm256_blendv_ps(sr, _mm256_add_ps(one, crm1), odd);
    const __m256 sNeg = _mm256_and_ps(_mm256_or_ps(q2, q3), sign);
    _mm256_store_ps(s, _mm256_xor_ps(sv, sNeg));
    const __m256 cv = _mm256_blendv_ps(crm1, sr, odd);
    const __m256 cNeg = _mm256_and_ps(_mm256_or_ps(q1, q2), sign);
    const __m256 off = _mm256_blendv_ps(_mm256_and_ps(q2, _mm256_set1_ps(-2.0f)), _mm256_set1_ps(-1.0f), odd);
    _mm256_store_ps(cm1, _mm256_add_ps(_mm256_xor_ps(cv, cNeg), off));
}

/// φ = θ_c δ of 8 vertices from 8 segments (θ read at c + 1, see TwistFrame).
RIG_TARGET_AVX2 inline __m256 angles8(const float* theta, const std::int32_t* segment, const float* delta)
{
    const __m256i c = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(segment)),
                                       _mm256_set1_epi32(1));
    return _mm256_mul_ps(_mm256_i32gather_ps(theta, c, 4), _mm256_loadu_ps(delta));
}

/// The same with AVX2 + FMA, position and normal in one 256-bit register;
/// two segmented vertices at a time share the rigid blend's registers
/// (`dualQuatApply2()`).
template <int K, bool HasN>
RIG_TARGET_AVX2 void twistRangeAvx2(const SkinBinding& b, const TwistFrame& f, PackedVertex* out,
                                    std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : b.influences;
    const int* J = b.jointOffset.data();
    const int* S = b.twistOffset.data();
    const std::int32_t* seg = b.segment.data();
    const float* W = b.weights.data();
    const float* T = reinterpret_cast<const float*>(f.table.data());
    const float* in = reinterpret_cast<const float*>(b.rest.data());
    const float* arm = reinterpret_cast<const float*>(b.arm.data());
    const float* cross = reinterpret_cast<const float*>(b.armCross.data());
    float* o = reinterpret_cast<float*>(out);
    alignas(32) float phi[kBlock], sn[kBlock], cm1[kBlock];
    // p + (cos φ − 1) r + sin φ (u × r) of vertex i (block slot t).
    auto twisted = [&](std::ptrdiff_t i, int t) RIG_TARGET_AVX2 {
        return _mm256_fmadd_ps(_mm256_load_ps(cross + 8 * i), _mm256_broadcast_ss(sn + t),
                               _mm256_fmadd_ps(_mm256_load_ps(arm + 8 * i), _mm256_broadcast_ss(cm1 + t),
                                               _mm256_load_ps(in + 8 * i)));
    };
    auto single = [&](std::ptrdiff_t i, int t) RIG_TARGET_AVX2 {
        __m256 r;
        if (seg[i] < 0) {
            __m256 lo, hi;
            skinning::blendLoHi<K>(f.M.data(), J + i * kk, W + i * kk, kk, lo, hi);
            r = skinning::applyPN(lo, hi, _mm256_load_ps(in + 8 * i));
            if constexpr (HasN)
                r = skinning::normalizeNormal(r);
        } else {
            r = skinning::dualQuatApply1(skinning::blendDualQuat8<K>(T, S + i * kk, W + i * kk, kk), twisted(i, t));
        }
        _mm256_store_ps(o + 8 * i, r);
    };
    for (std::ptrdiff_t b0 = begin; b0 < end; b0 += kBlock) {
        const int m = static_cast<int>(std::min<std::ptrdiff_t>(kBlock, end - b0));
        int t = 0;
        for (; t + 8 <= m; t += 8)
            _mm256_store_ps(phi + t, angles8(f.theta.data(), seg + b0 + t, b.delta.data() + b0 + t));
        if (t < m) {
            blockAngles(b, f.theta.data(), b0 + t, m - t, phi + t);
            for (int r = m; r < ((m + 7) & ~7); ++r)
                phi[r] = 0.0f;
        }
        for (t = 0; t < m; t += 8)
            sinCosm1x8(phi + t, sn + t, cm1 + t);
        // A block of segmented vertices only (the usual case) skips the per-pair test.
        bool allSegmented = (m & 7) == 0;
        for (t = 0; t < m && allSegmented; t += 8)
            allSegmented = _mm256_movemask_ps(_mm256_castsi256_ps(
                               _mm256_loadu_si256(reinterpret_cast<const __m256i*>(seg + b0 + t)))) == 0;
        for (t = 0; t < m;) {
            const std::ptrdiff_t i = b0 + t;
            if (t + 1 < m && (allSegmented || (seg[i] >= 0 && seg[i + 1] >= 0))) {
                const __m256 ba = skinning::blendDualQuat8<K>(T, S + i * kk, W + i * kk, kk);
                const __m256 bb = skinning::blendDualQuat8<K>(T, S + (i + 1) * kk, W + (i + 1) * kk, kk);
                __m256 pa = twisted(i, t), pb = twisted(i + 1, t + 1);
                skinning::dualQuatApply2(ba, bb, pa, pb);
                _mm256_store_ps(o + 8 * i, pa);
                _mm256_store_ps(o + 8 * i + 8, pb);
                t += 2;
            } else {
                single(i, t);
                t += 1;
            }
        }
    }
}
#endif

template <int K>
void twistDispatch(const SkinBinding& b, const TwistFrame& f, PackedVertex* out, std::ptrdiff_t begin,
                   std::ptrdiff_t end)
{
#if RIG_SKINNING_AVX2
    if (skinning::useAvx2()) {
        if (b.hasNormals)
            twistRangeAvx2<K, true>(b, f, out, begin, end);
        else
            twistRangeAvx2<K, false>(b, f, out, begin, end);
        return;
    }
#endif
    twistRange<K>(b, f, out, begin, end);
}

/// The product of two dual quaternions in the (w, x, y, z | w⁰, x⁰, y⁰, z⁰)
/// layout: (a + ε a⁰)(c + ε c⁰) = a c + ε (a c⁰ + a⁰ c).
Eigen::Matrix<double, 8, 1> dualQuatProduct(const Eigen::Matrix<double, 8, 1>& a, const Eigen::Matrix<double, 8, 1>& c)
{
    auto q = [](const Eigen::Matrix<double, 8, 1>& v, int o) { return Eigen::Quaterniond(v[o], v[o + 1], v[o + 2], v[o + 3]); };
    const Eigen::Quaterniond r = q(a, 0) * q(c, 0);
    const Eigen::Quaterniond d1 = q(a, 0) * q(c, 4), d2 = q(a, 4) * q(c, 0);
    Eigen::Matrix<double, 8, 1> out;
    out << r.w(), r.x(), r.y(), r.z(), d1.w() + d2.w(), d1.x() + d2.x(), d1.y() + d2.y(), d1.z() + d2.z();
    return out;
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
    if (p < 0 || std::count(s.parents.begin(), s.parents.end(), p) > 1)
        return Vec3::Zero();
    const Vec3 d = (s.bindPositions.row(j) - s.bindPositions.row(p)).transpose();
    const double len = d.norm();
    if (!(len > 1e-12))
        return Vec3::Zero();
    const Vec3 u = d / len;
    // The limb must go on along the link beyond the joint: the straightest
    // child bone within kMaxTwistTurnDegrees of it (a leaf goes on).
    double straightest = -1.0;
    bool hasChild = false;
    for (int c = j + 1; c < s.jointCount(); ++c) {
        if (s.parents[static_cast<size_t>(c)] != j)
            continue;
        const Vec3 e = (s.bindPositions.row(c) - s.bindPositions.row(j)).transpose();
        if (e.norm() <= 1e-12)
            continue;
        hasChild = true;
        straightest = std::max(straightest, e.normalized().dot(u));
    }
    if (hasChild && straightest < std::cos(kMaxTwistTurnDegrees * std::numbers::pi / 180.0))
        return Vec3::Zero();
    return u;
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
    T.parents = s.parents;
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

void twistLbs(const SkinBinding& b, const TwistTransforms& T, SkinnedMesh& out, const SkinningOptions& options)
{
    const int nJ = static_cast<int>(T.untwisted.size());
    skinning::checkPose("rig::twistLbs()", b, T.untwisted.size());
    if (static_cast<int>(T.skinning.size()) != nJ || static_cast<int>(T.segmentBase.size()) != nJ ||
        T.axisPoint.rows() != nJ || T.axisDirection.rows() != nJ || static_cast<int>(T.angle.size()) != nJ)
        throw InvalidInput("rig::twistLbs(): the twist transforms have inconsistent sizes; build them with "
                           "rig::twistTransforms()");
    if (!b.hasTwist())
        throw InvalidInput("rig::twistLbs(): the skin binding has no segmentation; add it with rig::bindTwist()");
    if ((b.axisPoint - T.axisPoint).cwiseAbs().maxCoeff() > 1e-9)
        throw InvalidInput("rig::twistLbs(): the pose's link axes differ from those the skin was bound with; "
                           "bind it again (rig::bindTwist()) after the skeleton changed");
    if ((b.axisDirection - T.axisDirection).cwiseAbs().maxCoeff() > 1e-9)
        throw InvalidInput("rig::twistLbs(): the pose's link directions differ from those the skin was bound with; "
                           "bind it again (rig::bindTwist()) after the skeleton changed");
    for (int j = 0; j < nJ; ++j)
        if (!(T.untwisted[static_cast<size_t>(j)].linear().transpose() * T.untwisted[static_cast<size_t>(j)].linear())
                 .isApprox(Eigen::Matrix3d::Identity(), 1e-6))
            throw InvalidInput("rig::twistLbs(): an untwisted transform is not a rigid motion (scale or shear); "
                               "build the twist transforms with rig::twistTransforms() from a rigid pose");
    TwistFrame f;
    f.theta.assign(static_cast<size_t>(nJ) + 1, 0.0f);
    f.M.resize(static_cast<size_t>(nJ));
    std::vector<Eigen::Matrix<double, 8, 1>> g(static_cast<size_t>(nJ)), h(static_cast<size_t>(nJ));
    for (int j = 0; j < nJ; ++j) {
        const size_t J = static_cast<size_t>(j);
        f.M[J] = skinning::toMat4f(T.skinning[J]);
        f.theta[J + 1] = T.axisDirection.row(j).squaredNorm() > 0.0 ? static_cast<float>(T.angle[J]) : 0.0f;
        g[J] = dualQuaternion(T.untwisted[J]);
        h[J] = dualQuaternion(T.segmentBase[J]);
    }
    // DLB(w, ĝ)·H_c = DLB(w, ĝ ⊗ ĥ_c): right-multiplying by a unit dual
    // quaternion keeps the blend linear and the hemisphere tests (dot products
    // of the real parts) unchanged, so each entry is aligned with its pivot's ĝ.
    f.table.resize(b.twistKeys.size());
    for (size_t e = 0; e < b.twistKeys.size(); ++e) {
        const auto [c, pivot, j] = b.twistKeys[e];
        const auto& gj = g[static_cast<size_t>(j)];
        const double sign = g[static_cast<size_t>(pivot)].head<4>().dot(gj.head<4>()) < 0.0 ? -1.0 : 1.0;
        f.table[e] = skinning::toDualQuatf(dualQuatProduct(gj, h[static_cast<size_t>(c)]), sign);
    }
    out.vertices.resize(static_cast<size_t>(b.vertexCount));
    PackedVertex* o = out.vertices.data();
    skinning::parallelVertices(b.vertexCount, options.threads, kMinChunk, [&](std::ptrdiff_t s, std::ptrdiff_t e) {
        if (b.influences == 4)
            twistDispatch<4>(b, f, o, s, e);
        else
            twistDispatch<0>(b, f, o, s, e);
    });
}

namespace {

/// Per link c (child joint), the top joint of its limb: c climbed up while
/// the parent has c as its only child (−1 for the root).
std::vector<int> limbRoots(const std::vector<int>& parents)
{
    const size_t n = parents.size();
    std::vector<int> children(n, 0);
    for (const int p : parents)
        if (p >= 0 && static_cast<size_t>(p) < n)
            ++children[static_cast<size_t>(p)];
    std::vector<int> root(n, -1);
    for (size_t c = 0; c < n; ++c) {
        if (parents[c] < 0)
            continue;
        int x = static_cast<int>(c);
        for (size_t guard = 0; guard < n; ++guard) {
            const int p = parents[static_cast<size_t>(x)];
            if (p < 0 || children[static_cast<size_t>(p)] != 1)
                break;
            x = p;
        }
        root[c] = x;
    }
    return root;
}

double limbTwistScale(double limbWeight)
{
    const double t = std::clamp(2.0 * limbWeight - 1.0, 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

Segmentation twistSegmentation(const Segmentation& seg, const SkinWeights& W, const std::vector<int>& parents)
{
    const int nJ = static_cast<int>(parents.size());
    for (int j = 0; j < nJ; ++j)
        if (const int p = parents[static_cast<size_t>(j)]; (j == 0) != (p < 0) || p >= j)
            throw InvalidInput("rig::twistSegmentation(): joint " + std::to_string(j) + " has parent " +
                               std::to_string(p) + "; need one root at index 0 and parents[i] < i");
    validateSegmentation(seg, W.vertexCount(), nJ);
    const std::vector<int> root = limbRoots(parents);
    // Pre-order entry and exit of each joint: j lies in the subtree of r iff
    // enter[r] <= enter[j] < leave[r].
    std::vector<std::vector<int>> children(static_cast<size_t>(nJ));
    for (int j = 1; j < nJ; ++j)
        children[static_cast<size_t>(parents[static_cast<size_t>(j)])].push_back(j);
    std::vector<int> enter(static_cast<size_t>(nJ), 0), leave(static_cast<size_t>(nJ), 0);
    std::vector<std::pair<int, size_t>> stack;
    int clock = 0;
    if (nJ > 0)
        stack.push_back({0, 0});
    if (nJ > 0)
        enter[0] = clock++;
    while (!stack.empty()) {
        auto& [j, next] = stack.back();
        if (next < children[static_cast<size_t>(j)].size()) {
            const int c = children[static_cast<size_t>(j)][next++];
            enter[static_cast<size_t>(c)] = clock++;
            stack.push_back({c, 0});
        } else {
            leave[static_cast<size_t>(j)] = clock;
            stack.pop_back();
        }
    }
    Segmentation out = seg;
    for (int i = 0; i < W.vertexCount(); ++i) {
        const int c = seg.bone[static_cast<size_t>(i)];
        if (c <= 0 || root[static_cast<size_t>(c)] < 0)
            continue;
        const size_t r = static_cast<size_t>(root[static_cast<size_t>(c)]);
        double w = 0.0;
        for (int s = 0; s < W.maxInfluences; ++s) {
            const int j = W.joints(i, s);
            if (j < 0 || j >= nJ)
                throw InvalidInput("rig::twistSegmentation(): vertex " + std::to_string(i) + " has joint index " +
                                   std::to_string(j) + " outside the skeleton's " + std::to_string(nJ) + " joints");
            if (enter[r] <= enter[static_cast<size_t>(j)] && enter[static_cast<size_t>(j)] < leave[r])
                w += W.weights(i, s);
        }
        out.delta[static_cast<size_t>(i)] = std::clamp(seg.delta[static_cast<size_t>(i)] * limbTwistScale(w), 0.0, 1.0);
    }
    return out;
}

} // namespace

Segmentation twistSegmentation(const Segmentation& seg, const SkinWeights& W, const Skeleton& skeleton)
{
    validateSkeleton(skeleton);
    return twistSegmentation(seg, W, skeleton.parents);
}

void bindTwist(SkinBinding& b, const Segmentation& seg, const Skeleton& skeleton)
{
    validateSkeleton(skeleton);
    // The binding's own influences (sorted, the same weights bindSkin() was given).
    SkinWeights W;
    W.maxInfluences = b.influences;
    W.joints.resize(b.vertexCount, b.influences);
    W.weights.resize(b.vertexCount, b.influences);
    for (int i = 0; i < b.vertexCount; ++i)
        for (int s = 0; s < b.influences; ++s) {
            const size_t at = static_cast<size_t>(i) * static_cast<size_t>(b.influences) + static_cast<size_t>(s);
            W.joints(i, s) = b.jointOffset[at] / 16;
            W.weights(i, s) = b.weights[at];
        }
    MatrixX3d u(skeleton.jointCount(), 3);
    for (int j = 0; j < skeleton.jointCount(); ++j)
        u.row(j) = twistAxis(skeleton, j).transpose();
    bindTwist(b, twistSegmentation(seg, W, skeleton.parents), skeleton.bindPositions, u);
}

void twistLbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, const Segmentation& seg,
              const TwistTransforms& T, DeformedMesh& out, const SkinningOptions& options)
{
    SkinBinding b = bindSkin(V, N, W, static_cast<int>(T.untwisted.size()));
    if (T.axisPoint.rows() != b.jointCount || T.axisDirection.rows() != b.jointCount)
        throw InvalidInput("rig::twistLbs(): the twist transforms have inconsistent sizes; build them with "
                           "rig::twistTransforms()");
    if (static_cast<int>(T.parents.size()) != b.jointCount)
        throw InvalidInput("rig::twistLbs(): the twist transforms carry no skeleton hierarchy; build them with "
                           "rig::twistTransforms()");
    bindTwist(b, twistSegmentation(seg, W, T.parents), T.axisPoint, T.axisDirection);
    SkinnedMesh posed;
    twistLbs(b, T, posed, options);
    toDeformedMesh(posed, b.hasNormals, out);
}

DeformedMesh twistLbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, const Segmentation& seg,
                      const TwistTransforms& T, const SkinningOptions& options)
{
    DeformedMesh out;
    twistLbs(V, N, W, seg, T, out, options);
    return out;
}

} // namespace rig
