#include "core/skin/weights_gaussian.h"

#include "core/mesh/vertex_adjacency.h"
#include "core/skin/limbs.h"

#include "core/common/error.h"

#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <limits>
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
    if (!(o.smoothingWidth >= 0.0 && o.smoothingWidth <= 1.0))
        throw InvalidInput(kFn + "smoothingWidth must lie in [0, 1], got " + std::to_string(o.smoothingWidth));
    if (o.hierarchyLevel < 0 || o.smoothingIterations < 0 || o.maxInfluences < 1)
        throw InvalidInput(kFn + "hierarchyLevel and smoothingIterations must be >= 0 and maxInfluences >= 1; got " +
                           std::to_string(o.hierarchyLevel) + ", " + std::to_string(o.smoothingIterations) + ", " +
                           std::to_string(o.maxInfluences));
    if (!(o.minRelativeWeight >= 0.0 && o.minRelativeWeight < 1.0))
        throw InvalidInput(kFn + "minRelativeWeight must lie in [0, 1), got " + std::to_string(o.minRelativeWeight));
}

/// Influences per vertex as CSR rows: (joint, weight), rows summing to 1.
struct InfluenceRows {
    std::vector<int> start; ///< #V + 1 row offsets.
    std::vector<int> joint;
    std::vector<double> weight;
};

/// True when joint k heads or lies in another limb (limbs.h) than link c,
/// which lies on a limb: the segmentation put the vertex on that limb. Where
/// links fan out of a trunk joint, the δ' of a sibling link that leads
/// towards the vertex's limb is not small: re_drone's upper arms rise 50°
/// from the chest towards the head, and 94 head vertices took 0.13 of each
/// upper arm's weight (bench/README.md, stop 32). As in bone heat and
/// geodesic voxel binding.
bool otherLimb(const std::vector<int>& limb, int c, int k)
{
    const int own = limb[static_cast<size_t>(c)];
    return own >= 0 && limb[static_cast<size_t>(k)] >= 0 && limb[static_cast<size_t>(k)] != own;
}

/// The (joint, log f) pairs of one vertex, Alg. 4.2.1: its link's parent m
/// and child c, h levels up from m and h − 1 levels down from c, each at its
/// hierarchy distance from the vertex's δ (eq. 4.1).
void vertexLogs(const Mesh& mesh, const Skeleton& skeleton, const std::vector<std::vector<int>>& children,
                const std::vector<int>& limb, int i, int c, double d, const GaussianWeightOptions& o,
                std::vector<std::pair<int, double>>& logs)
{
    const int h = o.hierarchyLevel;
    const int m = skeleton.parents[static_cast<size_t>(c)];
    const bool leaf = children[static_cast<size_t>(c)].empty();
    if (leaf && d >= 1.0) {
        // Beyond a leaf's end (hand, head, toes) the raw δ goes on, so the
        // leaf's weight takes over from its parent's (eq. 3.4: δ > 1).
        const Vec3 a = skeleton.bindPositions.row(m).transpose();
        const Vec3 b = skeleton.bindPositions.row(c).transpose();
        d = std::max(1.0, linkDelta(mesh.V.row(i).transpose(), a, b));
    }
    if (h == 0) {
        logs.emplace_back(leaf && d > 1.5 ? c : m, 0.0); // rigid: the main joint only
        return;
    }
    logs.emplace_back(m, logDistribution(o, d));
    int up = m;
    for (int k = 1; k <= h; ++k) {
        up = skeleton.parents[static_cast<size_t>(up)];
        if (up < 0)
            break;
        logs.emplace_back(up, logDistribution(o, d + k));
    }
    // Every child of m (Alg. 4.2.1 line 8, GetChlds): the link's child c at
    // δ − 1; another child c' at δ' − 1, δ' the vertex's δ on the link m → c'
    // (so where the links fanning out of m meet, both sides agree); their
    // descendants k levels below m at δ − k, δ' − k.
    const Vec3 p = mesh.V.row(i).transpose();
    const Vec3 pm = skeleton.bindPositions.row(m).transpose();
    for (int ch : children[static_cast<size_t>(m)]) {
        if (otherLimb(limb, c, ch))
            continue; // skin on a limb takes no weight from another limb
        const bool chLeaf = children[static_cast<size_t>(ch)].empty();
        double dc = d;
        if (ch != c) {
            dc = std::max(0.0, linkDelta(p, pm, skeleton.bindPositions.row(ch).transpose()));
            if (!chLeaf)
                dc = std::min(dc, 1.0);
        }
        logs.emplace_back(ch, logDistribution(o, chLeaf ? std::min(dc - 1.0, o.b) : dc - 1.0));
        std::vector<int> level{ch}, next;
        for (int k = 2; k <= h && !level.empty(); ++k) {
            next.clear();
            for (int j : level)
                for (int g : children[static_cast<size_t>(j)]) {
                    logs.emplace_back(g, logDistribution(o, dc - k));
                    next.push_back(g);
                }
            std::swap(level, next);
        }
    }
}

/// Appends one vertex's row: the logs exponentiated and normalized (eq. 4.2).
void appendNormalized(std::vector<std::pair<int, double>>& logs, InfluenceRows& rows)
{
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
        rows.joint.push_back(j);
        rows.weight.push_back(w / sum);
    }
    rows.start.push_back(static_cast<int>(rows.joint.size()));
}

/// The thesis's weights of every vertex (Alg. 4.2.1, eq. 4.1–4.2).
InfluenceRows distributionWeights(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg,
                                  const GaussianWeightOptions& o)
{
    const auto children = childrenOf(skeleton);
    const std::vector<int> limb = jointLimbs(skeleton);
    InfluenceRows rows;
    rows.start.assign(1, 0);
    std::vector<std::pair<int, double>> logs; // (joint, log f(x))
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        const int c = seg.bone[static_cast<size_t>(i)];
        logs.clear();
        if (c == 0)
            logs.emplace_back(0, 0.0); // the root's own region
        else
            vertexLogs(mesh, skeleton, children, limb, i, c, seg.delta[static_cast<size_t>(i)], o, logs);
        appendNormalized(logs, rows);
    }
    return rows;
}

/// Per main joint m, the (joint k, target t) pairs whose weight moves while
/// smoothing: k goes to itself when it is m, an ancestor or a descendant of m;
/// otherwise to k's nearest ancestor that is one of those (the common
/// ancestor of two branches, e.g. the chest between the neck and a shoulder,
/// the hips between the thighs).
std::vector<std::vector<std::pair<int, int>>> redirectedJoints(const Skeleton& skeleton)
{
    const int J = skeleton.jointCount();
    const std::vector<int> limb = jointLimbs(skeleton);
    std::vector<std::vector<std::pair<int, int>>> moves(static_cast<size_t>(J));
    std::vector<char> allowed(static_cast<size_t>(J));
    for (int m = 0; m < J; ++m) {
        std::fill(allowed.begin(), allowed.end(), 0);
        for (int k = m; k >= 0; k = skeleton.parents[static_cast<size_t>(k)])
            allowed[static_cast<size_t>(k)] = 1;
        for (int k = m + 1; k < J; ++k) // parents[k] < k: a descendant's parent is m or a descendant
            if (allowed[static_cast<size_t>(skeleton.parents[static_cast<size_t>(k)])] &&
                skeleton.parents[static_cast<size_t>(k)] >= m)
                allowed[static_cast<size_t>(k)] = 1;
        // Within one limb, and between the trunk and a limb, weight may blend
        // (two palms of a hand, the chest into the neck); only between two
        // limbs is it handed to their common ancestor.
        for (int k = 0; k < J; ++k)
            if (limb[static_cast<size_t>(m)] < 0 || limb[static_cast<size_t>(k)] < 0 ||
                limb[static_cast<size_t>(k)] == limb[static_cast<size_t>(m)])
                allowed[static_cast<size_t>(k)] = 1;
        for (int k = 0; k < J; ++k) {
            int t = k;
            while (!allowed[static_cast<size_t>(t)])
                t = skeleton.parents[static_cast<size_t>(t)]; // ends at the root at the latest
            if (t != k)
                moves[static_cast<size_t>(m)].emplace_back(k, t);
        }
    }
    return moves;
}

/// Largest change of one joint's weight from vertex a to vertex b.
double jumpAcross(const InfluenceRows& r, int a, int b)
{
    double worst = 0.0;
    for (int k = r.start[static_cast<size_t>(a)]; k < r.start[static_cast<size_t>(a) + 1]; ++k) {
        double other = 0.0;
        for (int l = r.start[static_cast<size_t>(b)]; l < r.start[static_cast<size_t>(b) + 1]; ++l)
            if (r.joint[static_cast<size_t>(l)] == r.joint[static_cast<size_t>(k)])
                other = r.weight[static_cast<size_t>(l)];
        worst = std::max(worst, std::abs(r.weight[static_cast<size_t>(k)] - other));
    }
    return worst;
}

/// The ring (0 = on a jump, then 1, 2, …) of every vertex near a weight jump,
/// -1 elsewhere: the vertices around the edges whose ends differ by more than
/// 0.05 in some weight (region borders, the steep part of the distribution on
/// short links), out to `radius` rings: `smoothingWidth` of the mesh's
/// diagonal in rings of its mean edge, at least 1 and at most half of
/// `smoothingIterations` (so a coarse mesh is not smoothed through).
std::vector<int> smoothingRings(const Mesh& mesh, const VertexAdjacency& adj, const InfluenceRows& rows,
                                int smoothingIterations, double smoothingWidth, int& radius, double& reach)
{
    const int n = mesh.vertexCount();
    std::vector<int> ring(static_cast<size_t>(n), -1), frontier, next;
    for (int i = 0; i < n; ++i)
        for (int e = adj.start[static_cast<size_t>(i)]; e < adj.start[static_cast<size_t>(i) + 1]; ++e) {
            const int w = adj.nbr[static_cast<size_t>(e)];
            if (jumpAcross(rows, i, w) > 0.05 || jumpAcross(rows, w, i) > 0.05) {
                ring[static_cast<size_t>(i)] = 0;
                frontier.push_back(i);
                break;
            }
        }
    double edgeSum = 0.0;
    for (int i = 0; i < n; ++i)
        for (int e = adj.start[static_cast<size_t>(i)]; e < adj.start[static_cast<size_t>(i) + 1]; ++e)
            edgeSum += (mesh.V.row(i) - mesh.V.row(adj.nbr[static_cast<size_t>(e)])).norm();
    const double meanEdge = adj.nbr.empty() ? 0.0 : edgeSum / static_cast<double>(adj.nbr.size());
    Box3 box;
    for (int i = 0; i < n; ++i)
        box.extend(mesh.V.row(i).transpose());
    // The band's width in world units, in rings of this mesh's edges.
    reach = meanEdge > 0.0 ? smoothingWidth * box.diagonal() / meanEdge : 1.0;
    const int geometric = static_cast<int>(std::lround(reach));
    radius = std::max(1, std::min(smoothingIterations / 2, geometric));
    for (int r = 1; r <= radius && !frontier.empty(); ++r) {
        next.clear();
        for (int v : frontier)
            for (int e = adj.start[static_cast<size_t>(v)]; e < adj.start[static_cast<size_t>(v) + 1]; ++e) {
                const int w = adj.nbr[static_cast<size_t>(e)];
                if (ring[static_cast<size_t>(w)] < 0) {
                    ring[static_cast<size_t>(w)] = r;
                    next.push_back(w);
                }
            }
        std::swap(frontier, next);
    }
    return ring;
}

/// The smoothing zone: the ringed vertices (updated, first) and their outer
/// neighbours (fixed, after them), with each vertex's column in the zone.
struct SmoothingZone {
    std::vector<int> vertices;  ///< Zone column → vertex.
    std::vector<int> local;     ///< #V vertex → zone column, -1 outside.
    size_t updated = 0;         ///< The first `updated` columns change.
};

SmoothingZone smoothingZone(const VertexAdjacency& adj, const std::vector<int>& ring)
{
    SmoothingZone z;
    z.local.assign(ring.size(), -1);
    for (size_t i = 0; i < ring.size(); ++i)
        if (ring[i] >= 0) {
            z.local[i] = static_cast<int>(z.vertices.size());
            z.vertices.push_back(static_cast<int>(i));
        }
    z.updated = z.vertices.size();
    for (size_t k = 0; k < z.updated; ++k)
        for (int e = adj.start[static_cast<size_t>(z.vertices[k])]; e < adj.start[static_cast<size_t>(z.vertices[k]) + 1]; ++e) {
            const int w = adj.nbr[static_cast<size_t>(e)];
            if (z.local[static_cast<size_t>(w)] < 0) {
                z.local[static_cast<size_t>(w)] = static_cast<int>(z.vertices.size());
                z.vertices.push_back(w);
            }
        }
    return z;
}

/// Gauss–Seidel sweeps with over-relaxation over the zone's dense columns Z
/// (#J by zone): each vertex takes the mean of its own and its neighbours'
/// weights, with disallowed joints' weight moved (`moves`) so rows sum to 1.
/// In float, as the weights are stored: in double the rows of the generated
/// character were the same to 1.8e-7, and the stage took 20 % longer (17k and
/// 68k vertices, bench/README.md, stop 32).
void relaxZone(Eigen::MatrixXf& Z, const SmoothingZone& zone, const VertexAdjacency& adj,
               const std::vector<int>& mainJoint, const std::vector<std::vector<std::pair<int, int>>>& moves,
               double iterations)
{
    Eigen::VectorXf acc(Z.rows());
    const int sweeps = static_cast<int>(std::ceil(iterations - 1e-9));
    for (int it = 0; it < sweeps; ++it) {
        // The last sweep may be a fraction of one: its step is scaled down.
        const double omega = kOmega * std::min(1.0, iterations - it);
        for (size_t z = 0; z < zone.updated; ++z) { // Gauss-Seidel: in place
            const int i = zone.vertices[z];
            acc = Z.col(static_cast<Eigen::Index>(z));
            for (int e = adj.start[static_cast<size_t>(i)]; e < adj.start[static_cast<size_t>(i) + 1]; ++e)
                acc += Z.col(zone.local[static_cast<size_t>(adj.nbr[static_cast<size_t>(e)])]);
            for (const auto& [k, t] : moves[static_cast<size_t>(mainJoint[static_cast<size_t>(i)])]) {
                acc[t] += acc[k];
                acc[k] = 0.0;
            }
            // Over-relaxed (SOR): the ramp across a region border needs
            // O(radius²) plain sweeps. acc.sum() = 1 + degree: rows sum to 1.
            Z.col(static_cast<Eigen::Index>(z)) =
                (1.0 - omega) * Z.col(static_cast<Eigen::Index>(z)) + (omega / acc.sum()) * acc;
        }
    }
}

/// Rows again: the zone's updated vertices from Z, the others as they were.
InfluenceRows rowsFromZone(const InfluenceRows& rows, const Eigen::MatrixXf& Z, const SmoothingZone& zone)
{
    const int n = static_cast<int>(rows.start.size()) - 1;
    InfluenceRows out;
    out.start.assign(1, 0);
    for (int i = 0; i < n; ++i) {
        const int z = zone.local[static_cast<size_t>(i)];
        if (z >= 0 && static_cast<size_t>(z) < zone.updated) {
            // Over-relaxation may leave tiny negative values: drop them.
            const double sum = Z.col(z).cwiseMax(0.0).sum();
            for (int k = 0; k < Z.rows(); ++k)
                if (Z(k, z) > 0.0) {
                    out.joint.push_back(k);
                    out.weight.push_back(Z(k, z) / sum);
                }
        } else {
            for (int k = rows.start[static_cast<size_t>(i)]; k < rows.start[static_cast<size_t>(i) + 1]; ++k) {
                out.joint.push_back(rows.joint[static_cast<size_t>(k)]);
                out.weight.push_back(rows.weight[static_cast<size_t>(k)]);
            }
        }
        out.start.push_back(static_cast<int>(out.joint.size()));
    }
    return out;
}

/// Smoothing over the mesh's edges across region borders (see the header).
InfluenceRows smoothAcrossBorders(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg,
                                  const GaussianWeightOptions& o, const InfluenceRows& rows)
{
    const int n = mesh.vertexCount();
    const int J = skeleton.jointCount();
    std::vector<int> mainJoint(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int c = seg.bone[static_cast<size_t>(i)];
        mainJoint[static_cast<size_t>(i)] = c == 0 ? 0 : skeleton.parents[static_cast<size_t>(c)];
    }
    const VertexAdjacency adjacency = vertexAdjacency(n, mesh.F);
    int radius = 1;
    double reach = 1.0;
    const SmoothingZone zone = smoothingZone(
        adjacency, smoothingRings(mesh, adjacency, rows, o.smoothingIterations, o.smoothingWidth, radius, reach));
    Eigen::MatrixXf Z = Eigen::MatrixXf::Zero(J, static_cast<Eigen::Index>(zone.vertices.size())); // column per vertex
    for (size_t z = 0; z < zone.vertices.size(); ++z)
        for (int k = rows.start[static_cast<size_t>(zone.vertices[z])]; k < rows.start[static_cast<size_t>(zone.vertices[z]) + 1]; ++k)
            Z(rows.joint[static_cast<size_t>(k)], static_cast<Eigen::Index>(z)) += rows.weight[static_cast<size_t>(k)];
    // Diffusion spreads a weight over about √s edges in s sweeps: the band's
    // width g (in mean edges, not rounded) takes g² sweeps, more would only
    // spread the ramp's ends over the fixed zone. On a coarse mesh (g < 1:
    // the band narrower than one edge) that is a fraction of one sweep.
    const double sweeps = std::min(static_cast<double>(o.smoothingIterations), reach * reach);
    relaxZone(Z, zone, adjacency, mainJoint, redirectedJoints(skeleton), sweeps);
    return rowsFromZone(rows, Z, zone);
}

/// Drops the negligible tail (below `minRelativeWeight` of the vertex's
/// largest), then keeps the top k renormalized (eq. 4.2).
SkinWeights prunedWeights(const InfluenceRows& rows, int joints, const GaussianWeightOptions& o)
{
    const int n = static_cast<int>(rows.start.size()) - 1;
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(rows.weight.size());
    for (int i = 0; i < n; ++i) {
        double top = 0.0;
        for (int k = rows.start[static_cast<size_t>(i)]; k < rows.start[static_cast<size_t>(i) + 1]; ++k)
            top = std::max(top, rows.weight[static_cast<size_t>(k)]);
        for (int k = rows.start[static_cast<size_t>(i)]; k < rows.start[static_cast<size_t>(i) + 1]; ++k)
            if (rows.weight[static_cast<size_t>(k)] > 0.0 && rows.weight[static_cast<size_t>(k)] >= o.minRelativeWeight * top)
                triplets.emplace_back(i, rows.joint[static_cast<size_t>(k)], rows.weight[static_cast<size_t>(k)]);
    }
    Eigen::SparseMatrix<double> W(n, joints);
    W.setFromTriplets(triplets.begin(), triplets.end()); // duplicates (none expected) would add up
    return skinWeightsFromSparse(W, o.maxInfluences);
}

} // namespace

SkinWeights segmentationWeights(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg,
                                const GaussianWeightOptions& options)
{
    checkInput(mesh, skeleton, seg, options);
    InfluenceRows rows = distributionWeights(mesh, skeleton, seg, options);
    if (options.smoothingIterations > 0 && options.hierarchyLevel > 0 && mesh.F.rows() > 0)
        rows = smoothAcrossBorders(mesh, skeleton, seg, options, rows);
    return prunedWeights(rows, skeleton.jointCount(), options);
}

} // namespace rig
