#pragma once
/// @file voxelize.h
/// Surface voxelization of a triangle mesh (thesis §2.1, step 1): every voxel
/// that a triangle overlaps becomes a Surface voxel. Overlap is exact
/// (Akenine-Möller separating axes, `triangle_box.h`), not point sampling, so
/// the surface voxels of a closed mesh separate its inside from its outside
/// (6-separating), which is what the flood fill of `fill.h` relies on.

#include "core/common/progress.h"
#include "core/mesh/mesh.h"
#include "core/voxel/voxel_grid.h"

namespace rig {

struct VoxelizeOptions {
    /// Number of voxels along the longest axis of the mesh's bounding box (n in
    /// thesis §5.1 and §6.1). Voxel size = longest extent / n. Valid range [16, 1024].
    int resolution = 155;
    /// Empty voxels added around the bounding box on each side (at least 1, so
    /// the flood fill can walk around the solid and every solid voxel has 26
    /// neighbours inside the grid).
    int padding = 2;
};

/// The smallest/largest accepted `VoxelizeOptions::resolution`.
inline constexpr int kMinVoxelResolution = 16;
inline constexpr int kMaxVoxelResolution = 1024;

/// Grid placement for a mesh: voxel size = longest extent / resolution, the box
/// centred in a grid of ceil(extent / size) + 2 * padding voxels per axis, all
/// voxels Empty. Expects a non-empty box and valid options (not checked here).
VoxelGrid makeVoxelGrid(const Box3& box, const VoxelizeOptions& options);

/// Marks as Surface every voxel overlapped by a triangle of `mesh` (all other
/// voxels Empty). O(#F * voxels per triangle).
///
/// Expects: a mesh with at least one triangle, finite coordinates, valid
/// indices, a bounding box of non-zero size.
/// Throws rig::InvalidInput (message names `rig::voxelizeSurface()`) for an
/// empty mesh, non-finite coordinates, out-of-range indices, a degenerate
/// bounding box, or a resolution outside [16, 1024].
/// Progress: step "voxelize", every few percent of the triangles; cancellable.
VoxelGrid voxelizeSurface(const Mesh& mesh, const VoxelizeOptions& options = {}, const Progress& progress = {});

} // namespace rig
