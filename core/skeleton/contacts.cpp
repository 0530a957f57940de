#include "core/skeleton/contacts.h"

#include "core/common/error.h"
#include "core/common/union_find.h"
#include "core/mesh/vertex_adjacency.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace rig {
namespace {

/// Nodes on a loop: what is left after repeatedly removing nodes of degree ≤ 1
/// (the graph's 2-core).
std::vector<char> loopNodes(const std::vector<std::vector<int>>& adj)
{
    const size_t n = adj.size();
    std::vector<int> degree(n);
    std::vector<int> leaves;
    std::vector<char> on(n, 1);
    for (size_t v = 0; v < n; ++v) {
        degree[v] = static_cast<int>(adj[v].size());
        if (degree[v] <= 1)
            leaves.push_back(static_cast<int>(v));
    }
    while (!leaves.empty()) {
        const int v = leaves.back();
        leaves.pop_back();
        if (!on[static_cast<size_t>(v)])
            continue;
        on[static_cast<size_t>(v)] = 0;
        for (int w : adj[static_cast<size_t>(v)])
            if (on[static_cast<size_t>(w)] && --degree[static_cast<size_t>(w)] == 1)
                leaves.push_back(w);
    }
    return on;
}

/// The surface cut by a grid of cubes (side 2h) into patches: the vertices of
/// one cube that the mesh's edges inside the cube connect. Where two sheets of
/// skin touch, a cube holds a patch of each; elsewhere a cube holds one. The
/// patches and the edges between them are a coarse copy of the surface's
/// connectivity: a node's test walks patches, whose number near it follows
/// the grid rather than the mesh's density.
struct Patches {
    Vec3 origin;
    double cell = 1.0;   ///< side of the cubes that split the surface into patches
    double lookup = 1.0; ///< side of the coarser cubes that find patches near a point
    Vec3i dims, lookupDims;
    std::vector<Vec3> centre;
    std::vector<int> size;
    std::vector<int> cellStart, cellPatch; ///< CSR: lookup cube → its patches
    VertexAdjacency links;                 ///< patch → the patches sharing a mesh edge with it

    Patches(const Mesh& mesh, double side);
    static Vec3i cube(const Vec3& p, const Vec3& origin, double side, const Vec3i& dims)
    {
        const Vec3i c = ((p - origin) / side).array().floor().cast<int>().matrix();
        return c.cwiseMax(Vec3i::Zero()).cwiseMin(dims - Vec3i::Ones());
    }
    static std::int64_t index(const Vec3i& c, const Vec3i& dims)
    {
        return c.x() + std::int64_t(dims.x()) * (c.y() + std::int64_t(dims.y()) * c.z());
    }

    /// Calls f(patch) for every patch whose lookup cube meets the ball (p, radius).
    template <typename F>
    void near(const Vec3& p, double radius, F&& f) const
    {
        const Vec3i lo = cube(p - Vec3::Constant(radius), origin, lookup, lookupDims);
        const Vec3i hi = cube(p + Vec3::Constant(radius), origin, lookup, lookupDims);
        for (int z = lo.z(); z <= hi.z(); ++z)
            for (int y = lo.y(); y <= hi.y(); ++y)
                for (int x = lo.x(); x <= hi.x(); ++x) {
                    const auto c = static_cast<size_t>(index(Vec3i(x, y, z), lookupDims));
                    for (int k = cellStart[c]; k < cellStart[c + 1]; ++k)
                        f(cellPatch[static_cast<size_t>(k)]);
                }
    }
};

Patches::Patches(const Mesh& mesh, double side) : cell(side), lookup(4.0 * side)
{
    const int V = mesh.vertexCount();
    origin = mesh.V.colwise().minCoeff().transpose();
    const Vec3 extent = mesh.V.colwise().maxCoeff().transpose() - origin;
    dims = (extent / cell).array().floor().cast<int>().matrix() + Vec3i::Ones();
    lookupDims = (extent / lookup).array().floor().cast<int>().matrix() + Vec3i::Ones();
    std::vector<std::int64_t> cubeOf(static_cast<size_t>(V));
    for (int v = 0; v < V; ++v)
        cubeOf[static_cast<size_t>(v)] = index(cube(mesh.V.row(v).transpose(), origin, cell, dims), dims);
    std::vector<int> uf = unionFindSets(V);
    for (Eigen::Index t = 0; t < mesh.F.rows(); ++t)
        for (int k = 0; k < 3; ++k) {
            const int a = mesh.F(t, k), b = mesh.F(t, (k + 1) % 3);
            if (cubeOf[static_cast<size_t>(a)] == cubeOf[static_cast<size_t>(b)])
                unionFindJoin(uf, a, b);
        }
    std::vector<int> patchOf(static_cast<size_t>(V), -1), id(static_cast<size_t>(V), -1);
    for (int v = 0; v < V; ++v) {
        int& p = id[static_cast<size_t>(unionFindRoot(uf, v))];
        if (p < 0) {
            p = static_cast<int>(centre.size());
            centre.push_back(Vec3::Zero());
            size.push_back(0);
        }
        patchOf[static_cast<size_t>(v)] = p;
        centre[static_cast<size_t>(p)] += mesh.V.row(v).transpose();
        ++size[static_cast<size_t>(p)];
    }
    std::vector<std::int64_t> lookupOf(centre.size());
    cellStart.assign(static_cast<size_t>(lookupDims.prod()) + 1, 0);
    for (size_t p = 0; p < centre.size(); ++p) {
        centre[p] /= static_cast<double>(size[p]);
        lookupOf[p] = index(cube(centre[p], origin, lookup, lookupDims), lookupDims);
        ++cellStart[static_cast<size_t>(lookupOf[p]) + 1];
    }
    for (size_t c = 1; c < cellStart.size(); ++c)
        cellStart[c] += cellStart[c - 1];
    cellPatch.resize(centre.size());
    std::vector<int> fill(cellStart.begin(), cellStart.end() - 1);
    for (size_t p = 0; p < centre.size(); ++p)
        cellPatch[static_cast<size_t>(fill[static_cast<size_t>(lookupOf[p])]++)] = static_cast<int>(p);
    // The patches' adjacency is the mesh's with each vertex replaced by its
    // patch (edges inside one patch drop out as degenerate).
    MatrixX3i patchTriangles(mesh.F.rows(), 3);
    for (Eigen::Index t = 0; t < mesh.F.rows(); ++t)
        for (int k = 0; k < 3; ++k)
            patchTriangles(t, k) = patchOf[static_cast<size_t>(mesh.F(t, k))];
    links = vertexAdjacency(static_cast<int>(centre.size()), patchTriangles);
}

/// Counts the sheets of surface around one node after another, reusing its
/// scratch arrays (one entry per patch).
class SheetCounter {
public:
    explicit SheetCounter(const Patches& patches)
        : m_patches(patches), m_stamp(patches.centre.size(), -1), m_component(m_stamp.size(), -1),
          m_where(m_stamp.size(), 0)
    {
    }

    /// The groups of patches within `ball` of p, joined by patches within
    /// `reach`, that hold at least `minVertices` vertices within the ball.
    int sheets(int node, const Vec3& p, double ball, double reach, int minVertices)
    {
        m_reached.clear();
        m_patches.near(p, reach, [&](int q) {
            const double d2 = (m_patches.centre[static_cast<size_t>(q)] - p).squaredNorm();
            if (d2 > reach * reach)
                return;
            m_stamp[static_cast<size_t>(q)] = node;
            m_component[static_cast<size_t>(q)] = -1;
            m_where[static_cast<size_t>(q)] = d2 <= ball * ball ? 2 : 1;
            m_reached.push_back(q);
        });
        int count = 0;
        for (int s : m_reached)
            if (m_where[static_cast<size_t>(s)] == 2 && m_component[static_cast<size_t>(s)] < 0)
                count += grow(node, s) >= minVertices ? 1 : 0;
        return count;
    }

private:
    /// Labels the group of `seed` (breadth first through this node's
    /// patches); returns its vertices within the ball.
    int grow(int node, int seed)
    {
        int inBall = 0;
        m_queue.assign(1, seed);
        m_component[static_cast<size_t>(seed)] = seed;
        for (size_t k = 0; k < m_queue.size(); ++k) {
            const int q = m_queue[k];
            inBall += m_where[static_cast<size_t>(q)] == 2 ? m_patches.size[static_cast<size_t>(q)] : 0;
            for (int e = m_patches.links.start[static_cast<size_t>(q)]; e < m_patches.links.start[static_cast<size_t>(q) + 1]; ++e) {
                const int w = m_patches.links.nbr[static_cast<size_t>(e)];
                if (m_stamp[static_cast<size_t>(w)] == node && m_component[static_cast<size_t>(w)] < 0) {
                    m_component[static_cast<size_t>(w)] = seed;
                    m_queue.push_back(w);
                }
            }
        }
        return inBall;
    }

    const Patches& m_patches;
    std::vector<int> m_stamp;     ///< The node whose reach last took the patch.
    std::vector<int> m_component; ///< The seed of the patch's group for that node, -1 before.
    std::vector<char> m_where;    ///< 2 within the ball, 1 within reach only.
    std::vector<int> m_reached, m_queue;
};

} // namespace

std::vector<char> contactNodes(const CurveSkeleton& skeleton, const Mesh& mesh, double voxelSize,
                               const ContactOptions& o)
{
    if (!(voxelSize > 0.0) || !(o.ballScale > 0.0) || !(o.reachScale >= o.ballScale) || o.minVertices < 1)
        throw InvalidInput("rig::contactNodes(): the voxel size and the scales must be positive, reachScale at least "
                           "ballScale and minVertices at least 1");
    const int n = skeleton.nodeCount();
    std::vector<char> contact(static_cast<size_t>(n), 0);
    if (skeleton.loopCount == 0 || mesh.vertexCount() == 0)
        return contact;
    const std::vector<char> onLoop = loopNodes(skeleton.adjacency());
    const Patches patches(mesh, 2.0 * voxelSize);
    SheetCounter counter(patches);
    for (int i = 0; i < n; ++i) {
        if (!onLoop[static_cast<size_t>(i)])
            continue;
        const double r = skeleton.radii[static_cast<size_t>(i)];
        const int sheets = counter.sheets(i, skeleton.positions.row(i).transpose(), o.ballScale * r + voxelSize,
                                          o.reachScale * r + 2.0 * voxelSize, o.minVertices);
        contact[static_cast<size_t>(i)] = sheets >= 2 ? 1 : 0;
    }
    return contact;
}

} // namespace rig
