#include "core/import/mesh_import.h"

#include <algorithm>
#include <numeric>

namespace rig {
namespace {

/// Connected pieces of the triangles `F` (through shared vertices): a
/// union-find over flat arrays indexed by vertex (a hash map of parents spent
/// 55 ms on a 154k-vertex character's parts, issue 20).
int components(const MatrixX3i& F)
{
    const int n = F.size() > 0 ? F.maxCoeff() + 1 : 0;
    std::vector<int> parent(static_cast<size_t>(std::max(n, 0)), -1); // -1: not used by a triangle
    auto find = [&](int x) {
        while (parent[static_cast<size_t>(x)] != x)
            x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
        return x;
    };
    int count = 0;
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int c = 0; c < 3; ++c)
            if (const int v = F(f, c); v >= 0 && parent[static_cast<size_t>(v)] < 0) {
                parent[static_cast<size_t>(v)] = v;
                ++count;
            }
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int c = 1; c < 3; ++c) {
            if (F(f, 0) < 0 || F(f, c) < 0)
                continue;
            const int a = find(F(f, 0)), b = find(F(f, c));
            if (a != b) {
                parent[static_cast<size_t>(a)] = b;
                --count;
            }
        }
    return count;
}

} // namespace

std::vector<CharacterPart> characterParts(const ImportedCharacter& c)
{
    std::vector<CharacterPart> parts;
    const SourceAsset& s = c.source;
    for (size_t m = 0; m < s.meshes.size(); ++m) {
        const SourceMesh& sm = s.meshes[m];
        CharacterPart p;
        p.name = sm.name;
        p.sourceMesh = static_cast<int>(m);
        p.vertices = sm.vertexCount();
        p.triangles = static_cast<int>(sm.F.rows());
        MatrixX3i welded(sm.F.rows(), 3);
        for (Eigen::Index f = 0; f < sm.F.rows(); ++f)
            for (int k = 0; k < 3; ++k)
                welded(f, k) = sm.welded[static_cast<size_t>(sm.F(f, k))];
        p.components = components(welded);
        if (sm.material >= 0 && sm.material < static_cast<int>(s.materials.size()))
            p.material = s.materials[static_cast<size_t>(sm.material)].name;
        parts.push_back(std::move(p));
    }
    if (!parts.empty())
        return parts;
    // No source data (the generated character): the welded mesh's parts.
    const Mesh& mesh = c.mesh;
    for (int k = 0; k < std::max(mesh.partCount(), 1); ++k) {
        CharacterPart p;
        p.name = k < mesh.partCount() ? mesh.partNames[static_cast<size_t>(k)] : "mesh";
        std::vector<Eigen::Vector3i> tris;
        for (Eigen::Index f = 0; f < mesh.F.rows(); ++f)
            if (mesh.part.empty() || mesh.part[static_cast<size_t>(mesh.F(f, 0))] == k)
                tris.push_back(mesh.F.row(f).transpose());
        for (size_t v = 0; v < static_cast<size_t>(mesh.vertexCount()); ++v)
            p.vertices += mesh.part.empty() || mesh.part[v] == k ? 1 : 0;
        p.triangles = static_cast<int>(tris.size());
        MatrixX3i F(static_cast<Eigen::Index>(tris.size()), 3);
        for (size_t f = 0; f < tris.size(); ++f)
            F.row(static_cast<Eigen::Index>(f)) = tris[f].transpose();
        p.components = components(F);
        parts.push_back(std::move(p));
    }
    return parts;
}

std::vector<std::vector<int>> partVertices(const ImportedCharacter& c)
{
    std::vector<std::vector<int>> parts;
    for (const SourceMesh& sm : c.source.meshes) {
        std::vector<int> v = sm.welded;
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        parts.push_back(std::move(v));
    }
    if (!parts.empty())
        return parts;
    const Mesh& mesh = c.mesh;
    parts.resize(static_cast<size_t>(std::max(mesh.partCount(), 1)));
    for (int v = 0; v < mesh.vertexCount(); ++v) {
        const size_t k = mesh.part.empty() ? 0 : static_cast<size_t>(std::max(mesh.part[static_cast<size_t>(v)], 0));
        if (k >= parts.size())
            parts.resize(k + 1);
        parts[k].push_back(v);
    }
    return parts;
}

} // namespace rig
