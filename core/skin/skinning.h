#pragma once
/// @file skinning.h
/// The skinning stage as one call (the facade the project, the UI and the CLI
/// use): segmentation (thesis Ch. 3; always computed, since the twist-corrected
/// deformer of thesis §4.4 needs it whatever the weights), then the weights of
/// the chosen method (the table of weight_methods.h),
/// then diagnostics that report problems instead of hiding them: vertices no
/// bone reached, parts bound rigidly, and weight bleeding between limbs.
///
/// Weight bleeding. The skeleton is split into a trunk and limbs
/// (`jointLimbs()`, limbs.h: for a humanoid the legs, the arms and the
/// neck/head). A vertex belongs to the limb of its most influential joint; it
/// bleeds when that joint is on a limb and the vertex carries a weight >=
/// `WeightDiagnostics::bleedThreshold` (0.05) on a joint of another limb (left
/// leg into right leg, arm into thigh): it would be dragged by a limb it does
/// not belong to. Vertices of the trunk may blend into every limb (the pelvis
/// into both thighs, the chest into both shoulders).

#include "core/common/progress.h"
#include "core/common/timing.h"
#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/limbs.h"
#include "core/skin/segmentation.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"
#include "core/skin/weight_methods.h"
#include "core/voxel/voxel_grid.h"

#include <string>
#include <string_view>
#include <vector>

namespace rig {

/// What went wrong, or might have: shown to the artist, written to reports.
struct WeightDiagnostics {
    /// The weight at and above which a joint counts as influencing a vertex for the bleeding test.
    static constexpr double bleedThreshold = 0.05;
    int unreachedVertices = 0;          ///< Vertices no bone reached (bound to their nearest bone).
    std::vector<RigidPart> rigidParts;  ///< Parts bound rigidly to one bone.
    int bleedingVertices = 0;           ///< Vertices of one limb weighted by another (see the file comment).
    std::vector<std::string> messages;  ///< Human-readable lines, one per finding ("ok" lines omitted).
};

struct SkinningResult {
    Segmentation segmentation; ///< Per vertex: bone (child joint of its link) and δ.
    SkinWeights weights;       ///< The weights of the chosen method.
    WeightDiagnostics diagnostics;
    StageTimings timings;      ///< Wall-clock seconds of "segment", "weights" and "diagnostics".
};

/// Segments `mesh`, computes the weights with the method `options.method` of
/// the table (weight_methods.h) and the diagnostics.
/// @param solid the filled voxel solid (`CurveSkeletonResult::solid`): needed by
///        SegmentationMethod::LineOfSight, used by heat for visibility; may be null.
/// @throws rig::InvalidInput for an unknown method or parameters out of range
///         (`checkWeightOptions()`), and from the segmentation or the weights
///         (empty mesh, invalid skeleton, LineOfSight without a solid).
/// @throws rig::Cancelled when `progress` asks to stop.
/// Progress: the steps of `segmentMesh()` and of the weight method.
SkinningResult computeSkinning(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                               const WeightOptions& options = {}, const Progress& progress = {});

/// Counts the bleeding vertices of `weights` (see the file comment).
/// Expects weights valid for the skeleton.
int countBleedingVertices(const SkinWeights& weights, const Skeleton& skeleton,
                          double threshold = WeightDiagnostics::bleedThreshold);


/// "3.2.1" → NearestLink, "3.2.2" → LineOfSight, "3.2.4" → RegionGrow.
/// @throws rig::InvalidInput listing the valid names.
SegmentationMethod parseSegmentationMethod(std::string_view name);
/// "3.2.1", "3.2.2" or "3.2.4".
std::string_view segmentationMethodName(SegmentationMethod method);

} // namespace rig
