#include "core/skin/segmentation_regions.h"

#include "core/common/parallel.h"
#include "core/mesh/mesh_queries.h"
#include "core/mesh/vertex_adjacency.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>
#include <vector>

namespace rig::segmenting {
namespace {

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

} // namespace

void regionGrowSegmentation(const Mesh& mesh, const Rig& rig, const SegmentationOptions& options,
                            const Progress& progress,
                            const std::function<void(const std::vector<int>& unreached)>& assignUnreached,
                            Segmentation& seg)
{
    const int n = mesh.vertexCount();
    const VertexAdjacency adj = vertexAdjacency(n, mesh.F);
    Parts parts;
    parts.comp = vertexComponents(n, mesh.F, parts.count);
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
        assignUnreached(unreached);
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

} // namespace rig::segmenting
