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
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QToolBar>

#include <array>
#include <cmath>

namespace rig::ui {

// Projects, autosave and export (issue 8) -------------------------------------

QString MainWindow::autosavePath()
{
    const QString dir = qEnvironmentVariableIsSet("RIGSMITH_AUTOSAVE_DIR")
                            ? qEnvironmentVariable("RIGSMITH_AUTOSAVE_DIR")
                            : QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    QDir().mkpath(dir);
    return dir + "/autosave.rsproj";
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
    connect(m_document, &Document::stageFinished, this, [this](const QString& stage) {
        if (stage == stageName(Stage::Export))
            statusBar()->showMessage(tr("Exported %1").arg(m_lastExport), 10000);
        // Autosave after each stage (and every few minutes, below).
        else if (stage != projectTask)
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
    if (m_document->saveProject(autosavePath(), currentCamera(), true))
        statusBar()->showMessage(tr("Autosaved."), 2000);
}

bool MainWindow::saveProject()
{
    if (m_document->projectPath().isEmpty())
        return saveProjectAs();
    if (!m_document->saveProject(m_document->projectPath(), currentCamera()))
        return false;
    statusBar()->showMessage(tr("Saved %1").arg(m_document->projectPath()), 5000);
    return true;
}

bool MainWindow::saveProjectAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save Project"), QSettings().value("lastOpenDir").toString(),
                                                tr("Rigsmith projects (*.rsproj)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += ".rsproj";
    if (!m_document->saveProject(path, currentCamera()))
        return false;
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
    return true;
}

bool MainWindow::offerRecovery()
{
    const QString path = autosavePath();
    if (!QFileInfo::exists(path))
        return false;
    const auto answer = QMessageBox::question(
        this, tr("Recover unsaved work?"),
        tr("Rigsmith did not close normally last time (%1). Recover the work saved automatically then?")
            .arg(QLocale().toString(QFileInfo(path).lastModified(), QLocale::ShortFormat)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer != QMessageBox::Yes) {
        QFile::remove(path);
        return false;
    }
    m_document->openProject(path);
    return true;
}

} // namespace rig::ui
