#pragma once
/// @file assimp_source.h
/// Private to core/import (mesh_import.cpp): the parts of a `SourceAsset`
/// (core/import/source_mesh.h) read from Assimp's scene: materials, the textures
/// they use (embedded ones as stored, external ones read from disk), and each
/// mesh's per-vertex attributes.

#include "core/import/source_mesh.h"

#include <assimp/scene.h>

#include <Eigen/Core>

#include <string>
#include <vector>

namespace rig {

/// Reads every material of `scene` into `out.materials` (same order as
/// aiScene::mMaterials) and the textures they use into `out.textures` (each
/// image once). External images are looked up relative to `modelPath`'s folder
/// (also by file name alone, and ignoring case, as artists' exports often
/// carry a path of the machine they were made on); one that cannot be read
/// is kept without bytes and named in `out.warnings`.
void readSourceMaterials(const aiScene* scene, const std::string& modelPath, SourceAsset& out);

/// The attributes of one Assimp mesh as a `SourceMesh`, for the file vertices
/// `vertexOfSource` (#v indices into the aiMesh's vertices): UV sets, colour
/// sets and tangents (transformed by `linear`, the mesh-to-bind-space linear
/// map, and signed against `normals`). Positions, normals, triangles, names
/// and the weld map are filled by the caller.
void readSourceAttributes(const aiMesh* mesh, const std::vector<int>& vertexOfSource, const Eigen::Matrix3d& linear,
                          SourceMesh& out);

/// The file vertices of `mesh`: Assimp hands some formats' meshes over with
/// one vertex per face corner (OBJ, FBX, Collada, 3DS); there, corners equal
/// in every attribute (position, normal, tangents, UVs, colours, bone
/// weights) are one vertex, as Assimp's JoinIdenticalVertices makes them, in
/// order of first appearance. Meshes that index their vertices (glTF, IQM,
/// MD5, .X: fewer than 1.5 vertices per triangle) are kept exactly as stored.
/// @return #v indices into the aiMesh's vertices; `sourceOfVertex` gets, for
///         each aiMesh vertex, its index in the result.
std::vector<int> fileVertices(const aiMesh* mesh, std::vector<int>& sourceOfVertex);

} // namespace rig
