#pragma once
/// @file draw_data.h
/// "What to draw", computed from engine results in plain C++ (no Qt, no GL),
/// so tests reach it without a GPU. The renderer uploads these arrays as they are.

#include "core/import/mesh_import.h"
#include "core/mesh/mesh.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace rig::ui {

/// Interleaved vertex stream of a mesh: position, normal, colour.
struct MeshVertex {
    glm::vec3 position;
    glm::vec3 normal;
    glm::vec3 color;
};

/// Triangles drawn with one material: indices [firstIndex, firstIndex + indexCount).
struct MeshDrawRange {
    int firstIndex = 0;
    int indexCount = 0;
    int image = -1; ///< Index into MeshDrawData::images of its base-colour image, -1 for none.
};

struct MeshDrawData {
    std::vector<MeshVertex> vertices;
    std::vector<unsigned> indices; ///< 3 per triangle.
    /// Textured meshes only (the file's own meshes): one UV per vertex (v up),
    /// the ranges per material and their encoded base-colour images.
    std::vector<glm::vec2> uv;
    std::vector<MeshDrawRange> ranges;
    std::vector<const std::vector<std::uint8_t>*> images; ///< Owned by the SourceAsset drawn.
    glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};
    /// Closed, consistently and outward oriented: back faces can never be seen
    /// from outside, so the renderer may cull them (half the rasterizer work).
    /// Open meshes are drawn two-sided so holes show their inside.
    bool closedOutward = false;
    /// A coarse stand-in's vertices only (`simplifyForInteraction()`): the
    /// vertex of the full mesh each one is skinned as, the member of its
    /// cluster nearest the cluster's centre. Empty for a full mesh.
    std::vector<unsigned> sourceVertex;
};

/// The tint group of each part (`Mesh::part` ids): parts joined by a triangle
/// (one surface the file split into meshes, e.g. the two mirrored halves of
/// HUMAN.blend) share a group; separate pieces (eyes, clothes) get their own.
std::vector<int> partGroups(const Mesh& mesh);

/// The base skin colour, with a slight tint per part group (`partGroups()`) so
/// separate pieces read apart while one surface is shaded in one tone.
/// Triangles keep the mesh's order: for the polygonized and imported meshes it
/// is spatially coherent, which Mesa's llvmpipe shades fastest (measured: a
/// vertex-cache-optimized order (Forsyth 2006) was 2.2 times slower there).
MeshDrawData makeMeshDrawData(const Mesh& mesh);

/// The file's own meshes of `character` (its SourceAsset, unwelded) as drawn
/// with textures: positions and normals as the file has them, colour the
/// material's base colour, the first UV set, a range per source mesh with its
/// base-colour image. `welded` gets each drawn vertex's welded twin (to carry
/// skin influences and vertex colours over). Empty when the character has no
/// source meshes. The images point into `character`, which must outlive the data.
MeshDrawData makeSourceDrawData(const ImportedCharacter& character, std::vector<int>& welded);

/// A coarse stand-in of a dense mesh drawn while the camera moves (the
/// "interactive level of detail" of VTK's vtkLODActor and ParaView): vertex
/// clustering on a uniform grid (Rossignac & Borrel 1993). Vertices in one cell
/// merge into their mean; triangles that collapse are dropped. The grid is
/// chosen so that about `targetTriangles` remain. Returns `data` unchanged when
/// it already has no more triangles than that.
MeshDrawData simplifyForInteraction(const MeshDrawData& data, int targetTriangles);

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
