#pragma once
/// @file retarget.h
/// Retargeting a motion clip (a BVH file's skeleton and frames) onto another
/// skeleton, such as the rig fitted to a character: thesis 001 Ch. 5, "Adjust
/// between two logic skeletons" (Figs. 5.6-5.9), plus what production tools add.
///
/// Mapping (`mapSkeletons()`), structure first (issue 22): both skeletons'
/// bodies are found from hierarchy and rest geometry (skeleton_structure.h:
/// pelvis, spine to the chest, neck to the head, two arms, two legs, left and
/// right from the feet; IK goals, props, twist helpers, zero-length and
/// unweighted joints set aside). The target's root (and the joints above its
/// pelvis) follow the source pelvis; then each body chain of the target is
/// paired with the same chain of the source (spine, neck, left / right arm,
/// left / right leg) as a segment pair below, the structure's landmarks
/// (shoulder, elbow, wrist, hip, knee, ankle, toe, neck, head) taking the
/// place of names in the pairing; what hangs below the wrists, toes and head
/// (fingers, toes, jaw) is matched as below. A chain the source lacks leaves
/// the target's chain "not driven" with the reason in `JointRetarget::note`;
/// what the source's structure search found wrong or missing is in
/// `RetargetMapping::messages`. A target whose own body cannot be found (not a
/// humanoid), or a source whose geometry is broken (a bone 100 times the median
/// length, as hostile files have), is mapped by segments over the whole
/// hierarchy with names, as follows.
///
/// Segment mapping, thesis Fig. 5.6-5.7:
///  - Each skeleton is cut into segments: a segment runs from a branch joint
///    (the root, or a joint with two or more children) through joints with one
///    child to the next branch joint or leaf. Segments starting at the root have
///    hierarchy level 1; a segment starting where a level-k segment ends has
///    level k + 1.
///  - Segments correspond level by level, among the children of segments that
///    already correspond (the thesis compares all segments of a level; keeping
///    to matched parents stops left fingers from pairing with right ones). The
///    pair chosen is the one whose main orientations (unit vector from the
///    segment's start to its end, in the rest pose) are closest (legs down,
///    arms left and right, spine up); names win over orientation where both
///    skeletons name the segments' body parts with the same side (see below).
///    Both skeletons must be upright (+Y) and face the same way (thesis).
///  - Within a pair of segments, bones are matched by normalized arc length:
///    a bone is identified by the normalized length at its end, and bones are
///    paired in order so that the sum of |difference| is least (dynamic
///    programming; the thesis's "closest relative length"). Where the source
///    segment has more bones, the unpaired source bones before a paired one are
///    blended into it, each weighted by its share of the group's length (the
///    0.6 / 0.4 example of Fig. 5.7). Where it has fewer, the target bones
///    without a partner get the identity (the thesis's "zero rotation"), or,
///    with `RetargetOptions::coverUnpaired` (the default), follow the source
///    bone whose span covers them, so that a spine of four joints driven by a
///    spine of two bends like it instead of only at two joints.
///  - Names, beyond the thesis: joint names are reduced to a side (left, right,
///    none) and a body part (hips, thigh, shin, foot, toe, clavicle, upper arm,
///    forearm, hand, neck, head) across the usual conventions: CMU /
///    MotionBuilder ("LeftUpLeg", "LHipJoint"), Mixamo ("mixamorig:LeftArm",
///    "mixamorig1:..."), Biovision ("LeftCollar", "LeftShoulder" = upper arm
///    when a collar exists, "LeftElbow", "LeftWrist", "LeftHip", "LeftKnee"),
///    Unreal ("upperarm_l", "calf_r"), 3ds Max ("Bip01 L UpperArm") and our
///    templates; case-insensitive. Joints of a segment pair with the same part
///    and side are paired first, and arc length pairs the rest between them.
///  - Joints on no matched segment (a tail, fingers the source does not have)
///    are unmapped: identity local rotation, they follow their parent.
/// The result is a table, one row per target joint, that a user may edit and
/// pass to the `retargetClip()` overload that takes a mapping.
///
/// Transfer (per frame). With W_s the world rotation of source joint s in the
/// frame and W_s⁰ in the source rest pose (frame 0, or the BVH zero pose: see
/// `RetargetRest`), the source's world rotation relative to its rest is
///   D_s = W_s · (W_s⁰)⁻¹,
/// blended over a target joint's sources by normalized weighted quaternion
/// averaging: D_i = normalize(Σ w_k D_{s_k}) (signs aligned to the heaviest).
/// The rest offset A_i (thesis: "a set of rotations from the initial pose of
/// our target skeleton to the source skeleton's initial pose") turns target
/// bone i from its bind direction to the direction of its source bones in the
/// source rest pose: the shortest rotation for a joint with one child; for a
/// branch joint (hips, chest) the rotation that best aligns all its child bones
/// (Kabsch); a leaf, or a joint whose children have no source, takes its
/// parent's offset. Where several target joints share one source joint s (a
/// clavicle or a neck the source lacks), the source bone s → e spans the target
/// from one of them to the joint c driven by e: the one whose distance to c is
/// nearest |e − s| times the height ratio matches it, the others take their
/// parent's offset. An ankle's offset only turns the foot about the vertical
/// (its bones levelled): both rest poses stand flat-footed, and the slope from
/// ankle to toe joint is where each skeleton puts them. A source standing in the
/// target's own pose thus leaves the target in its bind pose.
/// Then the posed world orientation of target joint i is
///   O_i = D_i · A_i · B_i   (B_i its bind orientation),
/// so each target bone's world direction follows its source bones' world
/// direction, and twist about the bone follows the source's twist. Unmapped
/// joints keep their bind orientation relative to their parent. Local
/// rotations in the bind frame, as `rig::Pose` expects (pose.h), are
///   R_i = B_i⁻¹ · (O_p · B_p⁻¹)⁻¹ · O_i   (R_root = B_root⁻¹ · O_root).
///
/// Root translation: the target root moves by the source pelvis's displacement
/// from its rest position, scaled by s. Where both skeletons' body structures
/// are found, s is the leg-length ratio: the mean over the sides with a leg on
/// both of hip joint → knee → ankle along the rest pose (the stride is the
/// legs'; the pelvis joint's height is a convention: Red Eclipse's players put
/// it below the hip joints, humanoid21 above: on the players' own clips, where
/// 1 is right, the pelvis heights' ratio gave 1.12-1.18, the legs' 1.07-1.11,
/// the rest being the fit's error). Otherwise s is the
/// hip-height ratio (the pelvis's height above the lowest ankle or toe of the
/// legs mapped on both sides, in the rest pose; never a chain that was not
/// mapped as a leg), and without a leg mapped on both sides the ratio of the
/// two skeletons' heights, with a message. A ratio more than 1.5 times away
/// from the height ratio adds a warning to `messages`. Vertically, by default
/// (`RetargetOptions::rootHeightFromGround`), the root rises s times as far
/// above its own rest height as the source root rises above its rest height
/// over its rest feet, measured from the clip's ground (a low percentile over
/// the clip of the lowest source foot joint's height), rather than by the
/// source's vertical displacement from its rest pose. Feet on the ground (on by
/// default): the root is then moved vertically so that the lowest target foot
/// joint stands s times as high above the target's ground (its bind pose,
/// assumed standing) as the lowest source foot joint stands above the clip's
/// ground.
///
/// A clip retargeted onto its own skeleton (`motionSkeleton()`) with
/// `RetargetRest::Zero`, rootHeightFromGround and keepFeetOnGround off
/// reproduces its joint world positions exactly.

#include "core/common/progress.h"
#include "core/rig/pose.h"
#include "core/rig/pose_frames.h"
#include "core/motion/motion.h"
#include "core/rig/skeleton.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rig {

/// The source pose the rest offsets start from.
///
/// The rule (`Auto`, the default of every front end: `rig`, `retarget`, the
/// GUI): the bind pose when the source file has one (a clip from a rigged
/// file, `Motion::bindValues`); otherwise frame 0 when it is T-pose-like
/// (`detectRestPose()`: CMU clips start with a synthetic T-pose); otherwise the
/// hierarchy's zero pose. The mapping records which was used (`RetargetMapping::rest`).
enum class RetargetRest : std::uint8_t {
    FirstFrame, ///< Frame 0 of the clip (CMU clips: a synthetic T-pose added by the converter).
    Zero,       ///< The BVH zero pose: every rotation the identity, joints at their OFFSETs.
    Bind,       ///< The pose the source file's mesh is bound in (`Motion::bindValues`).
    Auto,       ///< Bind when there is one, else `detectRestPose()`.
};

/// Parses "auto", "bind", "frame0" or "zero". @throws rig::InvalidInput naming the accepted values.
RetargetRest parseRetargetRest(std::string_view name);

/// The concrete rest pose `rest` means for `clip` (Auto resolved by the rule above).
/// @throws rig::InvalidInput for Bind on a clip without a bind pose.
RetargetRest resolveRetargetRest(const Motion& clip, RetargetRest rest);

/// Which pose of a clip is its T-pose-like rest (the front ends' default, so
/// that clips play without the artist choosing): frame 0 when it differs little
/// from the zero pose (every non-root local rotation within 20°) or spreads the
/// limbs at least as wide; otherwise the zero pose. The spread is the widest
/// horizontal distance of a joint or End Site from the root over the figure's
/// height: a T-pose maximizes it. CMU clips (frame 0 a synthetic T-pose) give
/// FirstFrame; a clip starting in a fighting stance with a T-pose zero pose
/// (Boxing_Toes) gives Zero. A clip without frames gives Zero.
RetargetRest detectRestPose(const Motion& clip);
/// "frame0", "zero", "bind" or "auto".
std::string_view retargetRestName(RetargetRest rest);

struct RetargetOptions {
    /// The source rest pose the offsets are measured from.
    RetargetRest rest = RetargetRest::Auto;
    /// Pair segments and joints by body-part names where both skeletons have
    /// them (see the file comment); false: geometry only (the thesis).
    bool useNames = true;
    /// Target bones of a matched segment without a partner of their own follow
    /// the source bone that covers them; false: identity (the thesis).
    bool coverUnpaired = true;
    /// Scale the root translation by the leg-length ratio; false: copy it (scale 1).
    bool scaleTranslation = true;
    /// The root's height over its rest height is s times the source root's
    /// height above the clip's ground over its rest height above its rest feet
    /// (see the file comment), rather than s times its vertical displacement
    /// from the source rest pose. Needed when the rest pose does not stand on
    /// the ground (BVH zero poses often have the hips at y = 0).
    bool rootHeightFromGround = true;
    /// Then move the root vertically to keep the feet at their scaled ground height.
    bool keepFeetOnGround = true;
    /// The rest offset of the pelvis and the chest (how the target's rest
    /// orientation is matched to the source's) is the turn about the vertical
    /// that lines up the two bodies' left-right axes (through the hip joints,
    /// through the shoulders). Matching the bones from the pelvis to the legs
    /// one by one instead turns the target's pelvis when the two skeletons put
    /// it at different heights: a pelvis joint below the hip joints (Red
    /// Eclipse's players) against one above them (humanoid21) tipped the
    /// retargeted body over by 138° at rest (issue 22, stop 27). Used when both
    /// skeletons' structures are found; false: the bones one by one.
    bool branchRestFromBody = true;
    /// A target bone paired with a source bone by name also takes the source
    /// bones after it while they bring its end nearer its own (a source limb
    /// split in two bones per segment, `upper_arm.01/.02`: the target's upper
    /// arm follows both halves, and its forearm no longer blends in the upper
    /// arm's second half). False: the pairs as `pairInOrder` makes them.
    bool spanToBoneEnds = true;
    /// Percentile (0-100) over the clip of the lowest source foot joint's
    /// height that is taken as the clip's ground (robust to a few frames of
    /// foot sliding below it).
    double groundPercentile = 5.0;
    /// A frame counts as a ground contact, for `RetargetedClip` figures, when
    /// the source's lowest foot joint is within this fraction of the source
    /// height above the clip's ground.
    double contactTolerance = 0.01;
    /// Retarget every frameStep-th frame (>= 1); the output frame time is
    /// multiplied accordingly.
    int frameStep = 1;
    /// Map by body structure first (issue 22); false: the name and segment
    /// mapping over the whole hierarchies, rooted at joint 0 (the mapper
    /// before issue 22, kept for comparison in `rigsmith evaluate`).
    bool structureFirst = true;
};

/// How a target joint got its sources.
enum class RetargetMatch : std::uint8_t {
    Unmapped, ///< No source: identity local rotation.
    Name,     ///< Paired by body-part name.
    Length,   ///< Paired by normalized arc length (thesis), possibly with blended extra source joints.
    Covered,  ///< No partner of its own: follows the source bone covering it (`coverUnpaired`).
    Branch,   ///< A branch joint (root, hips, chest): the source joint where the matched segments start.
    User,     ///< Set by hand.
};

/// "unmapped", "name", "length", "covered", "branch", "user".
std::string_view retargetMatchName(RetargetMatch match);

/// One source joint feeding a target joint.
struct RetargetSource {
    int joint = -1;      ///< Source joint index.
    double weight = 1.0; ///< Blend weight (>= 0; a joint's weights sum to 1).
};

/// The mapping of one target joint.
struct JointRetarget {
    std::vector<RetargetSource> sources; ///< Empty: unmapped (identity).
    RetargetMatch match = RetargetMatch::Unmapped;
    /// A_i of the file comment (world rotation from the target bind direction
    /// to the source rest direction). An output: `retargetClip()` recomputes it
    /// from the sources, so editing `sources` is enough.
    Eigen::Quaterniond restOffset = Eigen::Quaterniond::Identity();
    /// Why: the body part it was matched as ("left knee"), or, when not
    /// driven, the reason ("the source has no left leg"); "set by hand" for edits.
    std::string note;
};

/// The correspondence between a source clip and a target skeleton.
struct RetargetMapping {
    std::vector<std::string> sourceNames; ///< #S source joint names.
    std::vector<std::string> targetNames; ///< #T target joint names.
    std::vector<JointRetarget> joints;    ///< #T, one per target joint.
    /// Per target joint, its segment's hierarchy level (thesis Fig. 5.6; 0 for the root).
    std::vector<int> targetLevels;
    std::vector<int> sourceFeet; ///< Source foot joints (last two of each leg segment) for the ground.
    std::vector<int> targetFeet; ///< Target foot joints.
    double translationScale = 1.0; ///< s, the leg-length (or hip-height) ratio (1 when disabled).
    int sourceRoot = 0;            ///< The source joint whose displacement moves the target root (its pelvis).
    RetargetRest restUsed = RetargetRest::Zero; ///< The rest pose used (resolved, never Auto).
    /// What the structure search and the root scale found worth saying: chains
    /// not found, names contradicted by geometry, an implausible root scale.
    std::vector<std::string> messages;

    int mappedCount() const;
};

/// The mapping as a human-readable table: one line per target joint with its
/// level, how it was matched, and its sources with weights
/// ("LeftUpLeg  1  length  LeftUpLeg 1.00  [left hip]"), or "not driven: REASON",
/// then the unused source joints, the rest pose used and the messages.
std::string formatMappingTable(const RetargetMapping& mapping);

/// Sets target joint `target`'s sources by name, as a user edit (match User);
/// an empty `sources` list unmaps it (identity rotation; still match User, so
/// the edit is kept). Weights are normalized to sum to 1.
/// @throws rig::InvalidInput naming an unknown joint or a negative / all-zero weight.
void setRetargetSources(RetargetMapping& mapping, const std::string& target,
                        const std::vector<std::pair<std::string, double>>& sources);

/// A clip on the target skeleton.
struct RetargetedClip {
    std::string name;                ///< The clip's name (the caller's; `retargetClip()` leaves it empty).
    double frameTime = 1.0 / 30.0;   ///< Seconds per frame.
    /// Poses of the target skeleton, flat (pose_frames.h): 10^6 frames of 21
    /// joints are two allocations of 696 MB in all (issue 47).
    PoseFrames frames;
    RetargetMapping mapping;         ///< The mapping used, with its rest offsets.
    /// Ground contact figures over the frames where the source touches the
    /// ground (`RetargetOptions::contactTolerance`): the distance of the
    /// target's lowest foot joint from the target's ground (its bind height),
    /// over the target height, before and after the feet correction. After it,
    /// the distance is s times the source's own height above its ground, so at
    /// most about the contact tolerance.
    double footErrorBefore = 0.0;    ///< Max over contact frames, fraction of target height.
    double footErrorAfter = 0.0;     ///< Max over contact frames, fraction of target height.
    int contactFrames = 0;           ///< Frames where the source touches the ground.
    double sourceHeight = 0.0;       ///< Vertical extent of the source rest pose (joints and End Sites).
    double targetHeight = 0.0;       ///< Vertical extent of the target bind pose (joints).
};

/// Builds the mapping (see the file comment).
/// @throws rig::InvalidInput when the motion fails `validateMotion()`, the
///         skeleton fails `validateSkeleton()`, or the source rest pose is
///         frame 0 of a clip without frames.
RetargetMapping mapSkeletons(const Motion& source, const Skeleton& target, const RetargetOptions& options = {});

/// Retargets every frame (every frameStep-th) with `mapSkeletons()`'s mapping.
/// Reports progress ("retarget", fraction of frames) and honours cancellation.
/// @throws rig::InvalidInput as `mapSkeletons()`, or for a clip without frames
///         or frameStep < 1; rig::Cancelled when cancelled.
RetargetedClip retargetClip(const Motion& source, const Skeleton& target, const RetargetOptions& options = {},
                            const Progress& progress = {});

/// Retargets with an explicit (possibly edited) mapping; its rest offsets and
/// feet are recomputed, its sources are kept.
/// @throws rig::InvalidInput as above, and when the mapping does not fit the
///         two skeletons (names, sizes, joint indices, negative weights).
RetargetedClip retargetClip(const Motion& source, const Skeleton& target, const RetargetMapping& mapping,
                            const RetargetOptions& options = {}, const Progress& progress = {});

/// `retargetClip()` given the source frames a block at a time, so that a long
/// clip is never whole in memory twice (issue 47: a BVH file read with
/// `BvhFrameReader`, 10^6 frames of 96 channels, is 768 MB as a matrix). Each
/// frame is retargeted as it is added into flat storage reserved for
/// `expectedFrames`; `finish()` then puts the feet on the ground, which needs
/// the whole clip's ground. `retargetClip()` is one `add()` of all the frames
/// and `finish()`: the same clip, bit for bit, whatever the blocks.
class ClipRetargeter {
public:
    /// `source`: the clip's hierarchy and channels, with at least its frame 0
    /// when the rest pose is (or, for Auto, may be) the first frame; its
    /// frames are not retargeted here. `expectedFrames`: the clip's source
    /// frame count when known (reserves the storage, scales the progress), else 0.
    /// @throws rig::InvalidInput as `retargetClip()` for the hierarchy, the
    ///         skeleton, the mapping and frameStep.
    ClipRetargeter(const Motion& source, const Skeleton& target, const RetargetMapping& mapping,
                   const RetargetOptions& options = {}, Eigen::Index expectedFrames = 0);
    ~ClipRetargeter();
    ClipRetargeter(const ClipRetargeter&) = delete;
    ClipRetargeter& operator=(const ClipRetargeter&) = delete;

    /// Retargets the next source frames (#n by #C), every frameStep-th frame
    /// of the clip counted from its first. Reports progress ("retarget",
    /// fraction of `expectedFrames`) and honours cancellation.
    /// @throws rig::InvalidInput for a column count other than #C or values
    ///         that are not finite; rig::Cancelled when cancelled.
    void add(const MotionFrames& frames, const Progress& progress = {});
    /// The clip, feet on the ground and contact figures computed; call once.
    /// @throws rig::InvalidInput when no frame was added.
    RetargetedClip finish(const Progress& progress = {});

private:
    struct State;
    std::unique_ptr<State> m_state;
};

/// The retargeted clip as a BVH motion of the target skeleton, for `writeBvh()`:
/// the target's joints and names, OFFSETs from the bind positions, 6 channels
/// (Xposition Yposition Zposition Zrotation Yrotation Xrotation) on the root and
/// 3 (Zrotation Yrotation Xrotation) on the others, an End Site on each leaf
/// continuing its bone. BVH rotations are relative to a rest pose with identity
/// frames, so the local rotation of joint i is W_p⁻¹ · W_i with W_i = O_i · B_i⁻¹.
/// Angles are unwrapped from frame to frame (no 360-degree jumps).
/// @throws rig::InvalidInput when a frame does not fit the skeleton.
Motion retargetedMotion(const RetargetedClip& clip, const Skeleton& target);

/// `writeBvh(retargetedMotion(clip, target), path)` with each frame's values
/// computed as it is written: the motion is never whole in memory (10^6
/// frames of 21 joints: 528 MB less). The same file, byte for byte.
/// @throws as retargetedMotion() and writeBvh().
void writeRetargetedBvh(const RetargetedClip& clip, const Skeleton& target, const std::string& path);

} // namespace rig
