#include "ui/viewport/draw_data.h"

#include "core/mesh/mesh_queries.h"

#include <algorithm>
#include <cmath>

namespace rig::ui {

MeshDrawData makeMeshDrawData(const Mesh& mesh)
{
    MeshDrawData d;
    const glm::vec3 skin(0.78f, 0.74f, 0.70f);
    // Gentle hue offsets per part: multi-part characters (eyes, clothes) read apart.
    const glm::vec3 tints[] = {{0, 0, 0}, {-0.10f, 0.02f, 0.10f}, {0.08f, -0.04f, -0.10f}, {-0.06f, 0.08f, -0.02f},
                               {0.06f, 0.06f, -0.12f}, {-0.12f, -0.02f, 0.04f}};
    d.vertices.resize(static_cast<size_t>(mesh.vertexCount()));
    const bool hasNormals = mesh.N.rows() == mesh.V.rows();
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        MeshVertex& v = d.vertices[i];
        v.position = glm::vec3(mesh.V(i, 0), mesh.V(i, 1), mesh.V(i, 2));
        v.normal = hasNormals ? glm::vec3(mesh.N(i, 0), mesh.N(i, 1), mesh.N(i, 2)) : glm::vec3(0, 1, 0);
        const int part = i < static_cast<int>(mesh.part.size()) ? mesh.part[i] : 0;
        v.color = mesh.partCount() > 1 ? glm::clamp(skin + tints[part % 6], 0.0f, 1.0f) : skin;
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
