#pragma once
/// @file deform_quality.h
/// How well a deformer keeps a real character's skin intact in the poses that
/// break skinning (issue 16 item 3): elbows and knees bent 120°, shoulders
/// and hips raised 90°, forearms and wrists twisted ±90° and ±180°.
///
/// Per deformer and pose it counts
///  - stretched triangles: an edge longer than `stretchLimit` × its rest length;
///  - flipped triangles: the posed normal points against the rest normal
///    carried by the skin's own local rotation there (per corner, the rotation
///    that best fits its one-ring, rest to posed: Kabsch; summed over the
///    three corners), i.e. the triangle turned over against its
///    neighbourhood: a fold. (First definition, `flipAgainstBone`: against
///    the rotation of the first vertex's largest-weight bone; that also counts
///    skin a twist deformer turns correctly about the bone by more than 90°,
///    e.g. the wrist end of a forearm under a 180° hand twist.)
///  - the largest edge stretch;
///  - the volume change of each limb segment: the signed volume of the cone
///    from the segment's bone midpoint to the skin the segmentation gives that
///    bone (divergence theorem), rest against posed with the midpoint moved by
///    the bone, so a rigid motion changes nothing; the largest relative change;
///  - self-intersecting triangle pairs near the posed joint (triangles not
///    sharing a vertex, edge-against-triangle tests on a uniform grid), the
///    posed count less the rest mesh's own (props, clothes may touch at rest).
/// Folds, candy wrappers and the twist deformer's shoulder spikes show in
/// these counts; the bar experiment (bar_experiment.h) measures one bar only.

#include "core/deform/deformers.h"
#include "core/mesh/mesh.h"
#include "core/rig/pose.h"
#include "core/rig/skeleton.h"

#include <string>
#include <vector>

namespace rig {

/// A test pose: one joint rotated.
struct DeformTestPose {
    std::string name; ///< "LeftForeArm bend 120", "LeftHand twist -180".
    int joint = -1;   ///< The rotated joint (self-intersections are looked for around it).
    Pose pose;
};

/// The test poses of a rig with the humanoid template's names (LeftArm,
/// LeftForeArm, LeftHand, LeftUpLeg, LeftLeg, and Right…): elbows bent 120°
/// forward, knees 120° backward, upper arms raised 90°, thighs raised 90°
/// forward, forearms and hands twisted ±90° and ±180° about their parent
/// bone. Joints the rig lacks are skipped. `front` is the character's facing.
std::vector<DeformTestPose> deformTestPoses(const Skeleton& skeleton, const Vec3& front);

struct DeformQualityOptions {
    double stretchLimit = 2.0;    ///< An edge beyond this × its rest length counts as stretched.
    /// Self-intersections are searched within this fraction of the character's
    /// height around the posed joint.
    double contactRadius = 0.12;
    double minSegmentVolume = 0.01; ///< Segments below this fraction of the total volume are skipped (hands' tips).
    /// Flipped against the rotation of the triangle's first vertex's bone (the
    /// measure's first definition) instead of its skin's own local rotation.
    bool flipAgainstBone = false;
};

struct DeformQuality {
    std::string deformer, pose;
    int stretched = 0;          ///< Triangles with an edge beyond the stretch limit.
    int flipped = 0;            ///< Triangles whose normal turned against their bone.
    double maxStretch = 1.0;    ///< Largest edge length ratio.
    double maxVolumeChange = 0; ///< Largest relative volume change of a limb segment.
    int intersections = 0;      ///< Self-intersecting triangle pairs near the posed joint.
    int worstTriangle = -1;     ///< The most stretched triangle (where to look), -1 for none.
};

/// The counts for one deformed mesh. `segment[v]` is the bone (child joint)
/// of vertex v (core/skin/segmentation_data.h), `topJoint[v]` its largest-weight joint.
DeformQuality measureDeformation(const Mesh& rest, const MatrixX3d& posed, const Skeleton& skeleton,
                                 const PosedSkeleton& posedSkeleton, const std::vector<int>& segment,
                                 const std::vector<int>& topJoint, int posedJoint,
                                 const DeformQualityOptions& options = {});

/// Every pose of `deformTestPoses()` under every deformer of `deformerIds`
/// (all of the table when empty): one row per deformer and pose.
/// @throws rig::InvalidInput from a deformer's binding.
std::vector<DeformQuality> measureDeformers(const DeformerInput& input, const Vec3& front,
                                            const std::vector<std::string>& deformerIds = {},
                                            const DeformQualityOptions& options = {});

/// Self-intersecting pairs among the triangles with a vertex within `radius`
/// of `centre` (triangles sharing a vertex are never counted).
int selfIntersections(const MatrixX3d& V, const MatrixX3i& F, const Vec3& centre, double radius);

} // namespace rig
