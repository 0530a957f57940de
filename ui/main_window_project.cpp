// MainWindow: projects, autosave, recovery and export (issue 8).
#include "ui/main_window.h"

#include "core/project/rig_project.h"
#include "ui/document.h"
#include "ui/panels/export_dialog.h"
#include "ui/panels/joint_panel.h"
#include "ui/panels/pipeline_panel.h"
#include "ui/panels/mapping_dialog.h"
#include "ui/panels/rig_panel.h"
#include "ui/panels/timeline_panel.h"
#include "ui/panels/weight_panel.h"
#include "ui/viewport/orbit_camera.h"
#include "ui/viewport/clip_overlay.h"
#include "ui/viewport/viewport.h"
#include "ui/viewport/weight_colors.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDebug>
#include <QDockWidget>
#include <QTimer>
#include <QToolTip>
#include <QStandardPaths>
#include <QFile>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QToolBar>

#include <array>
#include <cmath>

namespace rig::ui {

// Projects, autosave and export (issue 8) -------------------------------------

QString MainWindow::autosaveFolder()
{
    const QString dir = qEnvironmentVariableIsSet("RIGSMITH_AUTOSAVE_DIR")
                            ? qEnvironmentVariable("RIGSMITH_AUTOSAVE_DIR")
                            : QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    QDir().mkpath(dir);
    return dir;
}

namespace {

/// "autosave-INSTANCE-PROJECT.rsproj" -> INSTANCE; empty for other names.
QString instanceOf(const QString& autosaveName)
{
    static const QRegularExpression pattern(QStringLiteral("^autosave-([0-9]+_[0-9a-z]+)-[0-9a-z]+\\.rsproj$"));
    const QRegularExpressionMatch m = pattern.match(autosaveName);
    return m.hasMatch() ? m.captured(1) : QString();
}

QString lockPathOf(const QString& folder, const QString& instance)
{
    return folder + "/autosave-" + instance + ".lock";
}

/// Whether the instance that owns `lockPath` still runs: its lock is held by a
/// live process (Qt checks the process id and name, never the file's age).
bool instanceRunning(const QString& lockPath)
{
    if (!QFileInfo::exists(lockPath))
        return false;
    QLockFile lock(lockPath);
    lock.setStaleLockTime(0);
    if (lock.tryLock(0)) {
        lock.unlock(); // removes the stale lock file
        return false;
    }
    return lock.error() == QLockFile::LockFailedError;
}

} // namespace

QString MainWindow::autosavePath() const
{
    // Per project: a short hash of its path, so two projects of one instance never share a file.
    const QString project = m_document->projectPath();
    const QString key = project.isEmpty()
                            ? QStringLiteral("untitled")
                            : QString::number(fnv1a64(QFileInfo(project).absoluteFilePath().toStdString()) >> 24, 36);
    return autosaveFolder() + "/autosave-" + m_instanceId + "-" + key + ".rsproj";
}

QStringList MainWindow::recoverableAutosaves()
{
    const QString folder = autosaveFolder();
    QStringList out;
    const QFileInfoList files = QDir(folder).entryInfoList({QStringLiteral("autosave*.rsproj")}, QDir::Files, QDir::Time);
    for (const QFileInfo& f : files) {
        const QString instance = instanceOf(f.fileName());
        if (instance.isEmpty() && f.fileName() != QLatin1String("autosave.rsproj")) // the name older builds used
            continue;
        if (!instance.isEmpty() && instanceRunning(lockPathOf(folder, instance)))
            continue; // another window's live autosave, not a crash
        out.push_back(f.absoluteFilePath());
    }
    return out; // QDir::Time: newest first
}

std::optional<ProjectCamera> MainWindow::currentCamera() const
{
    if (!m_viewport)
        return std::nullopt;
    const OrbitCamera& c = m_viewport->camera();
    return ProjectCamera{Vec3(c.target.x, c.target.y, c.target.z), c.yaw, c.pitch, c.distance};
}

void MainWindow::createProjectControls(QMenu* file)
{
    if (!file)
        return;
    QAction* separator = nullptr;
    for (QAction* a : file->actions())
        if (a->isSeparator())
            separator = a;
    auto add = [&](const QString& text, const QKeySequence& key, const char* name, auto slot) {
        auto* a = new QAction(text, this);
        a->setShortcut(key);
        a->setObjectName(name);
        connect(a, &QAction::triggered, this, slot);
        file->insertAction(separator, a);
        return a;
    };
    file->insertSeparator(separator);
    add(tr("&Save Project"), QKeySequence::Save, "actionSave", [this] { saveProject(); });
    add(tr("Save Project &As…"), QKeySequence(tr("Ctrl+Shift+S")), "actionSaveAs", [this] { saveProjectAs(); });
    file->insertSeparator(separator);
    add(tr("&Export glTF…"), QKeySequence(tr("Ctrl+E")), "actionExportGltf", [this] { showExportDialog(); });
    add(tr("Export Clip as &BVH…"), QKeySequence(), "actionExportBvh", [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Retargeted Clip"), QString(),
                                                          tr("BVH motion (*.bvh)"));
        if (!path.isEmpty() && m_document->exportClipBvh(path))
            statusBar()->showMessage(tr("Wrote %1").arg(path), 8000);
    });

    connect(m_document, &Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::characterChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::projectOpened, this,
            [this](const QString& path, std::optional<ProjectCamera> camera) {
                updateTitle();
                statusBar()->showMessage(tr("Opened project %1").arg(path), 8000);
                if (camera && m_viewport) {
                    OrbitCamera& c = m_viewport->camera();
                    c.target = glm::vec3(float(camera->target.x()), float(camera->target.y()), float(camera->target.z()));
                    c.yaw = float(camera->yaw);
                    c.pitch = float(camera->pitch);
                    c.distance = float(camera->distance);
                    m_viewport->update();
                }
            });
    connect(m_document, &Document::projectMeshMissing, this, [this](const QString& project, const QString& message) {
        QMessageBox box(QMessageBox::Warning, tr("Mesh not found"), message + "\n\n" + tr("Locate the mesh file?"),
                        QMessageBox::Open | QMessageBox::Cancel, this);
        if (!m_askBeforeDiscarding || box.exec() != QMessageBox::Open)
            return;
        const QString mesh = QFileDialog::getOpenFileName(this, tr("Locate the Character Mesh"));
        if (!mesh.isEmpty())
            m_document->openProject(project, mesh);
    });
    connect(m_document, &Document::stageFinished, this, [this](Task stage) {
        if (stage == Task::Export)
            statusBar()->showMessage(tr("Exported %1").arg(m_lastExport), 10000);
        // Autosave after each stage (and every few minutes, below).
        else if (stage != Task::Project)
            autosave();
    });
    auto* timer = new QTimer(this);
    timer->setObjectName("autosaveTimer");
    connect(timer, &QTimer::timeout, this, &MainWindow::autosave);
    timer->start(autosaveIntervalMs);
    updateTitle();
}

void MainWindow::updateTitle()
{
    QString name = QFileInfo(m_document->projectPath()).fileName();
    if (name.isEmpty() && m_document->project().character())
        name = QString::fromStdString(m_document->project().character()->displayName);
    setWindowTitle(name.isEmpty() ? QStringLiteral("Rigsmith") : tr("%1[*] — Rigsmith").arg(name));
    setWindowModified(m_document->isModified());
}

void MainWindow::autosave()
{
    if (!m_document->isModified() || m_document->busy())
        return;
    if (!m_instanceLock) {
        // Held while this instance runs: recovery elsewhere skips our autosaves.
        m_instanceLock = std::make_unique<QLockFile>(lockPathOf(autosaveFolder(), m_instanceId));
        m_instanceLock->setStaleLockTime(0);
        if (!m_instanceLock->tryLock(0))
            qWarning() << "Rigsmith: cannot take the autosave lock" << lockPathOf(autosaveFolder(), m_instanceId);
    }
    const QString path = autosavePath();
    if (!m_document->saveProject(path, currentCamera(), true))
        return;
    if (!m_ownAutosave.isEmpty() && m_ownAutosave != path) // the project was saved under another name
        QFile::remove(m_ownAutosave);
    m_ownAutosave = path;
    statusBar()->showMessage(tr("Autosaved."), 2000);
}

void MainWindow::dropRecoveredAutosave()
{
    if (m_recoveredAutosave.isEmpty())
        return;
    QFile::remove(m_recoveredAutosave);
    m_recoveredAutosave.clear();
}

bool MainWindow::saveProject()
{
    // Recovered work has no file of its own yet: Save asks where (Save As).
    if (m_document->projectPath().isEmpty() || m_document->isRecovered())
        return saveProjectAs();
    if (!m_document->saveProject(m_document->projectPath(), currentCamera()))
        return false;
    statusBar()->showMessage(tr("Saved %1").arg(m_document->projectPath()), 5000);
    return true;
}

bool MainWindow::saveProjectAs()
{
    const QString start = !m_document->projectPath().isEmpty() ? m_document->projectPath()
                                                                : QSettings().value("lastOpenDir").toString();
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save Project"), start, tr("Rigsmith projects (*.rsproj)"));
    if (path.isEmpty())
        return false;
    return saveProjectTo(path);
}

bool MainWindow::saveProjectTo(const QString& chosen)
{
    QString path = chosen;
    if (QFileInfo(path).suffix().isEmpty())
        path += ".rsproj";
    const bool recovered = m_document->isRecovered();
    if (!m_document->saveProject(path, currentCamera()))
        return false;
    if (recovered)
        dropRecoveredAutosave(); // the recovered work is safe in `path` now
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void MainWindow::showExportDialog()
{
    const auto& clip = m_document->project().clip();
    const auto& character = m_document->project().character();
    const QString base = character ? QFileInfo(QString::fromStdString(character->displayName)).completeBaseName()
                                   : QStringLiteral("character");
    ExportDialog dialog(clip ? QString::fromStdString(clip->name) : QString(),
                        clip ? static_cast<int>(clip->retargeted.frames.size()) : 0,
                        ExportDialog::startFolder(m_document->projectPath()),
                        base.isEmpty() ? QStringLiteral("character") : base, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ExportChoice choice = dialog.choice();
    if (choice.path.isEmpty())
        return;
    m_lastExport = choice.path;
    Document::GltfExportRequest request;
    request.includeClip = choice.includeClip;
    request.extraClips = choice.extraClips;
    request.metres = choice.metres;
    request.firstFrame = choice.firstFrame;
    request.lastFrame = choice.lastFrame;
    request.rootMotion = choice.rootMotion;
    request.boneNames = choice.boneNames;
    m_document->exportGltf(choice.path, request);
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified() || !m_askBeforeDiscarding)
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("The rig has changes that are not saved. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return saveProject();
    if (m_document->isRecovered())
        dropRecoveredAutosave(); // explicitly discarded
    return true;
}

bool MainWindow::offerRecovery()
{
    const QStringList candidates = recoverableAutosaves();
    if (candidates.isEmpty() || !m_askBeforeDiscarding)
        return false;
    const QString path = candidates.front();
    QMessageBox box(QMessageBox::Question, tr("Recover unsaved work?"),
                    tr("Rigsmith did not close normally (%1). Recover the work saved automatically then?\n\n"
                       "Recovered work opens unsaved: save it to keep it. Discard deletes it; Later asks again "
                       "next time.")
                        .arg(QLocale().toString(QFileInfo(path).lastModified(), QLocale::ShortFormat)),
                    QMessageBox::NoButton, this);
    QPushButton* recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.addButton(tr("Later"), QMessageBox::RejectRole);
    box.setDefaultButton(recover);
    box.exec();
    if (box.clickedButton() == discard) {
        QFile::remove(path);
        return false;
    }
    if (box.clickedButton() != recover)
        return false;
    return recoverAutosave(path);
}

bool MainWindow::recoverAutosave(const QString& autosave)
{
    QString original;
    try {
        const ProjectFile file = readProjectFile(autosave.toStdString());
        original = QString::fromStdString(file.autosaveOf.value_or(std::string()));
    } catch (const std::exception& e) {
        showError(tr("Cannot recover"), QString::fromUtf8(e.what())); // the file stays for a later try
        return false;
    }
    m_recoveredAutosave = QFileInfo(autosave).absoluteFilePath();
    m_document->recoverProject(autosave, original);
    return true;
}

} // namespace rig::ui
