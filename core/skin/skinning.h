#pragma once
/// @file skinning.h
/// The skinning stage as one call (the facade the project, the UI and the CLI
/// use): segmentation (thesis Ch. 3; always computed, since the twist-corrected
/// deformer of thesis §4.4 needs it whatever the weights), then the weights of
/// the chosen method (the table of weight_methods.h),
/// then the separate pieces that lie along one bone bound to it alone
/// (rigid_pieces.h), then diagnostics that report problems instead of hiding
/// them: vertices no bone reached, parts bound rigidly, and weight bleeding
/// between limbs.
///
/// Weight bleeding. The skeleton is split into a trunk and limbs
/// (`jointLimbs()`, limbs.h: for a humanoid the legs, the arms and the
/// neck/head). A vertex belongs to the limb of its most influential joint; it
/// bleeds when that joint is on a limb and the vertex carries a weight >=
/// `WeightDiagnostics::bleedThreshold` (0.05) on a joint of another limb (left
/// leg into right leg, arm into thigh): it would be dragged by a limb it does
/// not belong to. Vertices of the trunk may blend into every limb (the pelvis
/// into both thighs, the chest into both shoulders).
///
/// Far reach. Within one limb, or from the trunk, weight can still reach too
/// far: the hips' heat reaching the knees or the shoulders. A vertex is
/// reached from afar by joint k when it carries a weight >= bleedThreshold on
/// k and k's bones (bone_segments.h, leaves continued by half their parent
/// link) are farther from the vertex than the bones of its most influential
/// joint by more than `WeightDiagnostics::farReachFraction` (0.15) of the
/// character's size (the largest side of the mesh's bounding box).
///
/// Bones that move nothing. A joint on which no vertex carries a weight >=
/// bleedThreshold moves no part of the mesh when it turns (a shoulder whose
/// region went to the chest, an attachment or end joint): listed by name.

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

/// One joint whose weight reaches vertices far from its bones (see "Far reach").
struct FarReach {
    int joint = -1;                 ///< The joint reaching too far.
    int vertices = 0;               ///< Vertices it reaches from afar.
    double farthest = 0.0;          ///< Largest excess distance (beyond the vertex's own bone), world units.
    std::vector<int> around;        ///< The main joints of those vertices, most frequent first (at most 3).
};

/// What went wrong, or might have: shown to the artist, written to reports.
struct WeightDiagnostics {
    /// The weight at and above which a joint counts as influencing a vertex for the bleeding test.
    static constexpr double bleedThreshold = 0.05;
    int unreachedVertices = 0;          ///< Vertices no bone reached (bound to their nearest bone).
    std::vector<RigidPart> rigidParts;  ///< Parts bound rigidly to one bone.
    /// Weight that reaches further than this fraction of the character's size
    /// beyond the vertex's own bone is reported (see "Far reach" above).
    static constexpr double farReachFraction = 0.15;
    int bleedingVertices = 0;           ///< Vertices of one limb weighted by another (see the file comment).
    /// Per joint whose weight reaches far (see the file comment), largest count first.
    std::vector<FarReach> farReach;
    int farReachingVertices = 0;        ///< Vertices reached from afar by at least one joint.
    std::vector<int> bonesWithoutVertices; ///< Joints no vertex carries a weight >= bleedThreshold on, ascending.
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
/// @param deforming #J joints that may get weight (deform_joints.h; empty: all):
///        the methods with bones leave the others' out (bone_segments.h,
///        `boneSegments()`); weights on them are the caller's to move
///        (`restrictToDeformJoints()`, for the methods without bones).
SkinningResult computeSkinning(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                               const WeightOptions& options = {}, const Progress& progress = {},
                               const std::vector<bool>& deforming = {});

/// Counts the bleeding vertices of `weights` (see the file comment).
/// Expects weights valid for the skeleton.
int countBleedingVertices(const SkinWeights& weights, const Skeleton& skeleton,
                          double threshold = WeightDiagnostics::bleedThreshold);

/// The joints whose weight reaches far from their bones in `weights` (see
/// "Far reach" in the file comment), largest vertex count first, and the
/// number of vertices reached from afar (`reachedVertices`, may be null).
/// @param size the character's size: the excess distance is compared with `fraction` * size.
std::vector<FarReach> farReachingJoints(const SkinWeights& weights, const MatrixX3d& V, const Skeleton& skeleton,
                                        double size, int* reachedVertices = nullptr,
                                        double fraction = WeightDiagnostics::farReachFraction,
                                        double threshold = WeightDiagnostics::bleedThreshold);

/// The joints no vertex carries a weight >= `threshold` on, ascending.
std::vector<int> bonesWithoutVertices(const SkinWeights& weights, int jointCount,
                                      double threshold = WeightDiagnostics::bleedThreshold);

/// "3.2.1" → NearestLink, "3.2.2" → LineOfSight, "3.2.4" → RegionGrow.
/// @throws rig::InvalidInput listing the valid names.
SegmentationMethod parseSegmentationMethod(std::string_view name);
/// "3.2.1", "3.2.2" or "3.2.4".
std::string_view segmentationMethodName(SegmentationMethod method);

} // namespace rig
