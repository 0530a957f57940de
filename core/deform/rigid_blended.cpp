#include "core/deform/rigid_blended.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/skinning_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

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

using skinning::F4;
using skinning::Mat4f;
using skinning::splat;

inline F4 load(const float* x) { return F4{x[0], x[1], x[2], 0.0f}; }
inline float dot3(F4 a, F4 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline F4 cross3(F4 a, F4 b)
{
    return F4{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0], 0.0f};
}
inline F4 transformPoint(const Mat4f& m, const float* v)
{
    return m.c[0] * splat(v[0]) + m.c[1] * splat(v[1]) + m.c[2] * splat(v[2]) + m.c[3];
}

/// The arc of radius |P0 − J| about J from P0 to P2 (rational quadratic
/// Bézier, see the header), at parameter u; a straight blend where the arc's
/// plane is undefined (a point on the joint, a fold of ~180°).
F4 arcf(F4 J, F4 P0, F4 P2, float u)
{
    const F4 a = P0 - J, b = P2 - J;
    const float aa = dot3(a, a), bb = dot3(b, b), ab = dot3(a, b);
    const F4 lerp = P0 + splat(u) * (P2 - P0);
    if (!(aa > 1e-20f && bb > 1e-20f))
        return lerp;
    const float c = std::clamp(ab / std::sqrt(aa * bb), -1.0f, 1.0f);
    if (c < -0.999f)
        return lerp;
    const F4 P1 = J + (a + b) * splat(1.0f / (1.0f + c));
    const float w = std::sqrt(0.5f * (1.0f + c));
    const float b0 = (1.0f - u) * (1.0f - u), b1 = 2.0f * u * (1.0f - u) * w, b2 = u * u;
    return (splat(b0) * P0 + splat(b1) * P1 + splat(b2) * P2) * splat(1.0f / (b0 + b1 + b2));
}

/// Twice the area times the unit normal of triangle t of `faces` on positions x.
inline F4 faceNormal(const std::vector<PackedVertex>& x, const std::int32_t* t)
{
    const F4 a = load(x[static_cast<size_t>(t[0])].p);
    return cross3(load(x[static_cast<size_t>(t[1])].p) - a, load(x[static_cast<size_t>(t[2])].p) - a);
}

void storeUnit(F4 n, float* out)
{
    n *= splat(skinning::inverseLength(dot3(n, n)));
    for (int c = 0; c < 4; ++c)
        out[c] = n[c];
}

class RigidBlended : public BoundDeformer {
public:
    RigidBlended(const DeformerInput& in, const RigidBlendOptions& o)
        : m_skeleton(in.skeleton), m_normals(in.mesh.N.rows() == in.mesh.V.rows())
    {
        bindVertices(in, o);
        bindRest(in.mesh);
        if (m_normals)
            bindNormals(in.mesh);
    }

    void deform(const Pose& pose, std::span<const double>, SkinnedMesh& out, const SkinningOptions& options) const override
    {
        const PosedSkeleton posed = forwardKinematics(m_skeleton, pose);
        const int J = m_skeleton.jointCount();
        std::vector<Mat4f> M(static_cast<size_t>(J));
        std::vector<F4> hinge(static_cast<size_t>(J));
        for (int j = 0; j < J; ++j) {
            M[static_cast<size_t>(j)] = skinning::toMat4f(posed.skinning[static_cast<size_t>(j)]);
            const Vec3 h = posed.skinning[static_cast<size_t>(j)] * Vec3(m_skeleton.bindPositions.row(j).transpose());
            hinge[static_cast<size_t>(j)] = F4{float(h.x()), float(h.y()), float(h.z()), 0.0f};
        }
        out.vertices.resize(m_vertices.size());
        const auto n = static_cast<std::ptrdiff_t>(m_vertices.size());
        parallelFor(n, options.threads, 4096, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
            for (std::ptrdiff_t i = begin; i < end; ++i)
                placeVertex(M, hinge, i, out.vertices[static_cast<size_t>(i)]);
        });
        if (!m_normals)
            return;
        // The triangles around those vertices once each, then per vertex the sum of its triangles'.
        // Scratch per calling thread: deform() is const, and a bound deformer
        // may be posed from two threads at once.
        thread_local std::vector<F4> scratch;
        scratch.resize(m_dirtyFaces.size());
        F4* faceN = scratch.data(); // this thread's buffer, for the workers too
        parallelFor(static_cast<std::ptrdiff_t>(m_dirtyFaces.size()), options.threads, 8192,
                    [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                        for (std::ptrdiff_t k = begin; k < end; ++k)
                            faceN[static_cast<size_t>(k)] =
                                faceNormal(out.vertices, m_faces.data() + 3 * m_dirtyFaces[static_cast<size_t>(k)]);
                    });
        parallelFor(static_cast<std::ptrdiff_t>(m_dirty.size()), options.threads, 4096,
                    [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                        for (std::ptrdiff_t k = begin; k < end; ++k) {
                            F4 n = splat(0.0f);
                            for (std::int32_t e = m_first[static_cast<size_t>(k)]; e < m_first[static_cast<size_t>(k) + 1]; ++e)
                                n += faceN[static_cast<size_t>(m_incident[static_cast<size_t>(e)])];
                            storeUnit(n, out.vertices[static_cast<size_t>(m_dirty[static_cast<size_t>(k)])].n);
                        }
                    });
    }
    int vertexCount() const override { return static_cast<int>(m_vertices.size()); }
    bool hasNormals() const override { return m_normals; }

private:
    /// Position, and the normal where the one-ring moves rigidly with the
    /// vertex (there the deformed mesh's normal is the rest one, turned).
    void placeVertex(const std::vector<Mat4f>& M, const std::vector<F4>& hinge, std::ptrdiff_t i, PackedVertex& o) const
    {
        const RigidVertex& r = m_vertices[static_cast<size_t>(i)];
        const PackedVertex& v = m_rest[static_cast<size_t>(i)];
        F4 p;
        if (r.hinge < 0) {
            const Mat4f& m = M[static_cast<size_t>(r.follow)];
            p = transformPoint(m, v.p);
            if (m_normals) {
                const F4 nn = m.c[0] * splat(v.n[0]) + m.c[1] * splat(v.n[1]) + m.c[2] * splat(v.n[2]);
                for (int c = 0; c < 4; ++c)
                    o.n[c] = nn[c];
            }
        } else {
            p = arcf(hinge[static_cast<size_t>(r.hinge)], transformPoint(M[static_cast<size_t>(r.parent)], v.p),
                     transformPoint(M[static_cast<size_t>(r.hinge)], v.p), r.u);
        }
        for (int c = 0; c < 3; ++c)
            o.p[c] = p[c];
        o.p[3] = 1.0f;
    }

    void bindVertices(const DeformerInput& in, const RigidBlendOptions& o);
    void bindRest(const Mesh& mesh);
    void bindNormals(const Mesh& mesh);

    Skeleton m_skeleton;
    bool m_normals;
    std::vector<RigidVertex> m_vertices;
    std::vector<PackedVertex> m_rest;   ///< Rest position, and the rest mesh's area-weighted unit normal.
    std::vector<std::int32_t> m_faces;      ///< 3 per triangle.
    std::vector<int> m_dirty;               ///< Vertices whose normal is recomputed each frame.
    std::vector<std::int32_t> m_dirtyFaces; ///< The triangles around them.
    /// Per dirty vertex k, its triangles (indices into m_dirtyFaces) are m_incident[m_first[k], m_first[k + 1]).
    std::vector<std::int32_t> m_first, m_incident;
};

void RigidBlended::bindVertices(const DeformerInput& in, const RigidBlendOptions& o)
{
    const Skeleton& s = in.skeleton;
    const Segmentation& seg = *in.segmentation;
    const int J = s.jointCount();
    std::vector<int> childCount(static_cast<size_t>(J), 0), onlyChild(static_cast<size_t>(J), -1);
    for (int j = 1; j < J; ++j) {
        ++childCount[static_cast<size_t>(s.parents[static_cast<size_t>(j)])];
        onlyChild[static_cast<size_t>(s.parents[static_cast<size_t>(j)])] = j;
    }
    auto length = [&](int c) { return (s.bindPositions.row(c) - s.bindPositions.row(s.parents[static_cast<size_t>(c)])).norm(); };
    // Half-width of each hinge's blend zone (0: no blending there).
    std::vector<double> half(static_cast<size_t>(J), 0.0);
    for (int c = 1; c < J; ++c)
        if (childCount[static_cast<size_t>(c)] == 1 && o.blendZone > 0.0) {
            const int k = onlyChild[static_cast<size_t>(c)];
            half[static_cast<size_t>(c)] = o.blendZone * radiusAt(in.mesh, s, seg, c, k, length(c), length(k));
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

void RigidBlended::bindRest(const Mesh& mesh)
{
    m_rest.resize(static_cast<size_t>(mesh.vertexCount()));
    for (int i = 0; i < mesh.vertexCount(); ++i)
        m_rest[static_cast<size_t>(i)] = {{float(mesh.V(i, 0)), float(mesh.V(i, 1)), float(mesh.V(i, 2)), 1.0f},
                                          {0.0f, 0.0f, 0.0f, 0.0f}};
    m_faces.resize(static_cast<size_t>(3 * mesh.F.rows()));
    for (Eigen::Index f = 0; f < mesh.F.rows(); ++f)
        for (int k = 0; k < 3; ++k)
            m_faces[static_cast<size_t>(3 * f + k)] = mesh.F(f, k);
}

// The rest normals, and the vertices whose normal is recomputed each frame:
// those of a triangle that does not move rigidly with one bone (a blend zone,
// a border between bones), with their triangles (CSR by counting).
void RigidBlended::bindNormals(const Mesh& mesh)
{
    const int V = mesh.vertexCount();
    const auto F = static_cast<std::int32_t>(mesh.F.rows());
    std::vector<F4> restSum(static_cast<size_t>(V), splat(0.0f));
    std::vector<char> dirty(static_cast<size_t>(V), 0);
    for (std::int32_t f = 0; f < F; ++f) {
        const std::int32_t* t = m_faces.data() + 3 * f;
        const F4 n = faceNormal(m_rest, t);
        bool rigid = true;
        for (int k = 0; k < 3; ++k) {
            const RigidVertex& r = m_vertices[static_cast<size_t>(t[k])];
            restSum[static_cast<size_t>(t[k])] += n;
            rigid = rigid && r.hinge < 0 && r.follow == m_vertices[static_cast<size_t>(t[0])].follow;
        }
        if (!rigid)
            for (int k = 0; k < 3; ++k)
                dirty[static_cast<size_t>(t[k])] = 1;
    }
    std::vector<std::int32_t> slot(static_cast<size_t>(V), -1);
    for (int v = 0; v < V; ++v) {
        storeUnit(restSum[static_cast<size_t>(v)], m_rest[static_cast<size_t>(v)].n);
        if (dirty[static_cast<size_t>(v)]) {
            slot[static_cast<size_t>(v)] = static_cast<std::int32_t>(m_dirty.size());
            m_dirty.push_back(v);
        }
    }
    m_first.assign(m_dirty.size() + 1, 0);
    for (std::int32_t f = 0; f < F; ++f) {
        const std::int32_t* t = m_faces.data() + 3 * f;
        if (!dirty[static_cast<size_t>(t[0])] && !dirty[static_cast<size_t>(t[1])] && !dirty[static_cast<size_t>(t[2])])
            continue;
        m_dirtyFaces.push_back(f);
        for (int k = 0; k < 3; ++k)
            if (const std::int32_t d = slot[static_cast<size_t>(t[k])]; d >= 0)
                ++m_first[static_cast<size_t>(d) + 1];
    }
    for (size_t d = 0; d < m_dirty.size(); ++d)
        m_first[d + 1] += m_first[d];
    m_incident.resize(static_cast<size_t>(m_first.back()));
    std::vector<std::int32_t> fill(m_first.begin(), m_first.end() - 1);
    for (size_t e = 0; e < m_dirtyFaces.size(); ++e) {
        const std::int32_t* t = m_faces.data() + 3 * m_dirtyFaces[e];
        for (int k = 0; k < 3; ++k)
            if (const std::int32_t d = slot[static_cast<size_t>(t[k])]; d >= 0)
                m_incident[static_cast<size_t>(fill[static_cast<size_t>(d)]++)] = static_cast<std::int32_t>(e);
    }
}

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
