// The document's undoable settings (issue 19): template, facing, up axis,
// weight options; the state a setting's undo step keeps and restores.
#include "ui/document.h"

#include "core/common/error.h"

#include <QUndoCommand>

#include <utility>

namespace rig::ui {

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

bool Document::setRigTemplate(const QString& spec)
{
    if (editsBlocked()) {
        emit stageFailed(Task::Rig, tr("Wait for the running stage to finish before changing the template."));
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
        emit stageFailed(Task::Rig, QString::fromUtf8(e.what()));
        return false;
    }
}

bool Document::setFingerOptions(const FingerOptions& options)
{
    if (options == m_project.fingerOptions())
        return true;
    if (editsBlocked()) {
        emit stageFailed(Task::Rig, tr("Wait for the running stage to finish before changing the fingers."));
        return false;
    }
    try {
        RigProject candidate = m_project;
        candidate.setFingerOptions(options);
        std::shared_ptr<const FitResult> fitted;
        if (candidate.curveSkeleton() && m_project.rig())
            fitted = std::make_shared<const FitResult>(fitRig(candidate, m_project.labels()));
        SettingsState before = settingsState();
        const EndNodeLabels labels = m_project.labels();
        m_project.setFingerOptions(options);
        if (fitted)
            applyRig(labels, fitted);
        else
            emit rigChanged();
        pushSetting(tr("Fingers %1").arg(QString::fromUtf8(fingerModeId(options.mode).data())), std::move(before));
        return true;
    } catch (const std::exception& e) {
        emit stageFailed(Task::Rig, QString::fromUtf8(e.what()));
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
            emit stageFailed(Task::Rig, QString::fromUtf8(e.what()));
        }
    }
    emit rigChanged();
    pushSetting(tr("Facing %1").arg(QString::fromStdString(facingName(front)).toUpper()), std::move(before));
}

void Document::setUpAxis(const QString& up)
{
    OrientationOptions options = m_project.orientation();
    options.up = up.toLower().toStdString();
    if (!m_project.hasCharacter() || options == m_project.orientation())
        return;
    try {
        validateOrientationOptions(options);
    } catch (const std::exception& e) {
        emit stageFailed(Task::Load, QString::fromUtf8(e.what()));
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

void Document::setFacing(const QString& facing)
{
    OrientationOptions options = m_project.orientation();
    options.facing = facing.toLower().toStdString();
    const bool toAuto = options.facing == "auto", fromAuto = m_project.orientation().facing == "auto";
    if (!m_project.hasCharacter() || (toAuto && fromAuto))
        return;
    Vec3 front = Vec3::UnitZ();
    try {
        validateOrientationOptions(options);
        if (!toAuto)
            front = parseFacing(options.facing);
    } catch (const std::exception& e) {
        emit stageFailed(Task::Load, QString::fromUtf8(e.what()));
        return;
    }
    if (!toAuto && !fromAuto) {
        setFront(front); // not turned: the same character, another front
        return;
    }
    // Into or out of "auto": the character is turned, or turned back, by loading it again.
    SettingsState before = settingsState();
    const QString title = options.facing == "auto" ? tr("Auto") : facing.toUpper();
    runPipelineStages(
        Stage::Load, Stage::Load,
        [options, front](RigProject& p) {
            p.setOrientation(options);
            if (options.facing != "auto")
                p.setFront(front);
        },
        [this, before, title] {
            emit characterChanged();
            emit curveSkeletonChanged(); // cleared: the load stage starts the new one
            emit frontChanged();
            emit rigChanged();
            pushSetting(tr("Facing %1").arg(title), before);
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
    s.fingerOptions = m_project.fingerOptions();
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
    m_project.setFingerOptions(state.fingerOptions);
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
    advance();
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
    advance();
    pushSetting(text, std::move(before));
}

} // namespace rig::ui
