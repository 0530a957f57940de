#pragma once
/// @file draw_data.h
/// "What to draw", computed from engine results in plain C++ (no Qt, no GL),
/// so tests reach it without a GPU. The renderer uploads these arrays as they are.

#include "core/mesh/mesh.h"

#include <glm/glm.hpp>

#include <vector>

namespace rig::ui {

/// Interleaved vertex stream of a mesh: position, normal, colour.
struct MeshVertex {
    glm::vec3 position;
    glm::vec3 normal;
    glm::vec3 color;
};

struct MeshDrawData {
    std::vector<MeshVertex> vertices;
    std::vector<unsigned> indices; ///< 3 per triangle.
    glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};
    /// Closed, consistently and outward oriented: back faces can never be seen
    /// from outside, so the renderer may cull them (half the rasterizer work).
    /// Open meshes are drawn two-sided so holes show their inside.
    bool closedOutward = false;
};

/// The base skin colour, with a slight tint per part so separate parts read apart.
MeshDrawData makeMeshDrawData(const Mesh& mesh);

/// Line segments (pairs of points) with a colour each.
struct LineVertex {
    glm::vec3 position;
    glm::vec3 color;
};

/// A ground grid on y = 0 around the origin, with `halfCells` cells each side of
/// size `cell`, and the X (red) and Z (blue) axes.
std::vector<LineVertex> makeGridLines(float cell, int halfCells);

/// A grid cell size (1, 2 or 5 times a power of ten) suited to a model of this size.
float niceGridCell(float modelSize);

} // namespace rig::ui
