#pragma once
/// @file humanoid.h
/// The bundled procedural humanoid: the default character of the application
/// and the ground-truth fixture of the test suite.
///
/// A reference skeleton in T-pose carries capsules (round cones) and
/// ellipsoids; a pose is a set of local joint rotations; forward kinematics
/// places joints and primitives; the body is the smooth union of the posed
/// primitives (quadratic smooth-min, 2.5 cm blend at 1.75 m), polygonized by
/// marching tetrahedra (see marching_tetrahedra.h). The result is one closed,
/// consistently oriented, manifold surface of 20k-60k triangles (default cell
/// size), +Y up, facing +Z, the character's left on +X, feet on y = 0. It comes
/// with ground truth: joint positions and rotations, and a body part per vertex.
///
/// Proportions (at 1.75 m): hips 0.96 m, shoulders 1.41 m high and 0.40 m apart,
/// arm span 1.80 m, legs 0.92 m to the hip joint, a head 0.22 m tall with a nose on
/// the +Z side, hands flattened (9 cm wide, 4 cm thick) so that a forearm twist
/// shows. Limbs touch each other and the trunk only at their joints in every
/// pose (the hands stay clear of the thighs, the thighs of each other, the arms
/// of the chest by 4 cm or more), and the surface is a topological sphere even
/// when polygonized with 2.5 cm cells, so a curve skeleton of the body is a tree
/// with five end nodes: head, two hands, two feet.

#include "core/mesh/mesh.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rig {

/// The poses the generator knows.
enum class HumanoidPose {
    T,         ///< Arms horizontal, palms down, legs straight: the reference (all rotations identity).
    A,         ///< The default: arms 45 degrees down, relaxed.
    ArmsDown,  ///< Arms 13 degrees from vertical, along the body, hands about 10 cm clear of the thighs.
    KneesBent, ///< A-pose arms; hips flexed 30, knees bent 60, ankles 30 degrees; hips lowered, feet flat on the ground.
    Sitting,   ///< As on a chair: hips and knees at 90 degrees, feet flat on the ground, A-pose arms.
    Reach,     ///< Right arm raised forward and across the chest (hand in front of the left shoulder), left arm as in A.
    Twist,     ///< A-pose with the left forearm (and so the hand) twisted 90 degrees about its own axis.
};

/// Parses a CLI pose name: "t", "a", "arms-down", "knees-bent", "sitting",
/// "reach", "twist" (exact, lower case). std::nullopt for anything else.
std::optional<HumanoidPose> parseHumanoidPose(std::string_view name);

/// The CLI name of a pose (the inverse of `parseHumanoidPose()`).
std::string_view humanoidPoseName(HumanoidPose pose);

/// Every pose, in declaration order.
std::vector<HumanoidPose> allHumanoidPoses();

/// Body parts, the ground-truth segmentation. The shoulder girdle belongs to
/// the chest, the toes to the foot.
enum class BodyPart {
    Head, Neck, Chest, Abdomen, Pelvis,
    LeftUpperArm, LeftForearm, LeftHand,
    RightUpperArm, RightForearm, RightHand,
    LeftThigh, LeftShin, LeftFoot,
    RightThigh, RightShin, RightFoot,
};

/// Number of `BodyPart` values.
inline constexpr int bodyPartCount = 17;

/// The part's name in CamelCase, as in the enum ("LeftUpperArm").
std::string_view bodyPartName(BodyPart part);

/// The joints of the humanoid skeleton, in the order of `Humanoid::jointNames`
/// (parents before children). Names follow BVH / MotionBuilder.
enum class HumanoidJoint {
    Hips, Spine, Spine1, Neck, Head,
    LeftShoulder, LeftArm, LeftForeArm, LeftHand,
    RightShoulder, RightArm, RightForeArm, RightHand,
    LeftUpLeg, LeftLeg, LeftFoot, LeftToeBase,
    RightUpLeg, RightLeg, RightFoot, RightToeBase,
};

/// Number of `HumanoidJoint` values.
inline constexpr int humanoidJointCount = 21;

/// Index of a joint in the arrays of `Humanoid`.
constexpr int jointIndex(HumanoidJoint joint) { return static_cast<int>(joint); }

/// Cloth that joins the legs (issue 14: a curve skeleton forks at the hem,
/// not at the hips). Each is one round cone hanging from the hips, so it
/// follows the pelvis; meant for the standing poses (T, A, arms-down, reach,
/// twist). The ground truth is unchanged: the joints are the body's.
enum class HumanoidGarment {
    None,      ///< The bare body.
    LongSkirt, ///< From the waist (0.97 m at 1.75 m) to mid-shin (0.31 m), 0.50 m wide at the hem.
    Robe,      ///< From the waist to just above the ankles (0.11 m), 0.58 m wide at the hem.
};

/// Parses "none", "skirt", "robe". std::nullopt for anything else.
std::optional<HumanoidGarment> parseHumanoidGarment(std::string_view name);

/// Options of `generateHumanoid()`.
struct HumanoidOptions {
    HumanoidPose pose = HumanoidPose::A; ///< The pose to generate.
    HumanoidGarment garment = HumanoidGarment::None; ///< Cloth over the legs (vertices of it are part Pelvis).
    /// Adds separate parts, each its own closed surface intersecting the body:
    /// two eyeballs in the head ("eye.L", "eye.R") and a rod held in the
    /// right hand ("prop") — what an artist binds rigidly to one bone.
    bool props = false;
    double height = 1.75;                ///< Standing height (T-pose, floor to top of head), metres, > 0.
    /// Polygonizer cell size in metres; 0 = the default, height / 100 (17.5 mm
    /// at 1.75 m), which gives 20k-60k triangles in every pose. Triangle count
    /// grows as 1 / cellSize^2.
    double cellSize = 0.0;
};

/// A generated humanoid with its ground truth.
///
/// Skeleton convention: in the T-pose reference every joint frame is aligned
/// with the world axes, so a joint's local rotation is its rotation relative to
/// the T-pose expressed in its parent's frame, and forward kinematics is
///   G[i] = G[parents[i]] * localRotations[i]   (G[0] = localRotations[0]),
///   joints[i] = joints[parents[i]] + G[parents[i]] * (restJoints[i] - restJoints[parents[i]]),
///   joints[0] = restJoints[0] + rootTranslation.
/// A point attached to joint i at rest position x moves to
///   joints[i] + G[i] * (x - restJoints[i]).
struct Humanoid {
    HumanoidPose pose = HumanoidPose::A; ///< The pose it was generated in.
    double height = 1.75;                ///< Standing height it was generated for.

    /// The surface: one part named "body" (part 0), N filled (area-weighted
    /// vertex normals), closed, manifold, counter-clockwise seen from outside;
    /// with `HumanoidOptions::props` also parts "eye.L", "eye.R" and "prop"
    /// (1, 2, 3), each closed and manifold, intersecting the body.
    Mesh mesh;

    std::vector<std::string> jointNames; ///< #J = 21 BVH names, see `HumanoidJoint`.
    std::vector<int> jointParents;       ///< #J parent indices, parents[i] < i, -1 for Hips.
    MatrixX3d restJoints;                ///< #J by 3 joint positions in the T-pose reference.
    MatrixX3d joints;                    ///< #J by 3 joint positions in this pose, all inside the surface.
    /// #J rotations relative to the T-pose reference, in the parent's frame
    /// (all identity for the T-pose).
    std::vector<Eigen::Quaterniond> localRotations;
    Vec3 rootTranslation = Vec3::Zero(); ///< Translation of Hips from its rest position (lowers the hips when the knees bend).

    /// #V `BodyPart` values (as int), one per vertex: the part of the primitive
    /// nearest to the vertex.
    std::vector<int> vertexPart;

    /// Extremities, on (or within a cell of) the surface: "HeadTop",
    /// "LeftHandTip", "RightHandTip", "LeftToeTip", "RightToeTip".
    std::vector<std::string> endEffectorNames;
    std::vector<int> endEffectorJoints; ///< #E joint each end effector hangs from (Head, LeftHand, ...).
    MatrixX3d endEffectors;             ///< #E by 3 positions in this pose.
};

/// Generates the humanoid in the requested pose. Deterministic; tens of
/// milliseconds at the default cell size.
///
/// Throws `rig::InvalidInput` when the height is not positive and finite, when
/// the cell size is negative or not finite, or when it is so small that the
/// grid would exceed 1.5e8 points.
Humanoid generateHumanoid(const HumanoidOptions& options = {});

} // namespace rig
