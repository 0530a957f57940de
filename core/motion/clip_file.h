#pragma once
/// @file clip_file.h
/// A motion clip from any file: a BVH file (read in-process, bvh_file.h) or
/// any rigged, animated file Assimp reads (FBX, glTF/glb, DAE, .X, MD5, IQM,
/// ...), read through the guarded importer process (core/import/guarded_import.h),
/// whose stream already carries the file's skeleton, skin weights and sampled
/// animations. The file's skeleton and one of its animations become a `Motion`
/// (issue 22), so that `rig --clip`, `retarget` and the GUI's Load Clip treat
/// every source alike.
///
/// Conversion (`motionFromAnimation()`), with G_j the animated joint-to-world
/// transform of joint j in a frame (mesh_import.h: `ImportedAnimation`) and
/// B_j its bind transform: the world rotation R_j is the rotation of G_j (its
/// nearest rotation, so that scale in the file's transforms is dropped) and the
/// world position x_j its translation. Each joint gets six channels
/// (Xposition Yposition Zposition Zrotation Yrotation Xrotation); its OFFSET is
/// its bind position in its parent's bind frame, R_p⁻¹(x_j − x_p) of B, and
/// per frame its local rotation is R_p⁻¹ R_j (as Z, Y, X Euler angles) and its
/// position channels R_p⁻¹(x_j − x_p) − OFFSET. Forward kinematics of the
/// motion (motion.h) then gives back x_j and R_j exactly. The bind pose is kept
/// as `Motion::bindValues` (the rest pose retargeting starts from), the joints
/// that carry skin weight as `Motion::weighted`. A file with several root
/// joints gets one added root at the origin ("<file stem>_root").
/// The frame time is the mean spacing of the animation's sample times.

#include "core/common/progress.h"
#include "core/import/mesh_import.h"
#include "core/motion/motion.h"

#include <string>
#include <vector>

namespace rig {

/// A clip read from a file.
struct ClipFile {
    Motion motion;
    std::string format;                  ///< "bvh", or the foreign file's extension ("glb", "fbx", ...).
    std::string animation;               ///< The file's animation used ("" for BVH).
    std::vector<std::string> animations; ///< All animations of the file that move its skeleton ("" for BVH).
};

/// The skeleton and animation `index` of an imported file as a Motion (see the file comment).
/// @throws rig::InvalidInput when `index` is out of range or the animation has no frames.
Motion motionFromAnimation(const ImportedSkeleton& skeleton, int index, const std::string& stem = "clip");

/// Reads a clip: BVH in-process, anything else through the guarded importer.
/// `animation` picks the file's animation by name ("" : the first).
/// @throws rig::IoError / rig::InvalidInput naming the file when it cannot be
///         read, has no skeleton, no animation, or no animation of that name.
ClipFile readClipFile(const std::string& path, const std::string& animation = "", const Progress& progress = {});

/// True for a path whose extension names a BVH file.
bool isBvhPath(const std::string& path);

} // namespace rig
