#pragma once
/// @file bone_names.h
/// Naming presets for an exported rig (issue 45): the joint names each engine's
/// humanoid importer or retargeter recognises, so that the rig maps without
/// renaming by hand. Rigsmith's own names (the templates', resources/templates)
/// are Mixamo's without its namespace; the presets rename what they have a
/// name for and keep ours for the rest (a tail, an extra spine joint):
///  - "rigsmith": ours ("LeftForeArm", "LeftHandIndex1");
///  - "mixamo": Mixamo's, "mixamorig:" + ours ("mixamorig:LeftForeArm");
///  - "unity": Unity's HumanBodyBones names, which its Humanoid avatar maps
///    automatically ("Hips", "Chest", "LeftUpperArm", "LeftLowerArm",
///    "LeftToes", "LeftIndexProximal", "LeftLittleDistal");
///  - "unreal": the UE5 mannequin's ("pelvis", "spine_01", "spine_02",
///    "neck_01", "clavicle_l", "upperarm_l", "lowerarm_l", "hand_l",
///    "thigh_l", "calf_l", "foot_l", "ball_l", "index_01_l"); our two spine
///    joints take spine_01 and spine_02 (the mannequin has five: its IK
///    retargeter maps chains, not single names);
///  - "vrm": VRM 1.0's humanoid bone names ("hips", "chest", "leftUpperArm",
///    "leftToes", "leftThumbMetacarpal", "leftIndexIntermediate").
/// Names stay unique: a preset name already taken by another joint keeps ours.

#include "core/rig/skeleton.h"

#include <string>
#include <vector>

namespace rig {

/// The preset ids, in the order a UI lists them: "rigsmith", "mixamo",
/// "unity", "unreal", "vrm".
const std::vector<std::string>& boneNamePresets();

/// A one-line title of a preset for a UI ("Unreal Engine 5 mannequin").
std::string boneNamePresetTitle(const std::string& preset);

/// @throws rig::InvalidInput naming the presets when `preset` is not one.
void validateBoneNamePreset(const std::string& preset);

/// One joint's name under `preset` (see the file comment); `joint` itself
/// where the preset has no name for it.
/// @throws rig::InvalidInput for an unknown preset.
std::string presetBoneName(const std::string& preset, const std::string& joint);

/// `skeleton` with its joints renamed by `preset`, names kept unique.
/// @throws rig::InvalidInput for an unknown preset.
Skeleton withBoneNames(Skeleton skeleton, const std::string& preset);

} // namespace rig
