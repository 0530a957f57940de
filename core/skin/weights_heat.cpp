#include "core/skin/weights_heat.h"

#include "core/common/error.h"
#include "core/common/segment.h"
#include "core/skin/bone_segments.h"
#include "core/common/parallel.h"
#include "core/mesh/laplacian.h"
#include "core/mesh/mesh_queries.h"
#include "core/skin/limbs.h"

#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace rig {
namespace {

constexpr const char* fn = "rig::boneHeatWeights()";

/// A heat source: a segment owned by a joint (see the header's "Bones").
using Bone = BoneSegment;

bool insideSolid(const VoxelGrid& g, const Vec3& p)
{
    const Vec3i v = g.voxelAt(p);
    return g.contains(v) && g.solid(g.index(v));
}

/// True when the segment from vertex p to q stays in the solid, except within
/// `skip` of p (see HeatWeightOptions::visibilityTolerance).
bool visible(const VoxelGrid& g, const Vec3& p, const Vec3& q, double skip)
{
    const Vec3 d = q - p;
    const double len = d.norm();
    if (len <= skip)
        return true;
    const double step = 0.5 * g.voxelSize;
    const Vec3 u = d / len;
    for (double s = skip; s < len; s += step)
        if (!insideSolid(g, p + s * u))
            return false;
    return insideSolid(g, q);
}

/// The heat sources of every joint: its bones (bone_segments.h), a leaf
/// joint's continuation (to the skin, with `leafBonesToSkin`) clipped where it
/// leaves the solid.
std::vector<Bone> makeBones(const Mesh& mesh, const Skeleton& s, const VoxelGrid* solid, const HeatWeightOptions& o)
{
    std::vector<Bone> bones = boneSegments(s, o.leafBoneLength, o.deforming);
    if (o.leafBonesToSkin)
        leafBonesToSkin(mesh, s, bones, o.threads, o.deforming);
    if (!solid)
        return bones;
    for (Bone& b : bones) {
        const double length = (b.b - b.a).norm();
        if (!b.leaf || !(length > 0.0) || !insideSolid(*solid, b.a))
            continue;
        const Vec3 dir = (b.b - b.a) / length;
        const double step = 0.5 * solid->voxelSize;
        double s2 = step;
        while (s2 < length && insideSolid(*solid, b.a + s2 * dir))
            s2 += step;
        b.b = b.a + std::max(0.0, std::min(length, s2 - step)) * dir;
    }
    return bones;
}

/// What the nearest-visible-bone search found for one vertex.
struct VertexHeat {
    double distance = 0.0; ///< Distance to the nearest visible bone (when any).
    int joint = -1;        ///< Joint of the nearest visible bone, -1 when none is visible.
    int tiedJoint = -1;    ///< A second joint within the tie tolerance, or -1.
    int nearestJoint = 0;  ///< Joint of the nearest bone, visible or not.
};

/// Rows of the right-hand sides and solutions: one row per vertex, one column
/// per bone, so that a row is a contiguous run the substitutions update at once.
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Solves M X = B in place for the symmetric positive definite M of a part
/// and all bones' right-hand sides at once (the columns of B): one sparse
/// LDLᵀ factorization (Eigen's, in its approximate-minimum-degree order), then
/// one forward and one backward substitution that stream the factor once and
/// update a whole row of B per entry. Solving bone by bone (Eigen's solve with
/// a matrix right-hand side also goes column by column) reads the factor,
/// larger than the cache, twice per bone instead of twice in all.
/// @return false when the factorization fails (M not positive definite).
bool solveHeat(const Eigen::SparseMatrix<double>& M, RowMatrix& B)
{
    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(M);
    if (ldlt.info() != Eigen::Success)
        return false;
    // M = Pᵀ L D Lᵀ P with L unit lower triangular, stored by columns without its diagonal.
    const Eigen::SparseMatrix<double>& L = ldlt.matrixL().nestedExpression();
    const Eigen::VectorXd& D = ldlt.vectorD();
    const int* perm = ldlt.permutationP().indices().data(); // row i of M is row perm[i] of P M Pᵀ
    const auto m = static_cast<int>(M.rows());
    const auto k = static_cast<std::ptrdiff_t>(B.cols());
    RowMatrix X(m, k);
    for (int i = 0; i < m; ++i)
        X.row(perm[i]) = B.row(i);
    const int* outer = L.outerIndexPtr();
    const int* inner = L.innerIndexPtr();
    const double* value = L.valuePtr();
    double* x = X.data();
    // L y = b by columns: entry L_ij subtracts L_ij y_j from row i (i > j).
    for (int j = 0; j < m; ++j) {
        const double* yj = x + j * k;
        for (int p = outer[j]; p < outer[j + 1]; ++p) {
            if (inner[p] <= j)
                continue;
            const double l = value[p];
            double* yi = x + inner[p] * k;
            for (std::ptrdiff_t c = 0; c < k; ++c)
                yi[c] -= l * yj[c];
        }
    }
    // D z = y, and Lᵀ x = z backwards: x_j = z_j − Σ_{i > j} L_ij x_i.
    for (int j = m - 1; j >= 0; --j) {
        double* xj = x + j * k;
        const double dInverse = 1.0 / D(j);
        for (std::ptrdiff_t c = 0; c < k; ++c)
            xj[c] *= dInverse;
        for (int p = outer[j]; p < outer[j + 1]; ++p) {
            if (inner[p] <= j)
                continue;
            const double l = value[p];
            const double* xi = x + inner[p] * k;
            for (std::ptrdiff_t c = 0; c < k; ++c)
                xj[c] -= l * xi[c];
        }
    }
    for (int i = 0; i < m; ++i)
        B.row(i) = X.row(perm[i]);
    return true;
}

void checkInput(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid, const HeatWeightOptions& o)
{
    if (mesh.vertexCount() == 0 || mesh.triangleCount() == 0)
        throw InvalidInput(std::string(fn) + ": the mesh has no triangles; load a character first");
    try {
        validateSkeleton(skeleton);
    } catch (const InvalidInput& e) {
        throw InvalidInput(std::string(fn) + ": invalid skeleton: " + e.what());
    }
    if (solid && (solid->empty() || !(solid->voxelSize > 0.0) ||
                  static_cast<std::int64_t>(solid->states.size()) != solid->voxelCount()))
        throw InvalidInput(std::string(fn) + ": the voxel solid is empty; build the curve skeleton first or pass none");
    const auto range = [](const char* name, double v, double lo, double hi) {
        if (!(v >= lo && v <= hi))
            throw InvalidInput(std::string(fn) + ": option " + name + " = " + std::to_string(v) + " is outside [" +
                               std::to_string(lo) + ", " + std::to_string(hi) + "]");
    };
    range("heatConstant", o.heatConstant, 1e-9, 1e9);
    range("visibilityTolerance", o.visibilityTolerance, 0.0, 1e3);
    range("leafBoneLength", o.leafBoneLength, 0.0, 1e3);
    range("minWeight", o.minWeight, 0.0, 0.4999);
    range("maxInfluences", o.maxInfluences, 1, 1e6);
    range("minPartVertices", o.minPartVertices, 1, 1e9);
    range("smallPartSize", o.smallPartSize, 0.0, 0.9999);
    range("threads", o.threads, 0, 1e4);
}

/// Step 1: the nearest visible bone of every vertex (Pinocchio: ties within
/// 0.01 %), through the voxel solid when there is one; in blocks, in parallel.
std::vector<VertexHeat> nearestVisibleBones(const MatrixX3d& V, const std::vector<Bone>& bones, const VoxelGrid* solid,
                                            const std::vector<int>& vertexLimb, const std::vector<int>& limb,
                                            const HeatWeightOptions& options, const Progress& progress)
{
    const int n = static_cast<int>(V.rows());
    std::vector<VertexHeat> heat(static_cast<size_t>(n));
    const double skip = solid ? options.visibilityTolerance * solid->voxelSize : 0.0;
    const auto searchRange = [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        std::vector<std::pair<double, int>> order(bones.size());
        for (std::ptrdiff_t i = begin; i < end; ++i) {
            const Vec3 p = V.row(i).transpose();
            for (size_t b = 0; b < bones.size(); ++b)
                order[b] = {(closestPointOnSegment(p, bones[b].a, bones[b].b) - p).squaredNorm(), static_cast<int>(b)};
            std::sort(order.begin(), order.end());
            VertexHeat& h = heat[static_cast<size_t>(i)];
            h.nearestJoint = bones[order[0].second].joint;
            double best = -1.0;
            const int own = vertexLimb.empty() ? -1 : vertexLimb[static_cast<size_t>(i)];
            for (const auto& [d2, b] : order) {
                if (best >= 0.0 && d2 > best * 1.0002) // (1.0001)^2
                    break;
                if (const int l = limb[static_cast<size_t>(bones[b].joint)]; own >= 0 && l >= 0 && l != own)
                    continue; // another limb's bone, near through a touching surface
                const Vec3 q = closestPointOnSegment(p, bones[b].a, bones[b].b);
                if (solid && !visible(*solid, p, q, skip))
                    continue;
                if (best < 0.0) {
                    best = d2;
                    h.joint = bones[b].joint;
                    h.distance = std::sqrt(d2);
                } else if (bones[b].joint != h.joint && h.tiedJoint < 0) {
                    h.tiedJoint = bones[b].joint;
                }
            }
        }
    };
    constexpr int block = 4096;
    for (int start = 0; start < n; start += block) {
        progress.update("heat: visibility", double(start) / n);
        const int stop = std::min(n, start + block);
        parallelFor(stop - start, options.threads, 512,
                    [&](std::ptrdiff_t b, std::ptrdiff_t e) { searchRange(start + b, start + e); });
    }
    progress.update("heat: visibility", 1.0);
    return heat;
}

/// What the whole solve shares: the mesh, its Laplacian and areas, the bones,
/// each vertex's nearest bone, and the output triplets.
struct HeatContext {
    const Mesh& mesh;
    const Skeleton& skeleton;
    const HeatWeightOptions& options;
    const Eigen::SparseMatrix<double>& L;
    const Eigen::SparseMatrix<double, Eigen::RowMajor>& Lr; ///< Row access, for parts (empty for one part).
    const Eigen::VectorXd& area;
    const std::vector<Bone>& bones;
    const std::vector<VertexHeat>& heat;
    const std::vector<int>& limb;
    double height = 0.0;
    double minDistance = 0.0;
    bool onePart = true;
    std::vector<Eigen::Triplet<double>>& W;
    std::vector<int>& localIndex; ///< Scratch: vertex → index in the part, -1 outside.

    void bindNearest(int i)
    {
        const VertexHeat& h = heat[static_cast<size_t>(i)];
        W.emplace_back(i, h.joint >= 0 ? h.joint : h.nearestJoint, 1.0);
    }
    /// The diagonal heat term A_i H_ii = A_i c / d_i² (0 where no bone is visible).
    double heatTerm(int i) const
    {
        const double d = std::max(heat[static_cast<size_t>(i)].distance, minDistance);
        return heat[static_cast<size_t>(i)].joint >= 0 ? area(i) * options.heatConstant / (d * d) : 0.0;
    }
};

/// Why a part is bound rigidly instead of solved ("" when it is solved).
std::string rigidReason(const HeatContext& ctx, const std::vector<int>& vs, double partArea, int heated,
                        const Box3& partBox)
{
    if (!(partArea > 1e-12 * ctx.height * ctx.height))
        return "degenerate (no area)";
    if (static_cast<int>(vs.size()) < ctx.options.minPartVertices)
        return "too small (" + std::to_string(vs.size()) + " vertices)";
    if (heated == 0)
        return "no bone visible";
    if (partBox.diagonal() < ctx.options.smallPartSize * ctx.height)
        return "small part (moves rigidly)";
    return {};
}

/// (−L + A H) restricted to the part (a part is closed under edges).
Eigen::SparseMatrix<double> partSystem(const HeatContext& ctx, const std::vector<int>& vs)
{
    Eigen::SparseMatrix<double> M;
    if (ctx.onePart) { // the whole mesh: local index = vertex index
        M = -ctx.L;
        for (int i = 0; i < ctx.mesh.vertexCount(); ++i)
            if (const double h = ctx.heatTerm(i); h > 0.0)
                M.coeffRef(i, i) += h; // the diagonal entry exists: i has triangles
        return M;
    }
    std::vector<Eigen::Triplet<double>> t;
    for (size_t k = 0; k < vs.size(); ++k) {
        const int i = vs[k];
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(ctx.Lr, i); it; ++it)
            t.emplace_back(static_cast<int>(k), ctx.localIndex[static_cast<size_t>(it.col())], -it.value());
        t.emplace_back(static_cast<int>(k), static_cast<int>(k), ctx.heatTerm(i));
    }
    M.resize(static_cast<Eigen::Index>(vs.size()), static_cast<Eigen::Index>(vs.size()));
    M.setFromTriplets(t.begin(), t.end());
    return M;
}

/// Right-hand sides A H p_j of the bones heating the part: those nearest to a
/// vertex, or tied for nearest (a joint that is only ever tied still gets its
/// share); one column per such joint (`sourceJoints`). The other bones'
/// right-hand sides are zero, so are their weights.
RowMatrix heatSources(const HeatContext& ctx, const std::vector<int>& vs, std::vector<int>& sourceJoints)
{
    std::vector<int> column(static_cast<size_t>(ctx.skeleton.jointCount()), -1);
    for (int i : vs)
        for (const int j : {ctx.heat[static_cast<size_t>(i)].joint, ctx.heat[static_cast<size_t>(i)].tiedJoint})
            if (j >= 0)
                column[static_cast<size_t>(j)] = 0;
    for (int j = 0; j < ctx.skeleton.jointCount(); ++j)
        if (column[static_cast<size_t>(j)] == 0) {
            column[static_cast<size_t>(j)] = static_cast<int>(sourceJoints.size());
            sourceJoints.push_back(j);
        }
    RowMatrix rhs = RowMatrix::Zero(static_cast<Eigen::Index>(vs.size()), static_cast<Eigen::Index>(sourceJoints.size()));
    for (size_t k = 0; k < vs.size(); ++k) {
        const auto r = static_cast<Eigen::Index>(k);
        const VertexHeat& h = ctx.heat[static_cast<size_t>(vs[k])];
        if (h.joint < 0)
            continue;
        const double d = std::max(h.distance, ctx.minDistance);
        const double share = (h.tiedJoint >= 0 ? 0.5 : 1.0) * ctx.area(vs[k]) * ctx.options.heatConstant / (d * d);
        rhs(r, column[static_cast<size_t>(h.joint)]) = share;
        if (h.tiedJoint >= 0)
            rhs(r, column[static_cast<size_t>(h.tiedJoint)]) = share;
    }
    return rhs;
}

/// A part bound rigidly: to the bone most of its vertices see, else the bone
/// nearest its centre; named after the mesh part most of it belongs to.
RigidPart rigidPart(HeatContext& ctx, int c, const std::vector<int>& vs, const std::map<int, int>& votes,
                    const Box3& partBox, std::string reason)
{
    RigidPart part;
    part.part = c;
    part.vertexCount = static_cast<int>(vs.size());
    part.vertices = vs;
    part.reason = std::move(reason);
    if (!votes.empty()) {
        part.bone = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) {
                        return a.second < b.second;
                    })->first;
    } else {
        const Vec3 centroid = partBox.center();
        double best = std::numeric_limits<double>::infinity();
        for (const Bone& b : ctx.bones)
            if (const double d = (closestPointOnSegment(centroid, b.a, b.b) - centroid).squaredNorm(); d < best) {
                best = d;
                part.bone = b.joint;
            }
    }
    part.name = pieceName(ctx.mesh, vs, c);
    for (int i : vs)
        ctx.W.emplace_back(i, part.bone, 1.0);
    return part;
}

/// The solved weights of a part's vertices, less the heat that crossed from
/// another limb and the tiny tails; a vertex left with none is bound to its
/// nearest bone (counted as unreached).
int appendSolvedRows(HeatContext& ctx, const std::vector<int>& vs, const RowMatrix& sol,
                     const std::vector<int>& sourceJoints)
{
    int unreached = 0;
    for (Eigen::Index k = 0; k < static_cast<Eigen::Index>(vs.size()); ++k) {
        const int i = vs[static_cast<size_t>(k)];
        double kept = 0.0;
        const size_t before = ctx.W.size();
        Eigen::Index main = 0;
        sol.row(k).maxCoeff(&main);
        int own = ctx.options.separateLimbs ? ctx.limb[static_cast<size_t>(sourceJoints[static_cast<size_t>(main)])] : -1;
        if (ctx.options.separateLimbs && own < 0) {
            // A trunk vertex keeps the limb weights of one limb, its heaviest
            // (the pelvis under the right buttock does not follow the left thigh).
            double best = 0.0;
            for (size_t s = 0; s < sourceJoints.size(); ++s)
                if (const int l = ctx.limb[static_cast<size_t>(sourceJoints[s])];
                    l >= 0 && sol(k, static_cast<Eigen::Index>(s)) > best) {
                    best = sol(k, static_cast<Eigen::Index>(s));
                    own = l;
                }
        }
        for (size_t s = 0; s < sourceJoints.size(); ++s) {
            const double w = sol(k, static_cast<Eigen::Index>(s));
            const int l = ctx.limb[static_cast<size_t>(sourceJoints[s])];
            if (own >= 0 && l >= 0 && l != own)
                continue; // heat that crossed from another limb (the crotch, the armpit)
            if (std::isfinite(w) && w > ctx.options.minWeight) { // negative round-off and tiny tails dropped
                ctx.W.emplace_back(i, sourceJoints[s], w);
                kept += w;
            }
        }
        if (!(kept > 1e-6)) {
            ctx.W.resize(before);
            ctx.bindNearest(i);
            ++unreached;
        }
        ctx.localIndex[static_cast<size_t>(i)] = -1;
    }
    return unreached;
}

/// Step 2 for one connected part: a rigid binding, or one factorization and
/// a solve of every heating bone's right-hand side.
void heatPart(HeatContext& ctx, int c, const std::vector<int>& vs, const Progress& progress, HeatWeightsResult& result)
{
    if (vs.size() == 1) { // an isolated vertex: nothing to diffuse over
        ctx.bindNearest(vs[0]);
        ++result.unreachedVertices;
        return;
    }
    Box3 partBox;
    double partArea = 0.0;
    int heated = 0;
    std::map<int, int> votes;
    for (int i : vs) {
        partBox.extend(ctx.mesh.V.row(i).transpose());
        partArea += ctx.area(i);
        if (ctx.heat[static_cast<size_t>(i)].joint >= 0) {
            ++heated;
            ++votes[ctx.heat[static_cast<size_t>(i)].joint];
        }
    }
    std::string reason = rigidReason(ctx, vs, partArea, heated, partBox);
    std::vector<int> sourceJoints;
    RowMatrix sol;
    if (reason.empty()) {
        for (size_t k = 0; k < vs.size(); ++k)
            ctx.localIndex[static_cast<size_t>(vs[k])] = static_cast<int>(k);
        const Eigen::SparseMatrix<double> M = partSystem(ctx, vs);
        sol = heatSources(ctx, vs, sourceJoints);
        progress.checkCancelled();
        if (!solveHeat(M, sol))
            reason = "solve failed (degenerate geometry)";
    }
    if (!reason.empty()) {
        result.rigidParts.push_back(rigidPart(ctx, c, vs, votes, partBox, std::move(reason)));
        return;
    }
    result.unreachedVertices += appendSolvedRows(ctx, vs, sol, sourceJoints);
}

} // namespace

HeatWeightsResult boneHeatWeights(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                                  const HeatWeightOptions& options, const Progress& progress,
                                  const Segmentation* segmentation)
{
    checkInput(mesh, skeleton, solid, options);
    const int n = mesh.vertexCount();
    const Eigen::SparseMatrix<double> L = cotangentLaplacian(mesh.V, mesh.F); // also checks V and F
    const Eigen::VectorXd area = vertexAreas(mesh.V, mesh.F);
    Box3 box;
    for (int i = 0; i < n; ++i)
        box.extend(mesh.V.row(i).transpose());
    const std::vector<Bone> bones = makeBones(mesh, skeleton, solid, options);
    const std::vector<int> limb = jointLimbs(skeleton);
    std::vector<int> vertexLimb; // the limb the segmentation puts each vertex on (-1: the trunk, or none)
    if (segmentation && options.separateLimbs) {
        vertexLimb.assign(static_cast<size_t>(n), -1);
        for (int i = 0; i < n; ++i)
            if (const int c = segmentation->bone[static_cast<size_t>(i)];
                c > 0 && c < skeleton.jointCount() && linkDeforms(skeleton, options.deforming, c))
                vertexLimb[static_cast<size_t>(i)] = limb[static_cast<size_t>(c)];
    }
    const std::vector<VertexHeat> heat = nearestVisibleBones(mesh.V, bones, solid, vertexLimb, limb, options, progress);

    int componentCount = 0;
    const std::vector<int> component = vertexComponents(n, mesh.F, componentCount);
    std::vector<std::vector<int>> members(static_cast<size_t>(componentCount));
    for (int i = 0; i < n; ++i)
        members[static_cast<size_t>(component[static_cast<size_t>(i)])].push_back(i);
    // Row access to L for extracting parts (not needed for a one-part mesh).
    const Eigen::SparseMatrix<double, Eigen::RowMajor> Lr = componentCount > 1
                                                                ? Eigen::SparseMatrix<double, Eigen::RowMajor>(L)
                                                                : Eigen::SparseMatrix<double, Eigen::RowMajor>();
    std::vector<Eigen::Triplet<double>> W;
    W.reserve(static_cast<size_t>(n) * 4);
    std::vector<int> localIndex(static_cast<size_t>(n), -1);
    const double height = std::max(box.size().y(), box.diagonal() * 1e-3);
    HeatContext ctx{mesh, skeleton, options, L, Lr, area, bones, heat, limb,
                    height, 1e-4 * std::max(height, 1e-300), componentCount == 1, W, localIndex};
    HeatWeightsResult result;
    for (int c = 0; c < componentCount; ++c) {
        progress.update("heat: solve", double(c) / componentCount);
        heatPart(ctx, c, members[static_cast<size_t>(c)], progress, result);
    }
    progress.update("heat: solve", 1.0);

    Eigen::SparseMatrix<double> dense(n, skeleton.jointCount());
    dense.setFromTriplets(W.begin(), W.end());
    result.weights = skinWeightsFromSparse(dense, options.maxInfluences);
    return result;
}

} // namespace rig
