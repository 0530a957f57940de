#pragma once
/// @file segmentation_regions.h
/// Private to core/skin's segmentation: thesis Alg. 3.2.4, region growing
/// (step 1), the belonging test (step 2), region merge (step 3), with this
/// project's additions (seeds per part, caps kept on thicker ends, small
/// parts whole). `segmentMesh()` (segmentation.h) is the entry point.

#include "core/common/progress.h"
#include "core/mesh/mesh.h"
#include "core/skin/segmentation.h"
#include "core/skin/segmentation_rig.h"

#include <functional>
#include <vector>

namespace rig::segmenting {

/// Thesis Alg. 3.2.4 into `seg` (#V entries, -1 where unset): region growing,
/// the belonging test, `assignUnreached` for the vertices no region reached
/// (3.2.2 or 3.2.1, per vertex), region merge, small parts whole, then δ on
/// each vertex's final link.
void regionGrowSegmentation(const Mesh& mesh, const Rig& rig, const SegmentationOptions& options,
                            const Progress& progress,
                            const std::function<void(const std::vector<int>& unreached)>& assignUnreached,
                            Segmentation& seg);

} // namespace rig::segmenting
