#include "core/deform/simplex_transform.h"

#include "core/common/error.h"
#include "core/common/segment.h"
#include "core/common/parallel.h"
#include "core/mesh/mesh_queries.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include <Eigen/LU>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rig {
namespace {

/// A bone (link parent → child) with its range planes (§5.1, Fig. 2).
struct RangeBone {
    int child = -1;  ///< The link's child joint.
    int follow = 0;  ///< The joint whose skinning transform moves it (the link's parent).
    Vec3 a, b;       ///< Ends: parent joint, child joint.
    std::vector<std::pair<Vec3, Vec3>> planes; ///< (point, normal): in range when (x − point)·normal >= 0.
    bool inRange(const Vec3& x) const
    {
        return std::all_of(planes.begin(), planes.end(), [&](const auto& p) { return (x - p.first).dot(p.second) >= 0.0; });
    }
};

/// The range planes at joint `at` of a bone leaving it towards `along`: the
/// bisecting plane with every other bone meeting there, or the perpendicular
/// plane at a free end.
void addRangePlanes(const Skeleton& s, const std::vector<std::vector<int>>& children, int at, const Vec3& along,
                    int self, std::vector<std::pair<Vec3, Vec3>>& planes)
{
    const Vec3 p = s.bindPositions.row(at).transpose();
    const Vec3 u1 = (along - p).normalized();
    std::vector<int> others;
    for (int k : children[static_cast<size_t>(at)])
        if (k != self)
            others.push_back(k);
    if (s.parents[static_cast<size_t>(at)] >= 0 && s.parents[static_cast<size_t>(at)] != self)
        others.push_back(s.parents[static_cast<size_t>(at)]);
    int added = 0;
    for (int o : others) {
        const Vec3 d = s.bindPositions.row(o).transpose() - p;
        if (d.norm() < 1e-12)
            continue;
        const Vec3 n = u1 - d.normalized();
        if (n.norm() > 1e-9) {
            planes.emplace_back(p, n.normalized());
            ++added;
        }
    }
    if (added == 0)
        planes.emplace_back(p, u1); // a free end
}

std::vector<RangeBone> rangeBones(const Skeleton& s)
{
    std::vector<std::vector<int>> children(static_cast<size_t>(s.jointCount()));
    for (int j = 1; j < s.jointCount(); ++j)
        children[static_cast<size_t>(s.parents[static_cast<size_t>(j)])].push_back(j);
    std::vector<RangeBone> bones;
    for (int c = 1; c < s.jointCount(); ++c) {
        RangeBone b;
        b.child = c;
        b.follow = s.parents[static_cast<size_t>(c)];
        b.a = s.bindPositions.row(b.follow).transpose();
        b.b = s.bindPositions.row(c).transpose();
        if ((b.b - b.a).norm() < 1e-12)
            continue; // a zero-length link controls nothing
        addRangePlanes(s, children, c, b.a, b.follow, b.planes);      // the child end: towards the parent
        addRangePlanes(s, children, b.follow, b.b, c, b.planes);      // the parent end: towards the child
        bones.push_back(std::move(b));
    }
    return bones;
}

/// How many times the segment from `from` to `to` leaves the solid.
int exits(const VoxelGrid& g, const Vec3& from, const Vec3& to)
{
    const double length = (to - from).norm();
    const int steps = std::max(1, static_cast<int>(std::ceil(2.0 * length / g.voxelSize)));
    auto inside = [&](const Vec3& p) {
        const Vec3i v = g.voxelAt(p);
        return g.contains(v) && g.solid(g.index(v));
    };
    int count = 0;
    bool was = inside(from);
    for (int k = 1; k <= steps; ++k) {
        const bool now = inside(from + (to - from) * (double(k) / steps));
        count += was && !now;
        was = now;
    }
    return count;
}

/// The joint a triangle's vertices follow in the segmentation (the majority).
int segmentedFollow(const Mesh& mesh, const Skeleton& s, const Segmentation& seg, Eigen::Index f)
{
    int follow[3];
    for (int k = 0; k < 3; ++k) {
        const int bone = seg.bone[static_cast<size_t>(mesh.F(f, k))];
        follow[k] = bone <= 0 ? 0 : s.parents[static_cast<size_t>(bone)];
    }
    return follow[1] == follow[2] ? follow[1] : follow[0];
}

/// The tetrahedron's fourth vertex over a triangle (§5.3, scaled as Sumner & Popović).
Vec3 fourthVertex(const Vec3& v1, const Vec3& v2, const Vec3& v3)
{
    const Vec3 n = (v2 - v1).cross(v3 - v1);
    const double len = n.norm();
    return (v1 + v2 + v3) / 3.0 + (len > 0.0 ? Vec3(n / std::sqrt(len)) : Vec3::Zero());
}

class SimplexDeformer : public BoundDeformer {
public:
    SimplexDeformer(const DeformerInput& in, const SimplexOptions& o)
        : m_skeleton(in.skeleton), m_faces(in.mesh.F), m_vertices(in.mesh.vertexCount()),
          m_normals(in.mesh.N.rows() == in.mesh.V.rows())
    {
        const Mesh& mesh = in.mesh;
        m_follow = simplexControlBones(mesh, in.skeleton, in.segmentation, o.penaltyResolution);
        const int m = m_vertices, k = static_cast<int>(mesh.F.rows());
        m_rest.resize(m + k, 3);
        m_rest.topRows(m) = mesh.V;
        // Each vertex's anchor: the bone of (one of) its triangles.
        m_anchorJoint.assign(static_cast<size_t>(m + k), 0);
        std::vector<Eigen::Triplet<double>> t;
        t.reserve(static_cast<size_t>(k) * 48 + static_cast<size_t>(m + k));
        double scale = 0.0;
        for (int f = 0; f < k; ++f) {
            const Vec3 v1 = mesh.V.row(mesh.F(f, 0)).transpose(), v2 = mesh.V.row(mesh.F(f, 1)).transpose(),
                       v3 = mesh.V.row(mesh.F(f, 2)).transpose();
            const Vec3 v4 = fourthVertex(v1, v2, v3);
            m_rest.row(m + f) = v4.transpose();
            m_anchorJoint[static_cast<size_t>(m + f)] = m_follow[static_cast<size_t>(f)];
            for (int c = 0; c < 3; ++c)
                m_anchorJoint[static_cast<size_t>(mesh.F(f, c))] = m_follow[static_cast<size_t>(f)];
            Eigen::Matrix3d U;
            U << v1 - v4, v2 - v4, v3 - v4;
            const double area = 0.5 * (v2 - v1).cross(v3 - v1).norm();
            Tet tet;
            tet.area = area;
            if (area > 0.0 && std::abs(U.determinant()) > 1e-300)
                tet.Uinv = U.inverse();
            else
                tet.area = 0.0; // degenerate: no shape term (the anchor holds its vertices)
            const int idx[4] = {mesh.F(f, 0), mesh.F(f, 1), mesh.F(f, 2), m + f};
            for (int c = 0; c < 3; ++c) {
                const double coef[4] = {tet.Uinv(0, c), tet.Uinv(1, c), tet.Uinv(2, c),
                                        -(tet.Uinv(0, c) + tet.Uinv(1, c) + tet.Uinv(2, c))};
                for (int a = 0; a < 4; ++a)
                    for (int b = 0; b < 4; ++b)
                        if (tet.area > 0.0)
                            t.emplace_back(idx[a], idx[b], tet.area * coef[a] * coef[b]);
            }
            scale += tet.area * tet.Uinv.squaredNorm();
            m_tets.push_back(tet);
        }
        m_anchor = o.anchorWeight * (k > 0 ? scale / k : 1.0);
        for (int u = 0; u < m + k; ++u)
            t.emplace_back(u, u, m_anchor);
        Eigen::SparseMatrix<double> K(m + k, m + k);
        K.setFromTriplets(t.begin(), t.end());
        m_solver.compute(K);
        if (m_solver.info() != Eigen::Success)
            throw InvalidInput("rig::bindSimplex(): the simplex system could not be factored (degenerate mesh?)");
    }

    void deform(const Pose& pose, std::span<const double>, SkinnedMesh& out, const SkinningOptions&) const override
    {
        const PosedSkeleton posed = forwardKinematics(m_skeleton, pose);
        const auto& M = posed.skinning;
        const Eigen::Index n = m_rest.rows();
        Eigen::MatrixX3d rhs(n, 3);
        for (Eigen::Index u = 0; u < n; ++u) // the positional term: towards the bone's rigid placement
            rhs.row(u) = m_anchor * (M[static_cast<size_t>(m_anchorJoint[static_cast<size_t>(u)])] *
                                     Vec3(m_rest.row(u).transpose()))
                                        .transpose();
        for (size_t f = 0; f < m_tets.size(); ++f) {
            const Tet& tet = m_tets[f];
            if (tet.area <= 0.0)
                continue;
            const Eigen::Matrix3d R = M[static_cast<size_t>(m_follow[f])].linear();
            const int idx[4] = {m_faces(Eigen::Index(f), 0), m_faces(Eigen::Index(f), 1), m_faces(Eigen::Index(f), 2),
                                m_vertices + static_cast<int>(f)};
            for (int c = 0; c < 3; ++c) {
                const double coef[4] = {tet.Uinv(0, c), tet.Uinv(1, c), tet.Uinv(2, c),
                                        -(tet.Uinv(0, c) + tet.Uinv(1, c) + tet.Uinv(2, c))};
                for (int a = 0; a < 4; ++a)
                    rhs.row(idx[a]) += (tet.area * coef[a]) * R.col(c).transpose();
            }
        }
        const Eigen::MatrixX3d X = m_solver.solve(rhs);
        out.vertices.assign(static_cast<size_t>(m_vertices), PackedVertex{});
        for (int i = 0; i < m_vertices; ++i)
            out.vertices[static_cast<size_t>(i)] = {{float(X(i, 0)), float(X(i, 1)), float(X(i, 2)), 1.0f}, {0, 0, 0, 0}};
        if (m_normals)
            recomputeNormals(m_faces, out);
    }
    int vertexCount() const override { return m_vertices; }
    bool hasNormals() const override { return m_normals; }

private:
    struct Tet {
        double area = 0.0;
        Eigen::Matrix3d Uinv = Eigen::Matrix3d::Zero();
    };

    Skeleton m_skeleton;
    MatrixX3i m_faces;
    int m_vertices;
    bool m_normals;
    std::vector<int> m_follow;      ///< Per triangle: the joint whose rotation it takes.
    std::vector<int> m_anchorJoint; ///< Per unknown: the joint its rigid placement follows.
    Eigen::MatrixX3d m_rest;        ///< #V + #F rest unknowns (vertices, then fourth vertices).
    std::vector<Tet> m_tets;
    double m_anchor = 0.0;
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> m_solver;
};

} // namespace

std::vector<int> simplexControlBones(const Mesh& mesh, const Skeleton& skeleton, const Segmentation* segmentation,
                                     int penaltyResolution)
{
    if (mesh.vertexCount() == 0 || mesh.triangleCount() == 0)
        throw InvalidInput("rig::simplexControlBones(): the mesh has no triangles; the simplex deformer moves triangles");
    validateSkeleton(skeleton);
    const std::vector<RangeBone> bones = rangeBones(skeleton);
    std::vector<int> follow(static_cast<size_t>(mesh.triangleCount()), 0);
    if (bones.empty())
        return follow; // one joint: everything follows the root
    VoxelizeOptions v;
    v.resolution = std::max(8, penaltyResolution);
    const VoxelGrid solid = fillInterior(voxelizeSurface(mesh, v), mesh).grid;
    const double penalty = 2.0 * boundingBox(mesh).diagonal(); // δ: twice the mesh's size
    parallelFor(mesh.triangleCount(), 0, 1024, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        for (std::ptrdiff_t f = begin; f < end; ++f) {
            const Vec3 c = (mesh.V.row(mesh.F(f, 0)) + mesh.V.row(mesh.F(f, 1)) + mesh.V.row(mesh.F(f, 2))).transpose() / 3.0;
            double best = std::numeric_limits<double>::infinity(), nearest = best;
            int bestFollow = -1, nearestFollow = 0;
            for (const RangeBone& b : bones) {
                const Vec3 i = closestPointOnSegment(c, b.a, b.b);
                const double deff = (c - i).norm();
                if (deff < nearest) {
                    nearest = deff;
                    nearestFollow = b.follow;
                }
                if (!b.inRange(c))
                    continue;
                const double d = deff + exits(solid, c, i) * penalty;
                if (d < best) {
                    best = d;
                    bestFollow = b.follow;
                }
            }
            if (bestFollow >= 0 && best < penalty)
                follow[static_cast<size_t>(f)] = bestFollow;
            else
                follow[static_cast<size_t>(f)] = segmentation ? segmentedFollow(mesh, skeleton, *segmentation, f) : nearestFollow;
        }
    });
    return follow;
}

std::unique_ptr<BoundDeformer> bindSimplex(const DeformerInput& in, const SimplexOptions& options)
{
    if (!(options.anchorWeight > 0.0) || !std::isfinite(options.anchorWeight))
        throw InvalidInput("rig::bindSimplex(): anchorWeight must be a positive number, got " +
                           std::to_string(options.anchorWeight));
    if (in.segmentation && in.segmentation->vertexCount() != in.mesh.vertexCount())
        throw InvalidInput("rig::bindSimplex(): the segmentation is for another mesh; compute the skinning stage again");
    return std::make_unique<SimplexDeformer>(in, options);
}

DeformerInfo simplexDeformer()
{
    DeformerInfo d;
    d.id = "simplex";
    d.title = "Simplex transformations";
    d.shortTitle = "Simplex";
    d.reference = "Yan, Hu & Martin 2006, eq. 6-7 (seed 002)";
    d.needsSegmentation = false;
    d.gpuProgram = -1;
    d.bind = [](const DeformerInput& in) { return bindSimplex(in); };
    d.usesWeights = false;
    return d;
}

} // namespace rig
