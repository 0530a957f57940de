#include "core/eval/skeleton_metrics.h"

#include "core/common/error.h"
#include "core/eval/linear_assignment.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

// Every formula below follows score.py line by line (same thresholds, same
// order of operations where it matters for ties), so that the figures agree
// with the reference scorer to round-off.

namespace rig {
namespace {

constexpr int raysPerBone = 14;
constexpr double infinity = std::numeric_limits<double>::infinity();

std::string str(Eigen::Index i)
{
    return std::to_string(i);
}

void checkFinite(const std::string& fn, const char* what, const MatrixX3d& X)
{
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        if (!X.row(i).allFinite())
            throw InvalidInput(fn + ": " + what + " " + str(i) + " has a non-finite coordinate");
}

void checkSkeleton(const std::string& fn, const char* what, const MatrixX3d& joints, std::span<const int> parents)
{
    if (static_cast<Eigen::Index>(parents.size()) != joints.rows())
        throw InvalidInput(fn + ": " + what + " skeleton has " + str(joints.rows()) + " joints but " +
                           std::to_string(parents.size()) + " parents");
    for (size_t i = 0; i < parents.size(); ++i)
        if (parents[i] < -1 || parents[i] >= static_cast<int>(i))
            throw InvalidInput(fn + ": " + what + " joint " + std::to_string(i) + " has parent " +
                               std::to_string(parents[i]) + "; a parent must be -1 or a joint before it");
    checkFinite(fn, (std::string(what) + " joint").c_str(), joints);
}

void checkMesh(const std::string& fn, const MatrixX3d& V, const MatrixX3i& F)
{
    if (V.rows() == 0 || F.rows() == 0)
        throw InvalidInput(fn + ": the mesh is empty (" + str(V.rows()) + " vertices, " + str(F.rows()) +
                           " triangles)");
    if (F.minCoeff() < 0 || F.maxCoeff() >= V.rows())
        throw InvalidInput(fn + ": a triangle names a vertex outside the " + str(V.rows()) + " vertices");
    checkFinite(fn, "vertex", V);
}

/// score.py's perp_dirs: 14 unit directions perpendicular to `bone`.
std::array<Vec3, raysPerBone> perpendicularRays(const Vec3& bone)
{
    const Vec3 b = bone / std::max(bone.norm(), 1e-12);
    const Vec3 a = std::abs(b.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
    const Vec3 u = b.cross(a).normalized();
    const Vec3 w = b.cross(u);
    std::array<Vec3, raysPerBone> rays;
    for (int k = 0; k < raysPerBone; ++k) {
        const double angle = static_cast<double>(2 * k) * std::numbers::pi / raysPerBone;
        rays[static_cast<size_t>(k)] = std::cos(angle) * u + std::sin(angle) * w;
    }
    return rays;
}

/// The rays of each joint: those of every bone it belongs to, in bone order.
std::vector<std::vector<Vec3>> jointRays(const MatrixX3d& joints, std::span<const int> parents)
{
    std::vector<std::vector<Vec3>> rays(parents.size());
    for (size_t c = 0; c < parents.size(); ++c) {
        const int p = parents[c];
        if (p < 0)
            continue;
        const Vec3 bone = (joints.row(static_cast<Eigen::Index>(c)) - joints.row(p)).transpose();
        for (const Vec3& d : perpendicularRays(bone.norm() > 1e-12 ? bone : Vec3::UnitY())) {
            rays[static_cast<size_t>(p)].push_back(d);
            rays[c].push_back(d);
        }
    }
    return rays;
}

/// Triangles as a corner and two edges, for Möller–Trumbore.
struct Triangles {
    std::vector<Vec3> a, e1, e2, centroid;
};

Triangles triangles(const MatrixX3d& V, const MatrixX3i& F)
{
    Triangles t;
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const Vec3 a = V.row(F(f, 0)).transpose(), b = V.row(F(f, 1)).transpose(), c = V.row(F(f, 2)).transpose();
        t.a.push_back(a);
        t.e1.push_back(b - a);
        t.e2.push_back(c - a);
        t.centroid.push_back((a + b + c) / 3.0);
    }
    return t;
}

/// The first hit distance along each ray from `origin` (infinity when none).
/// Per triangle, what depends on the origin only (o − A and (o − A) × E1) is
/// computed once for all the joint's rays.
std::vector<double> firstHits(const Vec3& origin, const std::vector<Vec3>& rays, const Triangles& tris)
{
    std::vector<double> hit(rays.size(), infinity);
    for (size_t f = 0; f < tris.a.size(); ++f) {
        const Vec3& e1 = tris.e1[f];
        const Vec3& e2 = tris.e2[f];
        const Vec3 tv = origin - tris.a[f];
        const Vec3 q = tv.cross(e1);
        const double tq = e2.dot(q);
        for (size_t r = 0; r < rays.size(); ++r) {
            const Vec3 p = rays[r].cross(e2);
            const double det = e1.dot(p);
            if (!(std::abs(det) > 1e-12))
                continue;
            const double inv = 1.0 / det;
            const double u = tv.dot(p) * inv;
            if (u < 0.0 || u > 1.0)
                continue;
            const double v = rays[r].dot(q) * inv;
            if (v < 0.0 || u + v > 1.0)
                continue;
            const double t = tq * inv;
            if (t > 1e-9 && t < hit[r])
                hit[r] = t;
        }
    }
    return hit;
}

/// The fallback diameter: mean distance from `p` to the corners of the
/// triangle whose centroid is nearest (the first such triangle on a tie).
double nearestTriangleSpread(const Vec3& p, const MatrixX3d& V, const MatrixX3i& F, const Triangles& tris)
{
    size_t best = 0;
    double bestDistance = infinity;
    for (size_t f = 0; f < tris.centroid.size(); ++f) {
        const double d = (tris.centroid[f] - p).norm();
        if (d < bestDistance) {
            bestDistance = d;
            best = f;
        }
    }
    double sum = 0.0;
    for (int k = 0; k < 3; ++k)
        sum += (V.row(F(static_cast<Eigen::Index>(best), k)).transpose() - p).norm();
    return sum / 3.0;
}

Eigen::VectorXd shapeDiameters(const MatrixX3d& joints, std::span<const int> parents, const MatrixX3d& V,
                               const MatrixX3i& F)
{
    const Triangles tris = triangles(V, F);
    const std::vector<std::vector<Vec3>> rays = jointRays(joints, parents);
    Eigen::VectorXd out(joints.rows());
    for (Eigen::Index j = 0; j < joints.rows(); ++j) {
        const Vec3 origin = joints.row(j).transpose();
        double sum = 0.0;
        int count = 0;
        for (double t : firstHits(origin, rays[static_cast<size_t>(j)], tris))
            if (std::isfinite(t)) {
                sum += t;
                ++count;
            }
        out(j) = count > 0 ? sum / count : nearestTriangleSpread(origin, V, F, tris);
    }
    return out;
}

/// score.py's normaliser: X ↦ (X + t) · s with t centring x and z and
/// lifting the lowest vertex to y = 0, s = 1 / longest side, both from V.
struct Normaliser {
    Eigen::RowVector3d t;
    double s = 1.0;
    MatrixX3d operator()(const MatrixX3d& X) const { return ((X.rowwise() + t) * s).eval(); }
};

Normaliser normaliser(const std::string& fn, const MatrixX3d& V)
{
    const Eigen::RowVector3d lo = V.colwise().minCoeff(), hi = V.colwise().maxCoeff();
    const double longest = (hi - lo).maxCoeff();
    if (!(longest > 0.0))
        throw InvalidInput(fn + ": the mesh's bounding box has zero size");
    return {Eigen::RowVector3d(-(lo.x() + hi.x()) / 2, -lo.y(), -(lo.z() + hi.z()) / 2), 1.0 / longest};
}

/// score.py's pt_seg: distance from `p` to the segment [a, b].
double pointSegmentDistance(const Vec3& p, const Vec3& a, const Vec3& b)
{
    const Vec3 ab = b - a;
    const double l2 = ab.dot(ab);
    const double t = l2 > 1e-16 ? std::clamp((p - a).dot(ab) / l2, 0.0, 1.0) : 0.0;
    return (p - (a + t * ab)).norm();
}

/// score.py's seg_seg: distance between segments [p0, p1] and [q0, q1]
/// (closest points clamped to the segments; Eberly, Sunday).
double segmentSegmentDistance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1)
{
    const Vec3 u = p1 - p0, v = q1 - q0, w = p0 - q0;
    const double a = u.dot(u), b = u.dot(v), c = v.dot(v), d = u.dot(w), e = v.dot(w);
    const double den = a * c - b * b;
    constexpr double eps = 1e-14;
    double sN = 0.0, sD = den, tN = 0.0, tD = den;
    if (den < eps) { // parallel: fix s = 0
        sD = 1.0;
        tN = e;
        tD = c;
    } else {
        sN = b * e - c * d;
        tN = a * e - b * d;
        if (sN < 0.0) {
            sN = 0.0;
            tN = e;
            tD = c;
        } else if (sN > sD) {
            sN = sD;
            tN = e + b;
            tD = c;
        }
    }
    if (tN < 0.0) {
        tN = 0.0;
        if (-d < 0.0)
            sN = 0.0;
        else if (-d > a)
            sN = sD;
        else {
            sN = -d;
            sD = a;
        }
    } else if (tN > tD) {
        tN = tD;
        if (-d + b < 0.0)
            sN = 0.0;
        else if (-d + b > a)
            sN = sD;
        else {
            sN = -d + b;
            sD = a;
        }
    }
    const double sc = std::abs(sN) < eps ? 0.0 : sN / sD;
    const double tc = std::abs(tN) < eps ? 0.0 : tN / tD;
    return (w + sc * u - tc * v).norm();
}

struct Bone {
    Vec3 parent, child;
};

std::vector<Bone> bones(const MatrixX3d& joints, std::span<const int> parents)
{
    std::vector<Bone> out;
    for (size_t c = 0; c < parents.size(); ++c)
        if (parents[c] >= 0)
            out.push_back({joints.row(parents[c]).transpose(), joints.row(static_cast<Eigen::Index>(c)).transpose()});
    return out;
}

/// Mean over `points` of the distance to the nearest bone of `to`.
double meanDistanceToBones(const MatrixX3d& points, const std::vector<Bone>& to)
{
    double sum = 0.0;
    for (Eigen::Index i = 0; i < points.rows(); ++i) {
        double best = infinity;
        for (const Bone& b : to)
            best = std::min(best, pointSegmentDistance(points.row(i).transpose(), b.parent, b.child));
        sum += best;
    }
    return sum / static_cast<double>(points.rows());
}

/// ½ (mean row minimum + mean column minimum) of a distance matrix.
double chamfer(const Eigen::MatrixXd& D)
{
    return 0.5 * (D.rowwise().minCoeff().mean() + D.colwise().minCoeff().mean());
}

double boneToBone(const std::vector<Bone>& p, const std::vector<Bone>& q)
{
    Eigen::MatrixXd D(static_cast<Eigen::Index>(p.size()), static_cast<Eigen::Index>(q.size()));
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t k = 0; k < q.size(); ++k)
            D(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) =
                segmentSegmentDistance(p[i].parent, p[i].child, q[k].parent, q[k].child);
    return chamfer(D);
}

/// The index of the first smallest entry.
Eigen::Index argmin(const Eigen::VectorXd& x)
{
    Eigen::Index best = 0;
    for (Eigen::Index i = 1; i < x.size(); ++i)
        if (x(i) < x(best))
            best = i;
    return best;
}

/// IoU, precision and recall from the #P by #Q cost and the tolerances.
void matchingScores(const Eigen::MatrixXd& cost, const Eigen::VectorXd& tolerance, SkeletonMetrics& m)
{
    int within = 0, precise = 0, recalled = 0;
    for (const auto& [r, c] : linearAssignment(cost)) {
        within += cost(r, c) < tolerance(c);
        const Eigen::Index g = argmin(cost.row(r).transpose());
        precise += cost(r, g) < tolerance(g);
        const Eigen::Index p = argmin(cost.col(c));
        recalled += cost(p, c) < tolerance(c);
    }
    m.iou = 100.0 * (2 * within) / (m.predictedJoints + m.referenceJoints);
    m.precision = 100.0 * precise / m.predictedJoints;
    m.recall = 100.0 * recalled / m.referenceJoints;
}

} // namespace

Eigen::VectorXd localShapeDiameter(const MatrixX3d& joints, std::span<const int> parents, const MatrixX3d& V,
                                   const MatrixX3i& F)
{
    const std::string fn = "rig::localShapeDiameter()";
    checkSkeleton(fn, "the", joints, parents);
    checkMesh(fn, V, F);
    return shapeDiameters(joints, parents, V, F);
}

SkeletonMetrics skeletonMetrics(const MatrixX3d& predicted, std::span<const int> predictedParents,
                                const MatrixX3d& reference, std::span<const int> referenceParents, const MatrixX3d& V,
                                const MatrixX3i& F)
{
    const std::string fn = "rig::skeletonMetrics()";
    if (predicted.rows() == 0 || reference.rows() == 0)
        throw InvalidInput(fn + ": the " + (predicted.rows() == 0 ? "predicted" : "reference") +
                           " skeleton has no joint");
    checkSkeleton(fn, "predicted", predicted, predictedParents);
    checkSkeleton(fn, "reference", reference, referenceParents);
    checkMesh(fn, V, F);
    const Normaliser normalise = normaliser(fn, V);
    const MatrixX3d P = normalise(predicted), Q = normalise(reference), Vn = normalise(V);

    SkeletonMetrics m;
    m.predictedJoints = static_cast<int>(P.rows());
    m.referenceJoints = static_cast<int>(Q.rows());
    Eigen::MatrixXd cost(P.rows(), Q.rows());
    for (Eigen::Index i = 0; i < P.rows(); ++i)
        for (Eigen::Index k = 0; k < Q.rows(); ++k)
            cost(i, k) = (P.row(i) - Q.row(k)).norm();
    m.cdJ2J = 100.0 * chamfer(cost);
    const std::vector<Bone> bp = bones(P, predictedParents), bq = bones(Q, referenceParents);
    if (!bp.empty() && !bq.empty()) {
        m.cdJ2B = 100.0 * (0.5 * (meanDistanceToBones(P, bq) + meanDistanceToBones(Q, bp)));
        m.cdB2B = 100.0 * boneToBone(bp, bq);
    }
    const Eigen::VectorXd tolerance = shapeDiameters(Q, referenceParents, Vn, F);
    matchingScores(cost, tolerance, m);
    m.meanShapeDiameter = 100.0 * tolerance.mean();
    return m;
}

} // namespace rig
