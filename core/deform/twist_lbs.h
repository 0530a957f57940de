#pragma once
/// @file twist_lbs.h
/// Segmentation-based twist-corrected linear blend skinning (thesis §4.4,
/// eqs. 4.4–4.9; "SLBS"): LBS whose twist about each link is not blended
/// between joints (the candy-wrapper collapse of eq. 4.3) but applied
/// progressively along the link: a vertex at δ on segment (a = parents[c],
/// b = c) turns by θ_c·δ about the link axis, θ_c being the twist of joint c
/// (thesis §4.4 steps 1–4, θ' = θ·δ, and the general axis of eq. 4.9).
/// Added here (not in the thesis): the remaining, twist-free part of the
/// joints' motion (their swings, i.e. the bends) is blended rigidly, by
/// dual-quaternion linear blending (DLB, Kavan et al. 2008), instead of
/// linearly, so bends keep their volume too (the thesis's method is LBS in
/// bends and loses 2.0–3.9 % there, Table 4.2).
///
/// ## Formulation
/// In bind space the skinning transform of joint k factors along its chain,
/// M_k = L_0 L_1 ⋯ L_k, where L_j is joint j's local rotation about its bind
/// position b_j. Splitting each local rotation into swing and twist about its
/// link axis u_j = (b_j − b_parent)/‖·‖ (swing–twist decomposition, R = S·T),
/// L_j = Ls_j · T_j(θ_j), with T_j(θ) the rotation by θ about the line
/// (b_j, u_j) — Rodrigues' formula, thesis eq. 4.9. With U_j = U_parent · T_j
/// (U_root = I) the chain of twists down to j, the thesis's per-influence
/// matrices M'_δm (eq. 4.4: the link's parent joint; eq. 4.5: joints above it,
/// which receive the twists of the joints in between; eq. 4.6: joints below
/// it, which receive the negative twists) are all
///     M'_k = M_k · U_k⁻¹ · U_parent(c) · T_c(θ_c δ),
/// so eq. 4.7, p' = Σ_k w_k M'_k p, becomes
///     p' = (Σ_k w_k G_k) · H_c · T_c(θ_c δ) · p,
///     G_k = M_k U_k⁻¹ (per joint: "untwisted" skinning transform),
///     H_c = U_parent(c) (per segment), T_c(θ_c δ) (per vertex).
/// The partial twist factors out of the blend (all influences share it,
/// which is the thesis's point). The G_k differ from each other only by the
/// joints' swings (G_parent⁻¹ G_k = U_parent Ls_k U_parent⁻¹), and their
/// linear blend Σ_k w_k G_k is what still loses volume in a bend (a blend of
/// rotations is not a rotation). This deformer therefore blends them as unit
/// dual quaternions ĝ_k (`dualQuaternion()` of dqs.h):
///     p' = DLB(w, ĝ) · H_c · T_c(θ_c δ) · p,
///     DLB(w, ĝ) = the rigid motion of b̂/‖b_0‖, b̂ = Σ_k s_k w_k ĝ_k,
/// s_k = ±1 putting every ĝ_k in the hemisphere of the vertex's most-weighted
/// influence (as in dqs.h). Swings between neighbouring joints stay well
/// below 180°, so the hemisphere never flips here (the twists, which do pass
/// 180°, are not in the blend). Unsegmented vertices (segment −1) are plain
/// LBS, p' = Σ_k w_k M_k p. Normals: the same rigid motion's rotation.
///
/// Consequences: the identity pose gives the rest mesh; a rigid motion of the
/// whole skeleton moves the mesh rigidly; with no twist (θ = 0, H = T = I) the
/// result is DQS of the skinning transforms (G_k = M_k), and with neither
/// twist nor bend (all M_k equal) it is LBS. The result is continuous across
/// segment ends (δ = 1 on c equals δ = 0 on a child of c).
///
/// ## Which vertices take the partial twist (issue 16 item 4)
/// The thesis gives every vertex on link c the twist θ_c δ, whatever its
/// weights: it assumes the segmentation puts on c only skin of the limb. On a
/// real character it does not (HUMAN.blend with bone-heat weights: region
/// growing puts waist vertices beside the hanging arm on the upper-arm link at
/// δ 0.6–0.8 with a third of their weight on the arm), and the progressive
/// twist then turns torso skin about the arm: 41 triangles stretched up to 14×
/// by a 90° twist where LBS stretches none. Two changes, both from the rig
/// itself, none a clamp on the result:
///  - **The twist of a limb stays on the limb's skin.** A vertex on link c
///    takes the partial twist θ_c δ λ, λ = s(2 w_L − 1), s the smoothstep on
///    [0, 1] and w_L its weight on the joints of c's limb (the subtree hanging
///    off the nearest joint above c with more than one child: the arm below
///    the chest, the leg below the hips). Skin weighted wholly on the limb
///    (w_L = 1, every vertex of the thesis's bar and tube) keeps the thesis's
///    θ δ; a vertex weighted as much on the body as on the limb (w_L ≤ ½, where
///    a weight-respecting segmentation switches from the limb's links to the
///    body's) takes none, so the twist field is continuous across that border
///    however the segmentation drew it. `twistSegmentation()` gives these δ λ.
///  - **Links leaving a branching joint carry no twist** (`twistAxis()` is zero
///    there): about the pelvis link (hips → hip joint) or the chest → clavicle
///    link a "twist" of the child is a bend of the limb against the body (a
///    thigh raised forward turns about the pelvis link), and spreading it along
///    the link turned the pelvis about the hip joint (twice LBS's stretched
///    triangles). Such a joint's rotation is then blended as a bend (DLB).
/// Figures before/after: bench/notes/deformers.md, "Deformation quality on real
/// characters (issue 16, item 3)".
///
/// ## Twists beyond ±180°
/// A quaternion holds a twist only modulo 360°, and the extracted angle is
/// wrapped to (−180°, 180°], so a twist growing past 180° would flip the
/// progressive twist to the other way round. Callers that know the real
/// (unwrapped) angle — an animation channel, a UI dial, the previous frame via
/// `unwrapAngle()` — pass it in `twistTransforms(…, unwrappedTwist)`; only the
/// per-vertex partial twist T_c(θ_c δ) depends on it.
///
/// ## GPU
/// A vertex shader needs per joint the dual quaternion of G_k (8 floats,
/// `dualQuaternion(untwisted[k])`) and M_k (3×4, for unsegmented vertices),
/// per segment c the base H_c (3×4), the axis point b_c, the axis u_c and θ_c,
/// and per vertex the segment c and δ: exactly `TwistTransforms` plus
/// `Segmentation`.

#include "core/deform/lbs.h"
#include "core/rig/pose.h"
#include "core/skin/segmentation_data.h"

#include <span>
#include <vector>

namespace rig {

/// Swing–twist decomposition q = swing · twist, twist a rotation about `axis`.
struct SwingTwist {
    Eigen::Quaterniond swing;
    Eigen::Quaterniond twist;
    double angle = 0.0; ///< Twist angle about `axis` in radians, wrapped to [−π, π].
};

/// Decomposes a unit quaternion about a unit axis (both in the same frame).
/// A swing of exactly 180° leaves the twist undefined; it is then 0.
SwingTwist swingTwist(const Eigen::Quaterniond& q, const Vec3& axis);

/// `wrapped` + 2πn closest to `reference` (radians): unwraps an angle sequence
/// frame by frame (`reference` = the previous frame's unwrapped angle).
double unwrapAngle(double reference, double wrapped);

/// A joint whose every child bone turns away from its link by more than this
/// carries no twist (`twistAxis()`).
constexpr double kMaxTwistTurnDegrees = 30.0;

/// Unit link direction of joint j in bind space, (b_j − b_parent(j))/‖·‖: the
/// axis its twist is measured about. Zero (no twist correction) for the root,
/// zero-length links, links leaving a joint with several children (hips,
/// chest, a hand's fingers; see "Which vertices take the partial twist"), and
/// joints where the limb does not go on along the link: every child bone
/// turns from it by more than `kMaxTwistTurnDegrees` (the shoulder of an
/// A-pose, whose upper arm leaves the clavicle at 41° on re_male; an ankle,
/// whose foot leaves the shin at 80-90°). About such a link a swing of the
/// child is partly a "twist" by the decomposition: raising re_male's arm 90°
/// about the front axis twisted the clavicle link's skin by 55° (21 triangles
/// stretched beyond 2× where LBS has 2). Such a joint's rotation is blended
/// as a bend (DLB). A leaf (a hand without fingers) keeps its link's axis.
Vec3 twistAxis(const Skeleton& skeleton, int joint);

/// #J wrapped twist angles of a pose (radians in [−π, π]): the twist of each
/// joint's local rotation about its link axis (expressed in its bind frame).
/// 0 for the root and zero-length links.
/// @throws rig::InvalidInput when the pose does not match the skeleton.
std::vector<double> twistAngles(const Skeleton& skeleton, const Pose& pose);

/// Per-pose data of the twist-corrected deformer (see the formulation above).
struct TwistTransforms {
    std::vector<Eigen::Isometry3d> skinning;    ///< #J M_k, for unsegmented vertices (plain LBS).
    std::vector<Eigen::Isometry3d> untwisted;   ///< #J G_k = M_k U_k⁻¹ (rigid; blended as dual quaternions).
    std::vector<Eigen::Isometry3d> segmentBase; ///< #J H_c = U_parent(c); identity for the root.
    MatrixX3d axisPoint;                        ///< #J by 3 b_c, a point on link c's axis (bind space).
    MatrixX3d axisDirection;                    ///< #J by 3 u_c, unit link axis (zero: no twist).
    std::vector<double> angle;                  ///< #J θ_c in radians, unwrapped when given.
    std::vector<int> parents;                   ///< #J the skeleton's hierarchy (limb membership, `twistSegmentation()`).
};

/// Builds the twist data of a pose. `posed` must be forwardKinematics(skeleton,
/// pose). `unwrappedTwist` is empty (use the wrapped angles of `twistAngles()`)
/// or #J angles in radians, each equal to the pose's twist modulo 2π
/// (± 1e-4 rad; the root's entry is ignored).
/// @throws rig::InvalidInput on size mismatches, an invalid skeleton, or an
/// unwrapped angle that disagrees with the pose.
TwistTransforms twistTransforms(const Skeleton& skeleton, const Pose& pose, const PosedSkeleton& posed,
                                std::span<const double> unwrappedTwist = {});

/// The segmentation the twist-corrected deformer twists by: the same links,
/// δ replaced by the partial-twist fraction δ·λ (λ from the vertex's weight on
/// the link's limb, see "Which vertices take the partial twist"). What a GPU
/// path must upload in place of δ to match the CPU deformer.
/// @throws rig::InvalidInput for an invalid skeleton or segmentation, or a
/// weight's joint outside the skeleton.
Segmentation twistSegmentation(const Segmentation& segmentation, const SkinWeights& weights, const Skeleton& skeleton);

/// `bindTwist()` of skin_binding.h with the skeleton's link axes (b_c its
/// bind positions, u_c = `twistAxis()`) and `twistSegmentation()` of the
/// binding's own weights: what `twistTransforms()` of any pose of this
/// skeleton carries.
/// @throws rig::InvalidInput for an invalid skeleton or segmentation.
void bindTwist(SkinBinding& binding, const Segmentation& segmentation, const Skeleton& skeleton);

/// Twist-corrected LBS of a bound mesh (`bindSkin()` then `bindTwist()`)
/// into `out`, its storage reused from frame to frame.
/// @throws rig::InvalidInput when the binding has no segmentation, the pose
/// another joint count or other link axes than the binding, or a transform is
/// not rigid.
void twistLbs(const SkinBinding& binding, const TwistTransforms& T, SkinnedMesh& out,
              const SkinningOptions& options = {});

/// Twist-corrected LBS of positions and (if N is non-empty) normals (thesis
/// eq. 4.7 with eq. 4.9, swings blended by DLB; see the formulation above).
/// @param V #V by 3 rest positions. @param N #V by 3 rest normals, or empty.
/// @param W influences (the same as for LBS; joint indices index the pose).
/// @param segmentation #V segments and δ (segmentation_data.h); the partial
/// twist is `twistSegmentation()`'s δ·λ (the hierarchy from `T.parents`).
/// @param T the pose's `twistTransforms()`.
/// @throws rig::InvalidInput when sizes disagree, an index is out of range or
/// a transform is not rigid.
DeformedMesh twistLbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W,
                      const Segmentation& segmentation, const TwistTransforms& T,
                      const SkinningOptions& options = {});

/// The same, writing into `out` (binds on every call).
void twistLbs(const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W, const Segmentation& segmentation,
              const TwistTransforms& T, DeformedMesh& out, const SkinningOptions& options = {});

} // namespace rig
