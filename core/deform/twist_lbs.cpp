#include "core/deform/twist_lbs.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/skinning_kernels.h"

#include <cmath>
#include <numbers>
#include <string>

namespace rig {
namespace {

using skinning::F4;
using skinning::Mat4f;

/// Per-segment data of the vertex loop: q = H·T(θδ)·p is computed as
/// q = Hl · Rot(u, θδ) · (p − b) + h with h = H(b).
struct alignas(64) SegmentF {
    Mat4f h;      ///< H's linear part with h = H(b) as translation.
    float b[3];   ///< Axis point.
    float u[3];   ///< Unit axis (zero: no twist).
    double theta; ///< θ_c, unwrapped.
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

/// Rodrigues (thesis eq. 4.9): v cos φ + (u × v) sin φ + u (u·v)(1 − cos φ).
inline void rodrigues(const float* u, float s, float c, float& x, float& y, float& z)
{
    const float d = (u[0] * x + u[1] * y + u[2] * z) * (1.0f - c);
    const float cx = u[1] * z - u[2] * y, cy = u[2] * x - u[0] * z, cz = u[0] * y - u[1] * x;
    x = x * c + cx * s + u[0] * d;
    y = y * c + cy * s + u[1] * d;
    z = z * c + cz * s + u[2] * d;
}

template <int K, bool HasN>
void twistRange(const double* V, const double* N, const int* J, const float* W, int k, const int* bone,
                const double* delta, const Mat4f* G, const Mat4f* M, const SegmentF* S, double* outV,
                double* outN, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const int kk = K > 0 ? K : k;
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
        const Mat4f* mats = c < 0 ? M : G;
        if (c >= 0 && !S[c].identity) {
            // Per-vertex part: the shared partial twist T_c(θ_c δ), then H_c.
            const SegmentF& sg = S[c];
            float sn, cs;
            fastSinCos(sg.theta * delta[i], sn, cs);
            float rx = x - sg.b[0], ry = y - sg.b[1], rz = z - sg.b[2];
            rodrigues(sg.u, sn, cs, rx, ry, rz);
            const F4 q = sg.h.c[0] * skinning::splat(rx) + sg.h.c[1] * skinning::splat(ry) +
                         sg.h.c[2] * skinning::splat(rz) + sg.h.c[3];
            x = q[0];
            y = q[1];
            z = q[2];
            if constexpr (HasN) {
                rodrigues(sg.u, sn, cs, nx, ny, nz);
                const F4 m = sg.h.c[0] * skinning::splat(nx) + sg.h.c[1] * skinning::splat(ny) +
                             sg.h.c[2] * skinning::splat(nz);
                nx = m[0];
                ny = m[1];
                nz = m[2];
            }
        }
        F4 A[4];
        skinning::blend<K>(mats, J + i * kk, W + i * kk, kk, A);
        skinning::applyPoint(A, x, y, z, outV + 3 * i);
        if constexpr (HasN)
            skinning::applyNormal(A, nx, ny, nz, outN + 3 * i);
    }
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

    std::vector<Mat4f> G(static_cast<size_t>(nJ)), M(static_cast<size_t>(nJ));
    std::vector<SegmentF> S(static_cast<size_t>(nJ));
    for (int j = 0; j < nJ; ++j) {
        const size_t J = static_cast<size_t>(j);
        G[J] = skinning::toMat4f(T.untwisted[J]);
        M[J] = skinning::toMat4f(T.skinning[J]);
        const Eigen::Isometry3d& H = T.segmentBase[J];
        const Vec3 b = T.axisPoint.row(j).transpose();
        const Vec3 u = T.axisDirection.row(j).transpose();
        Eigen::Isometry3d Hb = H; // h = H(b), so that q = Hl·(rotated p − b) + h
        Hb.translation() = H * b;
        SegmentF& sg = S[J];
        sg.h = skinning::toMat4f(Hb);
        for (int r = 0; r < 3; ++r) {
            sg.b[r] = static_cast<float>(b[r]);
            sg.u[r] = static_cast<float>(u[r]);
        }
        sg.theta = u.squaredNorm() > 0.0 ? T.angle[J] : 0.0;
        sg.identity = (sg.theta == 0.0 && H.matrix().isIdentity(0.0)) ? 1 : 0;
    }

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
    parallelFor(V.rows(), options.threads, kMinChunk, [&](std::ptrdiff_t b, std::ptrdiff_t e) {
        if (k == 4) {
            if (hasN)
                twistRange<4, true>(pV, pN, pJ, pW, k, pB, pD, G.data(), M.data(), S.data(), oV, oN, b, e);
            else
                twistRange<4, false>(pV, pN, pJ, pW, k, pB, pD, G.data(), M.data(), S.data(), oV, oN, b, e);
        } else {
            if (hasN)
                twistRange<0, true>(pV, pN, pJ, pW, k, pB, pD, G.data(), M.data(), S.data(), oV, oN, b, e);
            else
                twistRange<0, false>(pV, pN, pJ, pW, k, pB, pD, G.data(), M.data(), S.data(), oV, oN, b, e);
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
