#include "core/deform/rigid_blended.h"

#include "core/common/error.h"
#include "core/common/parallel.h"

#include <algorithm>
#include <cmath>

namespace rig {
namespace {

/// One vertex: the joint it follows rigidly, and, inside a blend zone, the
/// hinge joint (its child side) with the blend parameter u in [0, 1].
struct RigidVertex {
    int follow = 0;  ///< Joint whose skinning transform moves the vertex (outside blend zones).
    int parent = -1; ///< Blend: the parent side's joint (P0 = M_parent v), -1 when not blended.
    int hinge = -1;  ///< Blend: the hinge joint (P2 = M_hinge v; J = M_hinge b_hinge).
    float u = 0.0f;  ///< Blend parameter: 0 parent placement, 1 child placement.
};

/// The arc of radius |P0 − J| about J from P0 to P2 (rational quadratic
/// Bézier, see the header), at parameter u.
Vec3 arc(const Vec3& J, const Vec3& P0, const Vec3& P2, double u)
{
    const Vec3 a = P0 - J, b = P2 - J;
    const double la = a.norm(), lb = b.norm();
    if (la < 1e-12 || lb < 1e-12)
        return (1.0 - u) * P0 + u * P2;
    const double c = std::clamp(a.dot(b) / (la * lb), -1.0, 1.0);
    if (c < -0.999) // a fold of ~180°: the arc's plane is undefined; blend linearly
        return (1.0 - u) * P0 + u * P2;
    const Vec3 P1 = J + (a + b) / (1.0 + c);
    const double w = std::sqrt(0.5 * (1.0 + c)); // cos(θ/2)
    const double b0 = (1.0 - u) * (1.0 - u), b1 = 2.0 * u * (1.0 - u) * w, b2 = u * u;
    return (b0 * P0 + b1 * P1 + b2 * P2) / (b0 + b1 + b2);
}

/// The limb's radius at joint `hinge`: the median distance from it of the
/// vertices within a quarter link of it on either side.
double radiusAt(const Mesh& mesh, const Skeleton& s, const Segmentation& seg, int hinge, int child, double lp,
                double lc)
{
    const Vec3 j = s.bindPositions.row(hinge).transpose();
    std::vector<double> d;
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        const int b = seg.bone[static_cast<size_t>(i)];
        const double delta = seg.delta[static_cast<size_t>(i)];
        if ((b == hinge && (1.0 - delta) * lp < 0.25 * std::min(lp, lc)) || (b == child && delta * lc < 0.25 * std::min(lp, lc)))
            d.push_back((mesh.V.row(i).transpose() - j).norm());
    }
    if (d.empty())
        return 0.25 * std::min(lp, lc);
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
    return d[d.size() / 2];
}

class RigidBlended : public BoundDeformer {
public:
    RigidBlended(const DeformerInput& in, const RigidBlendOptions& o)
        : m_skeleton(in.skeleton), m_rest(in.mesh.V), m_faces(in.mesh.F), m_normals(in.mesh.N.rows() == in.mesh.V.rows())
    {
        const Skeleton& s = in.skeleton;
        const Segmentation& seg = *in.segmentation;
        const int J = s.jointCount();
        std::vector<int> childCount(static_cast<size_t>(J), 0), onlyChild(static_cast<size_t>(J), -1);
        for (int j = 1; j < J; ++j) {
            ++childCount[static_cast<size_t>(s.parents[static_cast<size_t>(j)])];
            onlyChild[static_cast<size_t>(s.parents[static_cast<size_t>(j)])] = j;
        }
        auto length = [&](int c) {
            return (s.bindPositions.row(c) - s.bindPositions.row(s.parents[static_cast<size_t>(c)])).norm();
        };
        // Half-width of each hinge's blend zone (0: no blending there).
        std::vector<double> half(static_cast<size_t>(J), 0.0);
        for (int c = 1; c < J; ++c)
            if (childCount[static_cast<size_t>(c)] == 1 && o.blendZone > 0.0) {
                const int k = onlyChild[static_cast<size_t>(c)];
                half[static_cast<size_t>(c)] =
                    o.blendZone * radiusAt(in.mesh, s, seg, c, k, length(c), length(k));
            }
        m_vertices.resize(static_cast<size_t>(in.mesh.vertexCount()));
        for (int i = 0; i < in.mesh.vertexCount(); ++i) {
            const int c = seg.bone[static_cast<size_t>(i)];
            const double delta = seg.delta[static_cast<size_t>(i)];
            RigidVertex& r = m_vertices[static_cast<size_t>(i)];
            r.follow = c <= 0 ? 0 : s.parents[static_cast<size_t>(c)];
            if (c <= 0)
                continue;
            // Parent side of hinge c (the end of link parent → c), or child
            // side of hinge parents[c] (the start of link parents[c] → c).
            double a = 0.0;
            int hinge = -1;
            if (half[static_cast<size_t>(c)] > 0.0 && delta > 0.5) {
                hinge = c;
                a = (delta - 1.0) * length(c);
            } else if (const int p = s.parents[static_cast<size_t>(c)]; p > 0 && half[static_cast<size_t>(p)] > 0.0 && delta <= 0.5) {
                hinge = p;
                a = delta * length(c);
            }
            if (hinge < 0 || std::abs(a) >= half[static_cast<size_t>(hinge)])
                continue;
            r.parent = s.parents[static_cast<size_t>(hinge)];
            r.hinge = hinge;
            r.u = static_cast<float>(0.5 + 0.5 * a / half[static_cast<size_t>(hinge)]);
        }
    }

    void deform(const Pose& pose, std::span<const double>, SkinnedMesh& out, const SkinningOptions& options) const override
    {
        const PosedSkeleton posed = forwardKinematics(m_skeleton, pose);
        const auto& M = posed.skinning;
        out.vertices.resize(m_vertices.size());
        parallelFor(static_cast<std::ptrdiff_t>(m_vertices.size()), options.threads, 4096,
                    [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                        for (std::ptrdiff_t i = begin; i < end; ++i) {
                            const RigidVertex& r = m_vertices[static_cast<size_t>(i)];
                            const Vec3 v = m_rest.row(i).transpose();
                            Vec3 p;
                            if (r.hinge < 0) {
                                p = M[static_cast<size_t>(r.follow)] * v;
                            } else {
                                const Eigen::Isometry3d& Mh = M[static_cast<size_t>(r.hinge)];
                                const Vec3 joint = Mh * Vec3(m_skeleton.bindPositions.row(r.hinge).transpose());
                                p = arc(joint, M[static_cast<size_t>(r.parent)] * v, Mh * v, r.u);
                            }
                            PackedVertex& o = out.vertices[static_cast<size_t>(i)];
                            o = {{float(p.x()), float(p.y()), float(p.z()), 1.0f}, {0.0f, 0.0f, 0.0f, 0.0f}};
                        }
                    });
        if (m_normals)
            recomputeNormals(m_faces, out);
    }
    int vertexCount() const override { return static_cast<int>(m_vertices.size()); }
    bool hasNormals() const override { return m_normals; }

private:
    Skeleton m_skeleton;
    MatrixX3d m_rest;
    MatrixX3i m_faces;
    bool m_normals;
    std::vector<RigidVertex> m_vertices;
};

} // namespace

std::unique_ptr<BoundDeformer> bindRigidBlended(const DeformerInput& in, const RigidBlendOptions& options)
{
    if (!in.segmentation)
        throw InvalidInput("rig::bindRigidBlended(): rigid skinning binds each vertex to its segment; compute the "
                           "skinning stage first");
    validateSkeleton(in.skeleton);
    validateSegmentation(*in.segmentation, in.mesh.vertexCount(), in.skeleton.jointCount());
    if (!(options.blendZone >= 0.0) || !std::isfinite(options.blendZone))
        throw InvalidInput("rig::bindRigidBlended(): blendZone must be a finite number >= 0, got " +
                           std::to_string(options.blendZone));
    return std::make_unique<RigidBlended>(in, options);
}

DeformerInfo rigidBlendedDeformer()
{
    DeformerInfo d;
    d.id = "rigid-blended";
    d.title = "Rigid, blended joints";
    d.shortTitle = "Rigid";
    d.reference = "Vasilakis & Fudos, rigid skinning with rational quadratic Bezier blending (seed 004)";
    d.needsSegmentation = true;
    d.gpuProgram = -1;
    d.bind = [](const DeformerInput& in) { return bindRigidBlended(in); };
    d.usesWeights = false;
    return d;
}

} // namespace rig
