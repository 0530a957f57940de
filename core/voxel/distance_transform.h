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

/// The same distances, computed only at the solid voxels of `at` (a grid of
/// the same dims: the thinned skeleton, whose nodes are all that need a
/// radius), 0 elsewhere; equal to `distanceToEmpty(grid)` there, bit for bit.
/// Per row along x the distance to its nearest Empty voxel, then per queried
/// voxel the rows around it in rings of growing radius until no nearer Empty
/// voxel can remain (d² = dy² + dz² + row distance²). O(#voxels) for the rows
/// plus O(Σ d²) for the queries: on a character at n = 155 a few hundred
/// skeleton voxels against the transform's three passes over the whole box.
/// Expects a grid with at least one Empty voxel in the rows a query needs
/// (the outer layer is Empty).
/// @throws rig::InvalidInput when the two grids' dims differ.
std::vector<float> distanceToEmpty(const VoxelGrid& grid, const VoxelGrid& at);

} // namespace rig
