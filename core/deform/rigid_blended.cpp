#include "core/deform/rigid_blended.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/deform/skinning_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>

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
/// All four floats of a 16-byte aligned record (a position's w = 1 cancels in differences).
inline F4 load4(const float* x)
{
    F4 v;
    std::memcpy(&v, x, sizeof v);
    return v;
}
inline float dot3(F4 a, F4 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline F4 yzx(F4 a) { return __builtin_shufflevector(a, a, 1, 2, 0, 3); }
inline F4 cross3(F4 a, F4 b)
{
    // a.yzx * b.zxy − a.zxy * b.yzx, lane 3 stays 0 for w = 0 inputs
    const F4 ayzx = __builtin_shufflevector(a, a, 1, 2, 0, 3), bzxy = __builtin_shufflevector(b, b, 2, 0, 1, 3);
    const F4 azxy = __builtin_shufflevector(a, a, 2, 0, 1, 3), byzx = __builtin_shufflevector(b, b, 1, 2, 0, 3);
    return ayzx * bzxy - azxy * byzx;
}
inline F4 transformPoint(const Mat4f& m, const float* v)
{
    return m.c[0] * splat(v[0]) + m.c[1] * splat(v[1]) + m.c[2] * splat(v[2]) + m.c[3];
}

/// The blend zones' vertices, grouped by hinge in blocks of `kLanes` (the
/// last block of a hinge padded with lanes of index -1): per lane the rest
/// offset d = v − b_h from the hinge's bind position, u, and 1/|d|² (0 on
/// the joint). Both placements are rotations of d about the joint,
/// P0 − J = R_p d and P2 − J = R_c d, so |P0 − J| = |P2 − J| = |d| and the
/// arc of the header, written about J, is
///     B(u) = J + α R_p d + β R_c d,   c = (R_p d · R_c d) / |d|²,
///     α = (b0 + k) / D,  β = (b2 + k) / D,  k = √2 u(1−u) / √(1+c),
///     D = b0 + √2 u(1−u) √(1+c) + b2,  b0 = (1−u)²,  b2 = u²
/// (the rational Bézier's middle term 2u(1−u) w (a + b)/(1 + c) with
/// w = √((1+c)/2)): one inverse square root and one division per vertex, no
/// square root of |a|²|b|². A fold of ~180° (c < −0.999, the arc's plane
/// undefined) takes the straight blend α = 1 − u, β = u.
constexpr int kLanes = 8;
constexpr int kLaneFloats = 5 * kLanes; // dx, dy, dz, u, 1/|d|² of each lane
constexpr float kFoldCos = -0.999f;
constexpr float kSqrt2 = 1.41421356237f;

struct alignas(32) LaneBlock {
    float v[kLaneFloats];
};

struct BlendBlock {
    int parent = 0; ///< Joint of the parent placement P0.
    int hinge = 0;  ///< The hinge joint (child placement P2; J its posed position).
};

/// α and β of one vertex (see above).
inline void arcCoefficients(float c, float u, float& alpha, float& beta)
{
    c = std::clamp(c, -1.0f, 1.0f);
    if (c < kFoldCos) {
        alpha = 1.0f - u;
        beta = u;
        return;
    }
    const float q = 1.0f / std::sqrt(1.0f + c);
    const float t = kSqrt2 * u * (1.0f - u), k = t * q;
    const float b0 = (1.0f - u) * (1.0f - u), b2 = u * u;
    const float invD = 1.0f / (b0 + t * (1.0f + c) * q + b2);
    alpha = (b0 + k) * invD;
    beta = (b2 + k) * invD;
}

/// Rows 0-2 of column `col` of m's linear part, as scalars.
inline float entry(const Mat4f& m, int row, int col) { return m.c[col][row]; }

/// The portable loop over blocks [begin, end).
void blendBlocks(const float* lanes, const int* index, const BlendBlock* blocks, const Mat4f* M, const F4* J,
                 PackedVertex* out, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    for (std::ptrdiff_t b = begin; b < end; ++b) {
        const Mat4f& P = M[blocks[b].parent];
        const Mat4f& C = M[blocks[b].hinge];
        const F4 j = J[blocks[b].hinge];
        const float* L = lanes + kLaneFloats * b;
        for (int l = 0; l < kLanes; ++l) {
            const int i = index[kLanes * b + l];
            if (i < 0)
                continue;
            const float d[3] = {L[l], L[kLanes + l], L[2 * kLanes + l]};
            float a[3], r[3];
            for (int row = 0; row < 3; ++row) {
                a[row] = entry(P, row, 0) * d[0] + entry(P, row, 1) * d[1] + entry(P, row, 2) * d[2];
                r[row] = entry(C, row, 0) * d[0] + entry(C, row, 1) * d[1] + entry(C, row, 2) * d[2];
            }
            float alpha = 0.0f, beta = 0.0f;
            arcCoefficients((a[0] * r[0] + a[1] * r[1] + a[2] * r[2]) * L[4 * kLanes + l], L[3 * kLanes + l], alpha, beta);
            float* p = out[i].p;
            for (int row = 0; row < 3; ++row)
                p[row] = j[row] + alpha * a[row] + beta * r[row];
            p[3] = 1.0f;
        }
    }
}

#if RIG_SKINNING_AVX2
/// The same, eight lanes at once with AVX2 + FMA (the block's two rotations broadcast).
RIG_TARGET_AVX2 void blendBlocksAvx2(const float* lanes, const int* index, const BlendBlock* blocks, const Mat4f* M,
                                     const F4* J, PackedVertex* out, std::ptrdiff_t begin, std::ptrdiff_t end)
{
    const __m256 one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f), threeHalves = _mm256_set1_ps(1.5f);
    for (std::ptrdiff_t b = begin; b < end; ++b) {
        const Mat4f& P = M[blocks[b].parent];
        const Mat4f& C = M[blocks[b].hinge];
        const F4 j = J[blocks[b].hinge];
        const float* L = lanes + kLaneFloats * b;
        const __m256 dx = _mm256_load_ps(L), dy = _mm256_load_ps(L + kLanes), dz = _mm256_load_ps(L + 2 * kLanes);
        const __m256 u = _mm256_load_ps(L + 3 * kLanes), invR2 = _mm256_load_ps(L + 4 * kLanes);
        __m256 a[3], r[3];
        for (int row = 0; row < 3; ++row) {
            a[row] = _mm256_fmadd_ps(_mm256_set1_ps(entry(P, row, 0)), dx,
                                     _mm256_fmadd_ps(_mm256_set1_ps(entry(P, row, 1)), dy,
                                                     _mm256_mul_ps(_mm256_set1_ps(entry(P, row, 2)), dz)));
            r[row] = _mm256_fmadd_ps(_mm256_set1_ps(entry(C, row, 0)), dx,
                                     _mm256_fmadd_ps(_mm256_set1_ps(entry(C, row, 1)), dy,
                                                     _mm256_mul_ps(_mm256_set1_ps(entry(C, row, 2)), dz)));
        }
        __m256 c = _mm256_mul_ps(_mm256_fmadd_ps(a[0], r[0], _mm256_fmadd_ps(a[1], r[1], _mm256_mul_ps(a[2], r[2]))), invR2);
        c = _mm256_min_ps(_mm256_max_ps(c, _mm256_set1_ps(-1.0f)), one);
        const __m256 fold = _mm256_cmp_ps(c, _mm256_set1_ps(kFoldCos), _CMP_LT_OQ);
        const __m256 onePlusC = _mm256_max_ps(_mm256_add_ps(one, c), _mm256_set1_ps(1e-3f));
        __m256 q = _mm256_rsqrt_ps(onePlusC); // one Newton step: ~1e-7 relative
        q = _mm256_mul_ps(q, _mm256_fnmadd_ps(_mm256_mul_ps(half, onePlusC), _mm256_mul_ps(q, q), threeHalves));
        const __m256 v = _mm256_sub_ps(one, u);
        const __m256 t = _mm256_mul_ps(_mm256_set1_ps(kSqrt2), _mm256_mul_ps(u, v)), k = _mm256_mul_ps(t, q);
        const __m256 b0 = _mm256_mul_ps(v, v), b2 = _mm256_mul_ps(u, u);
        const __m256 invD = _mm256_div_ps(one, _mm256_add_ps(_mm256_fmadd_ps(_mm256_mul_ps(t, onePlusC), q, b0), b2));
        const __m256 alpha = _mm256_blendv_ps(_mm256_mul_ps(_mm256_add_ps(b0, k), invD), v, fold);
        const __m256 beta = _mm256_blendv_ps(_mm256_mul_ps(_mm256_add_ps(b2, k), invD), u, fold);
        __m256 xyz[3];
        for (int row = 0; row < 3; ++row)
            xyz[row] = _mm256_fmadd_ps(alpha, a[row], _mm256_fmadd_ps(beta, r[row], _mm256_set1_ps(j[row])));
        // Lanes to records: a 4 × 8 transpose (x, y, z, w = 1) into eight (x, y, z, 1).
        const __m256 t0 = _mm256_unpacklo_ps(xyz[0], xyz[1]), t1 = _mm256_unpackhi_ps(xyz[0], xyz[1]);
        const __m256 t2 = _mm256_unpacklo_ps(xyz[2], one), t3 = _mm256_unpackhi_ps(xyz[2], one);
        const __m256 rec[4] = {_mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)),
                             _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2))};
        const int* lane = index + kLanes * b;
        for (int l = 0; l < 4; ++l) {
            if (lane[l] >= 0)
                _mm_store_ps(out[lane[l]].p, _mm256_castps256_ps128(rec[l]));
            if (lane[l + 4] >= 0)
                _mm_store_ps(out[lane[l + 4]].p, _mm256_extractf128_ps(rec[l], 1));
        }
    }
}


/// The positions of vertices a (low half) and b (high half) of 8-float records.
RIG_TARGET_AVX2 inline __m256 twoPositions(const float* base, std::int32_t a, std::int32_t b)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(base + 8 * static_cast<std::ptrdiff_t>(a))),
                                _mm_load_ps(base + 8 * static_cast<std::ptrdiff_t>(b)), 1);
}

/// Two fans of the same size m at once, one per 128-bit half (fanNormal()'s
/// arithmetic, the halves independent): `pairs` holds (fan a, fan b) indices
/// into the fans' CSR (start, ring) and their vertices.
RIG_TARGET_AVX2 void fanPairsAvx2(PackedVertex* x, const std::int32_t* pairs, const int* vertex,
                                  const std::int32_t* start, const std::int32_t* ring, std::ptrdiff_t begin,
                                  std::ptrdiff_t end)
{
    const float* base = reinterpret_cast<const float*>(x);
    constexpr int kYzx = _MM_SHUFFLE(3, 0, 2, 1);
    for (std::ptrdiff_t k = begin; k < end; ++k) {
        const std::int32_t fa = pairs[2 * k], fb = pairs[2 * k + 1];
        const int va = vertex[fa], vb = vertex[fb];
        const std::int32_t* ra = ring + start[fa];
        const std::int32_t* rb = ring + start[fb];
        const std::int32_t m = start[fa + 1] - start[fa];
        const __m256 p = twoPositions(base, va, vb);
        const __m256 first = _mm256_sub_ps(twoPositions(base, ra[0], rb[0]), p), firstYzx = _mm256_permute_ps(first, kYzx);
        __m256 prev = first, prevYzx = firstYzx, sum = _mm256_setzero_ps();
        for (std::int32_t r = 1; r < m; ++r) {
            const __m256 d = _mm256_sub_ps(twoPositions(base, ra[r], rb[r]), p), dYzx = _mm256_permute_ps(d, kYzx);
            sum = _mm256_add_ps(sum, _mm256_fmsub_ps(prev, dYzx, _mm256_mul_ps(prevYzx, d)));
            prev = d;
            prevYzx = dYzx;
        }
        sum = _mm256_add_ps(sum, _mm256_fmsub_ps(prev, firstYzx, _mm256_mul_ps(prevYzx, first)));
        const __m256 n = _mm256_permute_ps(sum, kYzx); // w stays 0: the positions' w = 1 cancels
        const __m256 n2 = _mm256_mul_ps(n, n);
        const __m256 len2 = _mm256_add_ps(_mm256_add_ps(n2, _mm256_permute_ps(n2, kYzx)),
                                          _mm256_permute_ps(n2, _MM_SHUFFLE(3, 1, 0, 2)));
        __m256 inv = _mm256_rsqrt_ps(len2); // one Newton step; 0 for a zero normal
        inv = _mm256_mul_ps(inv, _mm256_fnmadd_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), len2), _mm256_mul_ps(inv, inv),
                                                  _mm256_set1_ps(1.5f)));
        inv = _mm256_and_ps(inv, _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ));
        const __m256 unit = _mm256_blend_ps(_mm256_mul_ps(n, inv), _mm256_setzero_ps(), 0x88); // w = 0
        _mm_store_ps(x[va].n, _mm256_castps256_ps128(unit));
        _mm_store_ps(x[vb].n, _mm256_extractf128_ps(unit, 1));
    }
}
#endif

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
        bindBlocks(in.mesh, in.skeleton);
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
        placePositions(M, hinge, out.vertices.data(), options.threads);
        if (m_normals)
            updateNormals(out, options.threads);
    }
    int vertexCount() const override { return static_cast<int>(m_vertices.size()); }
    bool hasNormals() const override { return m_normals; }

private:
    /// Positions (and, outside the blend zones, normals) of every vertex: the
    /// rigid ones, then the blend zones' blocks (AVX2 where the CPU has it).
    void placePositions(const std::vector<Mat4f>& M, const std::vector<F4>& hinge, PackedVertex* o, int threads) const
    {
        skinning::parallelVertices(static_cast<std::ptrdiff_t>(m_rigid.size()), threads, 4096,
                                   [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                                       for (std::ptrdiff_t k = begin; k < end; ++k)
                                           placeRigid(M, m_rigid[static_cast<size_t>(k)], o[m_rigid[static_cast<size_t>(k)]]);
                                   });
        const float* lanes = m_lanes.empty() ? nullptr : m_lanes.front().v;
        skinning::parallelVertices(static_cast<std::ptrdiff_t>(m_blocks.size()), threads, 512,
                                   [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
#if RIG_SKINNING_AVX2
                                       if (skinning::useAvx2()) {
                                           blendBlocksAvx2(lanes, m_laneIndex.data(), m_blocks.data(), M.data(),
                                                           hinge.data(), o, begin, end);
                                           return;
                                       }
#endif
                                       blendBlocks(lanes, m_laneIndex.data(), m_blocks.data(), M.data(), hinge.data(),
                                                   o, begin, end);
                                   });
    }

    /// The normals that change with the pose: fans in one pass, the other
    /// vertices from their triangles' normals (each triangle once).
    void updateNormals(SkinnedMesh& out, int threads) const
    {
        PackedVertex* x = out.vertices.data();
#if RIG_SKINNING_AVX2
        if (skinning::useAvx2()) {
            skinning::parallelVertices(static_cast<std::ptrdiff_t>(m_fanPairs.size() / 2), threads, 2048,
                                       [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                                           fanPairsAvx2(x, m_fanPairs.data(), m_fanVertex.data(), m_fanStart.data(),
                                                        m_fanRing.data(), begin, end);
                                       });
            for (const std::int32_t k : m_fanSingles)
                fanNormal(x, k);
        } else
#endif
            skinning::parallelVertices(static_cast<std::ptrdiff_t>(m_fanVertex.size()), threads, 4096,
                                       [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                                           for (std::ptrdiff_t k = begin; k < end; ++k)
                                               fanNormal(x, k);
                                       });
        if (m_dirty.empty())
            return;
        // Scratch per calling thread: deform() is const, and a bound deformer
        // may be posed from two threads at once.
        thread_local std::vector<F4> scratch;
        scratch.resize(m_dirtyFaces.size());
        F4* faceN = scratch.data(); // this thread's buffer, for the workers too
        skinning::parallelVertices(static_cast<std::ptrdiff_t>(m_dirtyFaces.size()), threads, 8192,
                                   [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                                       for (std::ptrdiff_t k = begin; k < end; ++k)
                                           faceN[static_cast<size_t>(k)] = faceNormal(
                                               out.vertices, m_faces.data() + 3 * m_dirtyFaces[static_cast<size_t>(k)]);
                                   });
        skinning::parallelVertices(static_cast<std::ptrdiff_t>(m_dirty.size()), threads, 4096,
                                   [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
                                       for (std::ptrdiff_t k = begin; k < end; ++k) {
                                           F4 n = splat(0.0f);
                                           for (std::int32_t e = m_first[static_cast<size_t>(k)];
                                                e < m_first[static_cast<size_t>(k) + 1]; ++e)
                                               n += faceN[static_cast<size_t>(m_incident[static_cast<size_t>(e)])];
                                           storeUnit(n, x[m_dirty[static_cast<size_t>(k)]].n);
                                       }
                                   });
    }

    /// The area-weighted normal of fan vertex k: Σ (p_r − p) × (p_r' − p) over
    /// consecutive ring vertices r, r' (twice the sum of its triangles' area
    /// vectors), normalized.
    void fanNormal(PackedVertex* x, std::ptrdiff_t k) const
    {
        const int i = m_fanVertex[static_cast<size_t>(k)];
        const std::int32_t* ring = m_fanRing.data() + m_fanStart[static_cast<size_t>(k)];
        const std::int32_t m = m_fanStart[static_cast<size_t>(k) + 1] - m_fanStart[static_cast<size_t>(k)];
        // cross(a, b) = yzx(a · yzx(b) − yzx(a) · b): the terms are summed
        // unshuffled and the sum shuffled once; each ring vertex's yzx is
        // taken once.
        const F4 p = load4(x[i].p);
        const F4 first = load4(x[ring[0]].p) - p, firstYzx = yzx(first);
        F4 prev = first, prevYzx = firstYzx, sum = splat(0.0f);
        for (std::int32_t r = 1; r < m; ++r) {
            const F4 d = load4(x[ring[r]].p) - p, dYzx = yzx(d);
            sum += prev * dYzx - prevYzx * d;
            prev = d;
            prevYzx = dYzx;
        }
        sum += prev * firstYzx - prevYzx * first;
        const F4 n = yzx(sum);
        storeUnit(n, x[i].n);
    }

    /// Position and normal of a vertex outside the blend zones: its bone's
    /// rigid motion (the one-ring moves with it, so the rest normal turned is
    /// the deformed mesh's; a border vertex recomputes its own afterwards).
    void placeRigid(const std::vector<Mat4f>& M, int i, PackedVertex& o) const
    {
        const Mat4f& m = M[static_cast<size_t>(m_vertices[static_cast<size_t>(i)].follow)];
        const PackedVertex& v = m_rest[static_cast<size_t>(i)];
        const F4 p = transformPoint(m, v.p);
        for (int c = 0; c < 3; ++c)
            o.p[c] = p[c];
        o.p[3] = 1.0f;
        if (m_normals) {
            const F4 nn = m.c[0] * splat(v.n[0]) + m.c[1] * splat(v.n[1]) + m.c[2] * splat(v.n[2]);
            for (int c = 0; c < 4; ++c)
                o.n[c] = nn[c];
        }
    }

    void bindVertices(const DeformerInput& in, const RigidBlendOptions& o);
    void bindBlocks(const Mesh& mesh, const Skeleton& s);
    void bindRest(const Mesh& mesh);
    void bindNormals(const Mesh& mesh);
    std::vector<char> restNormals(int V);
    void bindFans(std::vector<char>& dirty);
    void bindTriangleNormals(const std::vector<char>& dirty);
    bool appendFan(int v, std::span<const std::int32_t> faces);

    Skeleton m_skeleton;
    bool m_normals;
    std::vector<RigidVertex> m_vertices;
    std::vector<int> m_rigid;          ///< Vertices outside the blend zones.
    std::vector<BlendBlock> m_blocks;  ///< The blend zones' vertices, kLanes per block.
    std::vector<LaneBlock> m_lanes;    ///< Per block its lanes' data (see BlendBlock).
    std::vector<int> m_laneIndex;      ///< kLanes vertex indices per block, -1 for padding.
    std::vector<PackedVertex> m_rest;   ///< Rest position, and the rest mesh's area-weighted unit normal.
    std::vector<std::int32_t> m_faces;      ///< 3 per triangle.
    /// Vertices whose normal is recomputed each frame from their ordered
    /// one-ring: vertex m_fanVertex[k] has the ring m_fanRing[m_fanStart[k], m_fanStart[k + 1]).
    std::vector<int> m_fanVertex;
    std::vector<std::int32_t> m_fanStart, m_fanRing;
    /// The fans in pairs of equal size (fanPairsAvx2()), and those left over.
    std::vector<std::int32_t> m_fanPairs, m_fanSingles;
    std::vector<int> m_dirty;               ///< The others recomputed each frame (from their triangles).
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

void RigidBlended::bindBlocks(const Mesh& mesh, const Skeleton& s)
{
    std::vector<std::vector<int>> byHinge(static_cast<size_t>(s.jointCount()));
    for (size_t i = 0; i < m_vertices.size(); ++i) {
        if (m_vertices[i].hinge < 0)
            m_rigid.push_back(static_cast<int>(i));
        else
            byHinge[static_cast<size_t>(m_vertices[i].hinge)].push_back(static_cast<int>(i));
    }
    for (int h = 0; h < s.jointCount(); ++h) {
        const std::vector<int>& zone = byHinge[static_cast<size_t>(h)];
        const Vec3 joint = s.bindPositions.row(h).transpose();
        for (size_t first = 0; first < zone.size(); first += kLanes) {
            m_blocks.push_back({s.parents[static_cast<size_t>(h)], h});
            LaneBlock& lane = m_lanes.emplace_back();
            std::fill(std::begin(lane.v), std::end(lane.v), 0.0f);
            for (int l = 0; l < kLanes; ++l) {
                const size_t k = first + static_cast<size_t>(l);
                m_laneIndex.push_back(k < zone.size() ? zone[k] : -1);
                lane.v[3 * kLanes + l] = 0.5f; // padding: any u
                if (k >= zone.size())
                    continue;
                const int i = zone[k];
                const Vec3 d = mesh.V.row(i).transpose() - joint;
                for (int c = 0; c < 3; ++c)
                    lane.v[c * kLanes + l] = static_cast<float>(d[c]);
                lane.v[3 * kLanes + l] = m_vertices[static_cast<size_t>(i)].u;
                lane.v[4 * kLanes + l] = d.squaredNorm() > 1e-20 ? static_cast<float>(1.0 / d.squaredNorm()) : 0.0f;
            }
        }
    }
}

/// Appends vertex v's one-ring in order to m_fanRing when its triangles form
/// one closed, consistently oriented fan (an interior manifold vertex).
bool RigidBlended::appendFan(int v, std::span<const std::int32_t> faces)
{
    if (faces.size() < 3)
        return false;
    // Each triangle (v, j, k), in its own winding from v, gives the step j → k.
    std::vector<std::pair<std::int32_t, std::int32_t>> steps;
    for (const std::int32_t f : faces) {
        const std::int32_t* t = m_faces.data() + 3 * f;
        const int c = t[0] == v ? 0 : t[1] == v ? 1 : 2;
        if (t[(c + 1) % 3] == v || t[(c + 2) % 3] == v)
            return false; // degenerate
        steps.emplace_back(t[(c + 1) % 3], t[(c + 2) % 3]);
    }
    std::sort(steps.begin(), steps.end());
    for (size_t k = 1; k < steps.size(); ++k)
        if (steps[k].first == steps[k - 1].first)
            return false; // two triangles leave j the same way: not a single fan
    const size_t begin = m_fanRing.size();
    std::int32_t j = steps.front().first;
    for (size_t n = 0; n < steps.size(); ++n) {
        m_fanRing.push_back(j);
        const auto next = std::lower_bound(steps.begin(), steps.end(), std::pair{j, std::int32_t{-1}});
        if (next == steps.end() || next->first != j) {
            m_fanRing.resize(begin); // open: a boundary vertex
            return false;
        }
        j = next->second;
    }
    if (j != steps.front().first) { // several loops
        m_fanRing.resize(begin);
        return false;
    }
    return true;
}

void RigidBlended::bindNormals(const Mesh& mesh)
{
    std::vector<char> dirty = restNormals(mesh.vertexCount());
    bindFans(dirty);
    bindTriangleNormals(dirty);
}

// The rest normals, and which vertices recompute theirs each frame: those of
// a triangle that does not move rigidly with one bone (a blend zone, a border
// between bones).
std::vector<char> RigidBlended::restNormals(int V)
{
    std::vector<F4> restSum(static_cast<size_t>(V), splat(0.0f));
    std::vector<char> dirty(static_cast<size_t>(V), 0);
    for (size_t f = 0; f < m_faces.size() / 3; ++f) {
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
    for (int v = 0; v < V; ++v)
        storeUnit(restSum[static_cast<size_t>(v)], m_rest[static_cast<size_t>(v)].n);
    return dirty;
}

// The dirty vertices with a closed fan (`appendFan()`); they leave `dirty`.
void RigidBlended::bindFans(std::vector<char>& dirty)
{
    const auto V = static_cast<std::int32_t>(dirty.size());
    const auto corners = static_cast<std::int32_t>(m_faces.size());
    // Each vertex's triangles (CSR by counting).
    std::vector<std::int32_t> start(static_cast<size_t>(V) + 1, 0), around(static_cast<size_t>(corners));
    for (std::int32_t e = 0; e < corners; ++e)
        ++start[static_cast<size_t>(m_faces[static_cast<size_t>(e)]) + 1];
    for (std::int32_t v = 0; v < V; ++v)
        start[static_cast<size_t>(v) + 1] += start[static_cast<size_t>(v)];
    std::vector<std::int32_t> at(start.begin(), start.end() - 1);
    for (std::int32_t e = 0; e < corners; ++e)
        around[static_cast<size_t>(at[static_cast<size_t>(m_faces[static_cast<size_t>(e)])]++)] = e / 3;
    m_fanStart.assign(1, 0);
    for (std::int32_t v = 0; v < V; ++v)
        if (dirty[static_cast<size_t>(v)] &&
            appendFan(v, std::span(around.data() + start[static_cast<size_t>(v)], around.data() + start[static_cast<size_t>(v) + 1]))) {
            m_fanVertex.push_back(v);
            m_fanStart.push_back(static_cast<std::int32_t>(m_fanRing.size()));
            dirty[static_cast<size_t>(v)] = 0;
        }
    // Pairs of fans of one size, in vertex order as far as they go.
    std::vector<std::int32_t> waiting; // per ring size, a fan without its pair (or -1)
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(m_fanVertex.size()); ++k) {
        const auto m = static_cast<size_t>(m_fanStart[static_cast<size_t>(k) + 1] - m_fanStart[static_cast<size_t>(k)]);
        if (waiting.size() <= m)
            waiting.resize(m + 1, -1);
        if (waiting[m] < 0) {
            waiting[m] = k;
        } else {
            m_fanPairs.push_back(waiting[m]);
            m_fanPairs.push_back(k);
            waiting[m] = -1;
        }
    }
    for (const std::int32_t k : waiting)
        if (k >= 0)
            m_fanSingles.push_back(k);
}

// The other dirty vertices (boundary, non-manifold) with their triangles.
void RigidBlended::bindTriangleNormals(const std::vector<char>& dirty)
{
    std::vector<std::int32_t> slot(dirty.size(), -1);
    for (size_t v = 0; v < dirty.size(); ++v)
        if (dirty[v]) {
            slot[v] = static_cast<std::int32_t>(m_dirty.size());
            m_dirty.push_back(static_cast<int>(v));
        }
    m_first.assign(m_dirty.size() + 1, 0);
    for (size_t f = 0; f < m_faces.size() / 3; ++f) {
        const std::int32_t* t = m_faces.data() + 3 * f;
        if (!dirty[static_cast<size_t>(t[0])] && !dirty[static_cast<size_t>(t[1])] && !dirty[static_cast<size_t>(t[2])])
            continue;
        m_dirtyFaces.push_back(static_cast<std::int32_t>(f));
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
