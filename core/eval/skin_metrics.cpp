#include "core/eval/skin_metrics.h"

#include "core/common/error.h"
#include "core/eval/weight_compare.h"
#include "core/rig/pose.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

constexpr const char* fn = "rig::skinMetrics()";
using RowSparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// The welded vertex of each file vertex (the identity when `weldMap` is empty).
std::vector<int> fileToWelded(std::span<const int> weldMap, int welded)
{
    std::vector<int> out(weldMap.begin(), weldMap.end());
    if (weldMap.empty())
        for (int i = 0; i < welded; ++i)
            out.push_back(i);
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i] < 0 || out[i] >= welded)
            throw InvalidInput(std::string(fn) + ": file vertex " + std::to_string(i) + " maps to welded vertex " +
                               std::to_string(out[i]) + ", outside the " + std::to_string(welded) + " weighted vertices");
    return out;
}

/// LBS of every welded vertex with dense weight rows `W` (#V by #J); a row
/// without weight keeps its rest position.
MatrixX3d blendDense(const MatrixX3d& V, const Eigen::MatrixXd& W, const std::vector<Eigen::Isometry3d>& S)
{
    MatrixX3d out = V;
    for (Eigen::Index i = 0; i < V.rows(); ++i) {
        if (!(W.row(i).sum() > 0.0))
            continue;
        const Vec3 v = V.row(i).transpose();
        Vec3 p = Vec3::Zero();
        for (Eigen::Index j = 0; j < W.cols(); ++j)
            if (W(i, j) != 0.0)
                p += W(i, j) * (S[static_cast<size_t>(j)] * v);
        out.row(i) = p.transpose();
    }
    return out;
}

void checkOptions(const SkinMetricsOptions& o)
{
    if (!(o.threshold > 0.0 && o.threshold <= 1.0))
        throw InvalidInput(std::string(fn) + ": threshold must be in (0, 1]");
    if (o.poses < 1)
        throw InvalidInput(std::string(fn) + ": poses must be at least 1");
    if (!(o.maxDegrees >= 0.0 && o.maxDegrees <= 180.0))
        throw InvalidInput(std::string(fn) + ": maxDegrees must be in [0, 180]");
}

/// L1, precision, recall and unweighted count over the file vertices.
void weightScores(const Eigen::MatrixXd& W, const Eigen::MatrixXd& R, const std::vector<int>& welded,
                  double threshold, SkinMetrics& m)
{
    double l1 = 0.0;
    long long both = 0, computed = 0, reference = 0;
    for (size_t i = 0; i < welded.size(); ++i) {
        const auto w = W.row(static_cast<Eigen::Index>(i));
        const auto r = R.row(welded[i]);
        l1 += (w - r).cwiseAbs().sum();
        m.unweighted += !(w.sum() > 0.0);
        for (Eigen::Index j = 0; j < W.cols(); ++j) {
            // The reference was read as float and renormalised to sum 1 on
            // import, which can move an artist's exact 0.05 to 0.04999999: it
            // counts from 1e-6 below the threshold (the scorer reads the raw value).
            const bool c = w(j) >= threshold, g = r(j) >= threshold - 1e-6;
            computed += c;
            reference += g;
            both += c && g;
        }
    }
    m.vertices = static_cast<int>(welded.size());
    m.l1 = welded.empty() ? 0.0 : l1 / double(welded.size());
    m.precision = 100.0 * double(both) / double(std::max(computed, 1LL));
    m.recall = 100.0 * double(both) / double(std::max(reference, 1LL));
}

} // namespace

Eigen::MatrixXd skinWeightsForFileVertices(const SkinWeights& weights, int jointCount, std::span<const int> weldMap)
{
    const std::vector<int> welded = fileToWelded(weldMap, weights.vertexCount());
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(welded.size()), jointCount);
    for (size_t i = 0; i < welded.size(); ++i)
        for (Eigen::Index k = 0; k < weights.joints.cols(); ++k) {
            const int j = weights.joints(welded[i], k);
            if (j < 0 || j >= jointCount)
                throw InvalidInput(std::string(fn) + ": an influence names joint " + std::to_string(j) + " of " +
                                   std::to_string(jointCount));
            out(static_cast<Eigen::Index>(i), j) += static_cast<double>(weights.weights(welded[i], k));
        }
    return out;
}

SkinMetrics skinMetrics(const Mesh& mesh, const Skeleton& skeleton, const SkinWeights& weights,
                        const RowSparse& reference, std::span<const int> weldMap, const SkinMetricsOptions& options)
{
    checkOptions(options);
    const int n = mesh.vertexCount(), nj = skeleton.jointCount();
    try {
        validateSkeleton(skeleton);
        validateSkinWeights(weights, n, nj);
    } catch (const InvalidInput& e) {
        throw InvalidInput(std::string(fn) + ": " + e.what());
    }
    if (reference.rows() != n || reference.cols() != nj)
        throw InvalidInput(std::string(fn) + ": the reference weights are " + std::to_string(reference.rows()) + " by " +
                           std::to_string(reference.cols()) + ", expected " + std::to_string(n) + " by " +
                           std::to_string(nj));
    const std::vector<int> welded = fileToWelded(weldMap, n);
    const Eigen::MatrixXd R = Eigen::MatrixXd(reference);
    SkinMetrics m;
    weightScores(skinWeightsForFileVertices(weights, nj, weldMap), R, welded, options.threshold, m);

    const Eigen::MatrixXd W = denseWeights(weights, nj);
    const double longest = std::max((mesh.V.colwise().maxCoeff() - mesh.V.colwise().minCoeff()).maxCoeff(), 1e-300);
    double sum = 0.0;
    for (const Pose& pose : randomPoses(skeleton, options.poses, options.maxDegrees, options.seed)) {
        const PosedSkeleton posed = forwardKinematics(skeleton, pose);
        const MatrixX3d a = blendDense(mesh.V, W, posed.skinning);
        const MatrixX3d b = blendDense(mesh.V, R, posed.skinning);
        for (const int v : welded) {
            const double d = (a.row(v) - b.row(v)).norm();
            sum += d;
            m.deformationMax = std::max(m.deformationMax, d);
        }
        ++m.poses;
    }
    m.deformationMean = welded.empty() ? 0.0 : 100.0 * sum / (double(welded.size()) * m.poses) / longest;
    m.deformationMax = 100.0 * m.deformationMax / longest;
    return m;
}

} // namespace rig
