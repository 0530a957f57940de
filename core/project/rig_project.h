#pragma once
/// @file rig_project.h
/// The facade between the engine and its two front ends (GUI and CLI).
///
/// A `RigProject` is a value: each stage result is an immutable
/// `shared_ptr<const T>`, so copying a project is a cheap snapshot that a worker
/// thread can read while the GUI keeps showing the previous one. Setting the
/// result of a stage clears the results of the stages after it.
///
/// The stages and their order are those of pipeline.h: character (load) →
/// curve skeleton (voxelize, fill, thin, graph, refine) → rig (labels, fit) →
/// weights (segmentation, weights) → clip (retarget). The project holds each
/// stage's inputs (what to load, options, labels, which clip) and results;
/// `nextStage()` of pipeline.h tells which result is missing.

#include "core/deform/deformers.h"
#include "core/motion/retarget.h"
#include "core/project/character_orientation.h"
#include "core/project/character_source.h"
#include "core/rig/fingers.h"
#include "core/rig/fit_template.h"
#include "core/rig/humanoid_check.h"
#include "core/rig/template.h"
#include "core/skin/part_binding.h"
#include "core/skin/skinning.h"
#include "core/skeleton/end_nodes.h"
#include "core/skeleton/extract.h"

#include <cstdint>
#include <memory>

namespace rig {

/// A motion clip as loaded (BVH) and as retargeted onto the project's rig.
struct LoadedClip {
    std::string path;          ///< The BVH file as given.
    std::string name;          ///< Its file name without folder.
    Motion source;             ///< The clip as read.
    RetargetedClip retargeted; ///< On the rig's skeleton (thesis Ch. 5).
};

/// Where the rig comes from.
enum class RigSource {
    Fitted,       ///< The template fitted to the curve skeleton (thesis §2.5).
    FileSkeleton, ///< The file's own skeleton (`rigFromImportedSkeleton()`).
};

class RigProject {
public:
    /// What the load stage loads: a path, "default" or "default:POSE".
    const std::string& characterSpec() const { return m_characterSpec; }
    /// Sets what to load; a different spec clears the character and every later stage.
    void setCharacterSpec(const std::string& spec);
    /// How the load stage orients the character (core/project/character_orientation.h);
    /// a change clears the character. The result of the last load is
    /// `orientationResult()`; with facing "auto" the load sets `front()` to +Z.
    const OrientationOptions& orientation() const { return m_orientation; }
    void setOrientation(const OrientationOptions& options);
    const OrientationResult& orientationResult() const { return m_orientationResult; }
    void setOrientationResult(const OrientationResult& result) { m_orientationResult = result; }
    /// Which joints of a file's own skeleton get weight ("auto", "all" or
    /// "NAME,NAME,…", core/skin/deform_joints.h); used with RigSource::FileSkeleton.
    const std::string& deformJoints() const { return m_deformJoints; }
    void setDeformJoints(const std::string& spec)
    {
        m_deformJoints = spec;
        m_skinning.reset();
    }
    /// Where the rig comes from (default: fitted).
    RigSource rigSource() const { return m_rigSource; }
    /// Sets the rig source; a different one clears the rig.
    void setRigSource(RigSource source);
    /// Whether the rig stage refuses, with the reason, a figure that does not
    /// look like a humanoid (core/rig/humanoid_check.h) instead of fitting the
    /// humanoid template to it (the CLI without --force). Default false: the
    /// GUI fits and shows the warning.
    bool requireHumanoid() const { return m_requireHumanoid; }
    void setRequireHumanoid(bool on) { m_requireHumanoid = on; }
    /// Labels the rig stage fits with (the rig is cleared); all -1: suggested
    /// by the rig stage. Kept across a reload of the same character spec (the
    /// curve skeleton is deterministic), dropped with another spec.
    void setLabels(const EndNodeLabels& labels);
    const EndNodeLabels& requestedLabels() const { return m_requestedLabels; }
    /// The clip the clip stage retargets ("" none); a different path clears the clip.
    const std::string& clipPath() const { return m_clipPath; }
    void setClipPath(const std::string& path);
    /// How the clip stage retargets (frame step, rest pose, …).
    const RetargetOptions& retargetOptions() const { return m_retargetOptions; }
    void setRetargetOptions(const RetargetOptions& options) { m_retargetOptions = options; }
    /// The rig the current clip was retargeted onto (the clip is stale when it is not `rig()`).
    const std::shared_ptr<const FitResult>& clipRig() const { return m_clipRig; }

    /// The loaded character, or null before anything is loaded.
    const std::shared_ptr<const LoadedCharacter>& character() const { return m_character; }
    bool hasCharacter() const { return m_character != nullptr; }
    /// Replaces the character (and clears every later stage).
    void setCharacter(std::shared_ptr<const LoadedCharacter> character);

    /// Options of the curve-skeleton stage (resolution n and refinement).
    const CurveSkeletonOptions& curveSkeletonOptions() const { return m_skeletonOptions; }
    void setCurveSkeletonOptions(const CurveSkeletonOptions& options) { m_skeletonOptions = options; }
    /// The curve skeleton of the current character, or null when not computed.
    const std::shared_ptr<const CurveSkeletonResult>& curveSkeleton() const { return m_curveSkeleton; }
    /// Sets the curve skeleton (computed for the current character); clears the labels and the rig.
    void setCurveSkeleton(std::shared_ptr<const CurveSkeletonResult> skeleton);

    /// End-node labels (thesis §2.5) of the current curve skeleton.
    const EndNodeLabels& labels() const { return m_labels; }
    /// The template the rig is fitted to ("humanoid21" or a file path).
    const std::shared_ptr<const RigTemplate>& rigTemplate() const { return m_template; }
    void setRigTemplate(std::shared_ptr<const RigTemplate> t) { m_template = std::move(t); }
    /// How the fit places fingers (core/rig/fingers.h; default: none). With a
    /// mode other than none and the default template humanoid21, the rig is
    /// fitted with humanoid51 (humanoid21 with five fingers per hand).
    /// A change clears the rig.
    const FingerOptions& fingerOptions() const { return m_fingerOptions; }
    void setFingerOptions(const FingerOptions& options);
    /// The direction the character faces (default +Z): decides left and right
    /// for the suggested labels and the roll of the bind orientations.
    const Vec3& front() const { return m_front; }
    void setFront(const Vec3& front) { m_front = front; }
    /// The humanoid check of the current character and curve skeleton
    /// (core/rig/humanoid_check.h), or null before the rig stage looked.
    /// The rig stage sets it before fitting a template, so it is there when
    /// the fit fails; cleared with the curve skeleton. See `humanoidCheckOf()`.
    const std::shared_ptr<const HumanoidCheck>& humanoidCheck() const { return m_humanoidCheck; }
    void setHumanoidCheck(std::shared_ptr<const HumanoidCheck> check) { m_humanoidCheck = std::move(check); }
    /// The fitted rig (after the artist's joint edits), or null.
    const std::shared_ptr<const FitResult>& rig() const { return m_rig; }
    /// Sets labels and the rig fitted for them (see `fitRig()`).
    void setRig(const EndNodeLabels& labels, std::shared_ptr<const FitResult> rig);

private:
    EndNodeLabels m_labels;
    std::shared_ptr<const RigTemplate> m_template;
    std::shared_ptr<const FitResult> m_rig;
    Vec3 m_front = Vec3::UnitZ();
    FingerOptions m_fingerOptions;

public:
    /// How the weights are computed (method and parameters).
    const WeightOptions& weightOptions() const { return m_weightOptions; }
    /// Sets the weight options; the weights computed with the old ones stay
    /// (shown until new ones arrive) but are no longer current.
    void setWeightOptions(const WeightOptions& options);
    /// Parts of the character bound rigidly to a joint (core/skin/part_binding.h),
    /// honoured by every weight method. Setting them makes the weights stale
    /// like `setWeightOptions()`; another character spec clears them (a reload
    /// of the same spec keeps them, as it keeps the labels).
    const std::vector<PartBinding>& partBindings() const { return m_partBindings; }
    void setPartBindings(const std::vector<PartBinding>& bindings);
    /// Counts `setWeightOptions()` and `setPartBindings()` calls: a result computed with another count is stale.
    std::uint64_t weightOptionsRevision() const { return m_weightOptionsRevision; }
    /// Segmentation, weights and diagnostics of the current rig, or null. Cleared
    /// whenever the rig, the curve skeleton or the character changes.
    const std::shared_ptr<const SkinningResult>& skinning() const { return m_skinning; }
    /// Sets the weights, computed with the current weight options.
    void setSkinning(std::shared_ptr<const SkinningResult> skinning)
    {
        m_skinning = std::move(skinning);
        m_skinningRevision = m_weightOptionsRevision;
    }
    /// Whether the weights were computed with the current weight options.
    bool skinningCurrent() const { return m_skinning && m_skinningRevision == m_weightOptionsRevision; }

    /// The loaded motion clip retargeted onto the rig, or null. Kept when the
    /// rig is edited (the caller retargets it again: `loadClip()`), cleared
    /// with the character.
    const std::shared_ptr<const LoadedClip>& clip() const { return m_clip; }
    /// Sets the clip (retargeted onto the current rig); its path becomes `clipPath()`.
    void setClip(std::shared_ptr<const LoadedClip> clip);

    /// The deformer the character is posed and drawn with: an id of the
    /// deformer table (core/deform/deformers.h), `defaultDeformer` until set.
    /// Saved in the project; a change makes no result stale.
    const std::string& deformer() const { return m_deformer; }
    /// Sets the deformer by id (its row's id is kept).
    /// @throws rig::InvalidInput (`findDeformer()`: the valid ids) for an id not
    ///         in the table; the deformer stays.
    void setDeformer(std::string_view id);
    static constexpr std::string_view defaultDeformer = "lbs";

private:
    std::string m_deformer{defaultDeformer};
    std::string m_characterSpec;
    RigSource m_rigSource = RigSource::Fitted;
    std::string m_clipPath;
    EndNodeLabels m_requestedLabels;
    OrientationOptions m_orientation;
    OrientationResult m_orientationResult;
    std::string m_deformJoints = "auto";
    bool m_requireHumanoid = false;
    std::shared_ptr<const FitResult> m_clipRig;
    RetargetOptions m_retargetOptions;
    WeightOptions m_weightOptions;
    std::vector<PartBinding> m_partBindings;
    std::uint64_t m_weightOptionsRevision = 0;
    std::uint64_t m_skinningRevision = 0;
    std::shared_ptr<const SkinningResult> m_skinning;
    std::shared_ptr<const LoadedClip> m_clip;
    std::shared_ptr<const LoadedCharacter> m_character;
    CurveSkeletonOptions m_skeletonOptions;
    std::shared_ptr<const CurveSkeletonResult> m_curveSkeleton;
    std::shared_ptr<const HumanoidCheck> m_humanoidCheck;
};

/// A template from a spec: a bundled name ("humanoid21"), a template JSON file,
/// or a BVH file whose hierarchy becomes the template ("fit this skeleton").
/// @throws rig::InvalidInput / rig::IoError naming the template or file.
RigTemplate resolveTemplate(const std::string& spec);

/// Fits the project's template (humanoid21 when none is set; see
/// `RigProject::fingerOptions()` for fingers) to its curve skeleton with
/// `labels` (thesis §2.5), the fingers on the character's mesh
/// (`fitWithFingers()`, core/rig/fingers.h): fast, run on the GUI thread.
/// @throws rig::InvalidInput when there is no curve skeleton or the labels are invalid.
FitResult fitRig(const RigProject& project, const EndNodeLabels& labels);

/// Moves joint `joint` of a rig to `position` and re-orients the bones (the
/// manual adjust `ajM`, thesis Ch. 5). With `mirror`, the joint of the other
/// side (Left<->Right in its name) moves to the mirror image across the plane
/// x = hips.x. Returns the edited rig.
FitResult moveJoint(const FitResult& rig, int joint, const Vec3& position, bool mirror);

/// Index of the joint mirroring `joint` (LeftArm <-> RightArm), if any.
std::optional<int> mirrorJoint(const Skeleton& skeleton, int joint);

/// A rig made of a file's own skeleton (issue 5, "existing skeletons": skip
/// extraction and fitting): names and hierarchy as imported, bind positions the
/// translations of `bindGlobal`, bind orientations their rotations (any scale
/// or shear removed by the polar decomposition). Joint i of the rig is joint i
/// of the file, so the file's weights `s.W` apply to it unchanged. A file with
/// several roots (bones under unrelated nodes) has its extra roots parented to
/// joint 0. `jointNode` is all -1, `chains` empty, `front` +Z.
/// @throws rig::InvalidInput (naming `rig::rigFromImportedSkeleton()`) for an
///         empty skeleton, mismatched array sizes, parents not before children,
///         or non-finite bind matrices.
FitResult rigFromImportedSkeleton(const ImportedSkeleton& s);

/// Suggests end-node labels for the project's curve skeleton, with the
/// project's facing direction: the five ends of the humanoid body found among
/// all the ends (`findHumanoidEnds()`, issue 39), else those of
/// `suggestEndNodeLabels()`. @throws rig::InvalidInput as suggestEndNodeLabels().
EndNodeLabels suggestLabels(const RigProject& project);

/// Parses a facing direction: "+z", "-z", "+x", "-x" (case-insensitive).
/// @throws rig::InvalidInput for anything else.
Vec3 parseFacing(const std::string& text);

/// Runs the weights stage on the project's character and rig with its weight
/// options (`computeSkinning()` in core/skin/skinning.h), using the curve
/// skeleton's voxel solid for visibility when there is one.
/// @throws rig::InvalidInput when there is no character or no rig, and
/// whatever `computeSkinning()` throws.
SkinningResult computeSkinning(const RigProject& project, const Progress& progress = {});

/// Reads a clip (a BVH file or any rigged, animated file: clip_file.h) and
/// retargets it onto the project's rig (thesis Ch. 5, `retargetClip()`);
/// `name` is set to the file name. With the default `options.rest` (Auto) the
/// rest pose follows the rule of retarget.h (bind pose, T-pose frame 0, zero pose).
/// @throws rig::InvalidInput when there is no rig yet, rig::IoError /
/// rig::ParseError for unreadable or malformed files (naming the file and line).
LoadedClip loadClip(const RigProject& project, const std::string& path, const RetargetOptions& options = {},
                    const Progress& progress = {});

/// Retargets an already loaded clip again onto the project's current rig
/// (after a joint edit), keeping the artist's edits of the mapping (joints
/// matched `RetargetMatch::User`) when the rig has the same joints.
/// @throws as loadClip().
LoadedClip retargetLoadedClip(const RigProject& project, const LoadedClip& clip, const RetargetOptions& options = {},
                              const Progress& progress = {});

/// Runs the curve-skeleton stage on the project's character with its options.
/// @throws rig::InvalidInput when no character is loaded, and whatever
/// `extractCurveSkeleton()` throws.
CurveSkeletonResult computeCurveSkeleton(const RigProject& project, const Progress& progress = {});

} // namespace rig
