#include "core/eval/bar_experiment.h"

#include "core/common/error.h"
#include "core/deform/dqs.h"
#include "core/rig/pose.h"
#include "core/deform/twist_lbs.h"
#include "core/mesh/mesh_queries.h"
#include "core/mesh/volume.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace rig {
namespace {

constexpr int kJoints = 5;
constexpr double kJointSpacing = 2.0;
constexpr double kDeg = std::numbers::pi / 180.0;
constexpr int kTwistedJoint = 2;

/// Perimeter of the square section, counter-clockwise in (x, z), m per side.
std::vector<std::pair<double, double>> perimeter(int m)
{
    const double cx[4] = {1, 1, -1, -1}, cz[4] = {-1, 1, 1, -1};
    std::vector<std::pair<double, double>> p;
    for (int s = 0; s < 4; ++s)
        for (int t = 0; t < m; ++t) {
            const double f = static_cast<double>(t) / m;
            const int e = (s + 1) % 4;
            p.emplace_back(cx[s] + f * (cx[e] - cx[s]), cz[s] + f * (cz[e] - cz[s]));
        }
    return p;
}

Pose eulerPose(const MatrixX3d& deg)
{
    Pose p;
    p.localRotations.resize(static_cast<size_t>(deg.rows()));
    for (Eigen::Index j = 0; j < deg.rows(); ++j)
        p.localRotations[static_cast<size_t>(j)] = Eigen::AngleAxisd(deg(j, 2) * kDeg, Vec3::UnitZ()) *
                                                   Eigen::AngleAxisd(deg(j, 1) * kDeg, Vec3::UnitY()) *
                                                   Eigen::AngleAxisd(deg(j, 0) * kDeg, Vec3::UnitX());
    return p;
}

double percentLoss(double v0, const BarRig& bar, const DeformedMesh& d)
{
    return (v0 - signedVolume(d.V, bar.mesh.F)) * 100.0 / v0;
}

double radialDistance(const MatrixX3d& V, Eigen::Index i)
{
    return std::hypot(V(i, 0), V(i, 2));
}

} // namespace

BarRig makeBar(const BarOptions& o)
{
    if (o.ringsPerUnit < 1 || o.sideSubdivisions < 1)
        throw InvalidInput("rig::makeBar(): ringsPerUnit and sideSubdivisions must be at least 1");
    if (!(o.blendHalfWidth > 0.0 && o.blendHalfWidth <= 1.0))
        throw InvalidInput("rig::makeBar(): blendHalfWidth must lie in (0, 1] (half a link)");
    const double length = kJointSpacing * (kJoints - 1);
    const int rings = static_cast<int>(std::lround(length * o.ringsPerUnit)) + 1;
    const auto P = perimeter(o.sideSubdivisions);
    const int m = static_cast<int>(P.size());
    BarRig bar;
    Mesh& mesh = bar.mesh;
    mesh.V.resize(rings * m + 2, 3);
    for (int r = 0; r < rings; ++r)
        for (int s = 0; s < m; ++s)
            mesh.V.row(r * m + s) << P[static_cast<size_t>(s)].first, length * r / (rings - 1),
                P[static_cast<size_t>(s)].second;
    const int bottom = rings * m, top = rings * m + 1;
    mesh.V.row(bottom) << 0, 0, 0;
    mesh.V.row(top) << 0, length, 0;
    std::vector<Vec3i> F;
    auto id = [m](int r, int s) { return r * m + (s % m); };
    for (int r = 0; r + 1 < rings; ++r)
        for (int s = 0; s < m; ++s) {
            F.emplace_back(id(r, s), id(r, s + 1), id(r + 1, s + 1));
            F.emplace_back(id(r, s), id(r + 1, s + 1), id(r + 1, s));
        }
    for (int s = 0; s < m; ++s) {
        F.emplace_back(bottom, id(0, s + 1), id(0, s));
        F.emplace_back(top, id(rings - 1, s), id(rings - 1, s + 1));
    }
    mesh.F.resize(static_cast<Eigen::Index>(F.size()), 3);
    for (size_t f = 0; f < F.size(); ++f)
        mesh.F.row(static_cast<Eigen::Index>(f)) = F[f].transpose();
    if (signedVolume(mesh) < 0.0)
        mesh.F.col(1).swap(mesh.F.col(2)); // orient outward
    mesh.N = vertexNormals(mesh.V, mesh.F);
    mesh.part.assign(static_cast<size_t>(mesh.V.rows()), 0);
    mesh.partNames = {"bar"};

    Skeleton& sk = bar.skeleton;
    sk.bindPositions.resize(kJoints, 3);
    const char* names[kJoints] = {"j0", "j1", "j2", "j3", "j4"};
    for (int j = 0; j < kJoints; ++j) {
        sk.names.push_back(names[j]);
        sk.parents.push_back(j - 1);
        sk.bindPositions.row(j) << 0, kJointSpacing * j, 0;
        sk.bindOrientations.push_back(Eigen::Quaterniond::Identity());
    }

    // Thesis eq. 4.1 on the δ of each joint's link, normalized by the builder (eq. 4.2).
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(mesh.V.rows(), kJoints);
    for (Eigen::Index i = 0; i < mesh.V.rows(); ++i) {
        const double y = mesh.V(i, 1);
        if (o.weights == BarWeights::Gaussian) {
            for (int k = 0; k + 1 < kJoints; ++k) {
                const double d = (y - kJointSpacing * k) / kJointSpacing;
                W(i, k) = 1.3 * std::exp(-(d - 0.5) * (d - 0.5) / (2 * 0.25 * 0.25));
            }
        } else {
            // The nearest inner joint k (1..3) and the blend across it.
            const int k = std::clamp(static_cast<int>(std::lround(y / kJointSpacing)), 1, kJoints - 2);
            const double t = std::clamp((y - kJointSpacing * k + o.blendHalfWidth) / (2 * o.blendHalfWidth), 0.0, 1.0);
            W(i, k - 1) = 1.0 - t;
            W(i, k) = t;
        }
    }
    bar.weights = skinWeightsFromDense(W, 4);
    bar.segmentation = segmentationFromNearestLink(mesh.V, sk);
    return bar;
}

namespace {

/// `deformBar()` with the deformer bound once (a sweep binds once per
/// deformer: the simplex deformer factors its system when bound).
void deformBarBound(const BarRig& bar, const MatrixX3d& eulerDegrees, const BoundDeformer& bound, bool wrapped,
                    const SkinningOptions& options, DeformedMesh& out)
{
    if (eulerDegrees.rows() != kJoints)
        throw InvalidInput("rig::deformBar(): need 5 rows of Euler angles, one per joint");
    const Pose pose = eulerPose(eulerDegrees);
    std::vector<double> unwrapped;
    if (!wrapped) {
        // The bar's links run along +Y and the bind frames are the identity, so
        // the Y channel is the twist; the re-extracted twist is unwrapped onto it
        // (equal when the other channels leave the twist alone).
        unwrapped = twistAngles(bar.skeleton, pose);
        for (int j = 1; j < kJoints; ++j)
            unwrapped[static_cast<size_t>(j)] =
                unwrapAngle(eulerDegrees(j, 1) * kDeg, unwrapped[static_cast<size_t>(j)]);
    }
    SkinnedMesh posed;
    bound.deform(pose, unwrapped, posed, options);
    toDeformedMesh(posed, bound.hasNormals(), out);
}

std::unique_ptr<BoundDeformer> bindBar(const BarRig& bar, const DeformerInfo& deformer)
{
    return deformer.bind(DeformerInput{bar.mesh, bar.weights, &bar.segmentation, bar.skeleton});
}

} // namespace

DeformedMesh deformBar(const BarRig& bar, const MatrixX3d& eulerDegrees, const DeformerInfo& deformer,
                       bool wrapped, const SkinningOptions& options)
{
    if (eulerDegrees.rows() != kJoints)
        throw InvalidInput("rig::deformBar(): need 5 rows of Euler angles, one per joint");
    DeformedMesh out;
    deformBarBound(bar, eulerDegrees, *bindBar(bar, deformer), wrapped, options, out);
    return out;
}

BarVolumeTable barVolumeExperiment(const BarOptions& options)
{
    struct Step {
        const char* name;
        int joint, axis;
        double degrees, thesisDqs, thesisLbs, thesisTwist;
    };
    // Thesis §4.4 and Table 4.2 (DualQuat, LBS, P. Method).
    const Step steps[6] = {
        {"180 Y j1", 1, 1, 180, 0.0265625, 6.515625, 0.1084375},
        {"200 Y j2", 2, 1, 200, 0.6575, 12.236525, 0.2421875},
        {"120 Y j3", 3, 1, 120, 1.0221875, 16.5721875, 0.3034375},
        {"90 X j1", 1, 0, 90, 0.9415625, 14.9853125, 1.9740625},
        {"60 Z j2", 2, 2, 60, 0.6759375, 13.9378125, 2.71875},
        {"80 Z j3", 3, 2, 80, 0.8696875, 13.404375, 3.934375},
    };
    const BarRig bar = makeBar(options);
    BarVolumeTable table;
    table.restVolume = signedVolume(bar.mesh);
    MatrixX3d euler = MatrixX3d::Zero(kJoints, 3);
    for (const Step& s : steps) {
        euler(s.joint, s.axis) += s.degrees;
        BarVolumeStep row;
        row.rotation = s.name;
        for (const DeformerInfo& d : deformers())
            row.error[d.id] = percentLoss(table.restVolume, bar, deformBar(bar, euler, d));
        row.thesis = {{"dqs", s.thesisDqs}, {"lbs", s.thesisLbs}, {"twist", s.thesisTwist}};
        table.steps.push_back(row);
    }
    return table;
}

CandyWrapper barCandyWrapper(double twistDegrees, const BarOptions& options)
{
    const BarRig bar = makeBar(options);
    MatrixX3d euler = MatrixX3d::Zero(kJoints, 3);
    euler(kTwistedJoint, 1) = twistDegrees;
    // Rings by rest height; the cap centres (on the axis) are left out.
    std::map<long long, std::vector<Eigen::Index>> rings;
    for (Eigen::Index i = 0; i < bar.mesh.V.rows(); ++i)
        if (radialDistance(bar.mesh.V, i) > 1e-9)
            rings[std::llround(bar.mesh.V(i, 1) * 1e6)].push_back(i);
    auto smallest = [&](const DeformerInfo& deformer) {
        const DeformedMesh d = deformBar(bar, euler, deformer);
        double worst = std::numeric_limits<double>::infinity();
        for (const auto& [y, idx] : rings) {
            double rest = 0.0, posed = 0.0;
            for (const Eigen::Index i : idx) {
                rest += std::pow(radialDistance(bar.mesh.V, i), 2);
                posed += std::pow(radialDistance(d.V, i), 2);
            }
            worst = std::min(worst, std::sqrt(posed / rest));
        }
        return worst;
    };
    CandyWrapper c;
    c.twistDegrees = twistDegrees;
    for (const DeformerInfo& d : deformers())
        c.smallestRadius[d.id] = smallest(d);
    return c;
}

TwistContinuity barTwistContinuity(double maxDegrees, double stepDegrees, const BarOptions& options)
{
    if (!(stepDegrees > 0.0) || !(maxDegrees >= stepDegrees))
        throw InvalidInput("rig::barTwistContinuity(): need 0 < stepDegrees <= maxDegrees");
    const BarRig bar = makeBar(options);
    const double unit = std::sqrt(2.0) * stepDegrees * kDeg; // rigid step of the outermost vertex
    const int steps = static_cast<int>(std::floor(maxDegrees / stepDegrees + 1e-9));
    TwistContinuity out;
    out.stepDegrees = stepDegrees;
    out.maxDegrees = steps * stepDegrees;
    const SkinningOptions one{.threads = 1};
    for (const DeformerInfo& d : deformers())
        for (const bool wrapped : {false, true}) {
            ContinuitySeries& series = (wrapped ? out.wrapped : out.series)[d.id];
            MatrixX3d euler = MatrixX3d::Zero(kJoints, 3);
            const std::unique_ptr<BoundDeformer> bound = bindBar(bar, d);
            DeformedMesh prev, cur;
            deformBarBound(bar, euler, *bound, wrapped, one, prev);
            for (int s = 1; s <= steps; ++s) {
                euler(kTwistedJoint, 1) = s * stepDegrees;
                deformBarBound(bar, euler, *bound, wrapped, one, cur);
                const double ratio = (cur.V - prev.V).rowwise().norm().maxCoeff() / unit;
                if (ratio > series.maxRatio) {
                    series.maxRatio = ratio;
                    series.atDegrees = s * stepDegrees;
                }
                std::swap(prev, cur);
            }
        }
    return out;
}

} // namespace rig
