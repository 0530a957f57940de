#include "core/skin/weights_gaussian.h"

#include "core/mesh/vertex_adjacency.h"
#include "core/skin/limbs.h"

#include "core/common/error.h"
#include "core/common/vertex_pool.h"

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
/// A colour of the smoothing zone with fewer columns than this per thread
/// is swept on one thread.
constexpr std::ptrdiff_t kMinParallelColumns = 2048;
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
/// upper arm's weight (bench/notes/weights.md, stop 32). As in bone heat and
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
    for (int i = 0; i < n; ++i) // each edge once, from its lower end
        for (int e = adj.start[static_cast<size_t>(i)]; e < adj.start[static_cast<size_t>(i) + 1]; ++e) {
            const int w = adj.nbr[static_cast<size_t>(e)];
            if (w < i || (ring[static_cast<size_t>(i)] == 0 && ring[static_cast<size_t>(w)] == 0))
                continue;
            if (jumpAcross(rows, i, w) > 0.05 || jumpAcross(rows, w, i) > 0.05)
                ring[static_cast<size_t>(i)] = ring[static_cast<size_t>(w)] = 0;
        }
    for (int i = 0; i < n; ++i)
        if (ring[static_cast<size_t>(i)] == 0)
            frontier.push_back(i);
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

/// The zone's weights: per zone column (vertex) `stride` floats, the #J
/// joints' weights then zeros up to a multiple of 8, so that a sweep's
/// vector operations run over whole SIMD lanes; and per updated column its
/// neighbours' columns (CSR), looked up once instead of at every sweep.
struct ZoneWeights {
    int stride = 0;
    std::vector<float> w;              ///< zone columns × stride
    std::vector<int> nbrStart, nbrCol; ///< updated column → its neighbours' columns
    float* col(size_t z) { return w.data() + z * static_cast<size_t>(stride); }
    const float* col(size_t z) const { return w.data() + z * static_cast<size_t>(stride); }
};

ZoneWeights zoneWeights(const InfluenceRows& rows, const SmoothingZone& zone, const VertexAdjacency& adj, int joints)
{
    ZoneWeights Z;
    Z.stride = (joints + 7) / 8 * 8;
    Z.w.assign(zone.vertices.size() * static_cast<size_t>(Z.stride), 0.0f);
    for (size_t z = 0; z < zone.vertices.size(); ++z) {
        const int v = zone.vertices[z];
        for (int k = rows.start[static_cast<size_t>(v)]; k < rows.start[static_cast<size_t>(v) + 1]; ++k)
            Z.col(z)[rows.joint[static_cast<size_t>(k)]] += static_cast<float>(rows.weight[static_cast<size_t>(k)]);
    }
    Z.nbrStart.assign(1, 0);
    for (size_t z = 0; z < zone.updated; ++z) {
        const int v = zone.vertices[z];
        for (int e = adj.start[static_cast<size_t>(v)]; e < adj.start[static_cast<size_t>(v) + 1]; ++e)
            Z.nbrCol.push_back(zone.local[static_cast<size_t>(adj.nbr[static_cast<size_t>(e)])]);
        Z.nbrStart.push_back(static_cast<int>(Z.nbrCol.size()));
    }
    return Z;
}

/// The redirection of `redirectedJoints()` as lane masks of the zone's
/// stride, per main joint m: `keep` (1 for the joints that stay, 0 for those
/// whose weight moves) and per target t the mask of the joints moving to it.
/// A sweep then moves a column's weight with a few vector products instead
/// of a chain of scalar read-modify-writes into the same target (each
/// waiting for the previous one's store: 40 % of the sweeps' time).
struct Redirection {
    std::vector<int> groupStart;   ///< per m: its groups [groupStart[m], groupStart[m + 1])
    std::vector<int> target;       ///< per group: the joint the masked weight moves to
    std::vector<float> keep, mask; ///< per m, per group: `stride` lanes each
};

Redirection redirection(const std::vector<std::vector<std::pair<int, int>>>& moves, int stride)
{
    Redirection r;
    r.groupStart.assign(1, 0);
    for (const auto& list : moves) {
        std::vector<float> keep(static_cast<size_t>(stride), 1.0f);
        const size_t first = r.target.size();
        for (const auto& [k, t] : list) {
            keep[static_cast<size_t>(k)] = 0.0f;
            size_t g = first;
            while (g < r.target.size() && r.target[g] != t)
                ++g;
            if (g == r.target.size()) {
                r.target.push_back(t);
                r.mask.resize(r.mask.size() + static_cast<size_t>(stride), 0.0f);
            }
            r.mask[g * static_cast<size_t>(stride) + static_cast<size_t>(k)] = 1.0f;
        }
        r.keep.insert(r.keep.end(), keep.begin(), keep.end());
        r.groupStart.push_back(static_cast<int>(r.target.size()));
    }
    return r;
}

/// Four floats as one value (GCC vector extension: one SSE register, which
/// every x86-64 has; 32-byte vectors emulated on SSE were slower than the
/// scalar loop); `F4u` loads and stores at any float alignment.
using F4 = float __attribute__((vector_size(16)));
using F4u = float __attribute__((vector_size(16), aligned(4)));

float laneSum(F4 v)
{
    return (v[0] + v[2]) + (v[1] + v[3]);
}

/// One sweep over the updated columns `cols[0..count)` (see relaxZone()), the
/// column's V = stride / 4 vectors held in registers (V = 0: any stride,
/// from memory). `moved` has room for the most groups of any main joint.
template <int V>
void relaxSweep(ZoneWeights& Z, const int* cols, size_t count, const std::vector<int>& zoneMain, const Redirection& r,
                float omega, float* moved)
{
    const int n = V > 0 ? V : Z.stride / 4;
    const float keep = 1.0f - omega;
    F4 fixed[V > 0 ? V : 1];
    std::vector<F4> any(V > 0 ? 0 : static_cast<size_t>(n));
    F4* a = V > 0 ? fixed : any.data();
    for (size_t i = 0; i < count; ++i) { // in place
        const size_t z = static_cast<size_t>(cols[i]);
        F4u* c = reinterpret_cast<F4u*>(Z.col(z));
        for (int k = 0; k < n; ++k)
            a[k] = c[k];
        for (int e = Z.nbrStart[z]; e < Z.nbrStart[z + 1]; ++e) {
            const F4u* o = reinterpret_cast<const F4u*>(Z.col(static_cast<size_t>(Z.nbrCol[static_cast<size_t>(e)])));
            for (int k = 0; k < n; ++k)
                a[k] += o[k];
        }
        const int m = zoneMain[z];
        const int g0 = r.groupStart[static_cast<size_t>(m)], g1 = r.groupStart[static_cast<size_t>(m) + 1];
        if (g1 > g0) {
            for (int g = g0; g < g1; ++g) {
                const F4u* mask = reinterpret_cast<const F4u*>(r.mask.data() + static_cast<size_t>(g) * 4 * n);
                F4 t = a[0] * mask[0];
                for (int k = 1; k < n; ++k)
                    t += a[k] * mask[k];
                moved[g - g0] = laneSum(t);
            }
            const F4u* kept = reinterpret_cast<const F4u*>(r.keep.data() + static_cast<size_t>(m) * 4 * n);
            for (int k = 0; k < n; ++k)
                a[k] *= kept[k];
            for (int g = g0; g < g1; ++g) {
                const int t = r.target[static_cast<size_t>(g)];
                a[t / 4][t % 4] += moved[g - g0];
            }
        }
        F4 total = a[0];
        for (int k = 1; k < n; ++k)
            total += a[k];
        const float step = omega / laneSum(total);
        for (int k = 0; k < n; ++k)
            c[k] = keep * c[k] + step * a[k];
    }
}

/// The updated columns grouped by a greedy colouring in zone order (no two
/// neighbours share a colour): colour c's columns, in zone order, are
/// order[start[c] .. start[c + 1]).
struct ColourOrder {
    std::vector<int> order, start;
};

ColourOrder colourOrder(const ZoneWeights& Z, size_t updated)
{
    std::vector<int> colour(updated, -1), count;
    std::vector<char> used;
    for (size_t z = 0; z < updated; ++z) {
        used.assign(count.size() + 1, 0);
        for (int e = Z.nbrStart[z]; e < Z.nbrStart[z + 1]; ++e)
            if (const int w = Z.nbrCol[static_cast<size_t>(e)]; static_cast<size_t>(w) < updated && colour[static_cast<size_t>(w)] >= 0)
                used[static_cast<size_t>(colour[static_cast<size_t>(w)])] = 1;
        int c = 0;
        while (used[static_cast<size_t>(c)])
            ++c;
        if (static_cast<size_t>(c) == count.size())
            count.push_back(0);
        colour[z] = c;
        ++count[static_cast<size_t>(c)];
    }
    ColourOrder out{std::vector<int>(updated), std::vector<int>(count.size() + 1, 0)};
    for (size_t c = 0; c < count.size(); ++c)
        out.start[c + 1] = out.start[c] + count[c];
    std::vector<int> next(out.start.begin(), out.start.end() - 1);
    for (size_t z = 0; z < updated; ++z)
        out.order[static_cast<size_t>(next[static_cast<size_t>(colour[z])]++)] = static_cast<int>(z);
    return out;
}

/// `relaxSweep()` for the zone's stride.
void relaxColumns(ZoneWeights& Z, const int* cols, size_t count, const std::vector<int>& zoneMain, const Redirection& r,
                  float omega, float* moved)
{
    switch (Z.stride / 4) {
    case 2: relaxSweep<2>(Z, cols, count, zoneMain, r, omega, moved); break;
    case 4: relaxSweep<4>(Z, cols, count, zoneMain, r, omega, moved); break;
    case 6: relaxSweep<6>(Z, cols, count, zoneMain, r, omega, moved); break;
    case 8: relaxSweep<8>(Z, cols, count, zoneMain, r, omega, moved); break;
    case 14: relaxSweep<14>(Z, cols, count, zoneMain, r, omega, moved); break; // humanoid51 (fingers)
    default: relaxSweep<0>(Z, cols, count, zoneMain, r, omega, moved); break;
    }
}

/// Gauss–Seidel sweeps with over-relaxation over the zone's columns, colour
/// by colour (`colourOrder()`, each colour split among the threads): each
/// vertex takes the mean of its own and its neighbours' weights, with
/// disallowed joints' weight moved (`moves`) so rows sum to 1. In float, as
/// the weights are stored: in double the rows of the generated character
/// were the same to 1.8e-7, and the stage took 20 % longer (17k and 68k
/// vertices, bench/notes/pipeline-speed.md, stop 32). Padded columns, neighbour lists
/// resolved once and the redirection by masks: bench/notes/pipeline-speed.md, stop 34.
void relaxZone(ZoneWeights& Z, const SmoothingZone& zone, const std::vector<int>& mainJoint,
               const std::vector<std::vector<std::pair<int, int>>>& moves, double iterations, int threads)
{
    const Redirection r = redirection(moves, Z.stride);
    std::vector<int> zoneMain(zone.updated);
    for (size_t z = 0; z < zone.updated; ++z)
        zoneMain[z] = mainJoint[static_cast<size_t>(zone.vertices[z])];
    const ColourOrder colours = colourOrder(Z, zone.updated);
    const int sweeps = static_cast<int>(std::ceil(iterations - 1e-9));
    // Each colour's columns on the persistent pool (core/common/vertex_pool.h):
    // the caller takes chunks beside the workers, so a worker another process
    // keeps off its core does not hold every colour up.
    for (int it = 0; it < sweeps; ++it) {
        // The last sweep may be a fraction of one: its step is scaled down.
        // Over-relaxed (SOR): the ramp across a region border needs O(radius²)
        // plain sweeps. The sum of a column's acc is 1 + degree: rows sum to 1.
        const float omega = static_cast<float>(kOmega * std::min(1.0, iterations - it));
        for (size_t c = 0; c + 1 < colours.start.size(); ++c) {
            const int* cols = colours.order.data() + colours.start[c];
            parallelVertices(colours.start[c + 1] - colours.start[c], threads, kMinParallelColumns,
                             [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                                 thread_local std::vector<float> scratch;
                                 scratch.resize(moves.size() + 1);
                                 relaxColumns(Z, cols + begin, static_cast<size_t>(end - begin), zoneMain, r, omega,
                                              scratch.data());
                             });
        }
    }
}

/// Rows again: the zone's updated vertices from Z, the others as they were.
InfluenceRows rowsFromZone(const InfluenceRows& rows, const ZoneWeights& Z, int joints, const SmoothingZone& zone)
{
    const int n = static_cast<int>(rows.start.size()) - 1;
    auto updated = [&](int i) {
        const int z = zone.local[static_cast<size_t>(i)];
        return z >= 0 && static_cast<size_t>(z) < zone.updated ? Z.col(static_cast<size_t>(z)) : nullptr;
    };
    // Counted first: one allocation each (growing them by doubling cost more
    // than the sweeps' last pass on a 154k-vertex mesh).
    size_t count = 0;
    for (int i = 0; i < n; ++i)
        if (const float* c = updated(i))
            count += static_cast<size_t>(std::count_if(c, c + joints, [](float w) { return w > 0.0f; }));
        else
            count += static_cast<size_t>(rows.start[static_cast<size_t>(i) + 1] - rows.start[static_cast<size_t>(i)]);
    InfluenceRows out;
    out.start.reserve(static_cast<size_t>(n) + 1);
    out.joint.reserve(count);
    out.weight.reserve(count);
    out.start.push_back(0);
    for (int i = 0; i < n; ++i) {
        if (const float* c = updated(i)) {
            // Over-relaxation may leave tiny negative values: drop them.
            float sum = 0.0f;
            for (int k = 0; k < joints; ++k)
                sum += std::max(c[k], 0.0f);
            for (int k = 0; k < joints; ++k)
                if (c[k] > 0.0f) {
                    out.joint.push_back(k);
                    out.weight.push_back(c[k] / sum);
                }
        } else {
            out.joint.insert(out.joint.end(), rows.joint.begin() + rows.start[static_cast<size_t>(i)],
                             rows.joint.begin() + rows.start[static_cast<size_t>(i) + 1]);
            out.weight.insert(out.weight.end(), rows.weight.begin() + rows.start[static_cast<size_t>(i)],
                              rows.weight.begin() + rows.start[static_cast<size_t>(i) + 1]);
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
    ZoneWeights Z = zoneWeights(rows, zone, adjacency, J);
    // Diffusion spreads a weight over about √s edges in s sweeps: the band's
    // width g (in mean edges, not rounded) takes g² sweeps, more would only
    // spread the ramp's ends over the fixed zone. On a coarse mesh (g < 1:
    // the band narrower than one edge) that is a fraction of one sweep.
    const double sweeps = std::min(static_cast<double>(o.smoothingIterations), reach * reach);
    relaxZone(Z, zone, mainJoint, redirectedJoints(skeleton), sweeps, o.threads);
    return rowsFromZone(rows, Z, J, zone);
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
