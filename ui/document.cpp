#include "ui/document.h"
#include "ui/messages.h"

#include "core/rig/humanoid_check.h"

#include "core/common/error.h"
#include "core/deform/twist_lbs.h"
#include "core/export/gltf_export.h"
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

Document::Document(QObject* parent) : QObject(parent)
{
    registerTaskType();
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
        emit stageFailed(Task::Skeleton, tr("Open a character first."));
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
            // A new character's first skeleton adds no step (opening it cleared the
            // stack); an Up change's skeleton stays inside the Up step.
            emit curveSkeletonChanged();
            runFastStages(); // the rig, inside the undo step
            if (before)
                pushSetting(tr("Skeleton resolution %1").arg(resolution), *before);
        });
}

void Document::updateHumanoidWarning()
{
    // A quadruped or a machine gets a wrong humanoid rig, or none: say why (issue 21).
    const HumanoidCheck* check = m_project.humanoidCheck().get();
    QString warning = check ? QString::fromStdString(check->message()) : QString();
    // A rig it writes with doubts (a body found with little confidence, ends on
    // the ground beside the feet) says so in the same place (issue 39).
    if (check)
        for (const HumanoidDoubt& d : check->doubts)
            warning += (warning.isEmpty() ? tr("Check the labels Rigsmith chose: ") : QString("; ")) +
                       QString::fromStdString(d.message);
    m_humanoidWarning = warning;
    emit humanoidWarningChanged(m_humanoidWarning);
}

void Document::rigInPlace()
{
    RigProject p = m_project;
    p.setLabels({}); // the rig stage suggests them: node numbers of another skeleton mean nothing here
    try {
        rig::runStage(p, Stage::Rig);
    } catch (const std::exception& e) {
        m_stalled[static_cast<size_t>(Stage::Rig)] = m_project;
        m_project.setHumanoidCheck(p.humanoidCheck());
        updateHumanoidWarning();
        m_project.setRig({}, nullptr);
        emit rigChanged();
        const auto* failed = dynamic_cast<const AutoRigFailed*>(&e);
        const QString why = QString::fromStdString(failed ? failed->detail : std::string(e.what()));
        // The rig stage's message names the cause of too few ends (flat, a line, in pieces).
        emit rigNotice(QString::fromStdString(failed ? failed->verdict : std::string()) +
                       joinSentences(tr("No rig yet: %1").arg(why),
                                     tr("Label the end nodes by clicking the spheres, or rebuild the skeleton "
                                        "at another resolution.")));
        return;
    }
    m_project.setHumanoidCheck(p.humanoidCheck());
    updateHumanoidWarning();
    m_project.setRig(p.labels(), p.rig());
    emit rigChanged();
    if (p.humanoidCheck() && !p.humanoidCheck()->looksHumanoid())
        emit rigNotice(m_humanoidWarning);
}

void Document::applyRig(const EndNodeLabels& labels, std::shared_ptr<const FitResult> rig)
{
    m_project.setRig(labels, std::move(rig));
    emit rigChanged();
    advance();
}

bool Document::setLabels(const EndNodeLabels& labels, const QString& description)
{
    if (editsBlocked()) {
        emit stageFailed(Task::Rig, tr("Wait for the running stage to finish before editing the rig."));
        return false;
    }
    std::shared_ptr<const FitResult> fitted;
    try {
        fitted = std::make_shared<const FitResult>(fitRig(m_project, labels));
    } catch (const std::exception& e) {
        emit stageFailed(Task::Rig, QString::fromUtf8(e.what()));
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

bool Document::autoLabel()
{
    if (!m_project.curveSkeleton())
        return false;
    try {
        return setLabels(suggestLabels(m_project), tr("Auto-label end nodes"));
    } catch (const std::exception& e) {
        emit stageFailed(Task::Rig, QString::fromUtf8(e.what()));
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
        emit stageFailed(Task::Rig, QString::fromUtf8(e.what()));
        return false;
    }
    const QString name = QString::fromStdString(m_project.rig()->skeleton.names[static_cast<size_t>(joint)]);
    m_undo.push(new RigEditCommand(this, tr("Move %1").arg(name), m_project.labels(), m_project.rig(),
                                   m_project.labels(), moved));
    return true;
}

void Document::runStage(Task stage, Work work, std::function<void()> onApplied)
{
    if (m_busy) {
        emit stageFailed(stage, tr("Another stage is still running; wait for it or cancel it (Esc) first."));
        return;
    }
    m_stage = stage;
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag; // before the signals: a cancel asked on them concerns this stage
    setBusy(true);
    emit stageStarted(stage);
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
        }
        if (const std::optional<Stage> s = stageOf(stage); s && !outcome->apply)
            m_stalled[static_cast<size_t>(*s)] = m_project;
        while (!m_busy && !m_queued.empty()) { // requests made meanwhile, in order
            const std::function<void()> request = std::move(m_queued.front());
            m_queued.erase(m_queued.begin());
            request();
        }
        advance();
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
        taskOf(from),
        [from, to, prepare](const RigProject& snapshot, const Progress& progress) -> Apply {
            auto computed = std::make_shared<RigProject>(snapshot);
            if (prepare)
                prepare(*computed);
            rig::runStages(*computed, from, to, progress);
            return [snapshot, computed, from, to](RigProject& p) { applyResults(p, *computed, snapshot, from, to); };
        },
        std::move(onApplied));
}

bool Document::stalled(Stage stage) const
{
    const std::optional<RigProject>& at = m_stalled[static_cast<size_t>(stage)];
    return at && sameStageInputs(m_project, *at, stage);
}

void Document::runFastStages()
{
    if (!m_busy && nextStage(m_project) == Stage::Rig && !stalled(Stage::Rig))
        rigInPlace();
}

void Document::advance()
{
    runFastStages();
    if (m_busy)
        return;
    const std::optional<Stage> next = nextStage(m_project);
    if (!next || *next == Stage::Rig || stalled(*next) || (*next == Stage::Skeleton && !m_autoSkeleton))
        return;
    const auto clipBefore = m_project.clip();
    runPipelineStages(*next, *next, nullptr, [this, stage = *next, clipBefore] { emitApplied(stage, clipBefore); });
}

void Document::emitApplied(Stage stage, const std::shared_ptr<const LoadedClip>& clipBefore)
{
    switch (stage) {
    case Stage::Load:
        emit characterChanged();
        emit curveSkeletonChanged();
        emit rigChanged();
        return;
    case Stage::Skeleton: emit curveSkeletonChanged(); return;
    case Stage::Weights: emit skinningChanged(); return;
    case Stage::Clip:
        if (m_project.clip() == clipBefore)
            return; // stale: the rig changed meanwhile
        // Another clip starts at its first frame; the same clip on an edited rig keeps the timeline's.
        if (!clipBefore || clipBefore->path != m_project.clip()->path)
            setClipTime(0.0);
        emit clipChanged();
        return;
    default: return;
    }
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
    m_poseCommitted = committed;
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
    if (deformer == m_project.deformer())
        return;
    try {
        m_project.setDeformer(deformer);
    } catch (const Error& e) {
        emit stageFailed(Task::Pose, QString::fromUtf8(e.what()));
        return;
    }
    if (m_project.hasCharacter())
        setModified(true); // saved in the project
    emit deformerChanged(QString::fromStdString(m_project.deformer()));
}

// Weights and clips ----------------------------------------------------------

void Document::computeWeights()
{
    if (!m_project.rig() || !m_project.character())
        return;
    if (m_busy) {
        if (m_project.skinningCurrent()) // stale weights are recomputed by themselves after the running stage
            m_queued.push_back([this] { computeWeights(); });
        return;
    }
    // The weights again (the clip follows: `advance()`).
    runPipelineStages(Stage::Weights, Stage::Weights, [](RigProject& p) { p.setSkinning(nullptr); },
                      [this, clip = m_project.clip()] { emitApplied(Stage::Weights, clip); });
}

bool Document::editsBlocked() const
{
    // The stages before the rig replace what an edit refers to (nodes, joints);
    // the ones after it (weights, clip, export) only read it and drop stale results.
    return m_busy && (m_stage == Task::Load || m_stage == Task::Skeleton || m_stage == Task::Project);
}

void Document::loadClip(const QString& path)
{
    if (m_busy && !editsBlocked()) {
        m_queued.push_back([this, path] { loadClip(path); }); // after the weights: queued, not refused
        return;
    }
    if (!m_project.rig()) {
        emit stageFailed(Task::Clip, tr("Cannot play %1 yet: fit a rig first (open a character and label its end nodes).")
                                         .arg(path));
        return;
    }
    const std::string file = path.toStdString();
    runPipelineStages(Stage::Clip, Stage::Clip, [file](RigProject& p) { p.setClipPath(file); },
                      [this, clip = m_project.clip()] {
                          setModified(true);
                          emitApplied(Stage::Clip, clip);
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
        emit stageFailed(Task::Clip, QString::fromUtf8(e.what()));
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

} // namespace rig::ui
