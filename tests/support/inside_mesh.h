#pragma once
/// @file inside_mesh.h
/// Point-in-mesh by ray parity (Möller–Trumbore crossings), the tests' check
/// that joints and skeleton nodes lie inside a closed mesh.

#include "core/mesh/mesh.h"

namespace rig::test {

/// Number of triangles a ray from `origin` along `dir` crosses.
int rayCrossings(const Mesh& mesh, const Vec3& origin, const Vec3& dir);

/// Inside by ray parity, agreed on by two of three skew directions (robust to
/// a ray grazing an edge or a vertex).
bool insideMesh(const Mesh& mesh, const Vec3& p);

} // namespace rig::test
