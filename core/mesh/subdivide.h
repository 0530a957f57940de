#pragma once
/// @file subdivide.h
/// Linear (flat) subdivision of a triangle mesh: each edge cut into k equal
/// pieces and each triangle into k² triangles lying in it, so the surface and
/// its shape do not change, only the vertex count (about k² times). The
/// pipeline bench (issue 20, bench/pipeline_bench.cpp) makes its 4k-154k
/// vertex meshes from HUMAN.blend this way, as the Pinocchio comparison did.

#include "core/mesh/mesh.h"

namespace rig {

/// `mesh` with every edge split into `k` pieces (k >= 1; k = 1 returns a copy).
/// A closed mesh of V vertices, E edges and F triangles gets
/// V + (k - 1) E + (k - 1)(k - 2) / 2 F vertices and k² F triangles; an edge
/// shared by two triangles gets its new vertices once. Part ids carry over
/// (a new vertex takes the part of the triangle or edge's first corner);
/// normals are left empty.
/// @throws rig::InvalidInput when k < 1.
Mesh subdivideLinear(const Mesh& mesh, int k);

} // namespace rig
