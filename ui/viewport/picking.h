#pragma once
/// @file picking.h
/// Mouse picking by ray casting (plain GLM, testable without a GPU).

#include "core/common/types.h"
#include "ui/viewport/orbit_camera.h"

#include <optional>
#include <vector>

namespace rig::ui {

struct Ray {
    glm::vec3 origin;
    glm::vec3 direction; ///< Unit length.
};

/// The ray through a pixel (x right, y down, in logical pixels of a w x h view).
Ray rayThroughPixel(const OrbitCamera& camera, float x, float y, float w, float h);

/// Index of the nearest sphere (all of radius `radius`) the ray hits, if any.
std::optional<int> pickSphere(const Ray& ray, const std::vector<glm::vec3>& centers, float radius);

/// The vertex nearest to where the ray first hits the mesh (Möller & Trumbore
/// ray-triangle test over all triangles: O(#F), fine for hover on meshes of
/// some 100k triangles), if the ray hits it.
/// @param V #V by 3 positions. @param F #F by 3 indices into V.
std::optional<int> pickMeshVertex(const Ray& ray, const MatrixX3d& V, const MatrixX3i& F);

} // namespace rig::ui
