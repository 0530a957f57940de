#pragma once
/// @file thinning.h
/// Curve thinning of a voxelized solid (thesis §2.1, "Sequential thinning
/// algorithm"): K. Palágyi, E. Sorantin, E. Balogh, A. Kuba, C. Halmai,
/// B. Erdőhelyi, K. Hausegger, "A sequential 3D thinning algorithm and its
/// medical applications", IPMI 2001 (thesis ref. [33]).
///
/// Each iteration runs six directional subiterations (up +y, down -y, north -z,
/// south +z, east +x, west -x). A subiteration collects the border voxels of its
/// direction (object voxels whose face neighbour in that direction is
/// background) that are simple and not end points, then deletes them one by one,
/// re-checking each just before its deletion (sequential, so the topology is
/// preserved even though several neighbours go in the same subiteration). The
/// process stops when an iteration deletes nothing: the result is a one voxel
/// thin curve skeleton with the topology (components, tunnels, cavities) of the
/// solid, in (26, 6) digital topology: the object is 26-connected, the background
/// 6-connected.

#include "core/common/progress.h"
#include "core/voxel/voxel_grid.h"

#include <cstdint>

namespace rig {

/// The 26-neighbourhood of a voxel as a bit mask: bit k is set when the
/// neighbour at `neighbourOffsets26()[k]` is solid. The centre is not included.
using Neighbourhood = std::uint32_t;

/// Neighbourhood of voxel `index` of `grid`. Expects an index at least one voxel
/// away from the grid's faces.
Neighbourhood neighbourhoodOf(const VoxelGrid& grid, std::int64_t index);

/// Simple point test in (26, 6) topology (Malandain and Bertrand's local
/// characterization): deleting the centre changes no topology iff
///   1. the solid voxels of the 26-neighbourhood form exactly one 26-connected
///      component, and
///   2. the background voxels of the 18-neighbourhood form exactly one
///      6-connected component among those 6-adjacent to the centre.
bool isSimplePoint(Neighbourhood n);

/// End point for curve thinning (Palágyi 2001): exactly one solid 26-neighbour.
bool isEndPoint(Neighbourhood n);

struct ThinningOptions {
    /// Stop after this many iterations (of six subiterations each); 0: until no
    /// voxel is deletable (the default, and the only setting that gives a curve).
    int maxIterations = 0;
};

struct ThinningResult {
    /// The curve skeleton: the surviving voxels keep their Surface / Interior
    /// state, all others are Empty. Same dims, origin and voxel size as the input.
    VoxelGrid skeleton;
    int iterations = 0;            ///< Iterations run (the last one deleted nothing, unless capped).
    std::int64_t deletedVoxels = 0;
    std::int64_t skeletonVoxels = 0;
};

/// Thins the solid (Surface and Interior voxels) of `solid` to a curve skeleton.
/// Visits only border voxels: a candidate list starts with the solid's border
/// and grows with the face neighbours of deleted voxels. O(#solid voxels *
/// iterations) in the worst case, about linear in practice.
///
/// Expects: an Empty outer layer (as `voxelizeSurface` / `fillInterior` give).
/// Throws rig::InvalidInput (naming `rig::thin()`) for an empty grid or a solid
/// voxel on the grid's outer layer.
/// Progress: step "thin", once per iteration; cancellable.
ThinningResult thin(const VoxelGrid& solid, const ThinningOptions& options = {}, const Progress& progress = {});

} // namespace rig
