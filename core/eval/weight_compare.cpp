#include "core/eval/weight_compare.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace rig {
namespace {

constexpr const char* fn = "rig::compareWeights()";

using RowSparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;

void checkReference(const RowSparse& R, const char* caller)
{
    for (Eigen::Index r = 0; r < R.outerSize(); ++r)
        for (RowSparse::InnerIterator it(R, r); it; ++it)
            if (!std::isfinite(it.value()) || it.value() < 0.0)
                throw InvalidInput(std::string(caller) + ": reference weight of vertex " + std::to_string(r) +
                                   " for joint " + std::to_string(it.col()) + " is " + std::to_string(it.value()) +
                                   "; weights must be finite and non-negative");
}

/// Uniform double in [0, 1) from the raw 32-bit output (mt19937's sequence is
/// fixed by the standard; std:: distributions are not).
double uniform(std::mt19937& g)
{
    return static_cast<double>(g()) / 4294967296.0;
}

} // namespace

std::vector<Pose> randomPoses(const Skeleton& skeleton, int count, double maxDegrees, std::uint32_t seed)
{
    std::mt19937 g(seed);
    std::vector<Pose> poses;
    const double maxAngle = maxDegrees * std::numbers::pi / 180.0;
    for (int p = 0; p < count; ++p) {
        Pose pose = identityPose(skeleton);
        for (auto& q : pose.localRotations) {
            // Uniform axis on the sphere: z uniform in [-1, 1], longitude uniform.
            const double z = 2.0 * uniform(g) - 1.0;
            const double phi = 2.0 * std::numbers::pi * uniform(g);
            const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
            const Vec3 axis(r * std::cos(phi), r * std::sin(phi), z);
            const double angle = (2.0 * uniform(g) - 1.0) * maxAngle;
            q = Eigen::Quaterniond(Eigen::AngleAxisd(angle, axis.normalized()));
        }
        poses.push_back(std::move(pose));
    }
    return poses;
}

SkinWeights skinWeightsFromReference(const RowSparse& reference)
{
    checkReference(reference, "rig::skinWeightsFromReference()");
    int k = 1;
    for (Eigen::Index r = 0; r < reference.outerSize(); ++r) {
        int c = 0;
        for (RowSparse::InnerIterator it(reference, r); it; ++it)
            c += it.value() > 0.0;
        k = std::max(k, c);
    }
    SkinWeights out;
    out.maxInfluences = k;
    out.joints.setZero(reference.rows(), k);
    out.weights.setZero(reference.rows(), k);
    for (Eigen::Index r = 0; r < reference.outerSize(); ++r) {
        std::vector<std::pair<double, int>> e;
        double sum = 0.0;
        for (RowSparse::InnerIterator it(reference, r); it; ++it)
            if (it.value() > 0.0) {
                e.emplace_back(it.value(), static_cast<int>(it.col()));
                sum += it.value();
            }
        if (e.empty()) {
            out.weights(r, 0) = 1.0f;
            continue;
        }
        std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) {
            return a.first > b.first || (a.first == b.first && a.second < b.second);
        });
        for (size_t s = 0; s < e.size(); ++s) {
            out.joints(r, static_cast<Eigen::Index>(s)) = e[s].second;
            out.weights(r, static_cast<Eigen::Index>(s)) = static_cast<float>(e[s].first / sum);
        }
    }
    return out;
}

namespace {

using Frames = std::vector<std::vector<Eigen::Affine3d>>;

/// The checks and the weight figures (L1, precision, recall) shared by both
/// overloads; the distances are left to `deformedDistances()`.
WeightComparison weightFigures(const Mesh& mesh, const Skeleton& skeleton, const SkinWeights& weights,
                               const RowSparse& reference, const WeightCompareOptions& options,
                               std::vector<bool>& compared)
{
    const int n = mesh.vertexCount();
    const int nj = skeleton.jointCount();
    try {
        validateSkeleton(skeleton);
        validateSkinWeights(weights, n, nj);
    } catch (const InvalidInput& e) {
        throw InvalidInput(std::string(fn) + ": " + e.what());
    }
    if (reference.rows() != n || reference.cols() != nj)
        throw InvalidInput(std::string(fn) + ": the reference weights are " + std::to_string(reference.rows()) +
                           " by " + std::to_string(reference.cols()) + ", expected #V by #J = " + std::to_string(n) +
                           " by " + std::to_string(nj));
    checkReference(reference, fn);
    if (!(options.influenceThreshold > 0.0 && options.influenceThreshold <= 1.0))
        throw InvalidInput(std::string(fn) + ": influenceThreshold must be in (0, 1]");
    if (!(options.randomPoseDegrees >= 0.0 && options.randomPoseDegrees <= 180.0))
        throw InvalidInput(std::string(fn) + ": randomPoseDegrees must be in [0, 180]");
    if (!options.up.allFinite() || options.up.norm() == 0.0)
        throw InvalidInput(std::string(fn) + ": up must be a finite, non-zero direction");

    WeightComparison c;
    compared.assign(static_cast<size_t>(n), false);
    const Eigen::MatrixXd W = denseWeights(weights, nj);
    double l1 = 0.0;
    long long both = 0, computedCount = 0, referenceCount = 0;
    // Weights are stored as float: 0.05 read back may be 0.0499999989, so the
    // threshold allows float round-off (identical weights then agree exactly).
    const double t = options.influenceThreshold - 1e-6;
    Eigen::VectorXd r(nj);
    for (int i = 0; i < n; ++i) {
        r.setZero();
        double sum = 0.0;
        for (RowSparse::InnerIterator it(reference, i); it; ++it) {
            r(it.col()) += it.value();
            sum += it.value();
        }
        if (!(sum > 0.0)) {
            ++c.unweightedReference;
            continue;
        }
        r /= sum;
        compared[static_cast<size_t>(i)] = true;
        ++c.comparedVertices;
        l1 += (W.row(i).transpose() - r).cwiseAbs().sum();
        if (!(W.row(i).sum() >= 0.5))
            ++c.unweightedComputed;
        for (int j = 0; j < nj; ++j) {
            const bool w = W(i, j) >= t, ref = r(j) >= t;
            computedCount += w;
            referenceCount += ref;
            both += w && ref;
        }
    }
    if (c.comparedVertices == 0)
        throw InvalidInput(std::string(fn) + ": the reference has no weights at all; nothing to compare with");
    c.meanL1 = l1 / c.comparedVertices;
    c.precision = computedCount > 0 ? double(both) / double(computedCount) : 1.0;
    c.recall = referenceCount > 0 ? double(both) / double(referenceCount) : 1.0;
    return c;
}

/// Σ_j w_ij · S_j · v_i for every vertex.
MatrixX3d blend(const MatrixX3d& V, const SkinWeights& w, const std::vector<Eigen::Affine3d>& S)
{
    MatrixX3d out = MatrixX3d::Zero(V.rows(), 3);
    for (Eigen::Index i = 0; i < V.rows(); ++i) {
        const Vec3 v = V.row(i).transpose();
        Vec3 p = Vec3::Zero();
        for (Eigen::Index k = 0; k < w.joints.cols(); ++k) {
            const double wk = w.weights(i, k);
            if (wk != 0.0)
                p += wk * (S[static_cast<size_t>(w.joints(i, k))] * v);
        }
        out.row(i) = p.transpose();
    }
    return out;
}

void deformedDistances(const Mesh& mesh, const SkinWeights& weights, const RowSparse& reference,
                       const std::vector<bool>& compared, const Frames& frames, const WeightCompareOptions& options,
                       WeightComparison& c)
{
    const SkinWeights refWeights = skinWeightsFromReference(reference);
    const double height = std::max(heightAlong(mesh.V, options.up), 1e-300);
    double distSum = 0.0, distMax = 0.0;
    for (const auto& S : frames) {
        const MatrixX3d a = blend(mesh.V, weights, S);
        const MatrixX3d b = blend(mesh.V, refWeights, S);
        for (Eigen::Index i = 0; i < mesh.V.rows(); ++i) {
            if (!compared[static_cast<size_t>(i)])
                continue;
            const double d = (a.row(i) - b.row(i)).norm();
            distSum += d;
            distMax = std::max(distMax, d);
        }
        ++c.poses;
    }
    if (c.poses > 0) {
        c.meanDistancePercent = 100.0 * distSum / (double(c.comparedVertices) * c.poses) / height;
        c.maxDistancePercent = 100.0 * distMax / height;
    }
}

Frames skinningOfPoses(const Skeleton& skeleton, std::span<const Pose> poses)
{
    Frames out;
    out.reserve(poses.size());
    for (const Pose& pose : poses) {
        const PosedSkeleton posed = forwardKinematics(skeleton, pose);
        std::vector<Eigen::Affine3d> S;
        S.reserve(posed.skinning.size());
        for (const Eigen::Isometry3d& m : posed.skinning)
            S.emplace_back(m.matrix());
        out.push_back(std::move(S));
    }
    return out;
}

} // namespace

double heightAlong(const MatrixX3d& V, const Vec3& up)
{
    if (V.rows() == 0 || up.norm() == 0.0)
        return 0.0;
    const Eigen::VectorXd h = V * up.normalized();
    return h.maxCoeff() - h.minCoeff();
}

WeightComparison compareWeights(const Mesh& mesh, const Skeleton& skeleton, const SkinWeights& weights,
                                const RowSparse& reference, std::span<const Pose> frames,
                                const WeightCompareOptions& options)
{
    std::vector<bool> compared;
    WeightComparison c = weightFigures(mesh, skeleton, weights, reference, options, compared);
    const int nj = skeleton.jointCount();
    if (frames.empty() && options.randomPoses < 1)
        throw InvalidInput(std::string(fn) + ": randomPoses must be at least 1");
    for (size_t f = 0; f < frames.size(); ++f)
        if (static_cast<int>(frames[f].localRotations.size()) != nj)
            throw InvalidInput(std::string(fn) + ": frame " + std::to_string(f) + " has " +
                               std::to_string(frames[f].localRotations.size()) + " joint rotations, the skeleton " +
                               std::to_string(nj) + " joints");
    std::vector<Pose> generated;
    if (frames.empty()) {
        generated = randomPoses(skeleton, options.randomPoses, options.randomPoseDegrees, options.seed);
        frames = generated;
        c.randomPoses = true;
    }
    deformedDistances(mesh, weights, reference, compared, skinningOfPoses(skeleton, frames), options, c);
    return c;
}

WeightComparison compareWeightsAnimated(const Mesh& mesh, const Skeleton& skeleton, const SkinWeights& weights,
                                const RowSparse& reference, std::span<const std::vector<Eigen::Affine3d>> frames,
                                const WeightCompareOptions& options)
{
    if (frames.empty())
        return compareWeights(mesh, skeleton, weights, reference, std::span<const Pose>(), options);
    std::vector<bool> compared;
    WeightComparison c = weightFigures(mesh, skeleton, weights, reference, options, compared);
    const size_t nj = static_cast<size_t>(skeleton.jointCount());
    for (size_t f = 0; f < frames.size(); ++f) {
        if (frames[f].size() != nj)
            throw InvalidInput(std::string(fn) + ": frame " + std::to_string(f) + " has " +
                               std::to_string(frames[f].size()) + " joint transforms, the skeleton " +
                               std::to_string(nj) + " joints");
        for (const Eigen::Affine3d& m : frames[f])
            if (!m.matrix().allFinite())
                throw InvalidInput(std::string(fn) + ": frame " + std::to_string(f) + " has a non-finite transform");
    }
    deformedDistances(mesh, weights, reference, compared, Frames(frames.begin(), frames.end()), options, c);
    return c;
}

} // namespace rig
