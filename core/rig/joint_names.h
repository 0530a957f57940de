#pragma once
/// @file joint_names.h
/// What a joint's name says about it: the body part and side of names as
/// rigs and motion-capture files spell them ("mixamorig:LeftUpLeg",
/// "Bip01 L UpperArm", "upperarm_l", Biovision's "LeftHip" / "LShoulder",
/// CMU's "LHipJoint"). The retargeting (retarget.h, thesis Ch. 5) uses it to
/// confirm or correct its geometric match of two skeletons' segments.

#include <cstdint>
#include <string>
#include <vector>

namespace rig {

enum class JointPart : std::int8_t { None, Hips, Thigh, Shin, Foot, Toe, Clavicle, UpperArm, ForeArm, Hand, Neck, Head };
enum class JointSide : std::int8_t { None, Left, Right };

struct JointNameRole {
    JointPart part = JointPart::None;
    JointSide side = JointSide::None;
    std::string key; ///< What remains of the name without side, prefix and digits ("shoulder").
};

/// Splits a name into lower-case words: after the last ':', at
/// non-alphanumerics, at lower → upper case changes and digit boundaries, and
/// before the last capital of a capital run followed by lower case
/// ("mixamorig:LeftUpLeg" → left, up, leg).
std::vector<std::string> jointNameWords(const std::string& name);

/// The part and side of one name ("Part::None" when the name says nothing
/// known; "hip" with a side is the thigh, as in Biovision files).
JointNameRole jointNameRole(const std::string& name);

/// The roles of all joints of a skeleton; "Shoulder" is the upper arm on a
/// side that also has a "Collar" / "Clavicle" (Biovision naming).
std::vector<JointNameRole> jointNameRoles(const std::vector<std::string>& names);

/// Both name the same known part on the same side.
bool sameJointRole(const JointNameRole& a, const JointNameRole& b);

} // namespace rig
