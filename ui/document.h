#pragma once
/// @file document.h
/// The UI's one handle on the engine: wraps a `rig::RigProject` and runs long
/// stages on a worker thread with progress and cancel. Widgets observe its
/// signals; they never run algorithms or own threads.
///
/// One stage runs at a time. The worker reads a snapshot of the project; its
/// result is applied on the GUI thread when it finishes, so the last good
/// result stays visible while a new one computes. A failed or cancelled stage
/// changes nothing.

#include "core/project/pipeline.h"
#include "core/project/project_io.h"
#include "core/project/rig_project.h"
#include "ui/task.h"
#include "ui/viewport/skin_data.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace rig::ui {

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    /// The current snapshot of the project (cheap to copy).
    const RigProject& project() const { return m_project; }
    /// True while a stage runs on the worker thread.
    bool busy() const { return m_busy; }
    /// The source of the current character ("" when none).
    QString characterSource() const;
    /// When true (the default), the curve-skeleton stage starts by itself when
    /// the project lacks it (after a load); when false, only `buildCurveSkeleton()` starts it.
    void setAutoSkeleton(bool on) { m_autoSkeleton = on; }
    /// The artist's edits (labels, joint moves): Ctrl+Z / Ctrl+Shift+Z.
    QUndoStack* undoStack() { return &m_undo; }
    /// Joint edits are mirrored to the other side (LeftArm <-> RightArm).
    bool mirrorEdits() const { return m_mirror; }
    void setMirrorEdits(bool on) { m_mirror = on; }

    /// Labels `node` as `limb` and refits the rig at once (undoable). A node that
    /// carried another label swaps with the limb's previous node. Returns false
    /// (and emits `stageFailed("rig", ...)`) when the result cannot be fitted.
    bool setLabel(Limb limb, int node);
    /// Replaces all labels and refits (undoable).
    bool setLabels(const EndNodeLabels& labels, const QString& description);
    /// Moves a joint of the fitted rig (undoable; mirrored when `mirrorEdits()`).
    bool moveJoint(int joint, const Vec3& position);
    /// Fits another template: "humanoid21", a template JSON or a BVH file whose
    /// hierarchy is used ("fit this skeleton"). Refits at once; on failure the
    /// current template and rig stay and `stageFailed("rig", ...)` says why.
    bool setRigTemplate(const QString& spec);
    /// Sets how the fit places fingers (core/rig/fingers.h: none, on the mesh's
    /// fingertips, from the hand's shape; fingers per hand) and refits at once
    /// (undoable; saved in the project). On failure the current options and rig
    /// stay and `stageFailed("rig", ...)` says why.
    bool setFingerOptions(const FingerOptions& options);
    /// Sets the direction the character faces (+Z by default) and re-labels and
    /// refits the rig for it (the relabelling is undoable).
    void setFront(const Vec3& front);
    /// Says which of the file's axes points up ("file": the file's own say or
    /// import's guess; "auto": detected from the shape; "+x" ... "-z"): the
    /// character is loaded again in that frame and the skeleton, rig and weights
    /// recomputed (issue 14). Undoable; saved in the project.
    void setUpAxis(const QString& up);
    /// Says which way the character faces: "auto" detects the front from the
    /// shape and turns the character to face +Z (loaded again, the skeleton,
    /// rig and weights recomputed); "+z", "-z", "+x", "-x" give it without a
    /// turn (after "auto": loaded again as the file has it; otherwise only the
    /// labels and the rig follow, as `setFront()`). Undoable; saved in the project.
    void setFacing(const QString& facing);
    /// Suggests labels for the current skeleton (undoable: "Auto-label").
    bool autoLabel();
    /// The nearest node of the labelled curve skeleton to `p` (the `ajM` snap,
    /// thesis Ch. 5), or `p` itself when there is nothing to snap to.
    Vec3 snapToSkeleton(const Vec3& p) const;
    /// The rig as it would be after moving a joint, for live feedback while dragging.
    std::shared_ptr<const FitResult> previewJointMove(int joint, const Vec3& position) const;

    // Posing (issue 6). Fast work: stays on the GUI thread.
    /// The current pose of the fitted rig (the identity when there is none).
    const Pose& pose() const { return m_pose; }
    /// False while the pose is a preview (a ring being dragged, a clip
    /// playing): readouts may then refresh less often than every frame.
    bool poseCommitted() const { return m_poseCommitted; }
    /// #J unwrapped twist angles of the pose in radians (twist_lbs.h): they
    /// follow the edits step by step, so a twist dragged past 180° keeps
    /// turning the same way in the twist-corrected deformer.
    const std::vector<double>& poseTwist() const { return m_poseTwist; }
    /// Shows a pose without an undo step (live feedback while dragging).
    /// Ignored when it does not match the rig.
    void previewPose(const Pose& pose);
    /// Makes `pose` current as one undoable step from the last committed pose
    /// (undo returns there, previews included). Returns false when it does not match the rig.
    bool commitPose(const Pose& pose, const QString& description);
    /// Drops a preview: back to the last committed pose.
    void cancelPosePreview();
    /// Sets one joint's local rotation (undoable).
    bool setJointRotation(int joint, const Eigen::Quaterniond& rotation);
    /// Back to the bind pose (undoable).
    void resetPose();
    /// The deformer the character is posed with: the project's
    /// (`RigProject::deformer()`, an id of core/deform/deformers.h; saved with it).
    const std::string& deformer() const { return m_project.deformer(); }
    /// Selects a deformer by id (the project changes: unsaved until saved; no
    /// undo step, as a view switch); an unknown id is refused (`stageFailed("pose", …)`).
    void setDeformer(const std::string& deformer);

    // Projects and export (issue 8).
    /// The project file last saved to or opened from; empty when none.
    QString projectPath() const { return m_projectPath; }
    /// The humanoid check's warning for the current rig; empty when none.
    QString humanoidWarning() const { return m_humanoidWarning; }
    /// True from `recoverProject()` until the work is saved (or another file opened).
    bool isRecovered() const { return m_recovered; }
    /// True when something changed since the last save or open.
    bool isModified() const { return m_modified || !m_undo.isClean(); }
    /// Saves the project to `path` (atomically: the previous file survives any
    /// failure) with the camera; the document then refers to `path` unless
    /// `autosave`. Returns false and emits `stageFailed("save", ...)` naming the
    /// file and the problem.
    bool saveProject(const QString& path, const std::optional<ProjectCamera>& camera, bool autosave = false);
    /// Exports the rigged character as glTF binary (.glb) with the loaded clip
    /// as its animation (stage "export", worker thread). Needs weights.
    void exportGltf(const QString& path);
    /// What an export holds besides the character (File ▸ Export's dialog).
    struct GltfExportRequest {
        bool includeClip = true;   ///< The loaded clip as an animation.
        QStringList extraClips;    ///< BVH files retargeted onto the rig, each its own animation.
        bool metres = false;       ///< Scale to metres where the file says its unit.
        int firstFrame = 0;        ///< Frames of each clip, [firstFrame, lastFrame]; -1: to the end.
        int lastFrame = -1;
        bool rootMotion = true;    ///< Key the root's translation.
        QString boneNames = "rigsmith"; ///< The joints' names: a preset of core/rig/bone_names.h.
    };
    /// Exports as glTF (.glb, or .gltf with its images beside it) with `request`'s
    /// clips and options; a character read from a file is written as the file has
    /// it (meshes, UVs, materials, textures). Textures left out are reported by
    /// `rigNotice`.
    void exportGltf(const QString& path, const GltfExportRequest& request);
    /// Writes the retargeted clip as BVH of the rig's skeleton. Returns false
    /// and emits `stageFailed("export", ...)` on failure.
    bool exportClipBvh(const QString& path);

    // Weights (issue 5) and clips (issue 7): stages on the worker thread.
    /// Sets the weight method and parameters and recomputes the weights
    /// (stage "weights"); the last good weights stay until the new ones arrive.
    /// One undo step ("Weight method …", "Segmentation …", "Weight parameters"):
    /// undo restores the previous options and the weights computed with them.
    void setWeightOptions(const WeightOptions& options);
    /// Binds part `part` (`characterParts()` order) rigidly to rig joint
    /// `joint`, or back to the weight method with an empty `joint`: one undo
    /// step; the weights are recomputed (core/skin/part_binding.h).
    void setPartBinding(int part, const QString& joint);
    /// The pose of the loaded clip at `seconds` (interpolated) becomes the
    /// current pose, without an undo step (playback and scrubbing). No-op
    /// without a clip.
    void setClipTime(double seconds);
    /// Forgets the loaded clip (the pose stays).
    void clearClip();
    /// Corrects the clip's mapping: target joint `target` follows source joint
    /// `source` (empty: none, identity rotation), then retargets the clip with
    /// the edited mapping (fast; undoable). False and `stageFailed("clip", ...)`
    /// for unknown names.
    bool setClipMapping(const QString& target, const QString& source);

    // Weight painting (issue 18). Fast work: stays on the GUI thread.
    /// Shows painted weights without an undo step (live feedback while a stroke
    /// runs). Ignored without weights or when they do not match the mesh and rig.
    void previewWeights(const SkinWeights& weights);
    /// Ends a stroke: the weights become `after` as one undo step ("Paint
    /// LeftArm") whose undo restores `before` bit for bit. Ignored (returns
    /// false) when either does not match the current weights' shape.
    bool commitWeightStroke(SkinWeights before, SkinWeights after, const QString& description);

public slots:
    /// Opens a project file (stage "project"): loads its character, rebuilds
    /// the curve skeleton at the saved resolution, applies the saved labels and
    /// joints, the weight options and the clip. A missing mesh fails with a
    /// message naming it (`projectMeshMissing` lets the UI ask where it went);
    /// `mesh`, when given, replaces the saved mesh path.
    void openProject(const QString& path, const QString& mesh = {});
    /// Opens an autosave as recovered work (stage "project", as `openProject()`):
    /// the document then refers to `projectPath` (the project the autosave stood
    /// for; empty when the session had none), not to the autosave, and is marked
    /// modified and recovered, so Save asks where and nothing is written into the
    /// autosave or over the original without the user choosing it.
    void recoverProject(const QString& autosave, const QString& projectPath);
    /// Recomputes the weights of the current rig (stage "weights"); also runs
    /// by itself after every change of the rig, queued behind a running stage.
    void computeWeights();
    /// Reads a BVH clip and retargets it onto the rig (stage "clip"); on
    /// success `clipChanged`, on failure `stageFailed("clip", ...)` naming the
    /// file and the problem, and the previous clip stays.
    void loadClip(const QString& path);
    /// Loads a file path, "default" or "default:POSE" on the worker thread.
    /// On success the character replaces the current one (`characterChanged`);
    /// on failure the current character stays and `stageFailed` carries the message.
    void openCharacter(const QString& spec);
    /// Recomputes the curve skeleton at resolution n (voxels on the longest axis).
    /// Rebuilding an existing skeleton is one undo step ("Resolution n"): undo
    /// restores the previous skeleton, labels, rig and weights.
    void buildCurveSkeleton(int resolution);
    /// Asks the running stage to stop; it then ends with `stageCancelled` and nothing changes.
    void cancel();
    /// Blocks until the running stage has finished and its result is applied (tests, shutdown).
    void waitForIdle();

signals:
    /// The humanoid check of the last automatic rig (core/rig/humanoid_check.h):
    /// "This does not look like a humanoid (...)", or empty when it does (or there is no rig).
    void humanoidWarningChanged(const QString& warning);
    void stageStarted(rig::ui::Task stage);
    void progressChanged(rig::ui::Task stage, const QString& step, double fraction);
    void stageFinished(rig::ui::Task stage, double seconds);
    void stageFailed(rig::ui::Task stage, const QString& message);
    void stageCancelled(rig::ui::Task stage);
    void characterChanged();
    void curveSkeletonChanged();
    /// Labels or the fitted rig changed (fit, edit, undo, redo).
    void rigChanged();
    void rigTemplateChanged(const QString& name);
    /// The facing direction changed (setFront, undo, redo).
    void frontChanged();
    /// The automatic labelling after a skeleton could not make a rig (not an
    /// error of the artist's: shown as a notice, e.g. for a non-humanoid mesh).
    void rigNotice(const QString& message);
    void busyChanged(bool busy);
    /// The pose changed (preview, commit, undo, redo, reset, new rig).
    void poseChanged();
    void deformerChanged(const QString& deformer);
    /// The weights (and segmentation) changed or were cleared.
    void skinningChanged();
    /// The weights were painted (a stroke's preview, its undo or redo): the
    /// skinning's weights changed, its segmentation and diagnostics did not.
    void weightsPainted();
    /// The weight options changed (setWeightOptions, project load).
    void weightOptionsChanged();
    /// The parts bound to a bone changed (setPartBinding, undo, redo, project load).
    void partBindingsChanged();
    /// A clip was loaded, retargeted again after a rig edit, or cleared.
    void clipChanged();
    /// A project was opened; `camera` is the saved one when the file had it.
    void projectOpened(const QString& path, std::optional<rig::ProjectCamera> camera);
    /// Opening `path` failed because its mesh is missing (`message` says
    /// where it was expected): the UI may ask the user to locate it and call
    /// `openProject(path, newMeshPath)`.
    void projectMeshMissing(const QString& path, const QString& message);
    /// isModified() changed.
    void modifiedChanged(bool modified);

private:
    /// Work run on the worker thread: computes from a snapshot and returns the
    /// change to apply to the project on the GUI thread.
    using Apply = std::function<void(RigProject&)>;
    using Work = std::function<Apply(const RigProject& snapshot, const Progress& progress)>;
    void runStage(Task task, Work work, std::function<void()> onApplied);
    /// Runs the pipeline's missing stages `from`..`to` (core/project/pipeline.h)
    /// on a snapshot with `prepare` applied (the edit that asks for them), as
    /// stage `from`; applies the results that are still current.
    void runPipelineStages(Stage from, Stage to, std::function<void(RigProject&)> prepare,
                           std::function<void()> onApplied);
    void setBusy(bool busy);
    /// Runs what the project lacks, as core's `nextStage()` says: the rig
    /// stage in place (fast), the others on the worker, one at a time, each
    /// started when the previous one is applied. A stage that failed or was
    /// cancelled is not started again by itself until its inputs change
    /// (`sameStageInputs()`); the skeleton stage only with `setAutoSkeleton(true)`.
    void advance();
    /// The stages `advance()` runs in place, now (before an undo step that must hold their result).
    void runFastStages();
    /// Whether `advance()` leaves `stage` alone: it failed on these very inputs.
    bool stalled(Stage stage) const;
    /// The rig stage on the GUI thread with labels of its own choosing (not
    /// undoable: part of the stage); the humanoid verdict and why it failed go
    /// to `humanoidWarningChanged` and `rigNotice`.
    void rigInPlace();
    /// The signals of a stage that `advance()` ran, once its result is applied.
    void emitApplied(Stage stage, const std::shared_ptr<const LoadedClip>& clipBefore);
    /// Per stage: the project as it was when the stage last failed or was cancelled.
    std::array<std::optional<RigProject>, 6> m_stalled;
    /// Requests made while a stage ran (a clip to load, weights to recompute), run once it ends.
    std::vector<std::function<void()>> m_queued;
    /// `m_humanoidWarning` from the project's humanoid check (empty when it looks humanoid or there is none).
    void updateHumanoidWarning();
    friend class RigEditCommand;
    void applyRig(const EndNodeLabels& labels, std::shared_ptr<const FitResult> rig);

    void setModified(bool on);
    bool m_modified = false;
    QString m_projectPath;
    bool m_recovered = false;
    QString m_humanoidWarning;
    std::optional<QString> m_recoverAs; ///< Set by recoverProject() for the openProject() it calls.
    Task m_stage = Task::Load; ///< The running (or last) stage.
    /// True while a stage runs that replaces what rig edits refer to.
    bool editsBlocked() const;
    void loadClip(const QString& path, bool userEdit);

    friend class PartBindingCommand;
    void applyPartBindings(const std::vector<PartBinding>& bindings);
    /// The settings and the results they made (issue 19 item 4): what a
    /// setting's undo step restores. Results are shared immutable values, so a
    /// snapshot is cheap and undo shows the previous result without recomputing.
    struct SettingsState {
        std::shared_ptr<const LoadedCharacter> character; ///< In the frame of `orientation`.
        OrientationOptions orientation;
        OrientationResult orientationResult;
        CurveSkeletonOptions skeletonOptions;
        std::shared_ptr<const CurveSkeletonResult> skeleton;
        EndNodeLabels labels;
        std::shared_ptr<const FitResult> rig;
        std::shared_ptr<const RigTemplate> rigTemplate;
        FingerOptions fingerOptions;
        Vec3 front = Vec3::UnitZ();
        WeightOptions weightOptions;
        std::shared_ptr<const SkinningResult> skinning; ///< Null unless computed with `weightOptions`.
        QString humanoidWarning;
    };
    friend class SettingCommand;
    SettingsState settingsState() const;
    /// Makes `state` current (undo, redo of a setting) and computes what it lacks.
    void restoreSettings(const SettingsState& state);
    /// Pushes the undo step of a setting changed from `before` to the current state.
    void pushSetting(const QString& text, SettingsState before);
    /// The skeleton stage; `undoable`: a setting change of the artist's (not the load's own build).
    void buildCurveSkeleton(int resolution, bool undoable);

    friend class ClipMappingCommand;
    void applyClip(std::shared_ptr<const LoadedClip> clip);
    friend class PoseEditCommand;
    /// Sets the pose and its unwrapped twists (undo, redo) and emits poseChanged.
    void applyPose(const Pose& pose, const std::vector<double>& twist, bool committed);
    /// Identity pose when the rig's joint count changed or the rig is gone.
    void syncPoseToRig();

    friend class WeightStrokeCommand;
    /// Makes `weights` the current skinning's weights (stroke preview, undo, redo).
    void applyPaintedWeights(const SkinWeights& weights);
    /// The skinning result that holds painted weights: while it is current, a
    /// save marks its weights painted ("weights.painted" in the weight settings)
    /// and reopening keeps them instead of recomputing (issue 18).
    std::weak_ptr<const SkinningResult> m_paintedSkinning;
    /// The weight-settings key that marks saved weights as painted.
    static constexpr const char* paintedWeightsKey = "weights.painted";

    RigProject m_project;
    Pose m_pose, m_committedPose;
    bool m_poseCommitted = true;
    std::vector<double> m_poseTwist, m_committedTwist;
    bool m_busy = false;
    bool m_autoSkeleton = true;
    bool m_mirror = false;
    QUndoStack m_undo;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<void>* m_watcher = nullptr;
};

} // namespace rig::ui
