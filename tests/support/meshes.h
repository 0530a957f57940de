#pragma once
/// @file meshes.h
/// Tiny procedural meshes for tests: closed, consistently oriented, +Y up.

#include "core/mesh/mesh.h"

namespace rig::test {

/// Axis-aligned box [min, max], 12 triangles, outward normals.
Mesh boxMesh(const Vec3& min, const Vec3& max);

/// Closed capsule along the segment a-b with the given radius.
/// `rings` latitude bands per hemisphere, `segments` around the axis.
Mesh capsuleMesh(const Vec3& a, const Vec3& b, double radius, int segments = 24, int rings = 8,
                 int bodyRings = 8);

/// Closed torus around +Y at the origin (major radius R, minor radius r).
Mesh torusMesh(double R, double r, int segments = 48, int sides = 16);

/// Concatenates meshes (parts keep separate part ids, no welding).
Mesh concat(const std::vector<Mesh>& meshes);

} // namespace rig::test
