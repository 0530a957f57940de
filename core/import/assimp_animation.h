#pragma once
/// @file assimp_animation.h
/// Private to core/import (mesh_import.cpp): the file's animations, read from
/// Assimp's scene (aiScene::mAnimations) and sampled for the imported
/// skeleton at the channels' key times (`ImportedAnimation`, mesh_import.h).

#include "core/import/mesh_import.h"

#include <assimp/scene.h>

#include <Eigen/Core>

#include <vector>

namespace rig {

/// An Assimp matrix as an Eigen one.
Eigen::Matrix4d toEigen(const aiMatrix4x4& m);

/// The scene graph flattened depth-first (parents before children).
struct NodeTable {
    std::vector<const aiNode*> nodes;
    std::vector<int> parent; ///< Index of each node's parent, -1 for the root.
};

/// Appends `node` and its subtree to `t` (depth-first), `parent` its parent index.
void flatten(const aiNode* node, int parent, NodeTable& t);

/// The scene's animations that move the joints at `jointNode` (indices into
/// `table`), sampled at their key times; see `ImportedAnimation`.
std::vector<ImportedAnimation> sampleAnimations(const aiScene* scene, const NodeTable& table,
                                                const std::vector<int>& jointNode, const Eigen::Matrix4d& fix,
                                                int maxFrames);

} // namespace rig
