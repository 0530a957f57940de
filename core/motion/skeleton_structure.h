#pragma once
/// @file skeleton_structure.h
/// The body of a humanoid skeleton found from its hierarchy and rest geometry,
/// whatever its joints are called: the pelvis, the spine up to the chest, the
/// neck chain up to the head, two arms (clavicle → shoulder → elbow → wrist) and
/// two legs (hip → knee → ankle → toe). Thesis 001 Ch. 5 ("Adjust between two
/// logic skeletons") matches skeletons by their structure; this is the structure
/// it matches, found on artists' rigs that carry more than a body (issue 22).
///
/// Method (every step on the rest pose, +Y up, H = the kept joints' vertical
/// extent; a bone over 100 times the median bone length, as in a hostile
/// file, is first shortened to the median along its direction):
///  1. Joints that do not belong to the body are set aside, each with a reason:
///     helpers by name word (IK goals and poles, targets, weapon / prop / tag /
///     socket / attachment joints, twist and roll helpers, `end` / `nub` / `top` /
///     `tip` markers,
///     `ORG-` / `MCH-` / control copies) with everything below them; joints whose
///     whole subtree carries no skin weight (when weights are given); zero-length
///     joints (within 1e-3 H of their parent): a parent whose only child it is
///     gives way to it (the child's world rotation includes the parent's).
///     The rest is the kept tree: each kept joint hangs from its nearest kept ancestor.
///  2. Legs: the pelvis is the deepest kept joint with two children whose
///     subtrees reach the ground (within 0.1 H of the lowest kept joint); the
///     two lowest-reaching such children start the legs. A chain follows, at
///     each joint, its single child, or at a branch the child reaching much
///     farther than the others (2.5×; fingers and toes stop it); it ends at a
///     branch of comparable children or a leaf.
///  3. Spine and head: from the pelvis, the child that is not a leg and reaches
///     highest; the path to the highest leaf is the head path.
///  4. Arms: children of head-path joints that leave the path and reach
///     sideways more than 0.15 H; one on each side of the body.
///     The joint they hang from is the chest (spine top); the spine is the path
///     pelvis → chest; the neck chain is the path after the chest up to the
///     head (a joint named head on it, else the path's last joint). Without
///     arms the whole path is the spine, its last joint the head.
///  5. Landmarks on a limb chain: the ankle is the first joint (third or
///     later) whose bone to the next is nearer horizontal than vertical (else
///     the chain's end), the toe the joint after it; the wrist is the chain's
///     end. The root (shoulder / hip ball joint) and middle (elbow / knee) are
///     the pair that makes the two segments' arc lengths closest to human
///     proportions (upper arm 1.1 × forearm, thigh 1.05 × shin); joints before
///     the root are the clavicle (arms) or pelvic helpers (legs). Names only
///     break ties: a joint named like the landmark lowers the cost by 0.5.
///  6. Left and right from geometry: the character's front is the horizontal
///     direction from the ankles to the toes (else, where the names give sides,
///     from them; else +Z), its left up × front; a limb is left when its root
///     chain's mean position lies left of the pelvis (legs) or chest (arms). A limb whose name
///     says the other side is reported (`messages`), geometry wins.
/// Whatever is not found is left at -1 / empty with a message saying what.

#include "core/common/types.h"
#include "core/rig/joint_names.h"

#include <array>
#include <string>
#include <vector>

namespace rig {

/// One arm or leg, joints indexed in the skeleton.
struct BodyLimb {
    std::vector<int> chain; ///< From the attachment's child to the chain's end (fingers and toes excluded, the toe included).
    int root = -1;          ///< Shoulder / hip ball joint.
    int middle = -1;        ///< Elbow / knee.
    int end = -1;           ///< Wrist / ankle.
    int tip = -1;           ///< Toe (legs), -1 otherwise or when absent.
    int attachment = -1;    ///< The joint the chain hangs from (chest / pelvis).

    bool found() const { return root >= 0 && end >= 0; }
};

/// The body found in a skeleton (see the file comment).
struct BodyStructure {
    int pelvis = -1;
    int chest = -1;                 ///< Spine top: where the arms hang.
    int head = -1;
    std::vector<int> spine;         ///< pelvis … chest, both included.
    std::vector<int> neck;          ///< chest … head, both included (just the head's parent and the head when there is no neck).
    std::array<BodyLimb, 2> arms;   ///< [0] left, [1] right.
    std::array<BodyLimb, 2> legs;   ///< [0] left, [1] right.
    std::vector<int> keptParent;    ///< #J nearest kept ancestor (-1 for kept roots and set-aside joints).
    std::vector<std::string> setAside; ///< #J why a joint is not part of the kept tree ("" when kept).
    Vec3 front = Vec3::UnitZ();     ///< The character's front (horizontal).
    Vec3 left = Vec3::UnitX();      ///< up × front.
    std::string sidesFrom;          ///< "feet", "names" or "default".
    std::vector<std::string> messages; ///< What was not found, names contradicted by geometry, ...
    bool shortenedBones = false;    ///< Some bone was implausibly long (see the method): the geometry is not to be trusted.

    bool kept(int j) const { return setAside[static_cast<size_t>(j)].empty(); }
    /// Kept children of each joint (#J lists).
    std::vector<std::vector<int>> keptChildren() const;
    /// Per joint, its role from the structure (side from geometry), filled in
    /// by names where the structure leaves a chain joint open and no other
    /// joint of that chain has the name's part (names confirm, never move).
    std::vector<JointNameRole> roles(const std::vector<std::string>& names) const;
};

/// Options of `findBodyStructure()`.
struct BodyStructureOptions {
    /// #J per joint: carries skin weight in the source's mesh; empty: no mesh (not used).
    std::vector<bool> weighted;
};

/// Finds the body (see the file comment). `positions` is #J by 3 rest world
/// positions, `parents` #J with parents[i] < i (-1 for roots).
/// Never throws for consistent sizes; a skeleton that is not a humanoid gives
/// a structure with parts missing and messages.
BodyStructure findBodyStructure(const std::vector<std::string>& names, const std::vector<int>& parents,
                                const MatrixX3d& positions, const BodyStructureOptions& options = {});

/// "left arm", "right leg", ... for limb index 0/1 (left/right).
std::string limbLabel(bool arm, int side);

} // namespace rig
