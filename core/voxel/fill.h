#pragma once
/// @file fill.h
/// Interior filling of a surface voxelization (thesis §2.1, step 2): a 3D flood
/// fill from outside the solid marks the outside; what it does not reach is
/// Interior. Because real characters are rarely watertight (open necks, eye
/// sockets, clothing shells), an optional robust inside test stops a hole from
/// emptying the interior: each voxel the flood reaches gets six votes, the
/// winding numbers of its centre along the six axis-parallel half-rays (the
/// generalized winding number restricted to rays, with signed crossings, so that
/// overlapping and nested closed parts form a union of solids); a majority of
/// inside votes (4 of 6) makes it Interior. A ray through a hole has a non-zero
/// total crossing count, so only the half-ray on one side of the hole is wrong,
/// and the other axes outvote it.

#include "core/common/progress.h"
#include "core/mesh/mesh.h"
#include "core/voxel/voxel_grid.h"

#include <cstdint>
#include <optional>

namespace rig {

struct FillOptions {
    /// Vote along axis-parallel rays for the voxels the flood fill reaches when the
    /// mesh is not watertight. Off: plain flood fill (a hole empties the part).
    bool robustInside = true;
    /// The mesh's edges close it (`MeshStats::watertight`), when the caller
    /// has it already; else the fill reads the edges itself (`edgeTopology()`,
    /// a sort per vertex: 3 ms at 154k vertices, the second time on load).
    std::optional<bool> watertight;
};

struct FillResult {
    VoxelGrid grid;                   ///< The input's Surface voxels plus Interior voxels.
    std::int64_t surfaceVoxels = 0;   ///< Surface voxels (unchanged from the input).
    std::int64_t interiorVoxels = 0;  ///< Interior voxels, bridged ones included.
    /// Voxels the plain flood fill reached (through holes) but that the inside
    /// test, or the closing of enclosed cavities after it, put back inside.
    std::int64_t bridgedVoxels = 0;
    /// Number of gaps bridged: 26-connected groups of bridged voxels that touch
    /// the outside, i.e. roughly the number of holes in the surface that the
    /// fill had to close. 0 for a watertight mesh.
    int bridgedGaps = 0;
    bool watertight = false;          ///< The mesh had no boundary or non-manifold edge.
};

/// Fills the interior of a surface voxelization of `mesh` (`voxelizeSurface`
/// with the same mesh). Enclosed empty cavities (e.g. between a separate
/// eyeball and the head) become Interior, so several parts make a union of
/// solids.
///
/// Expects: `surface` from `voxelizeSurface(mesh, ...)`: only Empty and Surface
/// voxels, an Empty outer layer.
/// Throws rig::InvalidInput (naming `rig::fillInterior()`) for an empty grid or
/// one whose outer layer is not empty.
/// Progress: step "fill"; cancellable.
FillResult fillInterior(const VoxelGrid& surface, const Mesh& mesh, const FillOptions& options = {},
                        const Progress& progress = {});

} // namespace rig
