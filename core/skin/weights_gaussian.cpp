#include "core/skin/weights_gaussian.h"

#include "core/mesh/vertex_adjacency.h"

#include "core/common/error.h"

#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace rig {
namespace {

const std::string kFn = "rig::segmentationWeights(): ";
constexpr double kOmega = 1.6; ///< Over-relaxation factor of the smoothing sweeps.

/// log f(x) of the distribution function (log space keeps the Gaussian's far
/// tail, e^-700 and below, comparable instead of 0).
double logDistribution(const GaussianWeightOptions& o, double x)
{
    const double neg = -std::numeric_limits<double>::infinity();
    switch (o.function) {
    case WeightFunction::Gaussian:
        return std::log(o.a) - (x - o.b) * (x - o.b) / (2.0 * o.c * o.c); // thesis eq. 4.1
    case WeightFunction::Linear: {
        const double t = 1.0 - std::abs(x - o.b) / (4.0 * o.c);
        return t > 0.0 ? std::log(o.a * t) : neg;
    }
    case WeightFunction::Smoothstep: {
        const double t = std::clamp(1.0 - std::abs(x - o.b) / (4.0 * o.c), 0.0, 1.0);
        const double s = t * t * (3.0 - 2.0 * t);
        return s > 0.0 ? std::log(o.a * s) : neg;
    }
    }
    return neg;
}

void checkInput(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg, const GaussianWeightOptions& o)
{
    if (mesh.V.rows() == 0)
        throw InvalidInput(kFn + "the mesh has no vertices; import or generate a character first");
    if (!mesh.V.allFinite())
        throw InvalidInput(kFn + "the mesh has NaN or infinite vertex coordinates; repair the mesh");
    if (mesh.F.rows() > 0 && (mesh.F.minCoeff() < 0 || mesh.F.maxCoeff() >= mesh.V.rows()))
        throw InvalidInput(kFn + "a triangle refers to a vertex outside [0, " + std::to_string(mesh.V.rows()) + ")");
    validateSkeleton(skeleton);
    if (skeleton.jointCount() < 2)
        throw InvalidInput(kFn + "the skeleton has " + std::to_string(skeleton.jointCount()) +
                           " joint; weights need at least one link (2 joints)");
    validateSegmentation(seg, mesh.vertexCount(), skeleton.jointCount());
    const auto unset = std::find(seg.bone.begin(), seg.bone.end(), -1);
    if (unset != seg.bone.end())
        throw InvalidInput(kFn + "vertex " + std::to_string(unset - seg.bone.begin()) +
                           " is unsegmented (-1); segment every vertex (rig::segmentMesh()) first");
    if (!(o.a > 0.0 && std::isfinite(o.a)) || !(o.c > 0.0 && std::isfinite(o.c)) || !std::isfinite(o.b))
        throw InvalidInput(kFn + "the distribution needs a > 0, c > 0 and b finite; got a = " + std::to_string(o.a) +
                           ", b = " + std::to_string(o.b) + ", c = " + std::to_string(o.c));
    if (o.hierarchyLevel < 0 || o.smoothingIterations < 0 || o.maxInfluences < 1)
        throw InvalidInput(kFn + "hierarchyLevel and smoothingIterations must be >= 0 and maxInfluences >= 1; got " +
                           std::to_string(o.hierarchyLevel) + ", " + std::to_string(o.smoothingIterations) + ", " +
                           std::to_string(o.maxInfluences));
    if (!(o.minRelativeWeight >= 0.0 && o.minRelativeWeight < 1.0))
        throw InvalidInput(kFn + "minRelativeWeight must lie in [0, 1), got " + std::to_string(o.minRelativeWeight));
}

} // namespace

SkinWeights segmentationWeights(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg,
                                const GaussianWeightOptions& options)
{
    checkInput(mesh, skeleton, seg, options);
    const GaussianWeightOptions& o = options;
    const int n = mesh.vertexCount();
    const auto children = childrenOf(skeleton);
    const int h = o.hierarchyLevel;

    // Influence sets: CSR rows of (joint, weight), weights normalized (eq. 4.2).
    std::vector<int> start(static_cast<size_t>(n) + 1, 0), joint;
    std::vector<double> weight;
    std::vector<std::pair<int, double>> logs; // (joint, log f(x))
    std::vector<int> level, next;
    for (int i = 0; i < n; ++i) {
        const int c = seg.bone[static_cast<size_t>(i)];
        logs.clear();
        if (c == 0) {
            logs.emplace_back(0, 0.0); // the root's own region
        } else {
            const int m = skeleton.parents[static_cast<size_t>(c)];
            const bool leaf = children[static_cast<size_t>(c)].empty();
            double d = seg.delta[static_cast<size_t>(i)];
            if (leaf && d >= 1.0) {
                // Beyond a leaf's end (hand, head, toes) the raw δ goes on, so the
                // leaf's weight takes over from its parent's (eq. 3.4: δ > 1).
                const Vec3 a = skeleton.bindPositions.row(m).transpose();
                const Vec3 b = skeleton.bindPositions.row(c).transpose();
                d = std::max(1.0, linkDelta(mesh.V.row(i).transpose(), a, b));
            }
            if (h == 0) {
                logs.emplace_back(leaf && d > 1.5 ? c : m, 0.0); // rigid: the main joint only
            } else {
                logs.emplace_back(m, logDistribution(o, d));
                int up = m;
                for (int k = 1; k <= h; ++k) {
                    up = skeleton.parents[static_cast<size_t>(up)];
                    if (up < 0)
                        break;
                    logs.emplace_back(up, logDistribution(o, d + k));
                }
                logs.emplace_back(c, logDistribution(o, leaf ? std::min(d - 1.0, o.b) : d - 1.0));
                level.assign(1, c);
                for (int k = 2; k <= h && !level.empty(); ++k) {
                    next.clear();
                    for (int j : level)
                        for (int ch : children[static_cast<size_t>(j)]) {
                            logs.emplace_back(ch, logDistribution(o, d - k));
                            next.push_back(ch);
                        }
                    std::swap(level, next);
                }
            }
        }
        double top = -std::numeric_limits<double>::infinity();
        for (const auto& [j, l] : logs)
            top = std::max(top, l);
        if (!std::isfinite(top)) { // a compact function that is 0 on every joint: the main joint
            logs.resize(1);
            logs[0].second = top = 0.0;
        }
        double sum = 0.0;
        for (auto& [j, l] : logs) {
            l = std::exp(l - top);
            sum += l;
        }
        for (const auto& [j, w] : logs) {
            joint.push_back(j);
            weight.push_back(w / sum);
        }
        start[static_cast<size_t>(i) + 1] = static_cast<int>(joint.size());
    }

    // Smoothing over the mesh's edges (see the header): each round replaces a
    // vertex's weights by the mean of its own and its neighbours'; weight of a
    // joint the vertex may not take moves to that joint's nearest ancestor it
    // may take, so the rows keep summing to 1.
    if (o.smoothingIterations > 0 && h > 0 && mesh.F.rows() > 0) {
        // redirect[m * J + k]: where joint k's weight goes at a vertex whose
        // main joint is m: k itself when k is m, an ancestor or a descendant
        // of m; otherwise k's nearest ancestor that is one of those (the
        // common ancestor of two branches, e.g. the chest between the neck
        // and a shoulder, the hips between the thighs).
        const int J = skeleton.jointCount();
        std::vector<int> redirect(static_cast<size_t>(J) * static_cast<size_t>(J), 0);
        std::vector<char> allowed(static_cast<size_t>(J));
        for (int m = 0; m < J; ++m) {
            std::fill(allowed.begin(), allowed.end(), 0);
            for (int k = m; k >= 0; k = skeleton.parents[static_cast<size_t>(k)])
                allowed[static_cast<size_t>(k)] = 1;
            for (int k = m + 1; k < J; ++k) // parents[k] < k: a descendant's parent is m or a descendant
                if (allowed[static_cast<size_t>(skeleton.parents[static_cast<size_t>(k)])] &&
                    skeleton.parents[static_cast<size_t>(k)] >= m)
                    allowed[static_cast<size_t>(k)] = 1;
            for (int k = 0; k < J; ++k) {
                int t = k;
                while (!allowed[static_cast<size_t>(t)])
                    t = skeleton.parents[static_cast<size_t>(t)]; // ends at the root at the latest
                redirect[static_cast<size_t>(m) * static_cast<size_t>(J) + static_cast<size_t>(k)] = t;
            }
        }
        std::vector<int> mainJoint(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            const int c = seg.bone[static_cast<size_t>(i)];
            mainJoint[static_cast<size_t>(i)] = c == 0 ? 0 : skeleton.parents[static_cast<size_t>(c)];
        }
        // Per main joint, the (joint, target) pairs that move.
        std::vector<std::vector<std::pair<int, int>>> moves(static_cast<size_t>(J));
        for (int m = 0; m < J; ++m)
            for (int k = 0; k < J; ++k) {
                const int t = redirect[static_cast<size_t>(m) * static_cast<size_t>(J) + static_cast<size_t>(k)];
                if (t != k)
                    moves[static_cast<size_t>(m)].emplace_back(k, t);
            }
        const VertexAdjacency adjacency = vertexAdjacency(n, mesh.F);
        const std::vector<int>& aStart = adjacency.start;
        const std::vector<int>& aNbr = adjacency.nbr;
        // Only vertices near a jump change: the zone around the edges whose
        // ends differ by more than 0.05 in some weight (region borders, and
        // the steep part of the distribution on short links). Its radius is half of `smoothingIterations` rings, at most
        // 4% of the mesh's diagonal (so a coarse mesh is not smoothed through).
        // The rest stays as it is and bounds the zone.
        auto jumpAcross = [&](int a, int b) {
            double worst = 0.0;
            for (int k = start[static_cast<size_t>(a)]; k < start[static_cast<size_t>(a) + 1]; ++k) {
                double other = 0.0;
                for (int l = start[static_cast<size_t>(b)]; l < start[static_cast<size_t>(b) + 1]; ++l)
                    if (joint[static_cast<size_t>(l)] == joint[static_cast<size_t>(k)])
                        other = weight[static_cast<size_t>(l)];
                worst = std::max(worst, std::abs(weight[static_cast<size_t>(k)] - other));
            }
            return worst;
        };
        std::vector<int> ring(static_cast<size_t>(n), -1), frontier, next;
        for (int i = 0; i < n; ++i)
            for (int e = aStart[static_cast<size_t>(i)]; e < aStart[static_cast<size_t>(i) + 1]; ++e) {
                const int w = aNbr[static_cast<size_t>(e)];
                if (jumpAcross(i, w) > 0.05 || jumpAcross(w, i) > 0.05) {
                    ring[static_cast<size_t>(i)] = 0;
                    frontier.push_back(i);
                    break;
                }
            }
        double edgeSum = 0.0;
        for (int i = 0; i < n; ++i)
            for (int e = aStart[static_cast<size_t>(i)]; e < aStart[static_cast<size_t>(i) + 1]; ++e)
                edgeSum += (mesh.V.row(i) - mesh.V.row(aNbr[static_cast<size_t>(e)])).norm();
        const double meanEdge = aNbr.empty() ? 0.0 : edgeSum / static_cast<double>(aNbr.size());
        Box3 box;
        for (int i = 0; i < n; ++i)
            box.extend(mesh.V.row(i).transpose());
        const int geometric = meanEdge > 0.0 ? static_cast<int>(std::ceil(0.04 * box.diagonal() / meanEdge)) : 1;
        const int radius = std::max(1, std::min(o.smoothingIterations / 2, geometric));
        for (int r = 1; r <= radius && !frontier.empty(); ++r) {
            next.clear();
            for (int v : frontier)
                for (int e = aStart[static_cast<size_t>(v)]; e < aStart[static_cast<size_t>(v) + 1]; ++e) {
                    const int w = aNbr[static_cast<size_t>(e)];
                    if (ring[static_cast<size_t>(w)] < 0) {
                        ring[static_cast<size_t>(w)] = r;
                        next.push_back(w);
                    }
                }
            std::swap(frontier, next);
        }
        // Dense rows for the zone (updated) and its outer ring (fixed).
        std::vector<int> local(static_cast<size_t>(n), -1), zone;
        for (int i = 0; i < n; ++i)
            if (ring[static_cast<size_t>(i)] >= 0) {
                local[static_cast<size_t>(i)] = static_cast<int>(zone.size());
                zone.push_back(i);
            }
        const size_t updated = zone.size();
        for (size_t z = 0; z < updated; ++z)
            for (int e = aStart[static_cast<size_t>(zone[z])]; e < aStart[static_cast<size_t>(zone[z]) + 1]; ++e) {
                const int w = aNbr[static_cast<size_t>(e)];
                if (local[static_cast<size_t>(w)] < 0) {
                    local[static_cast<size_t>(w)] = static_cast<int>(zone.size());
                    zone.push_back(w);
                }
            }
        Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(J, static_cast<Eigen::Index>(zone.size())); // column per vertex
        for (size_t z = 0; z < zone.size(); ++z)
            for (int k = start[static_cast<size_t>(zone[z])]; k < start[static_cast<size_t>(zone[z]) + 1]; ++k)
                Z(joint[static_cast<size_t>(k)], static_cast<Eigen::Index>(z)) += weight[static_cast<size_t>(k)];
        Eigen::VectorXd acc(J);
        for (int it = 0; it < o.smoothingIterations; ++it) {
            for (size_t z = 0; z < updated; ++z) { // Gauss-Seidel: in place
                const int i = zone[z];
                acc = Z.col(static_cast<Eigen::Index>(z));
                for (int e = aStart[static_cast<size_t>(i)]; e < aStart[static_cast<size_t>(i) + 1]; ++e)
                    acc += Z.col(local[static_cast<size_t>(aNbr[static_cast<size_t>(e)])]);
                for (const auto& [k, t] : moves[static_cast<size_t>(mainJoint[static_cast<size_t>(i)])]) {
                    acc[t] += acc[k];
                    acc[k] = 0.0;
                }
                // Over-relaxed (SOR): the ramp across a region border needs
                // O(radius²) plain sweeps. acc.sum() = 1 + degree: rows sum to 1.
                Z.col(static_cast<Eigen::Index>(z)) = (1.0 - kOmega) * Z.col(static_cast<Eigen::Index>(z)) + (kOmega / acc.sum()) * acc;
            }
        }
        // Back to rows.
        std::vector<int> newStart(static_cast<size_t>(n) + 1, 0), newJoint;
        std::vector<double> newWeight;
        for (int i = 0; i < n; ++i) {
            const int z = local[static_cast<size_t>(i)];
            if (z >= 0 && static_cast<size_t>(z) < updated) {
                // Over-relaxation may leave tiny negative values: drop them.
                const double sum = Z.col(z).cwiseMax(0.0).sum();
                for (int k = 0; k < J; ++k)
                    if (Z(k, z) > 0.0) {
                        newJoint.push_back(k);
                        newWeight.push_back(Z(k, z) / sum);
                    }
            } else {
                for (int k = start[static_cast<size_t>(i)]; k < start[static_cast<size_t>(i) + 1]; ++k) {
                    newJoint.push_back(joint[static_cast<size_t>(k)]);
                    newWeight.push_back(weight[static_cast<size_t>(k)]);
                }
            }
            newStart[static_cast<size_t>(i) + 1] = static_cast<int>(newJoint.size());
        }
        std::swap(start, newStart);
        std::swap(joint, newJoint);
        std::swap(weight, newWeight);
    }

    // Drop the negligible tail, then keep the top k renormalized (eq. 4.2).
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(weight.size());
    for (int i = 0; i < n; ++i) {
        double top = 0.0;
        for (int k = start[static_cast<size_t>(i)]; k < start[static_cast<size_t>(i) + 1]; ++k)
            top = std::max(top, weight[static_cast<size_t>(k)]);
        for (int k = start[static_cast<size_t>(i)]; k < start[static_cast<size_t>(i) + 1]; ++k)
            if (weight[static_cast<size_t>(k)] > 0.0 && weight[static_cast<size_t>(k)] >= o.minRelativeWeight * top)
                triplets.emplace_back(i, joint[static_cast<size_t>(k)], weight[static_cast<size_t>(k)]);
    }
    Eigen::SparseMatrix<double> W(n, skeleton.jointCount());
    W.setFromTriplets(triplets.begin(), triplets.end()); // duplicates (none expected) would add up
    return skinWeightsFromSparse(W, o.maxInfluences);
}

} // namespace rig
