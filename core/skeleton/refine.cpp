#include "core/skeleton/refine.h"

#include "core/common/error.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

namespace rig {
namespace {

// A mutable graph for the refinement steps; nodes are removed by marking them dead.
struct WorkGraph {
    std::vector<Vec3> pos;
    std::vector<double> r;
    std::vector<Vec3i> vox;
    std::vector<std::uint8_t> state;
    std::vector<std::vector<int>> adj;
    std::vector<char> alive;
    std::vector<char> contact; ///< contacts.h: where to cut a loop first

    WorkGraph(const CurveSkeleton& s, std::span<const char> contacts) : adj(s.adjacency())
    {
        const int n = s.nodeCount();
        for (int i = 0; i < n; ++i) {
            pos.push_back(s.positions.row(i).transpose());
            vox.push_back(s.voxels.row(i).transpose());
        }
        r = s.radii;
        state = s.voxelStates;
        alive.assign(static_cast<size_t>(n), 1);
        contact.assign(contacts.begin(), contacts.end());
        contact.resize(static_cast<size_t>(n), 0);
    }
    int size() const { return static_cast<int>(pos.size()); }
    int degree(int v) const { return static_cast<int>(adj[static_cast<size_t>(v)].size()); }
    int add(const Vec3& p, double radius, const Vec3i& v, std::uint8_t st, char isContact)
    {
        pos.push_back(p);
        r.push_back(radius);
        vox.push_back(v);
        state.push_back(st);
        adj.emplace_back();
        alive.push_back(1);
        contact.push_back(isContact);
        return size() - 1;
    }
    void addEdge(int a, int b)
    {
        adj[static_cast<size_t>(a)].push_back(b);
        adj[static_cast<size_t>(b)].push_back(a);
    }
    void removeEdge(int a, int b)
    {
        auto& x = adj[static_cast<size_t>(a)];
        auto& y = adj[static_cast<size_t>(b)];
        x.erase(std::find(x.begin(), x.end(), b));
        y.erase(std::find(y.begin(), y.end(), a));
    }
    void removeNode(int v)
    {
        for (int w : adj[static_cast<size_t>(v)]) {
            auto& y = adj[static_cast<size_t>(w)];
            y.erase(std::find(y.begin(), y.end(), v));
        }
        adj[static_cast<size_t>(v)].clear();
        alive[static_cast<size_t>(v)] = 0;
    }
    // Connected components of the live nodes: a label per node (-1 for dead ones).
    std::vector<int> components(int& count) const
    {
        std::vector<int> label(static_cast<size_t>(size()), -1);
        count = 0;
        std::vector<int> stack;
        for (int s = 0; s < size(); ++s) {
            if (!alive[static_cast<size_t>(s)] || label[static_cast<size_t>(s)] >= 0)
                continue;
            label[static_cast<size_t>(s)] = count;
            stack.push_back(s);
            while (!stack.empty()) {
                const int v = stack.back();
                stack.pop_back();
                for (int w : adj[static_cast<size_t>(v)])
                    if (label[static_cast<size_t>(w)] < 0) {
                        label[static_cast<size_t>(w)] = count;
                        stack.push_back(w);
                    }
            }
            ++count;
        }
        return label;
    }
};

int collapseConnectionClusters(WorkGraph& g)
{
    const int n = g.size();
    std::vector<char> connection(static_cast<size_t>(n)), seen(static_cast<size_t>(n), 0);
    for (int v = 0; v < n; ++v)
        connection[static_cast<size_t>(v)] = g.alive[static_cast<size_t>(v)] && g.degree(v) > 2;
    int collapsed = 0;
    for (int s = 0; s < n; ++s) {
        if (!connection[static_cast<size_t>(s)] || seen[static_cast<size_t>(s)])
            continue;
        std::vector<int> members{s};
        seen[static_cast<size_t>(s)] = 1;
        for (size_t k = 0; k < members.size(); ++k)
            for (int w : g.adj[static_cast<size_t>(members[k])])
                if (connection[static_cast<size_t>(w)] && !seen[static_cast<size_t>(w)]) {
                    seen[static_cast<size_t>(w)] = 1;
                    members.push_back(w);
                }
        if (members.size() < 2)
            continue;
        Vec3 centroid = Vec3::Zero();
        double radius = 0.0;
        std::uint8_t st = static_cast<std::uint8_t>(VoxelState::Surface);
        char isContact = 0;
        for (int m : members) {
            centroid += g.pos[static_cast<size_t>(m)];
            radius = std::max(radius, g.r[static_cast<size_t>(m)]);
            st = std::max(st, g.state[static_cast<size_t>(m)]);
            isContact = std::max(isContact, g.contact[static_cast<size_t>(m)]);
        }
        centroid /= static_cast<double>(members.size());
        const int nearest = *std::min_element(members.begin(), members.end(), [&](int a, int b) {
            return (g.pos[static_cast<size_t>(a)] - centroid).squaredNorm() <
                   (g.pos[static_cast<size_t>(b)] - centroid).squaredNorm();
        });
        std::vector<int> outside;
        for (int m : members)
            for (int w : g.adj[static_cast<size_t>(m)])
                if (std::find(members.begin(), members.end(), w) == members.end())
                    outside.push_back(w);
        std::sort(outside.begin(), outside.end());
        outside.erase(std::unique(outside.begin(), outside.end()), outside.end());
        const Vec3i vox = g.vox[static_cast<size_t>(nearest)];
        for (int m : members)
            g.removeNode(m);
        const int c = g.add(centroid, radius, vox, st, isContact);
        for (int w : outside)
            g.addEdge(c, w);
        ++collapsed;
    }
    return collapsed;
}

// Removes every component but the one with the most nodes; returns how many went.
int keepLargestComponent(WorkGraph& g)
{
    int count = 0;
    const std::vector<int> label = g.components(count);
    if (count <= 1)
        return 0;
    std::vector<int> sizes(static_cast<size_t>(count), 0);
    for (int l : label)
        if (l >= 0)
            ++sizes[static_cast<size_t>(l)];
    const int keep = static_cast<int>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
    for (int v = 0; v < g.size(); ++v)
        if (label[static_cast<size_t>(v)] >= 0 && label[static_cast<size_t>(v)] != keep)
            g.removeNode(v);
    return count - 1;
}

int cycleRank(const WorkGraph& g)
{
    int components = 0, nodes = 0, edges2 = 0;
    g.components(components);
    for (int v = 0; v < g.size(); ++v)
        if (g.alive[static_cast<size_t>(v)]) {
            ++nodes;
            edges2 += g.degree(v);
        }
    return edges2 / 2 - nodes + components;
}

// Kruskal's maximum spanning forest with edge strength min(r_a, r_b), edges at a
// contact (contacts.h) weaker than any other: the edges left out are, for each
// fundamental cycle, its weakest edge at a contact, or its weakest edge when it
// has no contact.
int breakLoopsAtWeakestEdges(WorkGraph& g)
{
    struct Edge {
        bool contact;
        double strength;
        int a, b;
    };
    std::vector<Edge> edges;
    for (int a = 0; a < g.size(); ++a)
        for (int b : g.adj[static_cast<size_t>(a)])
            if (a < b)
                edges.push_back({g.contact[static_cast<size_t>(a)] || g.contact[static_cast<size_t>(b)],
                                 std::min(g.r[static_cast<size_t>(a)], g.r[static_cast<size_t>(b)]), a, b});
    std::stable_sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
        return x.contact != y.contact ? !x.contact : x.strength > y.strength;
    });
    std::vector<int> uf(static_cast<size_t>(g.size()));
    std::iota(uf.begin(), uf.end(), 0);
    auto find = [&](int x) {
        while (uf[static_cast<size_t>(x)] != x)
            x = uf[static_cast<size_t>(x)] = uf[static_cast<size_t>(uf[static_cast<size_t>(x)])];
        return x;
    };
    int broken = 0;
    for (const Edge& e : edges) {
        const int ra = find(e.a), rb = find(e.b);
        if (ra != rb)
            uf[static_cast<size_t>(ra)] = rb;
        else {
            g.removeEdge(e.a, e.b);
            ++broken;
        }
    }
    return broken;
}

int trimSurfaceTips(WorkGraph& g, int rounds)
{
    int trimmed = 0;
    for (int k = 0; k < rounds; ++k) {
        std::vector<int> tips;
        for (int v = 0; v < g.size(); ++v)
            if (g.alive[static_cast<size_t>(v)] && g.degree(v) == 1 &&
                g.state[static_cast<size_t>(v)] == static_cast<std::uint8_t>(VoxelState::Surface) &&
                g.degree(g.adj[static_cast<size_t>(v)][0]) == 2)
                tips.push_back(v);
        if (tips.empty())
            break;
        for (int v : tips)
            g.removeNode(v);
        trimmed += static_cast<int>(tips.size());
    }
    return trimmed;
}

// Removes noise branches one at a time, the shortest relative to its junction's
// radius first, so that of two short branches at one junction the longer stays.
int removeSpurs(WorkGraph& g, const RefineOptions& options)
{
    int removed = 0;
    for (;;) {
        std::vector<int> best;
        double bestRatio = std::numeric_limits<double>::infinity();
        for (int e = 0; e < g.size(); ++e) {
            if (!g.alive[static_cast<size_t>(e)] || g.degree(e) != 1)
                continue;
            std::vector<int> branch{e};
            double length = 0.0;
            int prev = -1, cur = e;
            for (;;) {
                const auto& nb = g.adj[static_cast<size_t>(cur)];
                const int next = nb[0] != prev ? nb[0] : nb[1];
                length += (g.pos[static_cast<size_t>(next)] - g.pos[static_cast<size_t>(cur)]).norm();
                prev = cur;
                cur = next;
                if (g.degree(cur) != 2)
                    break;
                branch.push_back(cur);
            }
            if (g.degree(cur) < 3)
                continue; // the whole component is one path: nothing to prune
            const double ratio = length / std::max(g.r[static_cast<size_t>(cur)], 1e-12);
            const bool spur = ratio < options.spurLength || static_cast<int>(branch.size()) <= options.minBranchNodes;
            if (spur && ratio < bestRatio) {
                bestRatio = ratio;
                best = std::move(branch);
            }
        }
        if (best.empty())
            return removed;
        for (int v : best)
            g.removeNode(v);
        ++removed;
    }
}

CurveSkeleton toSkeleton(const WorkGraph& g)
{
    std::vector<int> id(static_cast<size_t>(g.size()), -1);
    int n = 0;
    for (int v = 0; v < g.size(); ++v)
        if (g.alive[static_cast<size_t>(v)])
            id[static_cast<size_t>(v)] = n++;
    CurveSkeleton s;
    s.positions.resize(n, 3);
    s.voxels.resize(n, 3);
    s.radii.resize(static_cast<size_t>(n));
    s.voxelStates.resize(static_cast<size_t>(n));
    for (int v = 0; v < g.size(); ++v) {
        const int i = id[static_cast<size_t>(v)];
        if (i < 0)
            continue;
        s.positions.row(i) = g.pos[static_cast<size_t>(v)].transpose();
        s.voxels.row(i) = g.vox[static_cast<size_t>(v)].transpose();
        s.radii[static_cast<size_t>(i)] = g.r[static_cast<size_t>(v)];
        s.voxelStates[static_cast<size_t>(i)] = g.state[static_cast<size_t>(v)];
        for (int w : g.adj[static_cast<size_t>(v)])
            if (v < w)
                s.edges.push_back({i, id[static_cast<size_t>(w)]});
    }
    return finalizeCurveSkeleton(std::move(s));
}

void smoothSegments(CurveSkeleton& s, int window)
{
    if (window <= 0)
        return;
    const MatrixX3d original = s.positions;
    for (const auto& seg : s.segments) {
        const int len = static_cast<int>(seg.size());
        for (int i = 1; i + 1 < len; ++i) {
            const int lo = std::max(0, i - window), hi = std::min(len - 1, i + window);
            Eigen::RowVector3d sum = Eigen::RowVector3d::Zero();
            for (int k = lo; k <= hi; ++k)
                sum += original.row(seg[static_cast<size_t>(k)]);
            s.positions.row(seg[static_cast<size_t>(i)]) = sum / (hi - lo + 1);
        }
    }
}

} // namespace

RefinedSkeleton refineCurveSkeleton(const CurveSkeleton& skeleton, const RefineOptions& options,
                                    std::span<const char> contacts)
{
    if (options.spurLength < 0 || options.minBranchNodes < 0 || options.trimSurfaceTips < 0 ||
        options.smoothingWindow < 0)
        throw InvalidInput("rig::refineCurveSkeleton(): options must not be negative");
    if (!contacts.empty() && contacts.size() != static_cast<size_t>(skeleton.nodeCount()))
        throw InvalidInput("rig::refineCurveSkeleton(): " + std::to_string(contacts.size()) + " contact flags for " +
                           std::to_string(skeleton.nodeCount()) + " nodes");
    RefinedSkeleton out;
    RefineReport& rep = out.report;
    WorkGraph g(skeleton, contacts);
    rep.clustersCollapsed = collapseConnectionClusters(g);
    if (options.keepLargestComponent)
        rep.componentsDropped = keepLargestComponent(g);
    rep.loopsFound = cycleRank(g);
    if (options.breakLoops && rep.loopsFound > 0)
        rep.loopsBroken = breakLoopsAtWeakestEdges(g);
    rep.tipsTrimmed = trimSurfaceTips(g, options.trimSurfaceTips);
    rep.spursRemoved = removeSpurs(g, options);
    // Pruning can leave touching connection nodes (two junctions one step apart).
    rep.clustersCollapsed += collapseConnectionClusters(g);
    out.skeleton = toSkeleton(g);
    smoothSegments(out.skeleton, options.smoothingWindow);
    return out;
}

} // namespace rig
