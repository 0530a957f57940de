#include "core/eval/deform_quality.h"

#include "core/common/error.h"

#include <Eigen/Geometry>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>
#include <unordered_set>

namespace rig {
namespace {

using Quat = Eigen::Quaterniond;

/// The local rotation of joint j that turns it by `world` (a rotation in the
/// bind pose's world frame): O_j⁻¹ · world · O_j.
Quat localOf(const Skeleton& s, int j, const Quat& world)
{
    const Quat& o = s.bindOrientations[static_cast<size_t>(j)];
    return (o.conjugate() * world * o).normalized();
}

Vec3 boneDirection(const Skeleton& s, int from, int to)
{
    return (s.bindPositions.row(to) - s.bindPositions.row(from)).transpose().normalized();
}

/// The first child of joint j, or -1.
int childOf(const Skeleton& s, int j)
{
    for (int c = 0; c < s.jointCount(); ++c)
        if (s.parents[static_cast<size_t>(c)] == j)
            return c;
    return -1;
}

/// Joint `j` rotated so its bone turns by `degrees` towards `towards`.
DeformTestPose bend(const Skeleton& s, int j, const Vec3& towards, double degrees, const std::string& name)
{
    DeformTestPose t{name, j, identityPose(s)};
    const int c = childOf(s, j);
    if (c < 0)
        return t;
    const Vec3 bone = boneDirection(s, j, c);
    Vec3 axis = bone.cross(towards);
    if (axis.norm() < 1e-6)
        axis = bone.unitOrthogonal();
    const Quat world(Eigen::AngleAxisd(degrees * std::numbers::pi / 180.0, axis.normalized()));
    t.pose.localRotations[static_cast<size_t>(j)] = localOf(s, j, world);
    return t;
}

/// Joint `j` twisted by `degrees` about its parent bone (the forearm for a hand).
DeformTestPose twist(const Skeleton& s, int j, double degrees, const std::string& name)
{
    DeformTestPose t{name, j, identityPose(s)};
    const int p = s.parents[static_cast<size_t>(j)];
    if (p < 0)
        return t;
    const Quat world(Eigen::AngleAxisd(degrees * std::numbers::pi / 180.0, boneDirection(s, p, j)));
    t.pose.localRotations[static_cast<size_t>(j)] = localOf(s, j, world);
    return t;
}

double signedConeVolume(const Vec3& apex, const Vec3& a, const Vec3& b, const Vec3& c)
{
    return (a - apex).dot((b - apex).cross(c - apex)) / 6.0;
}

/// The segment's reference point at rest and its transform's index.
struct SegmentFrame {
    Vec3 centre;
    int joint; ///< The joint whose skinning transform moves the segment.
};

SegmentFrame segmentFrame(const Skeleton& s, int bone)
{
    const int p = bone > 0 ? s.parents[static_cast<size_t>(bone)] : -1;
    if (p < 0)
        return {s.bindPositions.row(0).transpose(), 0};
    return {0.5 * (s.bindPositions.row(p) + s.bindPositions.row(bone)).transpose(), p};
}

double maxSegmentVolumeChange(const Mesh& rest, const MatrixX3d& posed, const Skeleton& s, const PosedSkeleton& ps,
                              const std::vector<int>& segment, double minFraction)
{
    std::vector<double> before(static_cast<size_t>(s.jointCount()), 0.0), after(before);
    for (Eigen::Index f = 0; f < rest.F.rows(); ++f) {
        const int bone = segment[static_cast<size_t>(rest.F(f, 0))];
        if (bone < 0)
            continue;
        const SegmentFrame frame = segmentFrame(s, bone);
        const Vec3 moved = ps.skinning[static_cast<size_t>(frame.joint)] * frame.centre;
        const auto i = rest.F.row(f);
        before[static_cast<size_t>(bone)] += signedConeVolume(frame.centre, rest.V.row(i(0)), rest.V.row(i(1)), rest.V.row(i(2)));
        after[static_cast<size_t>(bone)] += signedConeVolume(moved, posed.row(i(0)), posed.row(i(1)), posed.row(i(2)));
    }
    double total = 0, worst = 0;
    for (const double v : before)
        total += std::abs(v);
    for (size_t b = 0; b < before.size(); ++b)
        if (std::abs(before[b]) > minFraction * total)
            worst = std::max(worst, std::abs(after[b] - before[b]) / std::abs(before[b]));
    return worst;
}

/// Whether segment pq crosses triangle abc (Möller–Trumbore, t in [0, 1]).
bool segmentHitsTriangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c)
{
    const Vec3 d = q - p, e1 = b - a, e2 = c - a;
    const Vec3 h = d.cross(e2);
    const double det = e1.dot(h);
    if (std::abs(det) < 1e-300)
        return false;
    const Vec3 s = p - a;
    const double u = s.dot(h) / det;
    if (u < 0 || u > 1)
        return false;
    const Vec3 qv = s.cross(e1);
    const double v = d.dot(qv) / det;
    if (v < 0 || u + v > 1)
        return false;
    const double t = e2.dot(qv) / det;
    return t >= 0 && t <= 1;
}

bool trianglesIntersect(const MatrixX3d& V, const Eigen::Vector3i& s, const Eigen::Vector3i& t)
{
    for (int k = 0; k < 3; ++k) {
        if (segmentHitsTriangle(V.row(s(k)), V.row(s((k + 1) % 3)), V.row(t(0)), V.row(t(1)), V.row(t(2))))
            return true;
        if (segmentHitsTriangle(V.row(t(k)), V.row(t((k + 1) % 3)), V.row(s(0)), V.row(s(1)), V.row(s(2))))
            return true;
    }
    return false;
}

} // namespace

std::vector<DeformTestPose> deformTestPoses(const Skeleton& s, const Vec3& front)
{
    std::vector<DeformTestPose> poses;
    const Vec3 up = Vec3::UnitY();
    for (const std::string side : {"Left", "Right"}) {
        auto at = [&](const std::string& name) { return s.find(side + name).value_or(-1); };
        if (const int j = at("ForeArm"); j >= 0)
            poses.push_back(bend(s, j, front, 120, side + "ForeArm bend 120"));
        if (const int j = at("Leg"); j >= 0)
            poses.push_back(bend(s, j, -front, 120, side + "Leg bend 120"));
        if (const int j = at("Arm"); j >= 0)
            poses.push_back(bend(s, j, up, 90, side + "Arm raise 90"));
        if (const int j = at("UpLeg"); j >= 0)
            poses.push_back(bend(s, j, front, 90, side + "UpLeg raise 90"));
        for (const std::string joint : {"ForeArm", "Hand"})
            if (const int j = at(joint); j >= 0)
                for (const int degrees : {-180, -90, 90, 180})
                    poses.push_back(twist(s, j, degrees, side + joint + " twist " + std::to_string(degrees)));
    }
    return poses;
}

int selfIntersections(const MatrixX3d& V, const MatrixX3i& F, const Vec3& centre, double radius)
{
    std::vector<int> near;
    double edge = 0;
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        bool inside = false;
        for (int k = 0; k < 3; ++k)
            inside = inside || (V.row(F(f, k)).transpose() - centre).norm() < radius;
        if (!inside)
            continue;
        near.push_back(static_cast<int>(f));
        edge = std::max(edge, (V.row(F(f, 0)) - V.row(F(f, 1))).norm());
    }
    if (near.empty() || edge <= 0)
        return 0;
    const double cell = std::max(edge, radius / 64.0);
    std::unordered_map<std::int64_t, std::vector<int>> grid;
    auto key = [](std::int64_t x, std::int64_t y, std::int64_t z) { return (x * 73856093) ^ (y * 19349663) ^ (z * 83492791); };
    for (const int f : near) {
        Eigen::Vector3d lo = V.row(F(f, 0)), hi = lo;
        for (int k = 1; k < 3; ++k) {
            lo = lo.cwiseMin(V.row(F(f, k)).transpose());
            hi = hi.cwiseMax(V.row(F(f, k)).transpose());
        }
        const Eigen::Array3d a = (lo.array() / cell).floor(), b = (hi.array() / cell).floor();
        for (auto x = static_cast<std::int64_t>(a.x()); x <= static_cast<std::int64_t>(b.x()); ++x)
            for (auto y = static_cast<std::int64_t>(a.y()); y <= static_cast<std::int64_t>(b.y()); ++y)
                for (auto z = static_cast<std::int64_t>(a.z()); z <= static_cast<std::int64_t>(b.z()); ++z)
                    grid[key(x, y, z)].push_back(f);
    }
    std::unordered_set<std::int64_t> seen;
    int count = 0;
    for (const auto& [k, list] : grid)
        for (size_t i = 0; i < list.size(); ++i)
            for (size_t j = i + 1; j < list.size(); ++j) {
                const int s = std::min(list[i], list[j]), t = std::max(list[i], list[j]);
                const Eigen::Vector3i fs = F.row(s), ft = F.row(t);
                if ((fs.array() == ft(0) || fs.array() == ft(1) || fs.array() == ft(2)).any())
                    continue;
                if (!seen.insert(static_cast<std::int64_t>(s) * F.rows() + t).second)
                    continue;
                count += trianglesIntersect(V, fs, ft) ? 1 : 0;
            }
    return count;
}

namespace {

/// Per vertex, the rotation that best carries its rest one-ring (the vertex
/// and its neighbours, centred) onto the posed one (Kabsch: the polar factor
/// of the cross-covariance); `fallback[v]` where the rest ring spans no plane.
std::vector<Eigen::Matrix3d> ringRotations(const Mesh& rest, const MatrixX3d& posed,
                                           const std::vector<Eigen::Matrix3d>& fallback)
{
    const Eigen::Index n = rest.V.rows();
    std::vector<std::vector<int>> ring(static_cast<size_t>(n));
    for (Eigen::Index f = 0; f < rest.F.rows(); ++f)
        for (int k = 0; k < 3; ++k) {
            auto& r = ring[static_cast<size_t>(rest.F(f, k))];
            for (int m = 1; m < 3; ++m)
                r.push_back(rest.F(f, (k + m) % 3));
        }
    std::vector<Eigen::Matrix3d> R(static_cast<size_t>(n));
    for (Eigen::Index v = 0; v < n; ++v) {
        auto& r = ring[static_cast<size_t>(v)];
        std::sort(r.begin(), r.end());
        r.erase(std::unique(r.begin(), r.end()), r.end());
        r.push_back(static_cast<int>(v));
        Vec3 a = Vec3::Zero(), b = Vec3::Zero();
        for (const int u : r) {
            a += rest.V.row(u).transpose();
            b += posed.row(u).transpose();
        }
        a /= static_cast<double>(r.size());
        b /= static_cast<double>(r.size());
        Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
        for (const int u : r)
            H += (rest.V.row(u).transpose() - a) * (posed.row(u).transpose() - b).transpose();
        const Eigen::JacobiSVD<Eigen::Matrix3d> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
        const Eigen::Vector3d sv = svd.singularValues();
        if (r.size() < 3 || sv(1) <= 1e-12 * std::max(sv(0), 1e-300)) {
            R[static_cast<size_t>(v)] = fallback[static_cast<size_t>(v)];
            continue;
        }
        Eigen::Matrix3d D = Eigen::Matrix3d::Identity();
        D(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0 ? -1.0 : 1.0;
        R[static_cast<size_t>(v)] = svd.matrixV() * D * svd.matrixU().transpose();
    }
    return R;
}

} // namespace

DeformQuality measureDeformation(const Mesh& rest, const MatrixX3d& posed, const Skeleton& skeleton,
                                 const PosedSkeleton& ps, const std::vector<int>& segment,
                                 const std::vector<int>& topJoint, int posedJoint, const DeformQualityOptions& o)
{
    DeformQuality q;
    std::vector<Eigen::Matrix3d> bone(static_cast<size_t>(rest.V.rows()));
    for (Eigen::Index v = 0; v < rest.V.rows(); ++v)
        bone[static_cast<size_t>(v)] = ps.skinning[static_cast<size_t>(topJoint[static_cast<size_t>(v)])].linear();
    const std::vector<Eigen::Matrix3d> local = o.flipAgainstBone ? bone : ringRotations(rest, posed, bone);
    for (Eigen::Index f = 0; f < rest.F.rows(); ++f) {
        const auto i = rest.F.row(f);
        double stretch = 0;
        for (int k = 0; k < 3; ++k) {
            const double r = (rest.V.row(i(k)) - rest.V.row(i((k + 1) % 3))).norm();
            const double p = (posed.row(i(k)) - posed.row(i((k + 1) % 3))).norm();
            if (r > 0)
                stretch = std::max(stretch, p / r);
        }
        if (stretch > q.maxStretch)
            q.worstTriangle = static_cast<int>(f);
        q.maxStretch = std::max(q.maxStretch, stretch);
        q.stretched += stretch > o.stretchLimit ? 1 : 0;
        const Vec3 restNormal = (rest.V.row(i(1)) - rest.V.row(i(0))).cross(rest.V.row(i(2)) - rest.V.row(i(0)));
        const Vec3 posedNormal = (posed.row(i(1)) - posed.row(i(0))).cross(posed.row(i(2)) - posed.row(i(0)));
        const Eigen::Matrix3d M = o.flipAgainstBone ? local[static_cast<size_t>(i(0))]
                                                    : Eigen::Matrix3d(local[static_cast<size_t>(i(0))] +
                                                                      local[static_cast<size_t>(i(1))] +
                                                                      local[static_cast<size_t>(i(2))]);
        q.flipped += posedNormal.dot(M * restNormal) < 0 ? 1 : 0;
    }
    q.maxVolumeChange = maxSegmentVolumeChange(rest, posed, skeleton, ps, segment, o.minSegmentVolume);
    const double height = rest.V.col(1).maxCoeff() - rest.V.col(1).minCoeff();
    q.intersections = selfIntersections(posed, rest.F, ps.positions.row(posedJoint).transpose(),
                                        o.contactRadius * height) -
                      selfIntersections(rest.V, rest.F, skeleton.bindPositions.row(posedJoint).transpose(),
                                        o.contactRadius * height);
    q.intersections = std::max(q.intersections, 0);
    return q;
}

std::vector<DeformQuality> measureDeformers(const DeformerInput& input, const Vec3& front,
                                            const std::vector<std::string>& ids, const DeformQualityOptions& o)
{
    if (!input.segmentation)
        throw InvalidInput("rig::measureDeformers(): the deformation measure needs the segmentation");
    std::vector<int> top(static_cast<size_t>(input.weights.vertexCount()));
    for (int v = 0; v < input.weights.vertexCount(); ++v)
        top[static_cast<size_t>(v)] = input.weights.joints(v, 0);
    const auto poses = deformTestPoses(input.skeleton, front);
    std::vector<DeformQuality> rows;
    for (const DeformerInfo& d : deformers()) {
        if (!ids.empty() && std::find(ids.begin(), ids.end(), d.id) == ids.end())
            continue;
        const auto bound = d.bind(input);
        SkinnedMesh out;
        DeformedMesh posed;
        for (const DeformTestPose& t : poses) {
            bound->deform(t.pose, {}, out);
            toDeformedMesh(out, false, posed);
            DeformQuality q = measureDeformation(input.mesh, posed.V, input.skeleton,
                                                 forwardKinematics(input.skeleton, t.pose),
                                                 input.segmentation->bone, top, t.joint, o);
            q.deformer = d.id;
            q.pose = t.name;
            rows.push_back(std::move(q));
        }
    }
    return rows;
}

} // namespace rig
