#include "core/skin/segmentation.h"

#include "core/mesh/vertex_adjacency.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/mesh/mesh_queries.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

namespace rig {
namespace {

const std::string kFn = "rig::segmentMesh(): ";
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Link c of the rig: from joint parents[c] (a) to joint c (b).
struct Link {
    Vec3 a = Vec3::Zero();
    Vec3 ab = Vec3::Zero();
    double len2 = 0.0;
    bool leaf = false; ///< c has no children: the link also owns what lies beyond c (the end segment).
    bool degenerate() const { return !(len2 > 0.0); }
};

/// A point's relation to a link: δ of eq. 3.1 (raw and clamped to [0, 1]) and
/// its distance to the link's nearest point (eq. 3.5 with the clamped δ).
struct LinkHit {
    double raw = 0.0;
    double delta = 0.0;
    double dist = kInf;
    Vec3 nearest = Vec3::Zero();
};

LinkHit hitLink(const Link& l, const Vec3& p)
{
    LinkHit h;
    h.raw = l.degenerate() ? 0.0 : (p - l.a).dot(l.ab) / l.len2;
    h.delta = std::clamp(h.raw, 0.0, 1.0);
    h.nearest = l.a + h.delta * l.ab;
    h.dist = (p - h.nearest).norm();
    return h;
}

/// An assignment: link (child joint) and clamped δ.
struct Assign {
    int bone = -1;
    double delta = 0.0;
};

/// The rig as the algorithms see it.
struct Rig {
    const Skeleton& s;
    std::vector<std::vector<int>> children;
    std::vector<Link> links; ///< #J, entry c for link (parents[c], c); entry 0 unused.
    std::vector<int> usable; ///< Non-degenerate links, ascending.

    explicit Rig(const Skeleton& k) : s(k), children(childrenOf(k)), links(static_cast<size_t>(k.jointCount()))
    {
        for (int c = 1; c < k.jointCount(); ++c) {
            Link& l = links[static_cast<size_t>(c)];
            l.a = k.bindPositions.row(k.parents[static_cast<size_t>(c)]).transpose();
            l.ab = k.bindPositions.row(c).transpose() - l.a;
            l.len2 = l.ab.squaredNorm();
            l.leaf = children[static_cast<size_t>(c)].empty();
            if (!l.degenerate())
                usable.push_back(c);
        }
    }
    const Link& link(int c) const { return links[static_cast<size_t>(c)]; }
    Vec3 joint(int j) const { return s.bindPositions.row(j).transpose(); }

    /// The non-degenerate links that start at joint j (looking through
    /// zero-length children, which start there too).
    void linksFrom(int j, std::vector<int>& out) const
    {
        for (int ch : children[static_cast<size_t>(j)]) {
            if (link(ch).degenerate())
                linksFrom(ch, out);
            else
                out.push_back(ch);
        }
    }

    /// Thesis "SetSeg" for a joint: the link where the joint is point a (the
    /// nearest of them where several start there); a leaf's own end segment.
    Assign fromJoint(int j, const Vec3& p) const
    {
        std::vector<int> from;
        linksFrom(j, from);
        if (from.empty()) {
            if (j == 0) // a root with only zero-length links below: nothing to project on
                return {children[0].empty() ? 0 : children[0].front(), 0.0};
            // A leaf (or a chain of zero-length links ending here): the end
            // segment, which our data stores as δ = 1 on the link into j.
            int c = j;
            while (c > 0 && link(c).degenerate())
                c = s.parents[static_cast<size_t>(c)];
            return {c > 0 ? c : j, 1.0};
        }
        Assign best;
        double bestDist = kInf;
        for (int c : from) {
            const LinkHit h = hitLink(link(c), p);
            if (h.dist < bestDist) {
                bestDist = h.dist;
                best = {c, h.delta};
            }
        }
        return best;
    }
};

/// Visibility through the voxel solid (thesis `isInOutLine`): the segment
/// from a surface vertex to a point of the skeleton crosses no empty voxel.
/// Sampled every half voxel; the first three quarters of a voxel next to the
/// vertex are skipped (the vertex lies on the surface, its own voxel may be
/// the empty one beside the surface voxel through rounding).
class Visibility {
public:
    explicit Visibility(const VoxelGrid& g) : m_g(g) {}
    bool visible(const Vec3& p, const Vec3& q) const
    {
        const Vec3 d = q - p;
        const double len = d.norm();
        const double h = 0.5 * m_g.voxelSize;
        if (!(len > 0.75 * m_g.voxelSize))
            return true;
        const Vec3 u = d / len;
        for (double t = 0.75 * m_g.voxelSize;; t += h) {
            const double tt = std::min(t, len);
            const Vec3i v = m_g.voxelAt(p + tt * u);
            if (!m_g.contains(v) || !m_g.solid(m_g.index(v)))
                return false;
            if (tt >= len)
                return true;
        }
    }

private:
    const VoxelGrid& m_g;
};

/// Thesis Alg. 3.2.1 for one vertex.
Assign nearestLinkAssign(const Rig& rig, const Vec3& p)
{
    int bestJoint = 0;
    double dJ = kInf;
    for (int j = 0; j < rig.s.jointCount(); ++j) {
        const double d = (p - rig.joint(j)).norm();
        if (d < dJ) {
            dJ = d;
            bestJoint = j;
        }
    }
    Assign bestLink;
    double dL = kInf;
    for (int c : rig.usable) {
        const LinkHit h = hitLink(rig.link(c), p);
        if (h.raw > 0.0 && h.raw < 1.0 && h.dist < dL) {
            dL = h.dist;
            bestLink = {c, h.delta};
        }
    }
    return bestLink.bone >= 0 && dL < dJ ? bestLink : rig.fromJoint(bestJoint, p);
}

/// Thesis Alg. 3.2.2 for one vertex, without the post-process: lists dL1/dL3
/// (joints with / without a solid line) and dL2/dL4 (links whose region holds
/// the vertex, with / without), sorted by distance; only the heads matter, so
/// each list is scanned in distance order until its first visible element.
Assign lineOfSightAssign(const Rig& rig, const Visibility& vis, const Vec3& p, std::vector<std::pair<double, int>>& tmp)
{
    // Joints.
    tmp.clear();
    for (int j = 0; j < rig.s.jointCount(); ++j)
        tmp.emplace_back((p - rig.joint(j)).norm(), j);
    std::sort(tmp.begin(), tmp.end());
    int visJoint = -1;
    double dVisJoint = kInf;
    for (const auto& [d, j] : tmp)
        if (vis.visible(p, rig.joint(j))) {
            visJoint = j;
            dVisJoint = d;
            break;
        }
    const int anyJoint = tmp.front().second;
    const double dAnyJoint = tmp.front().first;
    // Links.
    tmp.clear();
    for (int c : rig.usable) {
        const LinkHit h = hitLink(rig.link(c), p);
        if (h.raw > 0.0 && h.raw < 1.0)
            tmp.emplace_back(h.dist, c);
    }
    std::sort(tmp.begin(), tmp.end());
    Assign visLink, anyLink;
    double dVisLink = kInf, dAnyLink = kInf;
    if (!tmp.empty()) {
        anyLink = {tmp.front().second, hitLink(rig.link(tmp.front().second), p).delta};
        dAnyLink = tmp.front().first;
    }
    for (const auto& [d, c] : tmp) {
        const LinkHit h = hitLink(rig.link(c), p);
        if (vis.visible(p, h.nearest)) {
            visLink = {c, h.delta};
            dVisLink = d;
            break;
        }
    }
    if (visLink.bone >= 0)
        return visJoint >= 0 && dVisJoint <= dVisLink ? rig.fromJoint(visJoint, p) : visLink;
    if (visJoint >= 0)
        return rig.fromJoint(visJoint, p);
    // dL3 / dL4: nothing visible (a joint outside the mesh, a hollow part).
    return anyLink.bone >= 0 && dAnyLink < dAnyJoint ? anyLink : rig.fromJoint(anyJoint, p);
}

/// Thesis `PostProcAssg(Vtx, hLevel)`: the links up to `level` levels above and
/// below the assigned one; the vertex moves to the nearest when it is nearer.
Assign postProcess(const Rig& rig, const Vec3& p, Assign cur, int level)
{
    if (level <= 0 || cur.bone <= 0)
        return cur;
    double best = hitLink(rig.link(cur.bone), p).dist;
    Assign out = cur;
    auto consider = [&](int c) {
        if (c <= 0 || rig.link(c).degenerate())
            return;
        const LinkHit h = hitLink(rig.link(c), p);
        if (h.dist < best) {
            best = h.dist;
            out = {c, h.delta};
        }
    };
    int up = cur.bone;
    for (int l = 0; l < level && up > 0; ++l) {
        up = rig.s.parents[static_cast<size_t>(up)];
        consider(up);
    }
    std::vector<int> frontier{cur.bone}, next;
    for (int l = 0; l < level && !frontier.empty(); ++l) {
        next.clear();
        for (int c : frontier)
            for (int ch : rig.children[static_cast<size_t>(c)]) {
                consider(ch);
                next.push_back(ch);
            }
        std::swap(frontier, next);
    }
    return out;
}

/// Connected components of the adjacency; an isolated vertex is its own.
int components(const VertexAdjacency& adj, int n, std::vector<int>& comp)
{
    comp.assign(static_cast<size_t>(n), -1);
    int count = 0;
    std::vector<int> stack;
    for (int s = 0; s < n; ++s) {
        if (comp[static_cast<size_t>(s)] >= 0)
            continue;
        comp[static_cast<size_t>(s)] = count;
        stack.push_back(s);
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            for (int k = adj.start[static_cast<size_t>(v)]; k < adj.start[static_cast<size_t>(v) + 1]; ++k) {
                const int w = adj.nbr[static_cast<size_t>(k)];
                if (comp[static_cast<size_t>(w)] < 0) {
                    comp[static_cast<size_t>(w)] = count;
                    stack.push_back(w);
                }
            }
        }
        ++count;
    }
    return count;
}

/// Thesis Alg. 3.2.4, region merge: per link, the connected subsets of its
/// vertices; the largest per part of the mesh stays, the others join the
/// neighbouring region they share the most edges with. Repeated until stable.
void mergeRegions(const VertexAdjacency& adj, const std::vector<int>& meshComp, std::vector<int>& bone)
{
    const int n = static_cast<int>(bone.size());
    std::vector<int> subset(static_cast<size_t>(n));
    std::vector<int> stack, members;
    for (int round = 0; round < 8; ++round) {
        // Subsets: connected runs of one label.
        std::fill(subset.begin(), subset.end(), -1);
        std::vector<int> subsetSize, subsetLabel, subsetComp;
        for (int s = 0; s < n; ++s) {
            if (subset[static_cast<size_t>(s)] >= 0)
                continue;
            const int id = static_cast<int>(subsetSize.size());
            int size = 0;
            subset[static_cast<size_t>(s)] = id;
            stack.push_back(s);
            while (!stack.empty()) {
                const int v = stack.back();
                stack.pop_back();
                ++size;
                for (int k = adj.start[static_cast<size_t>(v)]; k < adj.start[static_cast<size_t>(v) + 1]; ++k) {
                    const int w = adj.nbr[static_cast<size_t>(k)];
                    if (subset[static_cast<size_t>(w)] < 0 && bone[static_cast<size_t>(w)] == bone[static_cast<size_t>(s)]) {
                        subset[static_cast<size_t>(w)] = id;
                        stack.push_back(w);
                    }
                }
            }
            subsetSize.push_back(size);
            subsetLabel.push_back(bone[static_cast<size_t>(s)]);
            subsetComp.push_back(meshComp[static_cast<size_t>(s)]);
        }
        // The largest subset of each (label, mesh part) stays.
        std::map<std::pair<int, int>, int> largest;
        for (int id = 0; id < static_cast<int>(subsetSize.size()); ++id) {
            auto [it, inserted] = largest.try_emplace({subsetLabel[static_cast<size_t>(id)], subsetComp[static_cast<size_t>(id)]}, id);
            if (!inserted && subsetSize[static_cast<size_t>(id)] > subsetSize[static_cast<size_t>(it->second)])
                it->second = id;
        }
        std::vector<char> keep(subsetSize.size(), 0);
        for (const auto& [key, id] : largest)
            keep[static_cast<size_t>(id)] = 1;
        // Members of each subset to move, smallest subsets first.
        std::vector<std::vector<int>> verts(subsetSize.size());
        for (int v = 0; v < n; ++v)
            if (!keep[static_cast<size_t>(subset[static_cast<size_t>(v)])])
                verts[static_cast<size_t>(subset[static_cast<size_t>(v)])].push_back(v);
        std::vector<int> order;
        for (int id = 0; id < static_cast<int>(subsetSize.size()); ++id)
            if (!keep[static_cast<size_t>(id)])
                order.push_back(id);
        std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
            return subsetSize[static_cast<size_t>(x)] < subsetSize[static_cast<size_t>(y)];
        });
        bool changed = false;
        std::map<int, int> edges;
        for (int id : order) {
            edges.clear();
            const int label = bone[static_cast<size_t>(verts[static_cast<size_t>(id)].front())];
            for (int v : verts[static_cast<size_t>(id)])
                for (int k = adj.start[static_cast<size_t>(v)]; k < adj.start[static_cast<size_t>(v) + 1]; ++k) {
                    const int l = bone[static_cast<size_t>(adj.nbr[static_cast<size_t>(k)])];
                    if (l != label)
                        ++edges[l];
                }
            int target = -1, most = 0;
            for (const auto& [l, count] : edges)
                if (count > most) {
                    most = count;
                    target = l;
                }
            if (target < 0)
                continue; // no neighbouring region: a part of its own
            for (int v : verts[static_cast<size_t>(id)])
                bone[static_cast<size_t>(v)] = target;
            changed = true;
        }
        if (!changed)
            break;
    }
}

/// Limb hinges: both links at least this many times longer than thick (a
/// knee, an elbow; not a clavicle, a pelvis link or a foot).
constexpr double kHingeSlenderness = 4.0;

/// An exception to the joint rule of the belonging test (a vertex past the
/// end of inner link c goes to the link a starting at joint c): at a hinge
/// whose link c ends thicker than a starts, on the outer side of the bend,
/// those vertices go back to c. The front of a bent knee is the end of the
/// thigh, rounded, not the start of the shin; at an ankle (the heel) or a
/// shoulder the joint rule stands. Thickness: the median distance to the link
/// of the link's own vertices (those the rule did not move) within a quarter
/// of the shorter link's length from the joint, on the outer side (the offset
/// within 60° of û_c - û_a). Not in the thesis.
/// `pastEnd[i]` is c for a vertex the joint rule moved, 0 otherwise.
void keepCapsOnThickerEnds(const Rig& rig, const Mesh& mesh, const std::vector<int>& pastEnd, Segmentation& seg)
{
    struct Hinge {
        Vec3 outer = Vec3::Zero(); ///< Unit, towards the outer side of the bend.
        std::vector<double> end;   ///< Distances of link c's vertices near its end.
        std::vector<double> start; ///< Distances of link a's vertices near its start.
    };
    std::map<std::pair<int, int>, Hinge> hinges; // (c, a)
    std::vector<int> from;
    for (int c : rig.usable) {
        if (rig.link(c).leaf)
            continue;
        from.clear();
        rig.linksFrom(c, from);
        for (int a : from) {
            const Vec3 d = rig.link(c).ab.normalized() - rig.link(a).ab.normalized();
            if (d.norm() > 1e-3) // a straight joint has no outer side (and no vertices past c's end)
                hinges[{c, a}].outer = d.normalized();
        }
    }
    if (hinges.empty())
        return;
    std::map<int, std::vector<Hinge*>> asEnd, asStart;
    std::map<const Hinge*, double> slab; // the quarter of the shorter link
    for (auto& [key, h] : hinges) {
        asEnd[key.first].push_back(&h);
        asStart[key.second].push_back(&h);
        slab[&h] = 0.25 * std::sqrt(std::min(rig.link(key.first).len2, rig.link(key.second).len2));
    }
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        const int b = seg.bone[static_cast<size_t>(i)];
        if (pastEnd[static_cast<size_t>(i)] != 0 || b <= 0)
            continue;
        const LinkHit hit = hitLink(rig.link(b), mesh.V.row(i).transpose());
        if (!(hit.raw > 0.0 && hit.raw < 1.0))
            continue;
        const Vec3 offset = mesh.V.row(i).transpose() - hit.nearest;
        const double len = std::sqrt(rig.link(b).len2);
        auto sample = [&](int link, bool atEnd) {
            const auto& list = atEnd ? asEnd : asStart;
            const auto it = list.find(link);
            if (it == list.end())
                return;
            for (Hinge* h : it->second) {
                const double along = (atEnd ? 1.0 - hit.raw : hit.raw) * len;
                if (along <= slab[h] && offset.dot(h->outer) > 0.5 * hit.dist)
                    (atEnd ? h->end : h->start).push_back(hit.dist);
            }
        };
        sample(b, true);
        sample(b, false);
    }
    auto median = [](std::vector<double>& v) {
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    std::map<std::pair<int, int>, bool> keep;
    for (auto& [key, h] : hinges) {
        if (h.end.size() < 8 || h.start.size() < 8)
            continue; // too few vertices to tell
        const double rEnd = median(h.end), rStart = median(h.start);
        keep[key] = rEnd > rStart && std::sqrt(rig.link(key.first).len2) >= kHingeSlenderness * rEnd &&
                    std::sqrt(rig.link(key.second).len2) >= kHingeSlenderness * rStart;
    }
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        const int c = pastEnd[static_cast<size_t>(i)];
        if (c == 0)
            continue;
        const auto it = keep.find({c, seg.bone[static_cast<size_t>(i)]});
        if (it != keep.end() && it->second) {
            seg.bone[static_cast<size_t>(i)] = c;
            seg.delta[static_cast<size_t>(i)] = 1.0;
        }
    }
}

void checkInput(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid, const SegmentationOptions& o)
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
                           " joint; segmentation needs at least one link (2 joints)");
    if (o.hierarchyLevel < 0)
        throw InvalidInput(kFn + "hierarchyLevel must be >= 0, got " + std::to_string(o.hierarchyLevel));
    if (!(o.maxNormalAngleDegrees >= 0.0 && o.maxNormalAngleDegrees <= 180.0))
        throw InvalidInput(kFn + "maxNormalAngleDegrees must lie in [0, 180], got " + std::to_string(o.maxNormalAngleDegrees));
    if (!(o.rigidPartSize >= 0.0 && o.rigidPartSize <= 1.0))
        throw InvalidInput(kFn + "rigidPartSize must lie in [0, 1], got " + std::to_string(o.rigidPartSize));
    if (!std::isfinite(o.maxCandidateDistanceRatio))
        throw InvalidInput(kFn + "maxCandidateDistanceRatio must be finite (0 or less turns it off), got " +
                           std::to_string(o.maxCandidateDistanceRatio));
    if (o.method == SegmentationMethod::LineOfSight && (solid == nullptr || solid->empty()))
        throw InvalidInput(kFn + "the line-of-sight method (thesis 3.2.2) needs the voxel solid of the mesh; "
                                 "extract the curve skeleton first or choose another method");
    if (solid != nullptr && !solid->empty() &&
        (static_cast<std::int64_t>(solid->states.size()) != solid->voxelCount() || !(solid->voxelSize > 0.0)))
        throw InvalidInput(kFn + "the voxel solid is inconsistent (states do not match dims, or voxel size <= 0)");
}

/// Alg. 3.2.1 (nearest link) or 3.2.2 (line of sight through the solid, then
/// the hLevel post-process) for every vertex, or for those of `only`:
/// independent vertices, in parallel.
void assignPerVertex(const Mesh& mesh, const Rig& rig, const Visibility& vis, const std::vector<int>* only,
                     bool lineOfSight, int level, int threads, Segmentation& seg)
{
    const std::ptrdiff_t count = only ? static_cast<std::ptrdiff_t>(only->size()) : mesh.vertexCount();
    parallelFor(count, threads, 2048, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        std::vector<std::pair<double, int>> tmp;
        for (std::ptrdiff_t k = begin; k < end; ++k) {
            const int i = only ? (*only)[static_cast<size_t>(k)] : static_cast<int>(k);
            const Vec3 p = mesh.V.row(i).transpose();
            Assign a = lineOfSight ? lineOfSightAssign(rig, vis, p, tmp) : nearestLinkAssign(rig, p);
            if (lineOfSight)
                a = postProcess(rig, p, a, level);
            seg.bone[static_cast<size_t>(i)] = a.bone;
            seg.delta[static_cast<size_t>(i)] = a.delta;
        }
    });
}

/// Weighted normals np_i of Alg. 3.2.4: the mean of the vertex's normal and its 1-ring's.
MatrixX3d weightedNormals(const Mesh& mesh, const VertexAdjacency& adj, int threads)
{
    const int n = mesh.vertexCount();
    const MatrixX3d N = mesh.N.rows() == n ? mesh.N : vertexNormals(mesh.V, mesh.F);
    MatrixX3d NP(n, 3);
    parallelFor(n, threads, 4096, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        for (std::ptrdiff_t i = begin; i < end; ++i) {
            Vec3 s = N.row(i).transpose();
            for (int k = adj.start[static_cast<size_t>(i)]; k < adj.start[static_cast<size_t>(i) + 1]; ++k)
                s += N.row(adj.nbr[static_cast<size_t>(k)]).transpose();
            const double len = s.norm();
            NP.row(i) = (len > 0.0 ? Vec3(s / len) : Vec3::Zero()).transpose();
        }
    });
    return NP;
}

/// Connected parts of the mesh (`comp` per vertex, `count` parts).
struct Parts {
    std::vector<int> comp;
    int count = 0;
};

/// Per vertex, the distance to the nearest usable link (Euclidean, to the segment).
std::vector<double> nearestLinkDistances(const Mesh& mesh, const Rig& rig, int threads)
{
    std::vector<double> out(static_cast<size_t>(mesh.vertexCount()), kInf);
    parallelFor(mesh.vertexCount(), threads, 4096, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        for (std::ptrdiff_t i = begin; i < end; ++i)
            for (int c : rig.usable)
                out[static_cast<size_t>(i)] = std::min(out[static_cast<size_t>(i)], hitLink(rig.link(c), mesh.V.row(i).transpose()).dist);
    });
    return out;
}

/// A link's seeds, one per part at most (-1: none). The thesis's seed is its
/// candidate nearest to the link, wherever it lies. In every other part the
/// seed is the candidate nearest to the link among those the link is the
/// nearest link to (`nearest`, within a rounding tolerance), and the part
/// gets none when there is no such vertex. Before, every part got its
/// nearest candidate: a short leaf link pointing at the body (a thumb in an
/// A-pose, everything beyond its end a candidate) seeded on the top of a
/// separate leg, 12-97 times as far from it as from the hips, and took the
/// vertices there whose other links the belonging test had discarded
/// (re_male with fingers: 2 vertices, whose gaussian weights then put the
/// thumbs on 10 vertices at the hips).
std::vector<int> seedsPerPart(const Parts& parts, const VertexAdjacency& adj, const std::vector<char>& isCand,
                              const std::vector<double>& dist, const std::vector<double>& nearest)
{
    std::vector<int> own(static_cast<size_t>(parts.count), -1);
    int thesis = -1;
    auto closer = [&](int i, int s) { return s < 0 || dist[static_cast<size_t>(i)] < dist[static_cast<size_t>(s)]; };
    for (int i = 0; i < static_cast<int>(dist.size()); ++i) {
        if (!isCand[static_cast<size_t>(i)] || adj.degree(i) == 0)
            continue;
        const auto part = static_cast<size_t>(parts.comp[static_cast<size_t>(i)]);
        if (closer(i, thesis))
            thesis = i;
        if (dist[static_cast<size_t>(i)] <= nearest[static_cast<size_t>(i)] * (1.0 + 1e-9) && closer(i, own[part]))
            own[part] = i;
    }
    if (thesis >= 0)
        own[static_cast<size_t>(parts.comp[static_cast<size_t>(thesis)])] = thesis;
    return own;
}

/// Alg. 3.2.4 step 1, region growing link by link: the candidate pairs
/// (vertex, link), sorted by vertex. A link's region grows from its seeds
/// (`seedsPerPart()`: at most one per part, a candidate being a vertex with
/// 0 < δ < 1 or beyond the end of a leaf's link, so a part wholly beyond the
/// end, like an eyeball, is still reached) over vertices in the link's
/// influence space and not in a child link's.
std::vector<std::pair<int, int>> growRegions(const Mesh& mesh, const Rig& rig, const VertexAdjacency& adj,
                                             const Parts& parts, const std::vector<double>& nearest, int threads,
                                             const Progress& progress)
{
    const int n = mesh.vertexCount();
    std::vector<std::pair<int, int>> cand;
    cand.reserve(static_cast<size_t>(n) * 3);
    std::vector<double> dist(static_cast<size_t>(n));
    std::vector<char> isCand(static_cast<size_t>(n)), seen(static_cast<size_t>(n));
    std::vector<int> childLinks, queue;
    for (size_t li = 0; li < rig.usable.size(); ++li) {
        const int c = rig.usable[li];
        const Link& L = rig.link(c);
        childLinks.clear();
        rig.linksFrom(c, childLinks);
        parallelFor(n, threads, 8192, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
            for (std::ptrdiff_t i = begin; i < end; ++i) {
                const Vec3 p = mesh.V.row(i).transpose();
                const LinkHit h = hitLink(L, p);
                dist[static_cast<size_t>(i)] = h.dist;
                bool ok = h.raw > 0.0;
                if (ok && h.raw >= 1.0)
                    for (int ch : childLinks) {
                        const double d = hitLink(rig.link(ch), p).raw;
                        if (d > 0.0 && d < 1.0) {
                            ok = false; // in the child's influence space
                            break;
                        }
                    }
                isCand[static_cast<size_t>(i)] = ok;
                seen[static_cast<size_t>(i)] = 0;
            }
        });
        const std::vector<int> seed = seedsPerPart(parts, adj, isCand, dist, nearest);
        queue.clear();
        for (int s : seed)
            if (s >= 0) {
                seen[static_cast<size_t>(s)] = 1;
                queue.push_back(s);
            }
        for (size_t q = 0; q < queue.size(); ++q) {
            const int v = queue[q];
            cand.emplace_back(v, c);
            for (int k = adj.start[static_cast<size_t>(v)]; k < adj.start[static_cast<size_t>(v) + 1]; ++k) {
                const int w = adj.nbr[static_cast<size_t>(k)];
                if (!seen[static_cast<size_t>(w)] && isCand[static_cast<size_t>(w)]) {
                    seen[static_cast<size_t>(w)] = 1;
                    queue.push_back(w);
                }
            }
        }
        progress.update("segment", 0.1 + 0.5 * static_cast<double>(li + 1) / static_cast<double>(rig.usable.size()));
    }
    // Sorted by vertex by counting: the links of one vertex keep the order
    // they were grown in, ascending (rig.usable), as a sort of the pairs gives.
    std::vector<size_t> at(static_cast<size_t>(n) + 1, 0);
    for (const auto& [v, c] : cand)
        ++at[static_cast<size_t>(v) + 1];
    for (int i = 0; i < n; ++i)
        at[static_cast<size_t>(i) + 1] += at[static_cast<size_t>(i)];
    std::vector<std::pair<int, int>> byVertex(cand.size());
    for (const auto& pair : cand)
        byVertex[at[static_cast<size_t>(pair.first)]++] = pair;
    return byVertex;
}

/// Alg. 3.2.4 step 2, the belonging test: of a vertex's candidate links, the
/// nearest whose direction to the vertex is within `maxNormalAngleDegrees` of
/// its weighted normal. Returns, per vertex, the inner link whose end it lay
/// past (0 when none; see `keepCapsOnThickerEnds()`).
std::vector<int> belongingTest(const Mesh& mesh, const Rig& rig, const MatrixX3d& NP,
                               const std::vector<std::pair<int, int>>& cand, const std::vector<double>& nearest,
                               const SegmentationOptions& options, Segmentation& seg)
{
    const int n = mesh.vertexCount();
    std::vector<size_t> candStart(static_cast<size_t>(n) + 1, 0);
    for (const auto& [v, c] : cand)
        ++candStart[static_cast<size_t>(v) + 1];
    for (int i = 0; i < n; ++i)
        candStart[static_cast<size_t>(i) + 1] += candStart[static_cast<size_t>(i)];
    std::vector<int> pastEnd(static_cast<size_t>(n), 0);
    const double tieEps = 1e-9 * boundingBox(mesh).diagonal();
    const double cosMax = std::cos(options.maxNormalAngleDegrees * std::numbers::pi / 180.0);
    parallelFor(n, options.threads, 4096, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        for (std::ptrdiff_t i = begin; i < end; ++i) {
            const Vec3 p = mesh.V.row(i).transpose();
            const Vec3 np = NP.row(i).transpose();
            double best = kInf, bestRaw = 0.0;
            for (size_t k = candStart[static_cast<size_t>(i)]; k < candStart[static_cast<size_t>(i) + 1]; ++k) {
                const int c = cand[k].second;
                const Link& L = rig.link(c);
                const LinkHit h = hitLink(L, p);
                if (options.maxCandidateDistanceRatio > 0.0 && h.dist > options.maxCandidateDistanceRatio * nearest[static_cast<size_t>(i)])
                    continue; // far beyond the vertex's own bones (see the option)
                const bool endSegment = L.leaf && h.raw >= 1.0; // end nodes are never discarded
                const Vec3 sv = p - h.nearest;
                const double len = sv.norm();
                if (!endSegment && len > 0.0 && np.dot(sv) < cosMax * len)
                    continue; // angle between np_i and s_j v_i above the limit
                // Ties happen where both links' nearest point is their shared
                // joint (a heel behind the ankle): the link starting at the
                // joint wins, as with a joint in Alg. 3.2.1 ("SetSeg").
                const bool tie = std::abs(h.dist - best) <= tieEps && bestRaw >= 1.0 && h.raw < 1.0;
                if (h.dist < best - tieEps || tie) {
                    best = h.dist;
                    bestRaw = h.raw;
                    seg.bone[static_cast<size_t>(i)] = c;
                    seg.delta[static_cast<size_t>(i)] = h.delta;
                }
            }
            // Past the end of an inner link (δ >= 1: the link's nearest point
            // is its end joint c) the vertex lies at joint c, and a joint
            // stands for the link that starts at it (Alg. 3.2.1 "SetSeg"): the
            // heel below the ankle goes with the foot, not the shin. Except at
            // a hinge whose first link ends thicker (keepCapsOnThickerEnds).
            const int c = seg.bone[static_cast<size_t>(i)];
            if (c > 0 && bestRaw >= 1.0 && !rig.link(c).leaf) {
                const Assign a = rig.fromJoint(c, p);
                seg.bone[static_cast<size_t>(i)] = a.bone;
                seg.delta[static_cast<size_t>(i)] = a.delta;
                pastEnd[static_cast<size_t>(i)] = c;
            }
        }
    });
    return pastEnd;
}

/// Small separate parts (box diagonal below `rigidPartSize` of the mesh's)
/// go whole to the link owning most of their vertices.
void bindSmallParts(const Mesh& mesh, const Parts& parts, double rigidPartSize, Segmentation& seg)
{
    const int n = mesh.vertexCount();
    const double whole = boundingBox(mesh).diagonal();
    std::vector<Box3> box(static_cast<size_t>(parts.count));
    for (int i = 0; i < n; ++i)
        box[static_cast<size_t>(parts.comp[static_cast<size_t>(i)])].extend(mesh.V.row(i).transpose());
    std::vector<std::map<int, int>> votes(static_cast<size_t>(parts.count));
    for (int i = 0; i < n; ++i)
        if (box[static_cast<size_t>(parts.comp[static_cast<size_t>(i)])].diagonal() < rigidPartSize * whole)
            ++votes[static_cast<size_t>(parts.comp[static_cast<size_t>(i)])][seg.bone[static_cast<size_t>(i)]];
    std::vector<int> owner(static_cast<size_t>(parts.count), -1);
    for (int k = 0; k < parts.count; ++k) {
        int most = 0;
        for (const auto& [b, count] : votes[static_cast<size_t>(k)])
            if (count > most) {
                most = count;
                owner[static_cast<size_t>(k)] = b;
            }
    }
    for (int i = 0; i < n; ++i) {
        const int b = owner[static_cast<size_t>(parts.comp[static_cast<size_t>(i)])];
        if (b >= 0)
            seg.bone[static_cast<size_t>(i)] = b;
    }
}

/// Thesis Alg. 3.2.4: region growing (step 1), belonging test (step 2), the
/// vertices no region reached by 3.2.2 (or 3.2.1 without a solid), region
/// merge (step 3), small parts whole, δ on each vertex's final link.
void regionGrowSegmentation(const Mesh& mesh, const Rig& rig, const Visibility& vis, bool haveSolid,
                            const SegmentationOptions& options, const Progress& progress, Segmentation& seg)
{
    const int n = mesh.vertexCount();
    const VertexAdjacency adj = vertexAdjacency(n, mesh.F);
    Parts parts;
    parts.count = components(adj, n, parts.comp);
    const MatrixX3d NP = weightedNormals(mesh, adj, options.threads);
    progress.update("segment", 0.1);
    const std::vector<double> nearest = nearestLinkDistances(mesh, rig, options.threads);
    const auto cand = growRegions(mesh, rig, adj, parts, nearest, options.threads, progress);
    const std::vector<int> pastEnd = belongingTest(mesh, rig, NP, cand, nearest, options, seg);
    keepCapsOnThickerEnds(rig, mesh, pastEnd, seg);
    progress.update("segment", 0.7);
    std::vector<int> unreached;
    for (int i = 0; i < n; ++i)
        if (seg.bone[static_cast<size_t>(i)] < 0)
            unreached.push_back(i);
    if (!unreached.empty())
        assignPerVertex(mesh, rig, vis, &unreached, haveSolid, 0, options.threads, seg);
    progress.checkCancelled();
    if (options.mergeRegions)
        mergeRegions(adj, parts.comp, seg.bone);
    progress.update("segment", 0.9);
    if (options.rigidPartSize > 0.0 && parts.count > 1)
        bindSmallParts(mesh, parts, options.rigidPartSize, seg);
    for (int i = 0; i < n; ++i) { // δ on the final link (merged vertices changed link)
        const int c = seg.bone[static_cast<size_t>(i)];
        seg.delta[static_cast<size_t>(i)] = c > 0 ? hitLink(rig.link(c), mesh.V.row(i).transpose()).delta : 0.0;
    }
}

} // namespace

Segmentation segmentMesh(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                         const SegmentationOptions& options, const Progress& progress)
{
    checkInput(mesh, skeleton, solid, options);
    const int n = mesh.vertexCount();
    const Rig rig(skeleton);
    const bool haveSolid = solid != nullptr && !solid->empty();
    static const VoxelGrid noSolid;
    const Visibility vis(haveSolid ? *solid : noSolid);
    Segmentation seg;
    seg.bone.assign(static_cast<size_t>(n), -1);
    seg.delta.assign(static_cast<size_t>(n), 0.0);
    progress.update("segment", 0.0);
    switch (options.method) {
    case SegmentationMethod::NearestLink:
        assignPerVertex(mesh, rig, vis, nullptr, false, 0, options.threads, seg);
        break;
    case SegmentationMethod::LineOfSight:
        assignPerVertex(mesh, rig, vis, nullptr, true, options.hierarchyLevel, options.threads, seg);
        break;
    case SegmentationMethod::RegionGrow:
        regionGrowSegmentation(mesh, rig, vis, haveSolid, options, progress, seg);
        break;
    }
    progress.update("segment", 1.0);
    return seg;
}

} // namespace rig
