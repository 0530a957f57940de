#pragma once
/// @file template.h
/// Rig templates: the "logic skeleton" of thesis §2.4 that is fitted onto the
/// geometric skeleton. A template is a joint hierarchy in a rest pose (offsets
/// as in a BVH file), split into the five segments of §2.4-§2.5: the spine
/// (hips to the head's tip), two arms (shoulder to hand tip) and two legs (hips
/// to toe tip). Each joint on a segment carries its normalized arc length along
/// it, "being zero the starting node position and one the end node position"
/// (thesis §2.5, "Scaling segments"); `fitTemplate()` (fit_template.h) places it
/// at the same normalized arc length along the matching geometric segment.
///
/// Templates come from JSON files (`resources/templates/*.json`, see
/// `loadTemplate()`), or from any skeleton, such as a BVH file's hierarchy
/// ("fit this skeleton", `templateFromSkeleton()`). The five chains are found
/// by joint names where they agree (CMU / MotionBuilder "LeftHand", Mixamo
/// "mixamorig:LeftHand", "hand_l", "l_hand"...) and by topology otherwise.
///
/// Rest poses are in BVH convention: +Y up, the character facing +Z, its left on +X.

#include "core/common/types.h"
#include "core/rig/skeleton.h"
#include "core/skeleton/end_nodes.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rig {

/// The segment a template joint lies on. Values 0..4 match `Limb`: a chain ends
/// at that limb's end node (the spine at the head).
enum class Chain : std::int8_t {
    None = -1,    ///< Off the five segments (fingers, thumbs, a tail): placed by its rest offset.
    Spine = 0,    ///< Hips (0) to the head's tip (1), through the chest and neck.
    LeftArm = 1,  ///< The arm's first joint below the chest, the shoulder (0), to the hand tip (1).
    RightArm = 2,
    LeftLeg = 3,  ///< Hips (0) to the toe tip (1); the hip joint itself is on the spine.
    RightLeg = 4,
};

/// The chain that ends at `limb`.
constexpr Chain chainOf(Limb limb) { return static_cast<Chain>(static_cast<int>(limb)); }

struct RigTemplate {
    std::string name;                ///< "humanoid21", a file stem, or the skeleton's source.
    std::vector<std::string> names;  ///< #J unique joint names.
    std::vector<int> parents;        ///< #J parents, -1 for the root at 0, parents[i] < i.
    MatrixX3d offsets;               ///< #J by 3 rest offsets from the parent (the root's: from the origin).
    MatrixX3d restPositions;         ///< #J by 3 rest world positions (offsets summed down the hierarchy).
    std::vector<Chain> chains;       ///< #J segment of each joint.
    /// #J normalized arc length of each joint along its chain, in [0, 1]; -1 for
    /// Chain::None. Joints above the hips (a "Reference" root) are on the spine at 0.
    std::vector<double> chainPositions;
    int hips = -1;  ///< Joint where the legs and the spine meet (the median of the feet and head ends).
    int chest = -1; ///< Joint where the arms branch off the spine.
    /// Per chain (indexed by `Limb`), its joints from start to end.
    std::array<std::vector<int>, limbCount> chainJoints;
    /// Per chain, the rest position of its tip: the End Site of its last joint
    /// when there is one, else the last joint itself.
    std::array<Vec3, limbCount> chainTips = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
    /// Per chain, its rest length from its start to its tip.
    std::array<double, limbCount> chainLengths = {0.0, 0.0, 0.0, 0.0, 0.0};
    /// #J rest position of each joint's tip: its (longest) End Site, else the joint itself.
    std::vector<Vec3> tips;

    int jointCount() const { return static_cast<int>(names.size()); }
};

/// An End Site: a tip position after a joint, as an offset in the joint's rest frame.
struct EndSite {
    int joint = -1;
    Vec3 offset = Vec3::Zero();
};

/// Builds a template from a rest hierarchy and finds its five chains.
/// The chain ends (the head, hand and foot joints) are `limbJoints` where given
/// (>= 0), else found by name, else by topology: the highest extremity of the
/// rest pose is the head, the two lowest on separate branches the feet, the
/// outermost on +X and -X the hands. A chain then runs to the deepest
/// extremity below its end joint (a hand's fingertips, a foot's toe tip).
///
/// Expects: parents[i] < i, one root at 0.
/// @throws rig::InvalidInput naming `name` and the problem: bad sizes or
///         parents, duplicate names, non-finite offsets, a chain that cannot
///         be found ("template 'x' has no left leg: ..."), arms that do not
///         branch off the spine above the hips.
RigTemplate makeTemplate(std::string name, std::vector<std::string> names, std::vector<int> parents,
                         MatrixX3d offsets, const std::vector<EndSite>& endSites = {},
                         const std::array<int, limbCount>& limbJoints = {-1, -1, -1, -1, -1});

/// A template from a skeleton's bind pose (for example `motionSkeleton(readBvh(f))`):
/// offsets are the differences of bind positions; orientations are ignored.
/// Leaf joints (such as the "_end" joints of End Sites) stay joints; a chain
/// without an End Site ends at its last joint.
/// @throws rig::InvalidInput as `validateSkeleton()` and `makeTemplate()`.
RigTemplate templateFromSkeleton(const Skeleton& skeleton, std::string name = "skeleton");

/// Reads a template JSON file:
/// ```
/// { "format": "rigsmith-template", "version": 1, "name": "humanoid21",
///   "joints": [ {"name": "Hips", "parent": null, "offset": [0, 0.96, 0]},
///               {"name": "Spine", "parent": "Hips", "offset": [0, 0.1, 0]}, ... ],
///   "endSites": [ {"joint": "Head", "offset": [0, 0.21, 0.01]}, ... ],
///   "limbs": {"head": "Head", "lhand": "LeftHand", ...} }
/// ```
/// Parents are named and listed before their children; "endSites" and "limbs"
/// (explicit chain ends, keys as in the CLI labels) are optional.
/// @throws rig::IoError naming the file when it cannot be read or is not valid
///         JSON of this form; rig::InvalidInput from `makeTemplate()`.
RigTemplate loadTemplate(const std::string& path);

/// The directory of the bundled templates: $RIGSMITH_RESOURCES_DIR/templates when
/// that environment variable is set, else the build's RIGSMITH_RESOURCES_DIR.
std::string templateDirectory();

/// A bundled template by name ("humanoid21": the thesis's 21-joint humanoid in
/// BVH naming): `loadTemplate(templateDirectory() + "/" + name + ".json")`.
/// @throws rig::IoError when there is no such template.
RigTemplate builtinTemplate(const std::string& name);

} // namespace rig
