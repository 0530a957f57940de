#include "core/skin/skin_weights.h"

#include "core/common/error.h"

#include <algorithm>
#include <map>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace rig {
namespace {

using Entry = std::pair<double, int>; // (weight, joint)

/// Keeps the k largest entries of one vertex, renormalized, into row `row`.
void storeRow(std::vector<Entry>& entries, int row, SkinWeights& out, const char* fn)
{
    const int k = out.maxInfluences;
    const auto larger = [](const Entry& a, const Entry& b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    };
    const int kept = std::min<int>(k, static_cast<int>(entries.size()));
    std::partial_sort(entries.begin(), entries.begin() + kept, entries.end(), larger);
    double sum = 0.0;
    for (int s = 0; s < kept; ++s)
        sum += entries[s].first;
    if (!(sum > 0.0))
        throw InvalidInput(std::string(fn) + ": vertex " + std::to_string(row) + " has no positive weight");
    for (int s = 0; s < k; ++s) {
        out.joints(row, s) = s < kept ? entries[s].second : 0;
        out.weights(row, s) = s < kept ? static_cast<float>(entries[s].first / sum) : 0.0f;
    }
}

void checkEntry(double w, int row, int joint, const char* fn)
{
    if (!std::isfinite(w) || w < 0.0)
        throw InvalidInput(std::string(fn) + ": vertex " + std::to_string(row) + " has weight " + std::to_string(w) +
                           " for joint " + std::to_string(joint) + "; weights must be finite and non-negative");
}

SkinWeights allocate(Eigen::Index rows, int k, const char* fn)
{
    if (k < 1)
        throw InvalidInput(std::string(fn) + ": maxInfluences must be at least 1, got " + std::to_string(k));
    SkinWeights out;
    out.maxInfluences = k;
    out.joints.setZero(rows, k);
    out.weights.setZero(rows, k);
    return out;
}

} // namespace

SkinWeights skinWeightsFromDense(const Eigen::MatrixXd& W, int maxInfluences)
{
    const char* fn = "rig::skinWeightsFromDense()";
    SkinWeights out = allocate(W.rows(), maxInfluences, fn);
    std::vector<Entry> entries;
    for (Eigen::Index i = 0; i < W.rows(); ++i) {
        entries.clear();
        for (Eigen::Index j = 0; j < W.cols(); ++j) {
            checkEntry(W(i, j), static_cast<int>(i), static_cast<int>(j), fn);
            if (W(i, j) > 0.0)
                entries.emplace_back(W(i, j), static_cast<int>(j));
        }
        storeRow(entries, static_cast<int>(i), out, fn);
    }
    return out;
}

SkinWeights skinWeightsFromSparse(const Eigen::SparseMatrix<double>& W, int maxInfluences)
{
    const char* fn = "rig::skinWeightsFromSparse()";
    SkinWeights out = allocate(W.rows(), maxInfluences, fn);
    // Row-major copy so that one vertex's entries are contiguous.
    const Eigen::SparseMatrix<double, Eigen::RowMajor> R = W;
    std::vector<Entry> entries;
    for (Eigen::Index i = 0; i < R.outerSize(); ++i) {
        entries.clear();
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(R, i); it; ++it) {
            checkEntry(it.value(), static_cast<int>(i), static_cast<int>(it.col()), fn);
            if (it.value() > 0.0)
                entries.emplace_back(it.value(), static_cast<int>(it.col()));
        }
        storeRow(entries, static_cast<int>(i), out, fn);
    }
    return out;
}

Eigen::MatrixXd denseWeights(const SkinWeights& w, int jointCount)
{
    Eigen::MatrixXd D = Eigen::MatrixXd::Zero(w.joints.rows(), jointCount);
    for (Eigen::Index i = 0; i < w.joints.rows(); ++i)
        for (Eigen::Index s = 0; s < w.joints.cols(); ++s) {
            const int j = w.joints(i, s);
            if (j < 0 || j >= jointCount)
                throw InvalidInput("rig::denseWeights(): vertex " + std::to_string(i) + " names joint " +
                                   std::to_string(j) + " of " + std::to_string(jointCount));
            D(i, j) += w.weights(i, s);
        }
    return D;
}

void validateSkinWeights(const SkinWeights& w, int vertexCount, int jointCount)
{
    const std::string fn = "rig::validateSkinWeights(): ";
    if (w.maxInfluences < 1)
        throw InvalidInput(fn + "maxInfluences must be at least 1, got " + std::to_string(w.maxInfluences));
    if (w.joints.cols() != w.maxInfluences || w.weights.cols() != w.maxInfluences)
        throw InvalidInput(fn + "joints and weights need maxInfluences = " + std::to_string(w.maxInfluences) +
                           " columns, have " + std::to_string(w.joints.cols()) + " and " +
                           std::to_string(w.weights.cols()));
    if (w.joints.rows() != vertexCount || w.weights.rows() != vertexCount)
        throw InvalidInput(fn + "the weights cover " + std::to_string(w.joints.rows()) + " and " +
                           std::to_string(w.weights.rows()) + " vertices, the mesh has " +
                           std::to_string(vertexCount));
    for (Eigen::Index i = 0; i < w.joints.rows(); ++i) {
        double sum = 0.0;
        for (Eigen::Index s = 0; s < w.joints.cols(); ++s) {
            const int j = w.joints(i, s);
            const float x = w.weights(i, s);
            if (j < 0 || j >= jointCount)
                throw InvalidInput(fn + "vertex " + std::to_string(i) + " names joint " + std::to_string(j) +
                                   "; the skeleton has " + std::to_string(jointCount) + " joints");
            if (!std::isfinite(x) || x < 0.0f)
                throw InvalidInput(fn + "vertex " + std::to_string(i) + " has a negative or non-finite weight");
            sum += x;
        }
        if (std::abs(sum - 1.0) > 1e-6)
            throw InvalidInput(fn + "the weights of vertex " + std::to_string(i) + " sum to " + std::to_string(sum) +
                               ", not 1");
    }
}

std::string pieceName(const Mesh& mesh, const std::vector<int>& vertices, int component)
{
    std::map<int, int> names;
    for (int i : vertices)
        if (i >= 0 && i < static_cast<int>(mesh.part.size()))
            ++names[mesh.part[static_cast<size_t>(i)]];
    const auto top = std::max_element(names.begin(), names.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
    return top != names.end() && top->first >= 0 && top->first < mesh.partCount()
               ? mesh.partNames[static_cast<size_t>(top->first)]
               : "component " + std::to_string(component);
}

} // namespace rig
