#pragma once
/// @file extract.h
/// The whole curve-skeleton stage (thesis §2.1-§2.3): mesh -> surface voxels ->
/// filled solid -> thinned curve -> geometric skeleton -> refined skeleton. This
/// is what `RigProject`, the UI and `rigsmith skeleton` call.

#include "core/common/progress.h"
#include "core/common/timing.h"
#include "core/mesh/mesh.h"
#include "core/skeleton/curve_skeleton.h"
#include "core/skeleton/refine.h"
#include "core/voxel/fill.h"
#include "core/voxel/thinning.h"
#include "core/voxel/voxelize.h"

#include <cstdint>

namespace rig {

struct CurveSkeletonOptions {
    VoxelizeOptions voxelize; ///< resolution n = 155 voxels on the longest axis (thesis §5.1).
    FillOptions fill;         ///< robust inside test for meshes with holes: on.
    ThinningOptions thinning; ///< thin until nothing is deletable.
    RefineOptions refine;     ///< spur length 1.5 radii, loops broken, window 2.
};

struct CurveSkeletonResult {
    /// The filled solid: Surface and Interior voxels (for display and for the
    /// later stages that need the volume). `solid.indicesOf(VoxelState::Surface)`
    /// gives the voxels to draw; `solid.center()` their positions.
    VoxelGrid solid;
    /// The thinned voxels (same grid; the survivors keep their state).
    VoxelGrid thinned;
    CurveSkeleton raw;     ///< Geometric skeleton before refinement: one node per thinned voxel.
    CurveSkeleton refined; ///< After refinement: collapsed junctions, no spurs, no loops, smoothed.
    RefineReport refineReport;

    std::int64_t surfaceVoxels = 0;
    std::int64_t interiorVoxels = 0;
    std::int64_t bridgedVoxels = 0; ///< Interior voxels recovered by the robust inside test.
    int bridgedGaps = 0;            ///< Holes in the surface the fill had to bridge.
    bool watertight = false;        ///< The mesh had no holes.
    int thinningIterations = 0;
    std::int64_t skeletonVoxels = 0;
    /// Wall-clock seconds of the steps, in order: voxelize, fill, thin, graph, refine.
    StageTimings timings;
};

/// Extracts the curve skeleton of `mesh`.
///
/// Expects: a non-empty triangle mesh, ideally closed; holes are bridged by the
/// robust inside test, separate parts are united.
/// Throws rig::InvalidInput from `voxelizeSurface` (empty mesh, resolution
/// outside [16, 1024], non-finite coordinates), rig::Cancelled when the
/// progress's cancel flag is set.
/// Progress: steps "voxelize", "fill", "thin", "graph", each from 0 to 1.
CurveSkeletonResult extractCurveSkeleton(const Mesh& mesh, const CurveSkeletonOptions& options = {},
                                         const Progress& progress = {});

} // namespace rig
