#pragma once
/// @file source_mesh.h
/// The artist's asset as the file has it, kept beside the welded mesh the
/// pipeline works on (core/import/mesh_import.h), so that the export can write the
/// character back with its own vertices, UVs, materials and textures.
///
/// Import welds coincident positions into one `Mesh` (voxels, skeleton and
/// weights need a connected surface), which loses UV seams and hard normal
/// edges. A `SourceMesh` is one of the file's meshes unwelded: its vertices in
/// the file's order, every attribute the file gives them, its material, and
/// `welded`, the map from each of its vertices to its welded twin, through
/// which anything computed on the welded mesh (skin weights) is carried back.
///
/// Positions, normals and tangents are in the welded mesh's frame (node
/// transforms applied, +Y up), i.e. the rig's bind space; UVs follow Assimp's
/// (OpenGL's) convention: v = 0 at the bottom of the image.

#include "core/common/types.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace rig {

/// An image a material uses, as bytes (PNG, JPEG, ... as stored).
struct SourceTexture {
    std::string name;               ///< The file's name for it: a path as written in the file, or "*N" when embedded.
    std::string mimeType;           ///< "image/png", "image/jpeg", ...; empty when unknown.
    std::vector<std::uint8_t> bytes;///< The encoded image; empty when it could not be read (see SourceAsset::warnings).
    bool embedded = false;          ///< True when the file holds the image itself (a glb, an FBX with media).
};

/// A material's use of a texture.
struct SourceTextureRef {
    int texture = -1;    ///< Index into SourceAsset::textures, -1 for none.
    int uvSet = 0;       ///< Which of the mesh's UV sets it samples.
    double scale = 1.0;  ///< Normal map scale / occlusion strength (glTF); 1 elsewhere.
};

enum class SourceAlphaMode { Opaque, Mask, Blend };

/// A material in glTF's metallic-roughness terms, from Assimp's PBR properties
/// where the file has them (glTF, FBX with PBR) and from the legacy ones
/// (diffuse colour, opacity, diffuse map) otherwise.
struct SourceMaterial {
    std::string name;
    Eigen::Vector4d baseColor{1, 1, 1, 1}; ///< Linear RGBA factor (multiplies the base-colour texture).
    double metallic = 0.0;                 ///< 0 for legacy materials (they describe dielectrics).
    double roughness = 1.0;
    Eigen::Vector3d emissive{0, 0, 0};
    SourceAlphaMode alphaMode = SourceAlphaMode::Opaque;
    double alphaCutoff = 0.5;              ///< Used with SourceAlphaMode::Mask.
    bool doubleSided = false;
    SourceTextureRef baseColorTexture, metallicRoughnessTexture, normalTexture, occlusionTexture, emissiveTexture;
};

/// One of the file's meshes as the file has it (Assimp splits a mesh with
/// several materials into one mesh per material; `node` groups them again).
struct SourceMesh {
    std::string name;                 ///< The mesh's name in the file ("part N" when it has none).
    std::string nodeName;             ///< The name of the node that places it.
    int node = -1;                    ///< Index of that node in the file's scene graph (depth-first); meshes of one node share it.
    MatrixX3d V;                      ///< #v by 3 positions, in the file's vertex order.
    MatrixX3i F;                      ///< #f by 3 triangles, indices into V.
    MatrixX3d N;                      ///< #v by 3 unit normals, or 0 rows when the file has none.
    std::vector<Eigen::MatrixX2d> uv; ///< Per UV set: #v by 2 texture coordinates (v up).
    std::vector<Eigen::MatrixX4d> colors; ///< Per colour set: #v by 4 RGBA in [0, 1].
    Eigen::MatrixX4d tangents;        ///< #v by 4 (unit xyz, w = ±1 the bitangent sign), or 0 rows.
    int material = -1;                ///< Index into SourceAsset::materials, -1 for none.
    std::vector<int> welded;          ///< #v: the welded vertex (ImportedCharacter::mesh) of each vertex.

    int vertexCount() const { return static_cast<int>(V.rows()); }
};

/// Everything of the file that the export writes back.
struct SourceAsset {
    std::vector<SourceMesh> meshes;       ///< In file order (the order of ImportInfo::weldMap).
    std::vector<SourceMaterial> materials;
    std::vector<SourceTexture> textures;
    std::vector<std::string> warnings;    ///< What could not be kept (a missing texture file), naming it.

    bool empty() const { return meshes.empty(); }
};

/// A part of a loaded character, as the GUI lists it.
struct CharacterPart {
    std::string name;       ///< The source mesh's name (its node's name when the mesh has none).
    int sourceMesh = -1;    ///< Index into SourceAsset::meshes, -1 for a character without source data.
    int vertices = 0;       ///< Source vertices (welded vertices without source data).
    int triangles = 0;
    int components = 0;     ///< Connected pieces of the welded surface it covers.
    std::string material;   ///< Its material's name, empty for none.
};

} // namespace rig
