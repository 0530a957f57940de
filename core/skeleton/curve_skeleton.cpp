#include "core/skeleton/curve_skeleton.h"

#include "core/common/error.h"
#include "core/common/union_find.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <set>
#include <unordered_map>

namespace rig {
NodeType nodeTypeFromNeighbours(int neighbours)
{
    return neighbours <= 1 ? NodeType::End : neighbours == 2 ? NodeType::Flow : NodeType::Connection;
}

int CurveSkeleton::count(NodeType t) const { return static_cast<int>(std::count(types.begin(), types.end(), t)); }

std::vector<int> CurveSkeleton::nodesOf(NodeType t) const
{
    std::vector<int> out;
    for (int i = 0; i < nodeCount(); ++i)
        if (types[static_cast<size_t>(i)] == t)
            out.push_back(i);
    return out;
}

std::vector<std::vector<int>> CurveSkeleton::adjacency() const
{
    std::vector<std::vector<int>> adj(static_cast<size_t>(nodeCount()));
    for (const auto& e : edges) {
        adj[static_cast<size_t>(e[0])].push_back(e[1]);
        adj[static_cast<size_t>(e[1])].push_back(e[0]);
    }
    for (auto& a : adj)
        std::sort(a.begin(), a.end());
    return adj;
}

CurveSkeleton finalizeCurveSkeleton(CurveSkeleton s)
{
    const int n = static_cast<int>(s.radii.size());
    assert(s.positions.rows() == n && s.voxels.rows() == n && static_cast<int>(s.voxelStates.size()) == n);
    for (auto& e : s.edges)
        if (e[0] > e[1])
            std::swap(e[0], e[1]);
    std::sort(s.edges.begin(), s.edges.end());
    s.edges.erase(std::unique(s.edges.begin(), s.edges.end()), s.edges.end());
    const auto adj0 = s.adjacency();

    // Breadth-first order: the root's component first, then the others, each from
    // its best node (a connection node of largest radius, else largest radius).
    auto better = [&](int a, int b) {
        const bool ca = adj0[static_cast<size_t>(a)].size() > 2, cb = adj0[static_cast<size_t>(b)].size() > 2;
        if (ca != cb)
            return ca;
        return s.radii[static_cast<size_t>(a)] > s.radii[static_cast<size_t>(b)];
    };
    std::vector<int> byPreference(static_cast<size_t>(n));
    std::iota(byPreference.begin(), byPreference.end(), 0);
    std::stable_sort(byPreference.begin(), byPreference.end(), better);
    std::vector<int> order, oldParent;
    order.reserve(static_cast<size_t>(n));
    std::vector<int> newIndex(static_cast<size_t>(n), -1);
    int components = 0;
    for (int start : byPreference) {
        if (newIndex[static_cast<size_t>(start)] >= 0)
            continue;
        ++components;
        newIndex[static_cast<size_t>(start)] = static_cast<int>(order.size());
        order.push_back(start);
        oldParent.push_back(-1);
        for (size_t head = order.size() - 1; head < order.size(); ++head) {
            const int v = order[head];
            for (int w : adj0[static_cast<size_t>(v)])
                if (newIndex[static_cast<size_t>(w)] < 0) {
                    newIndex[static_cast<size_t>(w)] = static_cast<int>(order.size());
                    order.push_back(w);
                    oldParent.push_back(v);
                }
        }
    }

    CurveSkeleton out;
    out.positions.resize(n, 3);
    out.voxels.resize(n, 3);
    out.radii.resize(static_cast<size_t>(n));
    out.voxelStates.resize(static_cast<size_t>(n));
    out.parents.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int o = order[static_cast<size_t>(i)];
        out.positions.row(i) = s.positions.row(o);
        out.voxels.row(i) = s.voxels.row(o);
        out.radii[static_cast<size_t>(i)] = s.radii[static_cast<size_t>(o)];
        out.voxelStates[static_cast<size_t>(i)] = s.voxelStates[static_cast<size_t>(o)];
        const int p = oldParent[static_cast<size_t>(i)];
        out.parents[static_cast<size_t>(i)] = p < 0 ? -1 : newIndex[static_cast<size_t>(p)];
    }
    out.edges.reserve(s.edges.size());
    for (const auto& e : s.edges) {
        const int a = newIndex[static_cast<size_t>(e[0])], b = newIndex[static_cast<size_t>(e[1])];
        out.edges.push_back({std::min(a, b), std::max(a, b)});
    }
    std::sort(out.edges.begin(), out.edges.end());
    out.root = n > 0 ? 0 : -1;
    out.componentCount = components;
    const auto adj = out.adjacency();
    out.types.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        out.types[static_cast<size_t>(i)] = nodeTypeFromNeighbours(static_cast<int>(adj[static_cast<size_t>(i)].size()));

    // Segments: walk from every non-flow node along each unused edge through flow nodes.
    auto isFlow = [&](int v) { return out.types[static_cast<size_t>(v)] == NodeType::Flow; };
    std::set<std::pair<int, int>> used;
    auto useEdge = [&](int a, int b) { return used.insert({std::min(a, b), std::max(a, b)}).second; };
    auto walk = [&](int start, int next) {
        std::vector<int> seg{start, next};
        int prev = start, cur = next;
        while (isFlow(cur) && cur != start) {
            const auto& nb = adj[static_cast<size_t>(cur)];
            const int nxt = nb[0] == prev ? nb[1] : nb[0];
            useEdge(cur, nxt);
            seg.push_back(nxt);
            prev = cur;
            cur = nxt;
        }
        if (seg.front() > seg.back())
            std::reverse(seg.begin(), seg.end());
        return seg;
    };
    for (int v = 0; v < n; ++v) {
        if (isFlow(v))
            continue;
        for (int w : adj[static_cast<size_t>(v)])
            if (useEdge(v, w))
                out.segments.push_back(walk(v, w));
    }
    for (int v = 0; v < n; ++v) { // cycles made of flow nodes only
        if (!isFlow(v))
            continue;
        const int w = adj[static_cast<size_t>(v)][0];
        if (useEdge(v, w)) {
            std::vector<int> seg = walk(v, w);
            if (seg.front() != v) // keep the loop starting and ending at v
                std::reverse(seg.begin(), seg.end());
            out.segments.push_back(std::move(seg));
        }
    }

    // Loops: contract touching connection nodes, count distinct edges between the rest.
    std::vector<int> uf = unionFindSets(n);
    for (const auto& e : out.edges)
        if (out.types[static_cast<size_t>(e[0])] == NodeType::Connection &&
            out.types[static_cast<size_t>(e[1])] == NodeType::Connection)
            unionFindJoin(uf, e[0], e[1]);
    std::set<std::pair<int, int>> contracted;
    int clusters = 0;
    for (int i = 0; i < n; ++i)
        clusters += unionFindRoot(uf, i) == i;
    for (const auto& e : out.edges) {
        const int a = unionFindRoot(uf, e[0]), b = unionFindRoot(uf, e[1]);
        if (a != b)
            contracted.insert({std::min(a, b), std::max(a, b)});
    }
    out.loopCount = static_cast<int>(contracted.size()) - clusters + components;
    return out;
}

CurveSkeleton buildCurveSkeleton(const VoxelGrid& skeleton, const std::vector<float>& distance,
                                 const Progress& progress)
{
    if (static_cast<std::int64_t>(distance.size()) != skeleton.voxelCount())
        throw InvalidInput("rig::buildCurveSkeleton(): the distance field has " + std::to_string(distance.size()) +
                           " values for " + std::to_string(skeleton.voxelCount()) + " voxels");
    progress.update("graph", 0.0);
    // Thesis Alg. 2.3.1 registers nodes by a stack traversal from a random voxel;
    // the traversal order is irrelevant here because finalizeCurveSkeleton()
    // re-roots and reorders the nodes, so the voxels are registered in grid order.
    std::unordered_map<std::int64_t, int> id;
    CurveSkeleton s;
    std::vector<std::int64_t> voxels;
    for (size_t i = 0; i < skeleton.states.size(); ++i)
        if (skeleton.states[i]) {
            id.emplace(static_cast<std::int64_t>(i), static_cast<int>(voxels.size()));
            voxels.push_back(static_cast<std::int64_t>(i));
        }
    const int n = static_cast<int>(voxels.size());
    s.positions.resize(n, 3);
    s.voxels.resize(n, 3);
    s.radii.resize(static_cast<size_t>(n));
    s.voxelStates.resize(static_cast<size_t>(n));
    const auto offsets = skeleton.neighbourIndexOffsets();
    for (int k = 0; k < n; ++k) {
        const std::int64_t i = voxels[static_cast<size_t>(k)];
        const Vec3i c = skeleton.coord(i);
        s.voxels.row(k) = c.transpose();
        s.positions.row(k) = skeleton.center(c).transpose();
        s.radii[static_cast<size_t>(k)] =
            std::max(static_cast<double>(distance[static_cast<size_t>(i)]) - 0.5, 0.5) * skeleton.voxelSize;
        s.voxelStates[static_cast<size_t>(k)] = skeleton.states[static_cast<size_t>(i)];
        const bool interior = (c.array() > 0).all() && (c.array() < skeleton.dims.array() - 1).all();
        for (size_t d = 0; d < offsets.size(); ++d) {
            if (!interior && !skeleton.contains(c + neighbourOffsets26()[d]))
                continue;
            const std::int64_t j = i + offsets[d];
            if (j > i && skeleton.states[static_cast<size_t>(j)])
                s.edges.push_back({k, id.at(j)});
        }
    }
    CurveSkeleton out = finalizeCurveSkeleton(std::move(s));
    progress.update("graph", 1.0);
    return out;
}

} // namespace rig
