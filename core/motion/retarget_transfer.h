#pragma once
/// @file retarget_transfer.h
/// Internal to the retargeter: what the transfer of frames
/// (retarget_transfer.cpp: `retargetClip()` with a mapping, `ClipRetargeter`)
/// takes from the mapping (retarget.cpp). Documented at their definitions.

#include "core/motion/retarget.h"
#include "core/motion/retarget_rest.h"

#include <string>
#include <vector>

namespace rig::retarget {

/// @throws rig::InvalidInput naming `fn` when the motion or the skeleton is invalid.
void checkInputs(const Motion& source, const Skeleton& target, const char* fn);
/// @throws rig::InvalidInput when the mapping does not fit the two skeletons.
void checkMapping(const RetargetMapping& m, const Motion& source, const Skeleton& target);
/// The source's rest geometry in pose `rest`; its world transforms into `world` when given.
Rest sourceRest(const Motion& m, RetargetRest rest, MotionWorld* world = nullptr);
/// The target's rest (bind) geometry.
Rest targetRest(const Skeleton& s);
/// Whether both bodies were found and the mapping goes by structure.
bool structural(const Rest& tr, const Rest& sr, const RetargetOptions& o);
/// Roles and children from the body structure, or from names over the whole hierarchy.
void useStructure(Rest& r, const std::vector<std::string>& names, bool structure);
/// Feet, root scale, levels, rest offsets and notes of a mapping whose sources are set.
void finishMapping(RetargetMapping& m, const Rest& tr, const Rest& sr, const RetargetOptions& o);
/// The lowest height (y) among `joints` of `p` (all rows when empty).
double lowest(const MatrixX3d& p, const std::vector<int>& joints);

} // namespace rig::retarget
