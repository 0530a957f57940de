#include "ui/viewport/overlay_data.h"

#include "core/rig/skeleton.h"
#include "core/skeleton/curve_skeleton.h"
#include "core/voxel/voxel_grid.h"

#include <algorithm>
#include <array>

namespace rig::ui {
namespace {

void addCube(MeshDrawData& d, const glm::vec3& c, float h, const glm::vec3& color)
{
    // Six faces with flat normals: 24 vertices, 12 triangles.
    static const std::array<glm::vec3, 6> normals = {glm::vec3(1, 0, 0), glm::vec3(-1, 0, 0), glm::vec3(0, 1, 0),
                                                     glm::vec3(0, -1, 0), glm::vec3(0, 0, 1), glm::vec3(0, 0, -1)};
    for (const glm::vec3& n : normals) {
        // Two tangents spanning the face, oriented so (u, v, n) is right-handed.
        const glm::vec3 u = std::abs(n.x) > 0.5f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
        const glm::vec3 v = glm::cross(n, u);
        const auto base = static_cast<unsigned>(d.vertices.size());
        for (const auto& [a, b] : {std::pair{-1.f, -1.f}, std::pair{1.f, -1.f}, std::pair{1.f, 1.f}, std::pair{-1.f, 1.f}})
            d.vertices.push_back({c + h * (n + a * u + b * v), n, color});
        // u × v = n·(something positive): counter-clockwise seen from outside.
        const bool ccw = glm::dot(glm::cross(u, v), n) > 0.0f;
        if (ccw)
            d.indices.insert(d.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
        else
            d.indices.insert(d.indices.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
    }
}

/// A UV sphere, coarse (8 x 6): enough for a glyph a few pixels wide.
void addSphere(MeshDrawData& d, const glm::vec3& c, float r, const glm::vec3& color)
{
    constexpr int slices = 10, stacks = 6;
    const auto base = static_cast<unsigned>(d.vertices.size());
    for (int i = 0; i <= stacks; ++i) {
        const float t = 3.14159265f * float(i) / stacks;
        for (int j = 0; j <= slices; ++j) {
            const float p = 2.0f * 3.14159265f * float(j) / slices;
            const glm::vec3 n(std::sin(t) * std::cos(p), std::cos(t), std::sin(t) * std::sin(p));
            d.vertices.push_back({c + r * n, n, color});
        }
    }
    for (int i = 0; i < stacks; ++i)
        for (int j = 0; j < slices; ++j) {
            const unsigned a = base + unsigned(i * (slices + 1) + j), b = a + slices + 1;
            d.indices.insert(d.indices.end(), {a, a + 1, b, a + 1, b + 1, b});
        }
}

} // namespace

glm::vec3 nodeColor(int nodeType)
{
    switch (static_cast<NodeType>(nodeType)) {
    case NodeType::End: return {1.0f, 0.58f, 0.16f};
    case NodeType::Flow: return {0.32f, 0.78f, 0.86f};
    case NodeType::Connection: return {0.88f, 0.30f, 0.78f};
    }
    return {1, 1, 1};
}

glm::vec3 limbColor(int limb)
{
    static const glm::vec3 colors[] = {{1.0f, 0.85f, 0.2f}, {0.3f, 0.6f, 1.0f}, {1.0f, 0.35f, 0.35f},
                                       {0.35f, 0.9f, 0.45f}, {0.85f, 0.45f, 1.0f}};
    return colors[std::clamp(limb, 0, 4)];
}

RigDrawData makeRigDrawData(const Skeleton& skeleton, float scale, int selectedJoint, int hoveredJoint,
                            const std::vector<int>& warnedJoints)
{
    const glm::vec3 warnedColor(1.0f, 0.35f, 0.2f);
    RigDrawData out;
    out.pickRadius = scale * 1.4f;
    const glm::vec3 jointColor(0.95f, 0.95f, 0.9f), selectedColor(1.0f, 0.9f, 0.1f), boneColor(1.0f, 0.75f, 0.35f);
    const int n = skeleton.jointCount();
    auto at = [&](int j) {
        return glm::vec3(float(skeleton.bindPositions(j, 0)), float(skeleton.bindPositions(j, 1)),
                         float(skeleton.bindPositions(j, 2)));
    };
    // Each joint's sphere at most 0.3 of its shortest bone (to its parent or a
    // child), at least a quarter of `scale`: finger joints 2-3 mm apart at this
    // scale would otherwise be one white blob hiding the fingers.
    std::vector<float> radius(static_cast<size_t>(n), scale);
    for (int j = 0; j < n; ++j)
        if (const int p = skeleton.parents[static_cast<size_t>(j)]; p >= 0) {
            const float bone = glm::length(at(j) - at(p));
            if (bone <= 0.0f)
                continue;
            for (int k : {j, p})
                radius[static_cast<size_t>(k)] = std::min(radius[static_cast<size_t>(k)], std::max(0.3f * bone, 0.25f * scale));
        }
    for (int j = 0; j < n; ++j) {
        const glm::vec3 c = at(j);
        out.centers.push_back(c);
        const bool hot = j == selectedJoint || j == hoveredJoint;
        const bool warned = std::find(warnedJoints.begin(), warnedJoints.end(), j) != warnedJoints.end();
        const float r = radius[static_cast<size_t>(j)];
        addSphere(out.joints, c, hot ? 1.3f * r : (warned ? 1.15f * r : r),
                  j == selectedJoint   ? selectedColor
                  : j == hoveredJoint ? glm::vec3(0.6f, 1.0f, 1.0f)
                  : warned            ? warnedColor
                                      : jointColor);
        if (skeleton.parents[j] >= 0) {
            out.bones.push_back({out.centers[skeleton.parents[j]], boneColor});
            out.bones.push_back({c, boneColor});
        }
    }
    return out;
}

SkeletonDrawData makeSkeletonDrawData(const CurveSkeleton& s, float scale, const std::vector<glm::vec4>& endColors,
                                      int highlight)
{
    SkeletonDrawData out;
    out.pickRadius = scale * 1.2f;
    for (int i = 0; i < s.nodeCount(); ++i) {
        const glm::vec3 c(float(s.positions(i, 0)), float(s.positions(i, 1)), float(s.positions(i, 2)));
        out.centers.push_back(c);
        glm::vec3 color = nodeColor(static_cast<int>(s.types[i]));
        const bool relabelled = i < int(endColors.size()) && endColors[i].a >= 0.5f;
        if (relabelled)
            color = glm::vec3(endColors[i]);
        const float grow = i == highlight ? 1.5f : 1.0f;
        if (i == highlight)
            color = glm::mix(color, glm::vec3(1.0f), 0.5f);
        switch (s.types[i]) {
        case NodeType::End: addSphere(out.glyphs, c, grow * (relabelled ? 1.25f * scale : scale), color); break;
        case NodeType::Connection: addCube(out.glyphs, c, grow * 0.8f * scale, color); break;
        case NodeType::Flow: addCube(out.glyphs, c, grow * 0.35f * scale, color); break;
        }
    }
    const glm::vec3 linkColor(0.95f, 0.9f, 0.55f);
    for (const auto& e : s.edges) {
        out.links.push_back({out.centers[e[0]], linkColor});
        out.links.push_back({out.centers[e[1]], linkColor});
    }
    if (!out.centers.empty()) {
        out.glyphs.boundsMin = out.glyphs.boundsMax = out.centers[0];
        for (const auto& c : out.centers) {
            out.glyphs.boundsMin = glm::min(out.glyphs.boundsMin, c);
            out.glyphs.boundsMax = glm::max(out.glyphs.boundsMax, c);
        }
    }
    return out;
}

std::vector<VoxelPoint> makeVoxelPoints(const VoxelGrid& grid, bool interior)
{
    std::vector<VoxelPoint> pts;
    const glm::vec3 surface(0.55f, 0.78f, 1.0f), inside(0.95f, 0.66f, 0.25f);
    for (std::int64_t i = 0; i < grid.voxelCount(); ++i) {
        const auto st = grid.state(i);
        if (st == VoxelState::Empty || (st == VoxelState::Interior && !interior))
            continue;
        const Vec3 c = grid.center(grid.coord(i));
        pts.push_back({glm::vec3(float(c.x()), float(c.y()), float(c.z())), st == VoxelState::Surface ? surface : inside});
    }
    return pts;
}

} // namespace rig::ui
