#include "ui/viewport/draw_data.h"

#include "core/mesh/mesh_queries.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <unordered_map>

namespace rig::ui {

std::vector<int> partGroups(const Mesh& mesh)
{
    // Union-find over the parts, joined by every triangle whose corners lie in two of them.
    int parts = 0;
    for (int p : mesh.part)
        parts = std::max(parts, p + 1);
    std::vector<int> root(static_cast<size_t>(parts));
    for (int p = 0; p < parts; ++p)
        root[static_cast<size_t>(p)] = p;
    auto find = [&root](int p) {
        while (root[static_cast<size_t>(p)] != p)
            p = root[static_cast<size_t>(p)] = root[static_cast<size_t>(root[static_cast<size_t>(p)])];
        return p;
    };
    const auto partOf = [&mesh](int v) { return v >= 0 && v < static_cast<int>(mesh.part.size()) ? mesh.part[static_cast<size_t>(v)] : -1; };
    for (int f = 0; f < mesh.triangleCount(); ++f)
        for (int k = 0; k < 3; ++k) {
            const int a = partOf(mesh.F(f, k)), b = partOf(mesh.F(f, (k + 1) % 3));
            if (a >= 0 && b >= 0 && a != b)
                root[static_cast<size_t>(find(a))] = find(b);
        }
    // Groups numbered in the order of their first part.
    std::vector<int> group(static_cast<size_t>(parts), -1), number(static_cast<size_t>(parts), -1);
    int next = 0;
    for (int p = 0; p < parts; ++p) {
        const int r = find(p);
        if (number[static_cast<size_t>(r)] < 0)
            number[static_cast<size_t>(r)] = next++;
        group[static_cast<size_t>(p)] = number[static_cast<size_t>(r)];
    }
    return group;
}

MeshDrawData makeMeshDrawData(const Mesh& mesh)
{
    MeshDrawData d;
    const glm::vec3 skin(0.78f, 0.74f, 0.70f);
    // Gentle hue offsets per part: multi-part characters (eyes, clothes) read apart.
    const glm::vec3 tints[] = {{0, 0, 0}, {-0.10f, 0.02f, 0.10f}, {0.08f, -0.04f, -0.10f}, {-0.06f, 0.08f, -0.02f},
                               {0.06f, 0.06f, -0.12f}, {-0.12f, -0.02f, 0.04f}};
    d.vertices.resize(static_cast<size_t>(mesh.vertexCount()));
    const bool hasNormals = mesh.N.rows() == mesh.V.rows();
    const std::vector<int> group = partGroups(mesh);
    int groups = 0;
    for (int g : group)
        groups = std::max(groups, g + 1);
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        MeshVertex& v = d.vertices[i];
        v.position = glm::vec3(mesh.V(i, 0), mesh.V(i, 1), mesh.V(i, 2));
        v.normal = hasNormals ? glm::vec3(mesh.N(i, 0), mesh.N(i, 1), mesh.N(i, 2)) : glm::vec3(0, 1, 0);
        const int part = i < static_cast<int>(mesh.part.size()) ? mesh.part[i] : 0;
        const int g = part >= 0 && part < static_cast<int>(group.size()) ? group[static_cast<size_t>(part)] : 0;
        v.color = groups > 1 ? glm::clamp(skin + tints[g % 6], 0.0f, 1.0f) : skin;
    }
    d.indices.resize(static_cast<size_t>(mesh.triangleCount()) * 3);
    for (int f = 0; f < mesh.triangleCount(); ++f)
        for (int k = 0; k < 3; ++k)
            d.indices[3 * f + k] = static_cast<unsigned>(mesh.F(f, k));
    if (mesh.triangleCount() > 0 && edgeTopology(mesh.F).closedManifold()) {
        double volume6 = 0.0; // six times the signed volume: positive when outward
        for (int f = 0; f < mesh.triangleCount(); ++f)
            volume6 += Vec3(mesh.V.row(mesh.F(f, 0))).dot(Vec3(mesh.V.row(mesh.F(f, 1))).cross(Vec3(mesh.V.row(mesh.F(f, 2)))));
        d.closedOutward = volume6 > 0.0;
    }
    if (!d.vertices.empty()) {
        d.boundsMin = d.boundsMax = d.vertices[0].position;
        for (const MeshVertex& v : d.vertices) {
            d.boundsMin = glm::min(d.boundsMin, v.position);
            d.boundsMax = glm::max(d.boundsMax, v.position);
        }
    }
    return d;
}

MeshDrawData makeSourceDrawData(const ImportedCharacter& character, std::vector<int>& welded)
{
    MeshDrawData d;
    welded.clear();
    const SourceAsset& s = character.source;
    const Mesh& mesh = character.mesh;
    std::vector<int> imageOfTexture(s.textures.size(), -1);
    for (const SourceMesh& m : s.meshes) {
        const auto first = static_cast<unsigned>(d.vertices.size());
        const SourceMaterial* material =
            m.material >= 0 && m.material < static_cast<int>(s.materials.size()) ? &s.materials[static_cast<size_t>(m.material)] : nullptr;
        const glm::vec3 color = material ? glm::vec3(material->baseColor[0], material->baseColor[1], material->baseColor[2])
                                         : glm::vec3(0.78f, 0.74f, 0.70f);
        for (int v = 0; v < m.vertexCount(); ++v) {
            MeshVertex x;
            x.position = glm::vec3(m.V(v, 0), m.V(v, 1), m.V(v, 2));
            const int w = m.welded[static_cast<size_t>(v)];
            const bool own = m.N.rows() == m.V.rows();
            x.normal = own ? glm::vec3(m.N(v, 0), m.N(v, 1), m.N(v, 2))
                           : (mesh.N.rows() == mesh.V.rows() ? glm::vec3(mesh.N(w, 0), mesh.N(w, 1), mesh.N(w, 2))
                                                             : glm::vec3(0, 1, 0));
            x.color = color;
            d.vertices.push_back(x);
            d.uv.push_back(m.uv.empty() ? glm::vec2(0) : glm::vec2(m.uv[0](v, 0), m.uv[0](v, 1)));
            welded.push_back(w);
        }
        MeshDrawRange range;
        range.firstIndex = static_cast<int>(d.indices.size());
        for (Eigen::Index f = 0; f < m.F.rows(); ++f)
            for (int k = 0; k < 3; ++k)
                d.indices.push_back(first + static_cast<unsigned>(m.F(f, k)));
        range.indexCount = static_cast<int>(d.indices.size()) - range.firstIndex;
        const int t = material ? material->baseColorTexture.texture : -1;
        if (t >= 0 && t < static_cast<int>(s.textures.size()) && !s.textures[static_cast<size_t>(t)].bytes.empty() &&
            !m.uv.empty() && material->baseColorTexture.uvSet == 0) {
            int& image = imageOfTexture[static_cast<size_t>(t)];
            if (image < 0) {
                image = static_cast<int>(d.images.size());
                d.images.push_back(&s.textures[static_cast<size_t>(t)].bytes);
            }
            range.image = image;
        }
        d.ranges.push_back(range);
    }
    if (!d.vertices.empty()) {
        d.boundsMin = d.boundsMax = d.vertices[0].position;
        for (const MeshVertex& v : d.vertices) {
            d.boundsMin = glm::min(d.boundsMin, v.position);
            d.boundsMax = glm::max(d.boundsMax, v.position);
        }
    }
    return d; // drawn two-sided: the file's meshes need not be closed
}

MeshDrawData simplifyForInteraction(const MeshDrawData& data, int targetTriangles)
{
    const size_t tris = data.indices.size() / 3;
    if (tris <= size_t(std::max(targetTriangles, 1)) || data.vertices.empty())
        return data;
    // A surface of T triangles on an n^3 grid keeps about c * n^2 cells; scale
    // the cell from the current density so the result lands near the target.
    const glm::vec3 size = glm::max(data.boundsMax - data.boundsMin, glm::vec3(1e-9f));
    const float area = 2.0f * (size.x * size.y + size.y * size.z + size.z * size.x);
    float cell = std::sqrt(area / float(targetTriangles)) * 0.9f;
    MeshDrawData out;
    for (int attempt = 0; attempt < 4; ++attempt) {
        const glm::ivec3 dims = glm::max(glm::ivec3(size / cell) + 1, glm::ivec3(1));
        std::unordered_map<long long, unsigned> cellVertex;
        std::vector<glm::vec3> sumP, sumN, sumC;
        std::vector<float> count;
        std::vector<unsigned> remap(data.vertices.size());
        for (size_t v = 0; v < data.vertices.size(); ++v) {
            const glm::ivec3 c = glm::clamp(glm::ivec3((data.vertices[v].position - data.boundsMin) / cell),
                                            glm::ivec3(0), dims - 1);
            const long long key = (static_cast<long long>(c.z) * dims.y + c.y) * dims.x + c.x;
            auto [it, inserted] = cellVertex.try_emplace(key, unsigned(sumP.size()));
            if (inserted) {
                sumP.emplace_back(0.0f);
                sumN.emplace_back(0.0f);
                sumC.emplace_back(0.0f);
                count.push_back(0.0f);
            }
            const unsigned i = it->second;
            sumP[i] += data.vertices[v].position;
            sumN[i] += data.vertices[v].normal;
            sumC[i] += data.vertices[v].color;
            count[i] += 1.0f;
            remap[v] = i;
        }
        out.vertices.resize(sumP.size());
        for (size_t i = 0; i < sumP.size(); ++i) {
            const float len = glm::length(sumN[i]);
            out.vertices[i] = {sumP[i] / count[i], len > 0 ? sumN[i] / len : glm::vec3(0, 1, 0), sumC[i] / count[i]};
        }
        // Each cluster is skinned as its member nearest the centre (a
        // vertex of the limb the cluster lies on, never an average of limbs).
        out.sourceVertex.assign(sumP.size(), 0);
        std::vector<float> nearest(sumP.size(), std::numeric_limits<float>::infinity());
        for (size_t v = 0; v < data.vertices.size(); ++v) {
            const unsigned i = remap[v];
            const float d = glm::length(data.vertices[v].position - out.vertices[i].position);
            if (d < nearest[i]) {
                nearest[i] = d;
                out.sourceVertex[i] = unsigned(v);
            }
        }
        out.indices.clear();
        for (size_t t = 0; t < tris; ++t) {
            const unsigned a = remap[data.indices[3 * t]], b = remap[data.indices[3 * t + 1]],
                           c = remap[data.indices[3 * t + 2]];
            if (a != b && b != c && a != c)
                out.indices.insert(out.indices.end(), {a, b, c});
        }
        const float ratio = float(out.indices.size() / 3) / float(targetTriangles);
        if (ratio < 1.15f)
            break;
        cell *= std::sqrt(ratio); // still too many: coarser
    }
    out.boundsMin = data.boundsMin;
    out.boundsMax = data.boundsMax;
    out.closedOutward = false; // clustering can open or fold the surface: draw two-sided
    return out;
}

float niceGridCell(float modelSize)
{
    const float raw = std::max(modelSize, 1e-6f) / 10.0f;
    const float p = std::pow(10.0f, std::floor(std::log10(raw)));
    for (float m : {1.0f, 2.0f, 5.0f})
        if (m * p >= raw)
            return m * p;
    return 10.0f * p;
}

std::vector<LineVertex> makeGridLines(float cell, int halfCells)
{
    std::vector<LineVertex> lines;
    const float extent = cell * static_cast<float>(halfCells);
    const glm::vec3 minor(0.36f), major(0.46f), xAxis(0.75f, 0.25f, 0.25f), zAxis(0.25f, 0.35f, 0.8f);
    for (int i = -halfCells; i <= halfCells; ++i) {
        const float t = cell * static_cast<float>(i);
        const glm::vec3 cz = i == 0 ? xAxis : (i % 5 == 0 ? major : minor); // line along x at z = t
        const glm::vec3 cx = i == 0 ? zAxis : (i % 5 == 0 ? major : minor); // line along z at x = t
        lines.push_back({{-extent, 0, t}, cz});
        lines.push_back({{extent, 0, t}, cz});
        lines.push_back({{t, 0, -extent}, cx});
        lines.push_back({{t, 0, extent}, cx});
    }
    return lines;
}

} // namespace rig::ui
