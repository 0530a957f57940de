#pragma once
/// @file limbs.h
/// The trunk and the limbs of a skeleton, for the weight-bleeding rules of the
/// skinning stage (skinning.h, weights_heat.h): weights must not leak from one
/// limb into another (left leg into right leg, arm into thigh).
///
/// The trunk starts at the root and continues into the child whose subtree has
/// the most leaves (end joints) as long as that child has more leaves than all
/// the joint's other children together; every other child of a trunk joint
/// heads a limb, its whole subtree. For a humanoid the trunk is hips - spine -
/// chest and the limbs are the legs, the arms (shoulder girdle and fingers
/// included) and the neck with the head; a plain chain (a bar, a tail) is all
/// trunk. Joints of different limbs are never parent and child.

#include "core/rig/skeleton.h"

#include <vector>

namespace rig {

/// The limb of every joint (see the file comment): the index of the joint
/// heading its limb, or -1 for trunk joints. For humanoid21: Hips, Spine and
/// Spine1 are the trunk; LeftUpLeg, RightUpLeg, Neck, LeftShoulder and
/// RightShoulder head the five limbs.
/// @throws rig::InvalidInput for an invalid skeleton.
std::vector<int> jointLimbs(const Skeleton& skeleton);

} // namespace rig
