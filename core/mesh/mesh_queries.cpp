#include "core/mesh/mesh_queries.h"

#include "core/common/union_find.h"

#include <algorithm>
#include <cstdint>

namespace rig {

Box3 boundingBox(const Mesh& mesh)
{
    Box3 box;
    for (Eigen::Index i = 0; i < mesh.V.rows(); ++i)
        box.extend(mesh.V.row(i).transpose());
    return box;
}

MatrixX3d vertexNormals(const MatrixX3d& V, const MatrixX3i& F)
{
    MatrixX3d N = MatrixX3d::Zero(V.rows(), 3);
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const Vec3 a = V.row(F(f, 0)), b = V.row(F(f, 1)), c = V.row(F(f, 2));
        const Vec3 n = (b - a).cross(c - a); // length = 2 * area: area weighting
        for (int k = 0; k < 3; ++k)
            N.row(F(f, k)) += n.transpose();
    }
    for (Eigen::Index i = 0; i < N.rows(); ++i) {
        const double len = N.row(i).norm();
        if (len > 0.0)
            N.row(i) /= len;
        else
            N.row(i) << 0.0, 1.0, 0.0;
    }
    return N;
}

EdgeTopology edgeTopology(const MatrixX3i& F)
{
    // Half-edges bucketed by their lower vertex (a counting sort, issue 20:
    // no global sort), each entry (upper vertex << 1 | forward), forward when
    // the triangle runs lower -> upper; a bucket is sorted on its own (a few entries).
    EdgeTopology topo;
    auto valid = [&](Eigen::Index f) {
        const int i0 = F(f, 0), i1 = F(f, 1), i2 = F(f, 2);
        return i0 >= 0 && i1 >= 0 && i2 >= 0 && i0 != i1 && i1 != i2 && i0 != i2;
    };
    int n = 0;
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        if (valid(f))
            n = std::max({n, F(f, 0) + 1, F(f, 1) + 1, F(f, 2) + 1});
    std::vector<std::size_t> start(static_cast<size_t>(n) + 1, 0);
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        if (valid(f))
            for (int k = 0; k < 3; ++k)
                ++start[static_cast<size_t>(std::min(F(f, k), F(f, (k + 1) % 3))) + 1];
        else
            ++topo.degenerateTriangles;
    for (size_t v = 0; v < static_cast<size_t>(n); ++v)
        start[v + 1] += start[v];
    std::vector<std::uint64_t> entries(start.back());
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        if (valid(f))
            for (int k = 0; k < 3; ++k) {
                const int a = F(f, k), b = F(f, (k + 1) % 3);
                entries[fill[static_cast<size_t>(std::min(a, b))]++] = (std::uint64_t(std::max(a, b)) << 1) | (a < b ? 1u : 0u);
            }
    for (size_t v = 0; v < static_cast<size_t>(n); ++v) {
        const auto first = entries.begin() + static_cast<std::ptrdiff_t>(start[v]);
        const auto last = entries.begin() + static_cast<std::ptrdiff_t>(start[v + 1]);
        std::sort(first, last);
        for (auto i = first; i != last;) {
            auto j = i;
            int forward = 0;
            while (j != last && (*j >> 1) == (*i >> 1))
                forward += int(*j++ & 1u);
            const auto count = j - i;
            ++topo.edges;
            if (count == 1)
                ++topo.boundaryEdges;
            else if (count > 2)
                ++topo.nonManifoldEdges;
            else if (forward != 1)
                ++topo.inconsistentEdges;
            i = j;
        }
    }
    return topo;
}

int connectedComponents(const Mesh& mesh)
{
    std::vector<int> parent = unionFindSets(static_cast<int>(mesh.V.rows()));
    std::vector<char> used(parent.size(), 0);
    for (Eigen::Index f = 0; f < mesh.F.rows(); ++f) {
        for (int k = 0; k < 3; ++k)
            used[mesh.F(f, k)] = 1;
        const int r0 = unionFindRoot(parent, mesh.F(f, 0));
        for (int k = 1; k < 3; ++k) {
            const int r = unionFindRoot(parent, mesh.F(f, k));
            if (r != r0)
                parent[r] = r0;
        }
    }
    int count = 0;
    for (size_t i = 0; i < parent.size(); ++i)
        if (used[i] && unionFindRoot(parent, static_cast<int>(i)) == static_cast<int>(i))
            ++count;
    return count;
}

std::vector<int> vertexComponents(int vertexCount, const MatrixX3i& F, int& count)
{
    std::vector<int> parent = unionFindSets(vertexCount);
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int k = 1; k < 3; ++k) {
            const int a = unionFindRoot(parent, F(f, 0)), b = unionFindRoot(parent, F(f, k));
            if (a != b)
                parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
        }
    std::vector<int> id(static_cast<size_t>(vertexCount), -1);
    count = 0;
    for (int i = 0; i < vertexCount; ++i) {
        const int r = unionFindRoot(parent, i);
        if (id[static_cast<size_t>(r)] < 0)
            id[static_cast<size_t>(r)] = count++;
        id[static_cast<size_t>(i)] = id[static_cast<size_t>(r)];
    }
    return id;
}

MeshStats meshStats(const Mesh& mesh)
{
    MeshStats s;
    s.vertices = mesh.vertexCount();
    s.triangles = mesh.triangleCount();
    s.parts = mesh.partCount();
    s.components = connectedComponents(mesh);
    const EdgeTopology topo = edgeTopology(mesh.F);
    s.watertight = topo.watertight() && s.triangles > 0;
    s.manifold = topo.nonManifoldEdges == 0 && topo.inconsistentEdges == 0;
    s.bounds = boundingBox(mesh);
    return s;
}

} // namespace rig
