#include "core/skeleton/extract.h"

#include "core/skeleton/contacts.h"
#include "core/voxel/distance_transform.h"

namespace rig {

CurveSkeletonResult extractCurveSkeleton(const Mesh& mesh, const CurveSkeletonOptions& options,
                                         const Progress& progress)
{
    CurveSkeletonResult r;
    StageClock clock(r.timings);

    VoxelGrid surface = voxelizeSurface(mesh, options.voxelize, progress);
    clock.lap("voxelize");

    FillResult filled = fillInterior(surface, mesh, options.fill, progress);
    surface = {}; // release before thinning
    r.solid = std::move(filled.grid);
    r.surfaceVoxels = filled.surfaceVoxels;
    r.interiorVoxels = filled.interiorVoxels;
    r.bridgedVoxels = filled.bridgedVoxels;
    r.bridgedGaps = filled.bridgedGaps;
    r.watertight = filled.watertight;
    clock.lap("fill");

    ThinningResult thinned = thin(r.solid, options.thinning, progress);
    r.thinned = std::move(thinned.skeleton);
    r.thinningIterations = thinned.iterations;
    r.skeletonVoxels = thinned.skeletonVoxels;
    clock.lap("thin");

    r.raw = buildCurveSkeleton(r.thinned, distanceToEmpty(r.solid, r.thinned), progress);
    clock.lap("graph");

    // Loops through a contact (a hand resting on a thigh) are cut at the contact.
    RefinedSkeleton refined = refineCurveSkeleton(r.raw, options.refine, contactNodes(r.raw, mesh, r.solid.voxelSize));
    r.refined = std::move(refined.skeleton);
    r.refineReport = refined.report;
    clock.lap("refine");
    return r;
}

} // namespace rig
