#include "core/skin/weights_geodesic_voxel.h"

#include "core/common/error.h"
#include "core/common/segment.h"
#include "core/skin/bone_segments.h"
#include "core/skin/limbs.h"
#include "core/common/parallel.h"
#include "core/mesh/mesh_queries.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include <Eigen/SparseCore>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <queue>
#include <string>
#include <utility>

namespace rig {
namespace {

/// Largest number of (joint, voxel) states of the sweeps searched together
/// (9 bytes each): more joints than this over the solid's voxel count are
/// searched in batches (the generated character: 21 joints × 24k voxels,
/// rignet-val at most 100k voxels × 65 joints, in one batch).
constexpr size_t kMaxSweepStates = size_t{1} << 23;

constexpr const char* fn = "rig::geodesicVoxelWeights()";
constexpr float kInf = std::numeric_limits<float>::infinity();

Vec3 closestOnSegment(const Vec3& p, const VoxelSegment& s) { return closestPointOnSegment(p, s.a, s.b); }

/// The solid voxels numbered 0..S-1, and the grid-to-solid map (-1: empty).
struct SolidIndex {
    const VoxelGrid& grid;
    std::vector<std::int64_t> voxels;  ///< S grid indices, ascending.
    std::vector<std::int32_t> ofGrid;  ///< voxelCount() entries.
    std::vector<Vec3> centers;         ///< S voxel centres.
    /// S clearances (in voxels): every point nearer than this to a point of
    /// the voxel lies in a solid voxel. With r the chessboard distance (in
    /// voxels) from the voxel to the nearest Empty one, every voxel within
    /// r − 1 of it in each axis is solid, and so is every point within r − 1
    /// voxels of the voxel (less a margin for rounding).
    std::vector<float> clearance;

    explicit SolidIndex(const VoxelGrid& g) : grid(g), ofGrid(static_cast<size_t>(g.voxelCount()), -1)
    {
        for (std::int64_t i = 0; i < g.voxelCount(); ++i)
            if (g.solid(i)) {
                ofGrid[static_cast<size_t>(i)] = static_cast<std::int32_t>(voxels.size());
                voxels.push_back(i);
                centers.push_back(g.center(g.coord(i)));
            }
        const std::vector<int> r = chessboardToEmpty();
        clearance.reserve(voxels.size());
        for (const int ri : r)
            clearance.push_back(std::max(0.0f, static_cast<float>(ri) - 1.001f));
    }
    /// Per solid voxel the chessboard distance to the nearest Empty voxel: a
    /// breadth-first search over the 26-neighbourhood of the solid from the
    /// solid voxels next to an Empty one (1). O(S).
    std::vector<int> chessboardToEmpty() const
    {
        const auto offsets = grid.neighbourIndexOffsets();
        std::vector<int> r(voxels.size(), 0);
        std::vector<std::int32_t> front;
        for (size_t v = 0; v < voxels.size(); ++v)
            for (const std::int64_t off : offsets)
                if (ofGrid[static_cast<size_t>(voxels[v] + off)] < 0) {
                    r[v] = 1;
                    front.push_back(static_cast<std::int32_t>(v));
                    break;
                }
        std::vector<std::int32_t> next;
        for (int level = 2; !front.empty(); ++level, front.swap(next)) {
            next.clear();
            for (const std::int32_t v : front)
                for (const std::int64_t off : offsets) {
                    const std::int32_t n = ofGrid[static_cast<size_t>(voxels[static_cast<size_t>(v)] + off)];
                    if (n >= 0 && r[static_cast<size_t>(n)] == 0) {
                        r[static_cast<size_t>(n)] = level;
                        next.push_back(n);
                    }
                }
        }
        return r;
    }
    /// Solid index of the voxel holding p, or -1.
    int at(const Vec3& p) const
    {
        const Vec3i v = grid.voxelAt(p);
        return grid.contains(v) ? ofGrid[static_cast<size_t>(grid.index(v))] : -1;
    }
    /// True when the segment p-q stays in solid voxels (sampled every half
    /// voxel). The samples within a sample's clearance are solid and skipped
    /// (sphere tracing over the solid: the same answer as testing every
    /// sample, in a few samples across a thick solid instead of one per half
    /// voxel of the line). In grid coordinates: no division per sample.
    bool lineOfSight(const Vec3& p, const Vec3& q) const
    {
        const double inverse = 1.0 / grid.voxelSize;
        const Vec3 from = (p - grid.origin) * inverse;
        const Vec3 d = (q - p) * inverse;
        const double len = d.norm(); // in voxels
        const int steps = static_cast<int>(std::ceil(2.0 * len));
        const double perSample = steps / std::max(len, 1e-300);
        const Vec3i& n = grid.dims;
        for (int k = 1; k < steps;) {
            const Vec3 x = from + (double(k) / steps) * d;
            const int ix = static_cast<int>(std::floor(x.x())), iy = static_cast<int>(std::floor(x.y())),
                      iz = static_cast<int>(std::floor(x.z()));
            if (ix < 0 || iy < 0 || iz < 0 || ix >= n.x() || iy >= n.y() || iz >= n.z())
                return false;
            const int v = ofGrid[static_cast<size_t>(grid.index(ix, iy, iz))];
            if (v < 0)
                return false;
            const float c = clearance[static_cast<size_t>(v)];
            k += c > 0.0f ? std::max(1, static_cast<int>(std::ceil(c * perSample))) : 1;
        }
        return true;
    }
};

/// A monotone bucket queue (Dial, "Algorithm 360: shortest-path forest with
/// topological ordering", CACM 1969) over float keys: bucket b holds the keys
/// in [b·w, (b+1)·w); `pop()` returns the most recent item of the lowest
/// non-empty bucket. A key below the current bucket (Lazy Theta*'s straight
/// line from an anchor can shorten a little from one voxel to the next) goes
/// into the current bucket. With w a fraction of a voxel, items of one bucket
/// come out in any order, which changes a distance by less than w only where
/// two paths tie within w (bench/notes/weights.md, issue 15: against the binary
/// heap, re_male's weights differ by 3e-5 in mean row L1, 0.03 at most).
class BucketQueue {
public:
    /// Keys from `smallest` up (less a margin; a key below goes into the current bucket).
    BucketQueue(float width, float smallest)
        : m_width(width), m_inverse(1.0f / width), m_base(smallest - 64.0f * width)
    {
    }
    bool empty() const { return m_size == 0; }
    void push(float key, std::int32_t v)
    {
        const float scaled = (key - m_base) * m_inverse;
        size_t b = scaled < static_cast<float>(m_current) ? m_current : static_cast<size_t>(scaled);
        if (b >= m_buckets.size())
            m_buckets.resize(std::max(b + 1, 2 * m_buckets.size()));
        m_buckets[b].emplace_back(key, v);
        ++m_size;
    }
    std::pair<float, std::int32_t> pop()
    {
        while (m_buckets[m_current].empty())
            ++m_current;
        const auto item = m_buckets[m_current].back();
        m_buckets[m_current].pop_back();
        --m_size;
        return item;
    }

private:
    float m_width;
    float m_inverse;
    float m_base;
    std::vector<std::vector<std::pair<float, std::int32_t>>> m_buckets;
    size_t m_current = 0;
    size_t m_size = 0;
};

/// Bucket width of the sweeps, in voxels (see `BucketQueue`).
constexpr double kBucketWidth = 0.125;

/// Per solid voxel the `keep` smallest distances of the joints expanded there
/// so far, ascending: the early termination's bounds (see the header).
struct NearestJoints {
    size_t keep;
    std::vector<float> top; ///< S × keep.

    NearestJoints(size_t solidCount, size_t k) : keep(k), top(solidCount * k, kInf) {}
    float bound(size_t v) const { return top[v * keep + keep - 1]; }
    void insert(size_t v, float x)
    {
        float* t = top.data() + v * keep;
        if (!(x < t[keep - 1]))
            return;
        size_t q = keep - 1;
        for (; q > 0 && t[q - 1] > x; --q)
            t[q] = t[q - 1];
        t[q] = x;
    }
};

/// Distances of a batch of joints: `count` × S, joint-major; `expanded`
/// counts the (joint, voxel) pairs expanded.
struct Sweeps {
    std::vector<float> dist;
    std::int64_t expanded = 0;
};

/// Step 3 of the header: any-angle Dijkstra (Lazy Theta*) from the segments
/// of each joint of `sources`, over the solid voxels, every joint's search in
/// one bucket queue. With `nearest`, a voxel popped for a joint farther than
/// `keep` joints already expanded there is not expanded, and each expansion
/// adds its distance: as the searches advance together, each voxel is
/// expanded for about its k + 1 nearest joints only (see "Early termination"
/// in the header), where searching the joints one after another expanded the
/// first ones everywhere (the generated character at 4k vertices: 11.4 times
/// the solid in all, 5.2 now; bench/notes/weights.md, issue 46).
Sweeps sweepJoints(const SolidIndex& S, const std::vector<const std::vector<VoxelSegment>*>& sources,
                   NearestJoints* nearest, const Progress* progress)
{
    const VoxelGrid& g = S.grid;
    const size_t n = S.voxels.size();
    const size_t count = sources.size();
    Sweeps out;
    out.dist.assign(count * n, kInf);
    std::vector<float>& dist = out.dist;
    // The anchor of a (joint, voxel): >= 0 a turning point (a voxel centre at
    // its distance), <= -2 the source segment -2 - anchor (the straight line
    // to its nearest point), -1 none (a seed through the air).
    std::vector<std::int32_t> anchor(count * n, -1);
    std::vector<char> done(count * n, 0);
    const auto segmentOf = [](std::int32_t a) { return static_cast<size_t>(-2 - a); };

    const auto segmentDistance = [](const std::vector<VoxelSegment>& segs, const Vec3& c, int& seg) {
        double best = std::numeric_limits<double>::infinity();
        for (size_t s = 0; s < segs.size(); ++s)
            if (const double d = (c - closestOnSegment(c, segs[s])).norm(); d < best) {
                best = d;
                seg = static_cast<int>(s);
            }
        return best;
    };

    // Seeds: the solid voxels each joint's segments cross; a joint whose
    // segments cross none is seeded at the nearest solid voxels, through the air.
    std::vector<std::pair<float, std::int32_t>> seeds;
    for (size_t j = 0; j < count; ++j) {
        const std::vector<VoxelSegment>& segs = *sources[j];
        const size_t first = seeds.size();
        float* dj = dist.data() + j * n;
        std::int32_t* aj = anchor.data() + j * n;
        for (size_t s = 0; s < segs.size(); ++s) {
            const double len = (segs[s].b - segs[s].a).norm();
            const int steps = std::max(1, static_cast<int>(std::ceil(len / (0.25 * g.voxelSize))));
            for (int k = 0; k <= steps; ++k) {
                const int v = S.at(segs[s].a + (double(k) / steps) * (segs[s].b - segs[s].a));
                if (v < 0 || aj[v] <= -2)
                    continue;
                int seg = 0;
                dj[v] = static_cast<float>(segmentDistance(segs, S.centers[static_cast<size_t>(v)], seg));
                aj[v] = -2 - seg;
                seeds.emplace_back(dj[v], static_cast<std::int32_t>(j * n + static_cast<size_t>(v)));
            }
        }
        if (seeds.size() == first && !segs.empty()) {
            std::vector<double> d(n);
            double best = std::numeric_limits<double>::infinity();
            for (size_t v = 0; v < n; ++v) {
                int seg = 0;
                d[v] = segmentDistance(segs, S.centers[v], seg);
                best = std::min(best, d[v]);
            }
            for (size_t v = 0; v < n; ++v)
                if (d[v] <= best + 1.5 * g.voxelSize) {
                    dj[v] = static_cast<float>(d[v]);
                    seeds.emplace_back(dj[v], static_cast<std::int32_t>(j * n + v));
                }
        }
    }
    if (seeds.empty())
        return out;
    float smallest = kInf;
    for (const auto& [key, q] : seeds)
        smallest = std::min(smallest, key);
    BucketQueue queue(static_cast<float>(kBucketWidth * g.voxelSize), smallest);
    for (const auto& [key, q] : seeds)
        queue.push(key, q);

    // Lazy Theta*: a neighbour takes the straight line from u's anchor at once;
    // the line of sight is checked only when the voxel is expanded (once per
    // voxel, not per relaxation), falling back to its best expanded neighbour.
    const auto offsets = g.neighbourIndexOffsets();
    for (std::int64_t pops = 1; !queue.empty(); ++pops) {
        if (progress && (pops & 0xffff) == 0)
            progress->checkCancelled();
        const auto [key, item] = queue.pop();
        const size_t q = static_cast<size_t>(item);
        const size_t j = q / n, uu = q - j * n;
        const std::int32_t u = static_cast<std::int32_t>(uu);
        if (done[q] || key > dist[q])
            continue;
        done[q] = 1;
        if (nearest && key > nearest->bound(uu))
            continue; // k + 1 joints are nearer here, and so beyond: not expanded
        ++out.expanded;
        const std::vector<VoxelSegment>& segs = *sources[j];
        float* dj = dist.data() + j * n;
        std::int32_t* aj = anchor.data() + j * n;
        const char* donej = done.data() + j * n;
        const Vec3& cu = S.centers[uu];
        bool blocked = false;
        if (const std::int32_t a = aj[uu]; a <= -2)
            blocked = !S.lineOfSight(closestOnSegment(cu, segs[segmentOf(a)]), cu);
        else if (a >= 0)
            blocked = !S.lineOfSight(S.centers[static_cast<size_t>(a)], cu);
        if (blocked) {
            float best = kInf;
            int parent = -1;
            for (const std::int64_t off : offsets) {
                const int m = S.ofGrid[static_cast<size_t>(S.voxels[uu] + off)];
                if (m < 0 || !donej[m] || m == u)
                    continue;
                const float c = dj[m] + static_cast<float>((S.centers[static_cast<size_t>(m)] - cu).norm());
                if (c < best) {
                    best = c;
                    parent = m;
                }
            }
            if (parent >= 0) { // else a seed whose bone grazes it: keep the straight line
                dj[uu] = best;
                aj[uu] = parent;
            }
        }
        if (nearest)
            nearest->insert(uu, dj[uu]);
        // The any-angle candidate from u's anchor, else the plain step (paper
        // Alg. 1). The anchor is the same for all 26 neighbours: its kind is
        // decided once, and one square root is taken per neighbour.
        const std::int64_t base = S.voxels[uu];
        const auto relax = [&](auto candidate, std::int32_t newAnchor) {
            for (const std::int64_t off : offsets) {
                const int v = S.ofGrid[static_cast<size_t>(base + off)];
                if (v < 0 || donej[v])
                    continue;
                const size_t vv = static_cast<size_t>(v);
                const float best = candidate(S.centers[vv]);
                if (best < dj[vv]) {
                    dj[vv] = best;
                    aj[vv] = newAnchor;
                    queue.push(best, static_cast<std::int32_t>(j * n + vv));
                }
            }
        };
        if (const std::int32_t a = aj[uu]; a <= -2) {
            const VoxelSegment& source = segs[segmentOf(a)];
            relax([&](const Vec3& cv) { return static_cast<float>((cv - closestOnSegment(cv, source)).norm()); }, a);
        } else if (a >= 0) {
            // The anchor is expanded (done), so no write below changes its distance.
            const float da = dj[a];
            const Vec3 ca = S.centers[static_cast<size_t>(a)];
            relax([&](const Vec3& cv) { return da + static_cast<float>((cv - ca).norm()); }, a);
        } else {
            const float du = dj[uu];
            relax([&](const Vec3& cv) { return du + static_cast<float>((cv - cu).norm()); }, u);
        }
    }
    return out;
}

/// The segments of every joint: its bones (bone_segments.h), a leaf joint's
/// continuation of its parent link by `leafBoneLength` (a lone root: a point),
/// lengthened to its skin with `toSkin`.
std::vector<std::vector<VoxelSegment>> jointSegments(const Mesh& mesh, const Skeleton& s, double leafBoneLength,
                                                     bool toSkin, int threads, const std::vector<bool>& deforming)
{
    std::vector<BoneSegment> bones = boneSegments(s, leafBoneLength, deforming);
    if (toSkin)
        leafBonesToSkin(mesh, s, bones, threads, deforming);
    std::vector<std::vector<VoxelSegment>> out(static_cast<size_t>(s.jointCount()));
    for (const BoneSegment& b : bones)
        out[static_cast<size_t>(b.joint)].push_back({b.a, b.b});
    return out;
}

void checkInput(const Mesh& mesh, const Skeleton& skeleton, const GeodesicVoxelOptions& o)
{
    if (mesh.vertexCount() == 0 || mesh.triangleCount() == 0)
        throw InvalidInput(std::string(fn) + ": the mesh has no triangles; load a character first");
    if (!mesh.V.allFinite())
        throw InvalidInput(std::string(fn) + ": the mesh has non-finite vertex positions; repair or re-export it");
    if (mesh.F.size() > 0 && (mesh.F.minCoeff() < 0 || mesh.F.maxCoeff() >= mesh.vertexCount()))
        throw InvalidInput(std::string(fn) + ": a triangle refers to a vertex that does not exist");
    try {
        validateSkeleton(skeleton);
    } catch (const InvalidInput& e) {
        throw InvalidInput(std::string(fn) + ": invalid skeleton: " + e.what());
    }
    const auto range = [](const char* name, double v, double lo, double hi) {
        if (!(v >= lo && v <= hi))
            throw InvalidInput(std::string(fn) + ": option " + name + " = " + std::to_string(v) + " is outside [" +
                               std::to_string(lo) + ", " + std::to_string(hi) + "]");
    };
    range("resolution", o.resolution, kMinVoxelResolution, kMaxVoxelResolution);
    range("maxSolidVoxels", static_cast<double>(o.maxSolidVoxels), 0.0, 1e9);
    range("falloff", o.falloff, 1e-6, 16.0);
    range("alpha", o.alpha, 0.0, 1.0);
    range("maxInfluences", o.maxInfluences, 1, 8);
    range("leafBoneLength", o.leafBoneLength, 0.0, 2.0);
    range("threads", o.threads, 0, 1e4);
}

/// Step 1: the solid at `o.resolution`, or, when it holds more than
/// `o.maxSolidVoxels` voxels, at the finest coarser resolution that holds no
/// more (the solid's voxel count grows about as the cube of the resolution).
VoxelGrid budgetedSolid(const Mesh& mesh, const GeodesicVoxelOptions& o, const Progress& progress)
{
    VoxelizeOptions vo;
    vo.resolution = o.resolution;
    VoxelGrid solid = fillInterior(voxelizeSurface(mesh, vo, progress), mesh, {}, progress).grid;
    for (std::int64_t count = solid.solidCount();
         o.maxSolidVoxels > 0 && count > o.maxSolidVoxels && vo.resolution > kMinVoxelResolution;
         count = solid.solidCount()) {
        const double scale = std::cbrt(static_cast<double>(o.maxSolidVoxels) / static_cast<double>(count));
        vo.resolution =
            std::clamp(static_cast<int>(std::floor(vo.resolution * scale)), kMinVoxelResolution, vo.resolution - 1);
        solid = fillInterior(voxelizeSurface(mesh, vo, progress), mesh, {}, progress).grid;
    }
    return solid;
}

/// The solid voxel each vertex reads (its own, else the nearest solid one
/// within a few voxels), and the distance from the vertex to its centre.
void vertexVoxels(const SolidIndex& S, const MatrixX3d& V, std::vector<int>& voxel, std::vector<double>& offset)
{
    const VoxelGrid& g = S.grid;
    const int n = static_cast<int>(V.rows());
    voxel.assign(static_cast<size_t>(n), -1);
    offset.assign(static_cast<size_t>(n), 0.0);
    for (int i = 0; i < n; ++i) {
        const Vec3 p = V.row(i).transpose();
        const Vec3i c = g.voxelAt(p);
        double best = std::numeric_limits<double>::infinity();
        for (int r = 0; r <= 3 && voxel[static_cast<size_t>(i)] < 0; ++r)
            for (int z = -r; z <= r; ++z)
                for (int y = -r; y <= r; ++y)
                    for (int x = -r; x <= r; ++x) {
                        const Vec3i q = c + Vec3i(x, y, z);
                        if (!g.contains(q))
                            continue;
                        const int s = S.ofGrid[static_cast<size_t>(g.index(q))];
                        if (s < 0)
                            continue;
                        if (const double d = (S.centers[static_cast<size_t>(s)] - p).norm(); d < best) {
                            best = d;
                            voxel[static_cast<size_t>(i)] = s;
                        }
                    }
        offset[static_cast<size_t>(i)] = voxel[static_cast<size_t>(i)] >= 0 ? best : 0.0;
    }
}

} // namespace

std::vector<float> voxelGeodesicDistances(const VoxelGrid& solid, const std::vector<VoxelSegment>& sources)
{
    if (solid.empty() || !(solid.voxelSize > 0.0) || static_cast<std::int64_t>(solid.states.size()) != solid.voxelCount())
        throw InvalidInput("rig::voxelGeodesicDistances(): the voxel grid is empty");
    if (sources.empty())
        throw InvalidInput("rig::voxelGeodesicDistances(): no source segment given");
    for (const VoxelSegment& s : sources)
        if (!s.a.allFinite() || !s.b.allFinite())
            throw InvalidInput("rig::voxelGeodesicDistances(): a source segment has non-finite end points");
    const SolidIndex S(solid);
    std::vector<float> out(static_cast<size_t>(solid.voxelCount()), kInf);
    if (S.voxels.empty())
        return out;
    const std::vector<float> d = sweepJoints(S, {&sources}, nullptr, nullptr).dist;
    for (size_t v = 0; v < d.size(); ++v)
        out[static_cast<size_t>(S.voxels[v])] = d[v];
    return out;
}

namespace {

/// Step 5 on one vertex's `m` weights (weight, joint) of `w`: keeps the trunk's
/// and one limb's, moved to the front; returns how many. The limb is the one
/// the segmentation puts the vertex on (`segmented`, -1: none; a thigh under
/// a resting hand is the leg's, however near the fingers are through the
/// solid) unless none of the weights is of it or the trunk, else the limb of
/// the largest weight.
int keepOneLimb(std::vector<std::pair<double, int>>& w, int m, const std::vector<int>& limb, int segmented)
{
    const auto limbOf = [&](const std::pair<double, int>& x) { return limb[static_cast<size_t>(x.second)]; };
    const bool segmentedKeepsAny = segmented >= 0 && std::any_of(w.begin(), w.begin() + m, [&](const auto& x) {
                                       return limbOf(x) < 0 || limbOf(x) == segmented;
                                   });
    const int largest =
        limbOf(*std::max_element(w.begin(), w.begin() + m, [](const auto& a, const auto& b) { return a.first < b.first; }));
    const int own = segmentedKeepsAny ? segmented : largest;
    if (own < 0)
        return m;
    return static_cast<int>(
        std::remove_if(w.begin(), w.begin() + m, [&](const auto& x) { return limbOf(x) >= 0 && limbOf(x) != own; }) -
        w.begin());
}

} // namespace

GeodesicVoxelResult geodesicVoxelWeights(const Mesh& mesh, const Skeleton& skeleton, const GeodesicVoxelOptions& o,
                                         const Progress& progress, const Segmentation* segmentation)
{
    checkInput(mesh, skeleton, o);
    GeodesicVoxelResult result;
    const int n = mesh.vertexCount();
    const int J = skeleton.jointCount();

    // 1. The solid.
    progress.update("geodesic voxel: voxelize", 0.0);
    result.solid = budgetedSolid(mesh, o, progress);
    progress.update("geodesic voxel: voxelize", 1.0);
    progress.checkCancelled();
    const SolidIndex S(result.solid);
    std::vector<int> voxel;
    std::vector<double> offset;
    vertexVoxels(S, mesh.V, voxel, offset);

    // 2-3. The sweeps. Early termination: all joints' searches in one queue
    // (in batches that bound the memory, each bounded by the ones before);
    // without it, one search per joint, in parallel.
    const auto segments = jointSegments(mesh, skeleton, o.leafBoneLength, o.leafBonesToSkin, o.threads, o.deforming);
    std::vector<float> dist(static_cast<size_t>(n) * static_cast<size_t>(J), kInf); // joint-major
    const size_t solidCount = S.voxels.size();
    const auto toVertices = [&](const Sweeps& sweeps, size_t r, size_t j) {
        const float* d = sweeps.dist.data() + r * solidCount;
        float* column = dist.data() + j * static_cast<size_t>(n);
        for (int i = 0; i < n; ++i)
            if (const int v = voxel[static_cast<size_t>(i)]; v >= 0)
                column[i] = d[static_cast<size_t>(v)] + static_cast<float>(offset[static_cast<size_t>(i)]);
    };
    std::vector<size_t> swept; // the joints with bones (the others do not deform: no weight)
    for (int j = 0; j < J; ++j)
        if (!segments[static_cast<size_t>(j)].empty())
            swept.push_back(static_cast<size_t>(j));
    if (o.earlyTermination && solidCount > 0) {
        NearestJoints nearest(solidCount, static_cast<size_t>(o.maxInfluences) + 1);
        const size_t batch = std::max<size_t>(1, kMaxSweepStates / solidCount);
        for (size_t first = 0; first < swept.size(); first += batch) {
            const size_t count = std::min(batch, swept.size() - first);
            std::vector<const std::vector<VoxelSegment>*> sources;
            for (size_t r = 0; r < count; ++r)
                sources.push_back(&segments[swept[first + r]]);
            const Sweeps sweeps = sweepJoints(S, sources, &nearest, &progress);
            result.expandedVoxels += sweeps.expanded;
            for (size_t r = 0; r < count; ++r)
                toVertices(sweeps, r, swept[first + r]);
        }
    } else if (solidCount > 0) {
        std::atomic<bool> stop{false};
        std::atomic<std::int64_t> expanded{0};
        parallelFor(static_cast<std::ptrdiff_t>(swept.size()), o.threads, 1, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
            for (std::ptrdiff_t r = begin; r < end && !stop.load(); ++r) {
                if (progress.cancelled()) {
                    stop = true;
                    return;
                }
                const size_t j = swept[static_cast<size_t>(r)];
                const Sweeps sweeps = sweepJoints(S, {&segments[j]}, nullptr, nullptr);
                expanded += sweeps.expanded;
                toVertices(sweeps, 0, j);
            }
        });
        result.expandedVoxels = expanded.load();
    }
    progress.checkCancelled();
    progress.update("geodesic voxel: distances", 1.0);

    // Parts no sweep reached: bound rigidly to the joint whose bones pass nearest.
    int componentCount = 0;
    const std::vector<int> component = vertexComponents(n, mesh.F, componentCount);
    std::vector<char> reached(static_cast<size_t>(n), 0);
    for (int j = 0; j < J; ++j)
        for (int i = 0; i < n; ++i)
            if (std::isfinite(dist[static_cast<size_t>(j) * n + i]))
                reached[static_cast<size_t>(i)] = 1;
    std::vector<std::vector<int>> unreached(static_cast<size_t>(componentCount));
    for (int i = 0; i < n; ++i)
        if (!reached[static_cast<size_t>(i)])
            unreached[static_cast<size_t>(component[static_cast<size_t>(i)])].push_back(i);
    std::vector<Eigen::Triplet<double>> W;
    W.reserve(static_cast<size_t>(n) * static_cast<size_t>(o.maxInfluences));
    for (int c = 0; c < componentCount; ++c) {
        const std::vector<int>& vs = unreached[static_cast<size_t>(c)];
        if (vs.empty())
            continue;
        RigidPart part;
        part.part = c;
        part.vertexCount = static_cast<int>(vs.size());
        part.vertices = vs;
        part.reason = "no bone inside (a separate part no bone reaches through the voxels)";
        double best = std::numeric_limits<double>::infinity();
        for (int j = 0; j < J; ++j)
            for (const VoxelSegment& s : segments[static_cast<size_t>(j)])
                for (int i : vs) {
                    const Vec3 p = mesh.V.row(i).transpose();
                    if (const double d = (closestOnSegment(p, s) - p).squaredNorm(); d < best) {
                        best = d;
                        part.bone = j;
                    }
                }
        part.name = pieceName(mesh, vs, c);
        for (int i : vs)
            W.emplace_back(i, part.bone, 1.0);
        result.unreachedVertices += part.vertexCount;
        result.rigidParts.push_back(std::move(part));
    }

    // 4-5. Eq. 7, then the continuous top-k limit.
    Box3 box;
    for (int i = 0; i < n; ++i)
        box.extend(mesh.V.row(i).transpose());
    const double D = std::max(box.size().maxCoeff(), 1e-300);
    const double dMin = 0.25 * result.solid.voxelSize / D; // no infinite weight on a bone
    const int k = o.maxInfluences;
    const std::vector<int> limb = jointLimbs(skeleton);
    std::vector<std::pair<double, int>> w(static_cast<size_t>(J));
    for (int i = 0; i < n; ++i) {
        if (!reached[static_cast<size_t>(i)])
            continue;
        int m = 0;
        for (int j = 0; j < J; ++j) {
            const float dj = dist[static_cast<size_t>(j) * n + i];
            if (!std::isfinite(dj))
                continue;
            const double d = std::max(double(dj) / D, dMin);
            const double wj = std::pow(1.0 / ((1.0 - o.alpha) * d + o.alpha * d * d), o.falloff);
            w[static_cast<size_t>(m++)] = {wj, j};
        }
        if (o.separateLimbs && m > 0) { // step 5: other limbs' weights dropped
            const int c = segmentation ? segmentation->bone[static_cast<size_t>(i)] : -1;
            const int segmented = c > 0 && c < J && linkDeforms(skeleton, o.deforming, c) ? limb[static_cast<size_t>(c)] : -1;
            m = keepOneLimb(w, m, limb, segmented);
        }
        double total = 0.0;
        for (int r = 0; r < m; ++r)
            total += w[static_cast<size_t>(r)].first;
        const int kept = std::min(k, m);
        std::partial_sort(w.begin(), w.begin() + std::min(kept + 1, m), w.begin() + m,
                          [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
        const double cut = m > kept ? w[static_cast<size_t>(kept)].first : 0.0;
        bool any = false;
        for (int r = 0; r < kept; ++r)
            any |= w[static_cast<size_t>(r)].first - cut > 1e-12 * total;
        for (int r = 0; r < kept; ++r) {
            // A tie of the k-th and (k+1)-th (all kept equal to the cut): plain renormalization.
            const double v = any ? w[static_cast<size_t>(r)].first - cut : w[static_cast<size_t>(r)].first;
            if (v > 0.0)
                W.emplace_back(i, w[static_cast<size_t>(r)].second, v / total);
        }
    }
    Eigen::SparseMatrix<double> sparse(n, J);
    sparse.setFromTriplets(W.begin(), W.end());
    result.weights = skinWeightsFromSparse(sparse, k);
    return result;
}

} // namespace rig
