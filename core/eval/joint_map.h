#pragma once
/// @file joint_map.h
/// Canonical joints of a humanoid skeleton, found in any artist's skeleton:
/// the 16 joints `rigsmith evaluate` scores (the devset's canonical joint map,
/// ../shared/devset/README.md): hips, spine top (the last spine joint below
/// the neck, where the arms hang), neck, head, and per side the upper-arm root
/// (shoulder ball joint, not the clavicle), forearm root (elbow), hand root
/// (wrist), upper-leg root (hip ball joint), lower-leg root (knee) and foot
/// root (ankle).
///
/// Names first. A joint name is split into lower-case words (at `_ . - :` and
/// blanks, camelCase and letter/digit boundaries; a `prefix:` such as
/// Mixamo's `mixamorig:` or `mixamorig1:` is dropped), side words (`l`,
/// `left`, `r`, `right`) give the side, and the remaining words, joined, name
/// the part. This covers Mixamo (`mixamorig:LeftUpLeg`), CMU/MotionBuilder
/// (`LeftForeArm`), Blender/Rigify (`upper_arm.L`, `thigh.L.01`, `DEF-shin.L`),
/// the Unreal mannequin (`upperarm_l`, `calf_r`, `pelvis`), 3ds Max Biped and
/// Sauerbraten/Red Eclipse (`Bip01 L Thigh`, `bip01_l_calf`) and names like
/// `Upperarm.Left`. Of several joints with a part's name on one side, the one
/// nearest the root is taken (`thigh.L.01`, not `thigh.L.02`). Helper joints
/// (twist, roll, IK, pole, tag, end, nub, `ORG-`/`MCH-` copies, ...) are
/// never candidates.
///
/// Then the hierarchy, for what names leave open (a fallback by hierarchy
/// shape, each use named in `how`):
///  - a limb whose only part name is the limb's (`leg_joint_L_1`,
///    `arm_joint_L_3`): the one nearest the root is the limb root; a `leg`
///    with no upper-leg ancestor is the upper leg, not the knee;
///  - along a limb's chain (from its root, following the child with the most
///    descendants): wrist = the last chain joint before the chain branches
///    (fingers) or ends; ankle = the first chain joint below the knee whose
///    bone to the next is nearer horizontal than vertical (the foot), else the
///    chain's end; elbow/knee = the chain joint nearest half the arc length
///    from the limb root to the wrist/ankle;
///  - hips: the nearest common ancestor of the two upper legs;
///  - spine top: the nearest common ancestor of the two upper arms (its
///    parent when that is the neck, as in 3ds Max Biped, whose clavicles hang
///    from the neck);
///  - neck and head: the chain from the spine top that is not an arm's: its
///    first joint is the neck and the next the head; a chain of one joint is
///    the head.
/// What neither finds stays unmapped and is listed (`unmapped()`), never guessed.

#include "core/common/types.h"
#include "core/rig/skeleton.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace rig {

/// The 16 canonical joints, in the devset's order.
enum class CanonicalJoint {
    Hips, SpineTop, Neck, Head,
    LeftShoulder, LeftElbow, LeftWrist,
    RightShoulder, RightElbow, RightWrist,
    LeftHip, LeftKnee, LeftAnkle,
    RightHip, RightKnee, RightAnkle,
};

inline constexpr int canonicalJointCount = 16;

/// The devset's key of a canonical joint: "hips", "spine_top", "neck", "head",
/// "l_shoulder", "l_elbow", "l_wrist", "r_shoulder", ..., "r_ankle".
std::string_view canonicalJointKey(CanonicalJoint joint);

/// The canonical joints found in one skeleton.
struct CanonicalJointMap {
    /// Joint index per canonical joint (indexed by `CanonicalJoint`), -1 when unmapped.
    std::array<int, canonicalJointCount> joints;
    /// How each was found: "name", "hierarchy: ..." or "" when unmapped.
    std::array<std::string, canonicalJointCount> how;
    /// The naming convention recognised ("mixamo", "bip01", "unreal", "rigify",
    /// "motionbuilder", "names" for other side-tagged names, "hierarchy" when
    /// names gave nothing).
    std::string convention;

    CanonicalJointMap() { joints.fill(-1); }
    int operator[](CanonicalJoint j) const { return joints[static_cast<size_t>(j)]; }
    /// The canonical joints left unmapped, in order.
    std::vector<CanonicalJoint> unmapped() const;
};

/// The words of a joint name (see the file comment), lower case, prefix dropped.
std::vector<std::string> jointNameWords(std::string_view name);

/// The finger joints of one skeleton (issue 18): per side (0: left, 1: right)
/// and finger (thumb, index, middle, ring, pinky), the finger's joints from
/// the hand outwards (by depth in the hierarchy). Found by name: the side
/// words as above and a finger word, "thumb", "index" (or "pointer"),
/// "middle", "ring", "pinky" (or "pinkie", "little"), or 3ds Max Biped's
/// "Finger0".."Finger4" (thumb to pinky; "Finger01" is the thumb's second
/// joint); helper joints (twist, end, nub, tip, ...) and metacarpals
/// ("palm") are not finger joints. Mixamo's fourth joint ("LeftHandIndex4",
/// the fingertip's end joint) is left out: it marks the tip, not a knuckle.
struct FingerJointMap {
    std::array<std::array<std::vector<int>, 5>, 2> chains;
    /// Fingers with at least one joint on side `side` (0 left, 1 right).
    int fingers(int side) const;
    /// The finger's last joint (nearest the tip), -1 when it has none.
    int tipJoint(int side, int finger) const;
};

/// Maps the finger joints of `skeleton` (see `FingerJointMap`). Never throws for a valid skeleton.
FingerJointMap mapFingerJoints(const Skeleton& skeleton);

/// "thumb", "index", "middle", "ring", "pinky".
std::string_view fingerKey(int finger);

/// Maps the canonical joints of `skeleton` (see the file comment). `up` is the
/// character's up axis (for the ankle rule). Never throws for a valid skeleton;
/// a skeleton that is not a humanoid (a quadruped, a prop) gives a map with
/// unmapped joints.
CanonicalJointMap mapCanonicalJoints(const Skeleton& skeleton, const Vec3& up = Vec3::UnitY());

} // namespace rig
