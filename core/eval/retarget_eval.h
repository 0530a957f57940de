#pragma once
/// @file retarget_eval.h
/// How much of an artist's animation survives auto-rigging plus retargeting
/// (issue 22): a rigged, animated character's own animation is the source
/// clip; the mesh alone is auto-rigged and weighted, the clip retargeted onto
/// the auto rig (retarget.h, thesis Ch. 5), and each frame's deformed mesh is
/// compared with the artist's own deformation of the same frame.
///
/// Per frame f, with A_v the artist's deformed vertex (the file's weights and
/// skinning transforms G_j(f)·B_j⁻¹, linear blend skinning), R_v ours (our
/// weights, forward kinematics of the retargeted pose) and U_v the unposed
/// (rest) vertex, all over the height h of the mesh along +Y, in %:
///  - raw     = mean_v |R_v − A_v| / h,
///  - aligned = the same after the rigid motion (rotation + translation,
///    Kabsch) that best aligns R to A, so a root path that drifted or a body
///    turned as a whole is not counted, only the shape;
///  - unposedRaw / unposedAligned: the same with U in place of R: what not
///    animating at all would score.
/// The ratios aligned / unposedAligned and raw / unposedRaw say which part of
/// the artist's motion was not reproduced (0: all of it, 1: none).
/// Bone directions: for the canonical bones (hips → spine top, spine top →
/// head, shoulder → elbow → wrist, hip → knee → ankle per side; joint_map.h),
/// the angle between the artist's and the retargeted bone's world direction,
/// averaged over the frames.

#include "core/common/types.h"
#include "core/eval/joint_map.h"
#include "core/import/mesh_import.h"
#include "core/motion/retarget.h"
#include "core/rig/skeleton.h"
#include "core/skin/skin_weights.h"

#include <limits>
#include <string>
#include <vector>

namespace rig {

/// Shape errors of one frame, % of height (see the file comment).
struct RetargetFrameError {
    double raw = 0.0, aligned = 0.0, unposedRaw = 0.0, unposedAligned = 0.0;
};

/// Mean angle of one canonical bone over the frames.
struct BoneDirectionError {
    std::string bone;     ///< "l_shoulder-l_elbow", ...
    double degrees = 0.0; ///< Mean over frames.
};

struct RetargetEvaluation {
    std::vector<RetargetFrameError> frames;
    RetargetFrameError mean;               ///< Means over the frames.
    std::vector<BoneDirectionError> bones; ///< Canonical bones mapped on both skeletons.
    double meanBoneDegrees = 0.0;          ///< Mean over `bones`.

    /// Our error over the unposed mesh's; NaN (no ratio) for a clip that
    /// leaves the mesh within `kStillClipPercent` of its rest (a one-frame
    /// bind pose: Testwuson's `Wuson_Bind` printed a ratio of 828,592).
    double alignedRatio() const { return ratio(mean.aligned, mean.unposedAligned); }
    double rawRatio() const { return ratio(mean.raw, mean.unposedRaw); }
    /// A mean unposed error (% of height) below this: the clip does not move the character.
    static constexpr double kStillClipPercent = 0.05;
    static double ratio(double ours, double unposed)
    {
        return unposed >= kStillClipPercent ? ours / unposed : std::numeric_limits<double>::quiet_NaN();
    }
};

/// The artist's side of the comparison.
struct ArtistAnimation {
    const MatrixX3d* V = nullptr;                ///< #V by 3 rest vertices (the welded mesh).
    const ImportedSkeleton* skeleton = nullptr;  ///< Bind transforms, weights W (#V by #J) and animations.
    int animation = 0;                           ///< Index into skeleton->animations.
    const CanonicalJointMap* map = nullptr;      ///< Canonical joints of the artist's skeleton.
};

/// Our side: the auto rig, its weights and the retargeted clip (one pose per animation frame).
struct RetargetedRig {
    const Skeleton* skeleton = nullptr;
    const SkinWeights* weights = nullptr;
    const CanonicalJointMap* map = nullptr;
    const RetargetedClip* clip = nullptr;
};

/// Compares every frame (see the file comment); `height` > 0 is the mesh's extent along +Y.
/// @throws rig::InvalidInput when the clip's frame count differs from the
///         animation's or the sizes do not fit.
RetargetEvaluation evaluateRetarget(const ArtistAnimation& artist, const RetargetedRig& ours, double height);

} // namespace rig
