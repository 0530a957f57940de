#include "ui/document.h"
#include "ui/messages.h"

#include "core/rig/humanoid_check.h"

#include "core/common/error.h"
#include "core/deform/twist_lbs.h"
#include "core/io/gltf_export.h"
#include "core/motion/bvh_file.h"
#include "core/motion/sample_clip.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace rig::ui {

/// One undoable edit of the rig: the labels and fitted rig before and after.
/// Results are immutable shared values, so storing both is cheap and undo
/// restores positions exactly.
class RigEditCommand : public QUndoCommand {
public:
    RigEditCommand(Document* doc, const QString& text, EndNodeLabels beforeLabels,
                   std::shared_ptr<const FitResult> beforeRig, EndNodeLabels afterLabels,
                   std::shared_ptr<const FitResult> afterRig)
        : QUndoCommand(text), m_doc(doc), m_beforeLabels(beforeLabels), m_afterLabels(afterLabels),
          m_beforeRig(std::move(beforeRig)), m_afterRig(std::move(afterRig))
    {
    }
    void undo() override { m_doc->applyRig(m_beforeLabels, m_beforeRig); }
    void redo() override { m_doc->applyRig(m_afterLabels, m_afterRig); }

private:
    Document* m_doc;
    EndNodeLabels m_beforeLabels, m_afterLabels;
    std::shared_ptr<const FitResult> m_beforeRig, m_afterRig;
};

/// One undoable pose edit (a completed gizmo drag, a numeric angle, a reset):
/// the pose and its unwrapped twists before and after.
class PoseEditCommand : public QUndoCommand {
public:
    PoseEditCommand(Document* doc, const QString& text, Pose before, std::vector<double> beforeTwist, Pose after,
                    std::vector<double> afterTwist)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after)),
          m_beforeTwist(std::move(beforeTwist)), m_afterTwist(std::move(afterTwist))
    {
    }
    void undo() override { m_doc->applyPose(m_before, m_beforeTwist, true); }
    void redo() override { m_doc->applyPose(m_after, m_afterTwist, true); }

private:
    Document* m_doc;
    Pose m_before, m_after;
    std::vector<double> m_beforeTwist, m_afterTwist;
};

/// One undoable setting change (weight method, segmentation, parameters,
/// resolution, facing, template): the settings and their results before, and
/// after as they were when it was undone. The change itself is made by the
/// caller before it is pushed, so the first redo does nothing.
class SettingCommand : public QUndoCommand {
public:
    SettingCommand(Document* doc, const QString& text, Document::SettingsState before)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before))
    {
    }
    void undo() override
    {
        m_doc->cancel(); // a stage computing the new setting's result: its result is not wanted now
        m_doc->waitForIdle();
        m_after = m_doc->settingsState();
        m_doc->restoreSettings(m_before);
    }
    void redo() override
    {
        if (m_first) {
            m_first = false;
            return;
        }
        m_doc->cancel();
        m_doc->waitForIdle();
        m_doc->restoreSettings(m_after);
    }

private:
    Document* m_doc;
    Document::SettingsState m_before, m_after;
    bool m_first = true;
};

Document::Document(QObject* parent) : QObject(parent)
{
    connect(this, &Document::rigChanged, this, &Document::syncPoseToRig);
    connect(this, &Document::characterChanged, this, &Document::syncPoseToRig);
    connect(&m_undo, &QUndoStack::cleanChanged, this, [this] { emit modifiedChanged(isModified()); });
}

Document::~Document()
{
    // Stop the worker and wait for it, without delivering its result to a
    // half-destroyed window.
    cancel();
    if (m_watcher) {
        m_watcher->disconnect(this);
        m_watcher->waitForFinished();
    }
}

QString Document::characterSource() const
{
    return m_project.character() ? QString::fromStdString(m_project.character()->source) : QString();
}

void Document::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

void Document::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void Document::waitForIdle()
{
    // A finished stage may start the next one (load -> skeleton): wait for all.
    while (m_watcher && m_busy) {
        QFutureWatcher<void>* watcher = m_watcher;
        watcher->waitForFinished();
        // Deliver the watcher's queued "finished" so the result is applied now.
        QCoreApplication::sendPostedEvents(watcher);
        if (watcher == m_watcher && m_busy)
            QCoreApplication::processEvents();
    }
}

void Document::openCharacter(const QString& spec)
{
    const std::string path = spec.toStdString();
    runPipelineStages(
        Stage::Load, Stage::Load,
        [path](RigProject& p) {
            p.setCharacterSpec(path);
            p.setOrientation({}); // another file: its own up axis, until the artist says otherwise
            p.setClipPath({}); // a new character starts without a clip
        },
        [this] {
            m_undo.clear();
            m_projectPath.clear();
            m_recovered = false;
            m_humanoidWarning.clear();
            emit humanoidWarningChanged(m_humanoidWarning);
            setModified(false);
            emit characterChanged();
            emit curveSkeletonChanged(); // cleared
            emit rigChanged();
        });
}

void Document::buildCurveSkeleton(int resolution) { buildCurveSkeleton(resolution, true); }

void Document::buildCurveSkeleton(int resolution, bool undoable)
{
    if (!m_project.hasCharacter()) {
        emit stageFailed(stageName(Stage::Skeleton), tr("Open a character first."));
        return;
    }
    CurveSkeletonOptions options = m_project.curveSkeletonOptions();
    options.voxelize.resolution = resolution;
    // A rebuild replaces a skeleton the artist has: one undo step back to it
    // (and to the edits made on it, which stay below it on the stack).
    std::optional<SettingsState> before;
    if (undoable && m_project.curveSkeleton() && !m_busy)
        before = settingsState();
    runPipelineStages(
        Stage::Skeleton, Stage::Skeleton,
        [options](RigProject& p) {
            p.setCurveSkeletonOptions(options);
            p.setCurveSkeleton(nullptr); // recomputed with the new options
        },
        [this, before, resolution] {
            if (!before)
                m_undo.clear(); // a new character's first skeleton: nothing earlier to go back to
            emit curveSkeletonChanged();
            autoRig();
            if (before)
                pushSetting(tr("Skeleton resolution %1").arg(resolution), *before);
        });
}

void Document::autoRig()
{
    const auto& skeleton = m_project.curveSkeleton();
    if (!skeleton)
        return;
    // A quadruped or a machine gets a wrong humanoid rig, or none: say why (issue 21).
    const LoadedCharacter& character = *m_project.character();
    const HumanoidCheck check = checkHumanoid(character.imported.mesh, skeleton->refined, character.imported.info.format);
    m_humanoidWarning = QString::fromStdString(check.message());
    emit humanoidWarningChanged(m_humanoidWarning);
    try {
        RigProject p = m_project;
        p.setLabels({}); // suggested by the rig stage
        rig::runStage(p, Stage::Rig);
        applyRig(p.labels(), p.rig());
    } catch (const std::exception& e) {
        applyRig({}, nullptr);
        // The rig stage's message names the cause of too few ends (flat, a line, in pieces).
        emit rigNotice((check.looksHumanoid() ? QString() : m_humanoidWarning + " ") +
                       joinSentences(tr("No rig yet: %1").arg(QString::fromUtf8(e.what())),
                                     tr("Label the end nodes by clicking the spheres, or rebuild the skeleton "
                                        "at another resolution.")));
        return;
    }
    if (!check.looksHumanoid())
        emit rigNotice(m_humanoidWarning);
}

void Document::applyRig(const EndNodeLabels& labels, std::shared_ptr<const FitResult> rig)
{
    m_project.setRig(labels, std::move(rig));
    emit rigChanged();
    refreshDerivedStages();
}

bool Document::setLabels(const EndNodeLabels& labels, const QString& description)
{
    if (editsBlocked()) {
        emit stageFailed(stageName(Stage::Rig), tr("Wait for the running stage to finish before editing the rig."));
        return false;
    }
    std::shared_ptr<const FitResult> fitted;
    try {
        fitted = std::make_shared<const FitResult>(fitRig(m_project, labels));
    } catch (const std::exception& e) {
        emit stageFailed(stageName(Stage::Rig), QString::fromUtf8(e.what()));
        return false;
    }
    m_undo.push(new RigEditCommand(this, description, m_project.labels(), m_project.rig(), labels, fitted));
    return true;
}

bool Document::setLabel(Limb limb, int node)
{
    EndNodeLabels labels = m_project.labels();
    const int previous = labels[limb];
    for (Limb other : allLimbs) // the node's old limb takes this limb's old node: a swap
        if (other != limb && labels[other] == node)
            labels[other] = previous;
    labels[limb] = node;
    if (labels == m_project.labels())
        return true;
    static const char* names[] = {"head", "left hand", "right hand", "left foot", "right foot"};
    return setLabels(labels, tr("Label node %1 as %2").arg(node).arg(tr(names[int(limb)])));
}

bool Document::setRigTemplate(const QString& spec)
{
    if (editsBlocked()) {
        emit stageFailed(stageName(Stage::Rig), tr("Wait for the running stage to finish before changing the template."));
        return false;
    }
    try {
        auto t = std::make_shared<const RigTemplate>(resolveTemplate(spec.toStdString()));
        const std::string current = m_project.rigTemplate() ? m_project.rigTemplate()->name : "humanoid21";
        if (t->name == current && m_project.rig())
            return true; // the template in use: no refit, no undo step
        RigProject candidate = m_project;
        candidate.setRigTemplate(t);
        std::shared_ptr<const FitResult> fitted;
        if (candidate.curveSkeleton() && candidate.rig())
            fitted = std::make_shared<const FitResult>(fitRig(candidate, candidate.labels()));
        SettingsState before = settingsState();
        m_project.setRigTemplate(t);
        // Joint edits of the previous template stay below this step: undo returns to that template first.
        if (fitted)
            applyRig(m_project.labels(), fitted);
        emit rigTemplateChanged(QString::fromStdString(t->name));
        pushSetting(tr("Template %1").arg(QString::fromStdString(t->name)), std::move(before));
        return true;
    } catch (const std::exception& e) {
        emit stageFailed(stageName(Stage::Rig), QString::fromUtf8(e.what()));
        return false;
    }
}

void Document::setFront(const Vec3& front)
{
    if (front.isApprox(m_project.front()))
        return;
    SettingsState before = settingsState();
    m_project.setFront(front);
    emit frontChanged();
    if (m_project.curveSkeleton() && !editsBlocked()) {
        // Left and right follow the facing: labels suggested again and the rig refitted, in the same step.
        try {
            const EndNodeLabels labels = suggestLabels(m_project);
            applyRig(labels, std::make_shared<const FitResult>(fitRig(m_project, labels)));
        } catch (const std::exception& e) {
            emit stageFailed(stageName(Stage::Rig), QString::fromUtf8(e.what()));
        }
    }
    emit rigChanged();
    pushSetting(tr("Facing %1").arg(QString::fromStdString(facingName(front)).toUpper()), std::move(before));
}

void Document::setUpAxis(const QString& up)
{
    OrientationOptions options = m_project.orientation();
    options.up = up.toLower().toStdString();
    if (!m_project.hasCharacter() || options.up == m_project.orientation().up || m_busy)
        return;
    try {
        validateOrientationOptions(options);
    } catch (const std::exception& e) {
        emit stageFailed(stageName(Stage::Load), QString::fromUtf8(e.what()));
        return;
    }
    SettingsState before = settingsState();
    runPipelineStages(
        Stage::Load, Stage::Load, [options](RigProject& p) { p.setOrientation(options); },
        [this, before, up] {
            emit characterChanged();
            emit curveSkeletonChanged(); // cleared: the load stage starts the new one
            emit rigChanged();
            pushSetting(tr("Up %1").arg(up), before);
        });
}

Document::SettingsState Document::settingsState() const
{
    SettingsState s;
    s.character = m_project.character();
    s.orientation = m_project.orientation();
    s.orientationResult = m_project.orientationResult();
    s.skeletonOptions = m_project.curveSkeletonOptions();
    s.skeleton = m_project.curveSkeleton();
    s.labels = m_project.labels();
    s.rig = m_project.rig();
    s.rigTemplate = m_project.rigTemplate();
    s.front = m_project.front();
    s.weightOptions = m_project.weightOptions();
    s.skinning = m_project.skinningCurrent() ? m_project.skinning() : nullptr;
    s.humanoidWarning = m_humanoidWarning;
    return s;
}

void Document::pushSetting(const QString& text, SettingsState before)
{
    m_undo.push(new SettingCommand(this, text, std::move(before)));
}

void Document::restoreSettings(const SettingsState& state)
{
    const bool newCharacter = state.character && m_project.character() != state.character;
    if (newCharacter) { // an Up change undone or redone: the character in its frame, and the stages on it
        m_project.setOrientation(state.orientation);
        m_project.setCharacter(state.character);
        m_project.setOrientationResult(state.orientationResult);
    }
    const bool newSkeleton = m_project.curveSkeleton() != state.skeleton;
    const bool newTemplate = m_project.rigTemplate() != state.rigTemplate;
    const bool newFront = !m_project.front().isApprox(state.front);
    m_project.setCurveSkeletonOptions(state.skeletonOptions);
    if (newSkeleton)
        m_project.setCurveSkeleton(state.skeleton);
    m_project.setRigTemplate(state.rigTemplate);
    m_project.setFront(state.front);
    m_project.setRig(state.labels, state.rig);
    m_project.setWeightOptions(state.weightOptions);
    if (state.skinning)
        m_project.setSkinning(state.skinning); // the weights made with these options, shown at once
    if (m_humanoidWarning != state.humanoidWarning) {
        m_humanoidWarning = state.humanoidWarning;
        emit humanoidWarningChanged(m_humanoidWarning);
    }
    if (newCharacter)
        emit characterChanged();
    if (newSkeleton)
        emit curveSkeletonChanged();
    if (newTemplate)
        emit rigTemplateChanged(QString::fromStdString(state.rigTemplate ? state.rigTemplate->name : "humanoid21"));
    if (newFront)
        emit frontChanged();
    emit rigChanged();
    emit weightOptionsChanged();
    emit skinningChanged();
    // What the state lacks (a skeleton, weights, the clip on this rig) is computed again.
    if (!m_project.hasCharacter())
        return;
    if (!m_project.curveSkeleton()) {
        buildCurveSkeleton(state.skeletonOptions.voxelize.resolution, false);
        return;
    }
    if (m_project.rig() && rig::nextStage(m_project, Stage::Clip))
        runPipelineStages(Stage::Weights, Stage::Clip, nullptr, [this, clip = m_project.clip()] {
            emit skinningChanged();
            if (m_project.clip() != clip)
                emit clipChanged();
        });
}

bool Document::autoLabel()
{
    if (!m_project.curveSkeleton())
        return false;
    try {
        return setLabels(suggestLabels(m_project), tr("Auto-label end nodes"));
    } catch (const std::exception& e) {
        emit stageFailed(stageName(Stage::Rig), QString::fromUtf8(e.what()));
        return false;
    }
}

Vec3 Document::snapToSkeleton(const Vec3& p) const
{
    const auto& skeleton = m_project.curveSkeleton();
    if (!skeleton)
        return p;
    const std::vector<bool> kept = m_project.rig() ? m_project.rig()->chains.kept : std::vector<bool>{};
    const auto node = snapToNode(skeleton->refined, p, kept);
    return node ? Vec3(skeleton->refined.positions.row(*node).transpose()) : p;
}

std::shared_ptr<const FitResult> Document::previewJointMove(int joint, const Vec3& position) const
{
    if (!m_project.rig())
        return nullptr;
    return std::make_shared<const FitResult>(rig::moveJoint(*m_project.rig(), joint, position, m_mirror));
}

bool Document::moveJoint(int joint, const Vec3& position)
{
    if (!m_project.rig() || editsBlocked())
        return false;
    std::shared_ptr<const FitResult> moved;
    try {
        moved = previewJointMove(joint, position);
    } catch (const std::exception& e) {
        emit stageFailed(stageName(Stage::Rig), QString::fromUtf8(e.what()));
        return false;
    }
    const QString name = QString::fromStdString(m_project.rig()->skeleton.names[static_cast<size_t>(joint)]);
    m_undo.push(new RigEditCommand(this, tr("Move %1").arg(name), m_project.labels(), m_project.rig(),
                                   m_project.labels(), moved));
    return true;
}

void Document::runStage(const QString& stage, Work work, std::function<void()> onApplied)
{
    if (m_busy) {
        emit stageFailed(stage, tr("Another stage is still running; wait for it or cancel it (Esc) first."));
        return;
    }
    m_stage = stage;
    setBusy(true);
    emit stageStarted(stage);
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    struct Outcome {
        Apply apply;
        QString error;
        bool cancelled = false;
        double seconds = 0.0;
    };
    auto outcome = std::make_shared<Outcome>();
    QPointer<Document> self(this);
    const RigProject snapshot = m_project;

    if (m_watcher)
        m_watcher->deleteLater();
    m_watcher = new QFutureWatcher<void>(this);
    connect(m_watcher, &QFutureWatcher<void>::finished, this, [this, outcome, stage, onApplied] {
        setBusy(false);
        if (outcome->cancelled) {
            emit stageCancelled(stage);
        } else if (!outcome->apply) {
            emit stageFailed(stage, outcome->error);
        } else {
            outcome->apply(m_project);
            onApplied();
            emit stageFinished(stage, outcome->seconds);
            if (stage == stageName(Stage::Load) && m_autoSkeleton)
                buildCurveSkeleton(m_project.curveSkeletonOptions().voxelize.resolution, false);
        }
        if (m_derivedPending && !m_busy)
            refreshDerivedStages();
        if (!m_pendingClip.isEmpty() && !m_busy && m_project.rig())
            loadClip(std::exchange(m_pendingClip, QString()), m_pendingClipIsEdit);
    });
    m_watcher->setFuture(QtConcurrent::run([outcome, cancelFlag, snapshot, self, stage, work] {
        QElapsedTimer timer;
        timer.start();
        Progress progress;
        progress.cancelFlag = cancelFlag.get();
        progress.report = [self, stage](std::string_view step, double fraction) {
            const QString s = QString::fromUtf8(step.data(), qsizetype(step.size()));
            QMetaObject::invokeMethod(
                self.data(), [self, stage, s, fraction] {
                    if (self)
                        emit self->progressChanged(stage, s, fraction);
                },
                Qt::QueuedConnection);
        };
        try {
            outcome->apply = work(snapshot, progress);
        } catch (const Cancelled&) {
            outcome->cancelled = true;
        } catch (const std::bad_alloc&) {
            outcome->error = tr("Out of memory: the input is too large for this machine.");
        } catch (const std::exception& e) {
            outcome->error = QString::fromUtf8(e.what());
        }
        outcome->seconds = double(timer.nsecsElapsed()) * 1e-9;
    }));
}

void Document::runPipelineStages(Stage from, Stage to, std::function<void(RigProject&)> prepare,
                                 std::function<void()> onApplied)
{
    runStage(
        stageName(from),
        [from, to, prepare](const RigProject& snapshot, const Progress& progress) -> Apply {
            auto computed = std::make_shared<RigProject>(snapshot);
            if (prepare)
                prepare(*computed);
            rig::runStages(*computed, from, to, progress);
            return [snapshot, computed, from, to](RigProject& p) { applyResults(p, *computed, snapshot, from, to); };
        },
        std::move(onApplied));
}

// Posing ------------------------------------------------------------------

namespace {

int rigJointCount(const RigProject& p) { return p.rig() ? p.rig()->skeleton.jointCount() : 0; }

} // namespace

void Document::syncPoseToRig()
{
    const int n = rigJointCount(m_project);
    if (static_cast<int>(m_pose.localRotations.size()) == n && static_cast<int>(m_committedPose.localRotations.size()) == n)
        return;
    const Pose identity = n > 0 ? identityPose(m_project.rig()->skeleton) : Pose{};
    applyPose(identity, std::vector<double>(static_cast<size_t>(n), 0.0), true);
}

void Document::applyPose(const Pose& pose, const std::vector<double>& twist, bool committed)
{
    if (static_cast<int>(pose.localRotations.size()) != rigJointCount(m_project))
        return; // an edit of an earlier rig (undo across a refit): nothing to apply
    m_pose = pose;
    m_poseTwist = twist;
    if (committed) {
        m_committedPose = pose;
        m_committedTwist = twist;
    }
    emit poseChanged();
}

void Document::previewPose(const Pose& pose)
{
    const int n = rigJointCount(m_project);
    if (n == 0 || static_cast<int>(pose.localRotations.size()) != n)
        return;
    // Unwrap each twist against the previous step: small steps keep the turn count.
    const std::vector<double> wrapped = twistAngles(m_project.rig()->skeleton, pose);
    std::vector<double> twist(wrapped.size(), 0.0);
    for (size_t j = 0; j < wrapped.size(); ++j)
        twist[j] = unwrapAngle(j < m_poseTwist.size() ? m_poseTwist[j] : 0.0, wrapped[j]);
    applyPose(pose, twist, false);
}

bool Document::commitPose(const Pose& pose, const QString& description)
{
    const int n = rigJointCount(m_project);
    if (n == 0 || static_cast<int>(pose.localRotations.size()) != n)
        return false;
    previewPose(pose);
    m_undo.push(new PoseEditCommand(this, description, m_committedPose, m_committedTwist, m_pose, m_poseTwist));
    return true;
}

void Document::cancelPosePreview() { applyPose(m_committedPose, m_committedTwist, true); }

bool Document::setJointRotation(int joint, const Eigen::Quaterniond& rotation)
{
    if (joint < 0 || joint >= static_cast<int>(m_pose.localRotations.size()))
        return false;
    Pose p = m_committedPose;
    p.localRotations[static_cast<size_t>(joint)] = rotation.normalized();
    return commitPose(p, tr("Rotate %1").arg(QString::fromStdString(m_project.rig()->skeleton.names[static_cast<size_t>(joint)])));
}

void Document::resetPose()
{
    const int n = rigJointCount(m_project);
    if (n == 0)
        return;
    const Pose identity = identityPose(m_project.rig()->skeleton);
    m_undo.push(new PoseEditCommand(this, tr("Reset Pose"), m_committedPose, m_committedTwist, identity,
                                    std::vector<double>(static_cast<size_t>(n), 0.0)));
}

void Document::setDeformer(const std::string& deformer)
{
    if (deformer == m_deformer)
        return;
    try {
        m_deformer = findDeformer(deformer).id;
    } catch (const Error& e) {
        emit stageFailed(poseTask, QString::fromUtf8(e.what()));
        return;
    }
    emit deformerChanged(QString::fromStdString(m_deformer));
}

// Weights and clips ----------------------------------------------------------

void Document::refreshDerivedStages()
{
    if (m_busy) {
        m_derivedPending = true;
        return;
    }
    m_derivedPending = false;
    if (!m_project.rig()) {
        if (m_project.clip()) {
            m_project.setClip(nullptr);
            emit clipChanged();
        }
        emit skinningChanged();
        return;
    }
    computeWeights();
}

namespace {

bool sameOptions(const WeightOptions& a, const WeightOptions& b)
{
    const SegmentationOptions &s = a.segmentation, &t = b.segmentation;
    return a.method == b.method && a.parameters == b.parameters && s.method == t.method &&
           s.hierarchyLevel == t.hierarchyLevel && s.maxNormalAngleDegrees == t.maxNormalAngleDegrees &&
           s.mergeRegions == t.mergeRegions && s.rigidPartSize == t.rigidPartSize && s.threads == t.threads;
}

} // namespace

void Document::setWeightOptions(const WeightOptions& options)
{
    const WeightOptions& old = m_project.weightOptions();
    if (sameOptions(options, old) && m_project.skinningCurrent())
        return; // a field left without a change: no recomputation, no undo step
    QString text = tr("Weight parameters");
    if (options.method != old.method)
        text = tr("Weight method %1").arg(QString::fromStdString(findWeightMethod(options.method).title));
    else if (options.segmentation.method != old.segmentation.method)
        text = tr("Segmentation method");
    SettingsState before = settingsState();
    m_project.setWeightOptions(options);
    setModified(true);
    emit weightOptionsChanged();
    computeWeights();
    pushSetting(text, std::move(before));
}

void Document::computeWeights()
{
    if (!m_project.rig() || !m_project.character())
        return;
    if (m_busy) {
        m_derivedPending = true;
        return;
    }
    // The weights, then the clip retargeted onto the rig they were made for.
    const auto clip = m_project.clip();
    runPipelineStages(Stage::Weights, Stage::Clip, [](RigProject& p) { p.setSkinning(nullptr); }, [this, clip] {
        emit skinningChanged();
        // A clip retargeted by the stage, also the first one of a reopened project: the
        // timeline and the pose follow it (they kept the previous clip's frame before).
        if (m_project.clip() != clip)
            emit clipChanged();
    });
}

bool Document::editsBlocked() const
{
    // The stages before the rig replace what an edit refers to (nodes, joints);
    // the ones after it (weights, clip, export) only read it and drop stale results.
    return m_busy && (m_stage == stageName(Stage::Load) || m_stage == stageName(Stage::Skeleton) ||
                      m_stage == projectTask);
}

void Document::loadClip(const QString& path)
{
    loadClip(path, true);
}

void Document::loadClip(const QString& path, bool userEdit)
{
    if (m_busy && !editsBlocked()) {
        m_pendingClip = path; // after the weights: queued, not refused
        m_pendingClipIsEdit = userEdit;
        return;
    }
    if (!m_project.rig()) {
        emit stageFailed(stageName(Stage::Clip),
                         tr("Cannot play %1 yet: fit a rig first (open a character and label its end nodes).")
                             .arg(path));
        return;
    }
    const std::string file = path.toStdString();
    runPipelineStages(
        Stage::Clip, Stage::Clip, [file](RigProject& p) { p.setClipPath(file); },
        [this, userEdit] {
            if (userEdit)
                setModified(true);
            // Frame 0 first: a timeline that keeps its frame (the same clip reopened) then poses it.
            setClipTime(0.0);
            emit clipChanged();
        });
}

void Document::clearClip()
{
    if (!m_project.clip())
        return;
    m_project.setClip(nullptr);
    setModified(true);
    emit clipChanged();
}

/// One undoable correction of the clip's joint mapping.
class ClipMappingCommand : public QUndoCommand {
public:
    ClipMappingCommand(Document* doc, const QString& text, std::shared_ptr<const LoadedClip> before,
                       std::shared_ptr<const LoadedClip> after)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after))
    {
    }
    void undo() override { m_doc->applyClip(m_before); }
    void redo() override { m_doc->applyClip(m_after); }

private:
    Document* m_doc;
    std::shared_ptr<const LoadedClip> m_before, m_after;
};

void Document::applyClip(std::shared_ptr<const LoadedClip> clip)
{
    m_project.setClip(std::move(clip));
    emit clipChanged();
}

bool Document::setClipMapping(const QString& target, const QString& source)
{
    const auto clip = m_project.clip();
    if (!clip || !m_project.rig())
        return false;
    try {
        RetargetMapping mapping = clip->retargeted.mapping;
        std::vector<std::pair<std::string, double>> sources;
        if (!source.isEmpty())
            sources.emplace_back(source.toStdString(), 1.0);
        setRetargetSources(mapping, target.toStdString(), sources);
        auto edited = std::make_shared<LoadedClip>(*clip);
        edited->retargeted = retargetClip(clip->source, m_project.rig()->skeleton, mapping);
        edited->retargeted.name = clip->name;
        m_undo.push(new ClipMappingCommand(this, tr("Map %1 to %2").arg(target, source.isEmpty() ? tr("nothing") : source),
                                           clip, std::move(edited)));
        return true;
    } catch (const std::exception& e) {
        emit stageFailed(stageName(Stage::Clip), QString::fromUtf8(e.what()));
        return false;
    }
}

void Document::setClipTime(double seconds)
{
    const auto& clip = m_project.clip();
    if (!clip || clip->retargeted.frames.empty())
        return;
    previewPose(sampleClip(clip->retargeted, seconds));
}

// Projects and export -------------------------------------------------------

void Document::setModified(bool on)
{
    const bool before = isModified();
    m_modified = on;
    if (isModified() != before)
        emit modifiedChanged(isModified());
}

bool Document::saveProject(const QString& path, const std::optional<ProjectCamera>& camera, bool autosave)
{
    if (!m_project.character()) {
        if (!autosave)
            emit stageFailed(saveTask, tr("Nothing to save: open a character first."));
        return false;
    }
    try {
        ProjectSaveState state;
        state.clipPath = m_project.clip() ? m_project.clip()->path : std::string();
        state.camera = camera;
        state.includeWeights = true;
        ProjectFile file = projectFileFrom(m_project, state);
        if (autosave) // what a recovery reopens it as
            file.autosaveOf = m_projectPath.toStdString(); // empty: a session never saved
        writeProjectFile(file, path.toStdString());
    } catch (const std::exception& e) {
        emit stageFailed(autosave ? autosaveTask : saveTask, QString::fromUtf8(e.what()));
        return false;
    }
    if (!autosave) {
        m_projectPath = path;
        m_recovered = false;
        m_undo.setClean();
        setModified(false);
    }
    return true;
}

void Document::openProject(const QString& path, const QString& mesh)
{
    const std::string file = path.toStdString();
    const std::string meshPath = mesh.toStdString();
    // Reading and checking the file is fast: a broken project or a missing
    // mesh is reported at once, before any stage starts.
    try {
        ProjectFile pf = readProjectFile(file);
        if (!meshPath.empty())
            pf.meshPath = meshPath;
        const MeshCheck check = checkProjectMesh(pf);
        if (check.status == MeshStatus::Missing) {
            emit projectMeshMissing(path, QString::fromStdString(check.message));
            return;
        }
    } catch (const std::exception& e) {
        emit stageFailed(projectTask, QString::fromUtf8(e.what()));
        return;
    }
    const std::optional<QString> recoverAs = std::exchange(m_recoverAs, std::nullopt);
    auto restored = std::make_shared<std::optional<RestoredProject>>();
    runStage(
        projectTask,
        [file, meshPath, restored](const RigProject&, const Progress& progress) -> Apply {
            ProjectFile pf = readProjectFile(file);
            if (!meshPath.empty())
                pf.meshPath = meshPath;
            std::shared_ptr<RestoredProject> r;
            try {
                r = std::make_shared<RestoredProject>(restoreProject(pf, progress));
            } catch (const InvalidInput& e) {
                throw InvalidInput(file + ": " + e.what());
            }
            return [r, restored](RigProject& p) {
                p = r->project;
                *restored = std::move(*r);
            };
        },
        [this, path, restored, recoverAs] {
            m_undo.clear();
            m_projectPath = recoverAs ? *recoverAs : path;
            m_recovered = recoverAs.has_value();
            const RestoredProject& r = **restored;
            if (r.weights && m_project.rig()) {
                // The saved weights (matching the mesh and rig) stand in until
                // the recomputation below finishes.
                SkinningResult s;
                s.weights = *r.weights;
                s.segmentation = segmentationFromNearestLink(m_project.character()->imported.mesh.V,
                                                             m_project.rig()->skeleton);
                m_project.setSkinning(std::make_shared<const SkinningResult>(std::move(s)));
            }
            emit characterChanged();
            emit curveSkeletonChanged();
            emit weightOptionsChanged();
            emit partBindingsChanged();
            emit rigChanged();
            emit projectOpened(path, r.camera);
            for (const std::string& note : r.notes)
                emit rigNotice(QString::fromStdString(note));
            if (!r.mesh.message.empty())
                emit rigNotice(QString::fromStdString(r.mesh.message));
            if (!r.clipPath.empty()) { // part of the project, not an edit
                m_pendingClip = QString::fromStdString(r.clipPath);
                m_pendingClipIsEdit = false;
            }
            refreshDerivedStages();
            setModified(recoverAs.has_value()); // recovered work is not saved anywhere yet
        });
}

void Document::recoverProject(const QString& autosave, const QString& projectPath)
{
    m_recoverAs = projectPath;
    openProject(autosave);
    m_recoverAs.reset(); // openProject() took it, or failed before the stage
}

void Document::exportGltf(const QString& path) { exportGltf(path, GltfExportRequest{}); }

void Document::exportGltf(const QString& path, const GltfExportRequest& request)
{
    const auto& skinning = m_project.skinning();
    if (!m_project.rig() || !skinning) {
        emit stageFailed(stageName(Stage::Export),
                         tr("Cannot export %1 yet: the character needs a rig and weights first.").arg(path));
        return;
    }
    const std::string file = path.toStdString();
    std::vector<std::string> extraClips;
    for (const QString& c : request.extraClips)
        extraClips.push_back(c.toStdString());
    runStage(
        stageName(Stage::Export),
        [this, file, request, extraClips](const RigProject& p, const Progress&) -> Apply {
            const auto& clip = p.clip();
            GltfExportOptions options;
            options.firstFrame = request.firstFrame;
            options.lastFrame = request.lastFrame;
            options.rootTranslation = request.rootMotion;
            std::vector<std::string> warnings;
            const ImportedCharacter& character = p.character()->imported;
            if (request.metres) {
                if (character.info.metresPerUnit > 0)
                    options.scale = character.info.metresPerUnit;
                else
                    warnings.push_back(p.character()->displayName +
                                       " does not say its units: exported in its own units");
            }
            std::vector<LoadedClip> extra;
            for (const std::string& c : extraClips)
                extra.push_back(rig::loadClip(p, c));
            std::vector<GltfClip> clips;
            if (clip && request.includeClip)
                clips.push_back({clip->name, clip->retargeted.frames, clip->retargeted.frameTime});
            for (size_t i = 0; i < extra.size(); ++i)
                clips.push_back({extra[i].name.empty() ? "clip " + std::to_string(i + 2) : extra[i].name,
                                 extra[i].retargeted.frames, extra[i].retargeted.frameTime});
            const GltfExportReport report =
                rig::exportCharacterGltf(file, character, p.rig()->skeleton, p.skinning()->weights, clips, options);
            warnings.insert(warnings.end(), report.warnings.begin(), report.warnings.end());
            return [this, warnings](RigProject&) {
                for (const std::string& w : warnings)
                    emit rigNotice(QString::fromStdString(w));
            };
        },
        [] {});
}

bool Document::exportClipBvh(const QString& path)
{
    const auto& clip = m_project.clip();
    if (!clip || !m_project.rig()) {
        emit stageFailed(stageName(Stage::Export), tr("No clip to save: load a clip first (File ▸ Load Clip…)."));
        return false;
    }
    try {
        writeBvh(retargetedMotion(clip->retargeted, m_project.rig()->skeleton), path.toStdString());
    } catch (const std::exception& e) {
        emit stageFailed(stageName(Stage::Export), QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

} // namespace rig::ui
