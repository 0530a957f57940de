#include "core/deform/simplex_transform.h"

#include "core/common/error.h"
#include "core/common/segment.h"
#include "core/common/parallel.h"
#include "core/deform/twist_lbs.h"
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

/// A fraction α of rotation s (|angle| < 180°): normalized linear
/// interpolation from the identity, the same path as slerp with a slightly
/// uneven pace and no trigonometry.
Eigen::Quaterniond partOf(const Eigen::Quaterniond& s, double alpha)
{
    Eigen::Quaterniond q;
    q.coeffs() = alpha * s.coeffs();
    q.w() += 1.0 - alpha;
    return q.normalized();
}

/// A hinge joint's motion relative to its parent's bone, split into the
/// swing (the bend) and the twist by `angle` about its link u (the link into
/// the joint, as `twistAxis()`): R_parent⁻¹ R_joint = swing · twist(angle).
struct HingeTurn {
    Eigen::Quaterniond parent = Eigen::Quaterniond::Identity(), swing = parent;
    Vec3 axis = Vec3::UnitY();
    double angle = 0.0;
    /// The rotation a fraction τ of the way across the joint: the parent's
    /// bone turned by τ of the swing and τ of the twist.
    Eigen::Quaterniond at(double tau) const
    {
        return parent * partOf(swing, tau) * Eigen::Quaterniond(Eigen::AngleAxisd(tau * angle, axis));
    }
    /// `at()` sampled at τ = k / kSamples, once per frame; a triangle takes
    /// the linear interpolation of the two nearest (neighbouring samples of a
    /// half turn are 2.8° apart, so the result is a rotation to 3e-4): the
    /// trigonometry per triangle cost 40 % of the deformer's time.
    static constexpr int kSamples = 64;
    std::vector<Eigen::Matrix3d> samples;
    void sample()
    {
        samples.resize(kSamples + 1);
        for (int k = 0; k <= kSamples; ++k)
            samples[static_cast<size_t>(k)] = at(double(k) / kSamples).toRotationMatrix();
    }
    Eigen::Matrix3d sampledAt(double tau) const
    {
        const double x = std::clamp(tau, 0.0, 1.0) * kSamples;
        const int k = std::min(static_cast<int>(x), kSamples - 1);
        const double f = x - k;
        return (1.0 - f) * samples[static_cast<size_t>(k)] + f * samples[static_cast<size_t>(k) + 1];
    }
};

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

/// The simplex deformer's binding. The normal equations K [v; w] = [r; s]
/// over the vertices v and the tetrahedra's fourth vertices w have a
/// diagonal block D over w (a fourth vertex belongs to one tetrahedron), so
/// w is eliminated exactly: (A − B D⁻¹ Bᵀ) v = r − B D⁻¹ s. That Schur
/// complement has the mesh's edges as its sparsity (each tetrahedron couples
/// only its triangle's vertices) and a third of K's unknowns: binding the
/// 100k-vertex tube of `bench skinning` took 1.21 s before, 0.41 s after
/// (bench/notes/deformers.md, stop 32). It is assembled tetrahedron by tetrahedron
/// from each one's 4 × 4 block.
class SimplexDeformer : public BoundDeformer {
public:
    SimplexDeformer(const DeformerInput& in, const SimplexOptions& o)
        : m_skeleton(in.skeleton), m_faces(in.mesh.F), m_vertices(in.mesh.vertexCount()),
          m_normals(in.mesh.N.rows() == in.mesh.V.rows())
    {
        const Mesh& mesh = in.mesh;
        m_follow = simplexControlBones(mesh, in.skeleton, in.segmentation, o.penaltyResolution);
        m_blend = simplexJointBlends(mesh, in.skeleton, m_follow, o.jointBlend);
        bindHingeAxes();
        m_rest = mesh.V;
        bindTetrahedra(mesh);
        double scale = 0.0;
        for (const Tet& tet : m_tets)
            scale += tet.area > 0.0 ? tet.C.squaredNorm() / tet.area : 0.0; // area · ‖U⁻¹‖²
        m_anchor = o.anchorWeight * (m_tets.empty() ? 1.0 : scale / static_cast<double>(m_tets.size()));
        m_solver.compute(schurComplement());
        if (m_solver.info() != Eigen::Success)
            throw InvalidInput("rig::bindSimplex(): the simplex system could not be factored (degenerate mesh?)");
    }

    void deform(const Pose& pose, std::span<const double> twist, SkinnedMesh& out, const SkinningOptions&) const override
    {
        const PosedSkeleton posed = forwardKinematics(m_skeleton, pose);
        const auto& M = posed.skinning;
        Eigen::MatrixX3d rhs(m_vertices, 3);
        for (int i = 0; i < m_vertices; ++i) // the positional term: towards the bone's rigid placement
            rhs.row(i) = m_anchor * (M[static_cast<size_t>(m_anchorJoint[static_cast<size_t>(i)])] *
                                     Vec3(m_rest.row(i).transpose())).transpose();
        const std::vector<HingeTurn> turns = hingeTurns(M, twist);
        for (size_t f = 0; f < m_tets.size(); ++f) {
            const Tet& tet = m_tets[f];
            const Eigen::Isometry3d& T = M[static_cast<size_t>(m_follow[f])];
            const Eigen::Matrix3d R = m_blend[f].other < 0 ? Eigen::Matrix3d(T.linear()) : blendedRotation(turns, f);
            // Column a of G: vertex a's share of the simplex term; the fourth vertex's is −Σ_a.
            const Eigen::Matrix3d G = R * tet.C.transpose();
            const Vec3 s = m_anchor * (T * tet.v4) - G.rowwise().sum();
            for (int a = 0; a < 3; ++a)
                rhs.row(m_faces(Eigen::Index(f), a)) += (G.col(a) - tet.e[a] * s).transpose();
        }
        const std::vector<Vec3> X = solveThree(rhs);
        out.vertices.assign(static_cast<size_t>(m_vertices), PackedVertex{});
        for (int i = 0; i < m_vertices; ++i)
            out.vertices[static_cast<size_t>(i)] = {{float(X[static_cast<size_t>(i)].x()), float(X[static_cast<size_t>(i)].y()),
                                                     float(X[static_cast<size_t>(i)].z()), 1.0f}, {0, 0, 0, 0}};
        if (m_normals)
            recomputeNormals(m_faces, out);
    }
    int vertexCount() const override { return m_vertices; }
    bool hasNormals() const override { return m_normals; }

private:
    struct Tet {
        double area = 0.0;                            ///< 0: degenerate, no simplex term.
        Eigen::Matrix3d C = Eigen::Matrix3d::Zero();  ///< C(a, c) = area · (U⁻¹)(a, c), a the triangle's vertex.
        Vec3 v4 = Vec3::Zero();                       ///< The fourth vertex at rest.
        double d = 0.0;                               ///< Its diagonal entry of K (simplex term and anchor).
        Vec3 e = Vec3::Zero();                        ///< K(vertex a, fourth vertex) / d.
    };

    /// Per hinge joint (one link in, one out) its turn against its parent's
    /// bone this frame; the other joints' entries are unused. The twist angle
    /// is the unwrapped one when the caller knows it (past 180° the wrapped
    /// angle jumps to the other way round, and the blend with it).
    std::vector<HingeTurn> hingeTurns(const std::vector<Eigen::Isometry3d>& M, std::span<const double> unwrapped) const
    {
        std::vector<HingeTurn> turns(M.size());
        for (size_t j = 0; j < M.size(); ++j) {
            if (m_hingeAxis[j].squaredNorm() == 0.0)
                continue;
            HingeTurn& h = turns[j];
            h.parent = Eigen::Quaterniond(M[static_cast<size_t>(m_skeleton.parents[j])].linear());
            const SwingTwist st = swingTwist(h.parent.conjugate() * Eigen::Quaterniond(M[j].linear()), m_hingeAxis[j]);
            h.axis = m_hingeAxis[j];
            h.angle = unwrapped.size() == M.size() ? unwrapAngle(unwrapped[j], st.angle) : st.angle;
            h.swing = st.swing;
            if (h.swing.w() < 0.0)
                h.swing.coeffs() = -h.swing.coeffs(); // the shorter way: swings stay below 180°
            h.sample();
        }
        return turns;
    }

    /// Triangle f's hinge joint and how far across it f lies: t on the
    /// parent's side (f follows the parent's bone), 1 − t on the joint's own.
    std::pair<int, double> hingeOf(size_t f) const
    {
        const SimplexJointBlend& b = m_blend[f];
        const int follow = m_follow[f];
        if (b.other == m_skeleton.parents[static_cast<size_t>(follow)]) // f's bone is the joint's
            return {follow, 1.0 - b.t};
        return {b.other, b.t};
    }

    /// Triangle f's rotation at its hinge.
    Eigen::Matrix3d blendedRotation(const std::vector<HingeTurn>& turns, size_t f) const
    {
        const auto [joint, across] = hingeOf(f);
        return turns[static_cast<size_t>(joint)].sampledAt(across);
    }

    /// S X = B for x, y and z at once, with the factor P S Pᵀ = L D Lᵀ: each
    /// pass over L updates all three columns (Eigen's solve() passes over L
    /// once per column; the passes are bound by reading L).
    std::vector<Vec3> solveThree(const Eigen::MatrixX3d& B) const
    {
        const auto& L = m_solver.matrixL().nestedExpression(); // strictly lower, by columns
        const auto& D = m_solver.vectorD();
        const auto& P = m_solver.permutationP().indices();
        const int* start = L.outerIndexPtr();
        const int* row = L.innerIndexPtr();
        const double* value = L.valuePtr();
        const auto n = static_cast<int>(B.rows());
        std::vector<Vec3> y(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i)
            y[static_cast<size_t>(P[i])] = B.row(i).transpose();
        for (int j = 0; j < n; ++j) { // L y' = y
            const Vec3 yj = y[static_cast<size_t>(j)];
            for (int p = start[j]; p < start[j + 1]; ++p)
                y[static_cast<size_t>(row[p])] -= value[p] * yj;
        }
        for (int j = 0; j < n; ++j)
            y[static_cast<size_t>(j)] /= D[j];
        for (int j = n - 1; j >= 0; --j) { // Lᵀ z = y'
            Vec3 z = y[static_cast<size_t>(j)];
            for (int p = start[j]; p < start[j + 1]; ++p)
                z -= value[p] * y[static_cast<size_t>(row[p])];
            y[static_cast<size_t>(j)] = z;
        }
        std::vector<Vec3> x(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i)
            x[static_cast<size_t>(i)] = y[static_cast<size_t>(P[i])];
        return x;
    }

    /// The rest direction of the link into each hinge joint a blend turns
    /// about (the twist's axis, as `twistAxis()` measures it).
    void bindHingeAxes()
    {
        m_hingeAxis.assign(static_cast<size_t>(m_skeleton.jointCount()), Vec3::Zero());
        for (size_t f = 0; f < m_blend.size(); ++f) {
            if (m_blend[f].other < 0)
                continue;
            const int joint = hingeOf(f).first;
            const Vec3 link = m_skeleton.bindPositions.row(joint).transpose() -
                              m_skeleton.bindPositions.row(m_skeleton.parents[static_cast<size_t>(joint)]).transpose();
            m_hingeAxis[static_cast<size_t>(joint)] = link.normalized();
        }
    }

    /// Per triangle its tetrahedron (§5.3) and each vertex's anchor joint (the
    /// bone of one of its triangles).
    void bindTetrahedra(const Mesh& mesh)
    {
        m_anchorJoint.assign(static_cast<size_t>(m_vertices), 0);
        m_tets.resize(static_cast<size_t>(mesh.F.rows()));
        for (Eigen::Index f = 0; f < mesh.F.rows(); ++f) {
            const Vec3 v1 = mesh.V.row(mesh.F(f, 0)).transpose(), v2 = mesh.V.row(mesh.F(f, 1)).transpose(),
                       v3 = mesh.V.row(mesh.F(f, 2)).transpose();
            Tet& tet = m_tets[static_cast<size_t>(f)];
            tet.v4 = fourthVertex(v1, v2, v3);
            for (int c = 0; c < 3; ++c)
                m_anchorJoint[static_cast<size_t>(mesh.F(f, c))] = m_follow[static_cast<size_t>(f)];
            Eigen::Matrix3d U;
            U << v1 - tet.v4, v2 - tet.v4, v3 - tet.v4;
            const double area = 0.5 * (v2 - v1).cross(v3 - v1).norm();
            if (area > 0.0 && std::abs(U.determinant()) > 1e-300) { // else the anchor holds its vertices
                tet.area = area;
                tet.C = area * U.inverse();
            }
        }
    }

    /// A − B D⁻¹ Bᵀ plus the vertices' anchor (see the class comment). Per
    /// tetrahedron K's block is (1/area) Σ_c q_c q_cᵀ, q_c = (C(0..2, c), −Σ_a C(a, c)).
    Eigen::SparseMatrix<double> schurComplement()
    {
        std::vector<Eigen::Triplet<double>> t;
        t.reserve(m_tets.size() * 9 + static_cast<size_t>(m_vertices));
        for (size_t f = 0; f < m_tets.size(); ++f) {
            Tet& tet = m_tets[f];
            Eigen::Matrix4d K = Eigen::Matrix4d::Zero();
            if (tet.area > 0.0)
                for (int c = 0; c < 3; ++c) {
                    Eigen::Vector4d q;
                    q << tet.C.col(c), -tet.C.col(c).sum();
                    K += q * q.transpose() / tet.area;
                }
            tet.d = K(3, 3) + m_anchor;
            tet.e = K.block<3, 1>(0, 3) / tet.d;
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b)
                    if (tet.area > 0.0)
                        t.emplace_back(m_faces(Eigen::Index(f), a), m_faces(Eigen::Index(f), b),
                                       K(a, b) - K(a, 3) * tet.e[b]);
        }
        for (int i = 0; i < m_vertices; ++i)
            t.emplace_back(i, i, m_anchor);
        Eigen::SparseMatrix<double> S(m_vertices, m_vertices);
        S.setFromTriplets(t.begin(), t.end());
        return S;
    }

    Skeleton m_skeleton;
    MatrixX3i m_faces;
    int m_vertices;
    bool m_normals;
    std::vector<int> m_follow;      ///< Per triangle: the joint whose rotation it takes.
    std::vector<SimplexJointBlend> m_blend; ///< Per triangle: its turn at a hinge joint.
    std::vector<Vec3> m_hingeAxis;          ///< Per joint: its link's unit direction at rest if a blend turns about it, else 0.
    std::vector<int> m_anchorJoint; ///< Per vertex: the joint its rigid placement follows.
    MatrixX3d m_rest;               ///< #V rest positions.
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

namespace {

Vec3 bindPosition(const Skeleton& s, int j) { return s.bindPositions.row(j).transpose(); }

/// The child of `k` whose link (k → child) passes nearest `c`; -1 for a leaf.
int nearestLink(const Skeleton& s, const std::vector<int>& children, int k, const Vec3& c)
{
    int link = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int child : children) {
        const double d = (c - closestPointOnSegment(c, bindPosition(s, k), bindPosition(s, child))).norm();
        if (d < best) {
            best = d;
            link = child;
        }
    }
    return link;
}

} // namespace

std::vector<SimplexJointBlend> simplexJointBlends(const Mesh& mesh, const Skeleton& s, const std::vector<int>& follow,
                                                  double jointBlend)
{
    std::vector<SimplexJointBlend> out(static_cast<size_t>(mesh.triangleCount()));
    if (!(jointBlend > 0.0))
        return out;
    const std::vector<std::vector<int>> children = childrenOf(s);
    auto isHinge = [&](int j) { return s.parents[static_cast<size_t>(j)] >= 0 && children[static_cast<size_t>(j)].size() == 1; };
    for (Eigen::Index f = 0; f < mesh.F.rows(); ++f) {
        const int k = follow[static_cast<size_t>(f)];
        const Vec3 c = (mesh.V.row(mesh.F(f, 0)) + mesh.V.row(mesh.F(f, 1)) + mesh.V.row(mesh.F(f, 2))).transpose() / 3.0;
        const int link = nearestLink(s, children[static_cast<size_t>(k)], k, c);
        if (link < 0)
            continue;
        const Vec3 a = bindPosition(s, k), b = bindPosition(s, link);
        const double length = (b - a).norm();
        if (!(length > 0.0))
            continue;
        const double along = (c - a).dot(b - a) / length;
        // The link's start (joint k, towards the link above) or its end (joint
        // `link`, towards the link below), whichever plane is nearer.
        const bool startNearer = along < 0.5 * length;
        const int joint = startNearer ? k : link;
        if (!isHinge(joint))
            continue;
        const int neighbour = startNearer ? s.parents[static_cast<size_t>(k)] : children[static_cast<size_t>(link)][0];
        const double other = (bindPosition(s, neighbour) - bindPosition(s, joint)).norm();
        const double w = jointBlend * std::min(length, other);
        const double d = startNearer ? along : length - along; // into this link from the joint's plane
        if (!(w > 0.0) || d >= w)
            continue;
        // The turn belongs to the joint: the link above moves with k's parent
        // at the start, the link below with `link` itself at the end.
        out[static_cast<size_t>(f)] = {startNearer ? s.parents[static_cast<size_t>(k)] : link,
                                       0.5 * std::clamp(1.0 - d / w, 0.0, 2.0)};
    }
    return out;
}

std::unique_ptr<BoundDeformer> bindSimplex(const DeformerInput& in, const SimplexOptions& options)
{
    if (!(options.jointBlend >= 0.0 && options.jointBlend <= 1.0))
        throw InvalidInput("rig::bindSimplex(): jointBlend must be in [0, 1] (a fraction of the shorter link), got " +
                           std::to_string(options.jointBlend));
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
