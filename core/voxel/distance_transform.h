#pragma once
/// @file distance_transform.h
/// Exact Euclidean distance transform of a voxel grid: P. Felzenszwalb and
/// D. Huttenlocher, "Distance Transforms of Sampled Functions", Theory of
/// Computing 8, 2012 (separable lower envelope of parabolas, linear time). Gives
/// the local radius of the skeleton nodes (thesis §2.3).

#include "core/voxel/voxel_grid.h"

#include <vector>

namespace rig {

/// Distance, in voxels, from each voxel centre to the nearest Empty voxel centre:
/// grid.voxelCount() floats, same indexing as `grid.states`; 0 for Empty
/// voxels, 1 for a solid voxel face-adjacent to the background. The distance
/// from a solid voxel's centre to the surface is about (value - 0.5) * voxelSize.
/// Expects a grid with at least one Empty voxel (the outer layer is). O(#voxels).
std::vector<float> distanceToEmpty(const VoxelGrid& grid);

} // namespace rig
