// MainWindow: loading, mapping and playing clips (issue 7).
#include "ui/main_window.h"

#include "core/project/rig_project.h"
#include "ui/document.h"
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

// Clips (issue 7) -------------------------------------------------------------

void MainWindow::createClipControls(QMenu* file)
{
    auto* dock = new QDockWidget(tr("Timeline"), this);
    dock->setObjectName("timelineDock");
    m_timeline = new TimelinePanel(dock);
    dock->setWidget(m_timeline);
    addDockWidget(Qt::BottomDockWidgetArea, dock);

    if (file) {
        QAction* load = new QAction(tr("Load &Clip…"), this);
        load->setObjectName("actionLoadClip");
        load->setShortcut(QKeySequence(tr("Ctrl+L")));
        load->setToolTip(tr("Play a motion clip on the rig (retargeted onto it): a BVH file or the animation of a "
                                "rigged file (FBX, glTF, DAE, .X, MD5, ...)"));
        connect(load, &QAction::triggered, this, &MainWindow::showLoadClipDialog);
        // Before the separator above Quit.
        const QList<QAction*> actions = file->actions();
        QAction* before = nullptr;
        for (QAction* a : actions)
            if (a->isSeparator())
                before = a;
        file->insertAction(before, load);
    }
    QMenu* playback = menuBar()->addMenu(tr("&Playback"));
    playback->setObjectName("playbackMenu");
    QAction* play = playback->addAction(tr("&Play / Pause"), m_timeline, &TimelinePanel::togglePlay);
    play->setShortcut(QKeySequence(Qt::Key_Space));
    QAction* next = playback->addAction(tr("&Next Frame"), m_timeline, &TimelinePanel::stepForward);
    next->setShortcut(QKeySequence(Qt::Key_Right));
    QAction* prev = playback->addAction(tr("P&revious Frame"), m_timeline, &TimelinePanel::stepBackward);
    prev->setShortcut(QKeySequence(Qt::Key_Left));
    QAction* loop = playback->addAction(tr("&Loop"));
    loop->setCheckable(true);
    loop->setChecked(m_timeline->loop());
    connect(loop, &QAction::toggled, m_timeline, &TimelinePanel::setLoop);
    playback->addSeparator();
    QAction* mapping = playback->addAction(tr("Joint &Mapping…"));
    mapping->setObjectName("actionMapping");
    mapping->setShortcut(QKeySequence(tr("Ctrl+M")));
    connect(mapping, &QAction::triggered, this, [this] {
        if (!m_mappingDialog)
            m_mappingDialog = new MappingDialog(m_document, this);
        m_mappingDialog->show();
        m_mappingDialog->raise();
    });
    QAction* showClip = playback->addAction(tr("Show Clip &Skeleton"));
    showClip->setObjectName("actionShowClipSkeleton");
    showClip->setCheckable(true);
    showClip->setChecked(true);
    showClip->setToolTip(tr("Draw the clip's own skeleton beside the character"));
    connect(showClip, &QAction::toggled, this, [this](bool on) {
        m_showClipSkeleton = on;
        updateView();
    });
    QAction* unload = playback->addAction(tr("&Unload Clip"), m_document, &Document::clearClip);
    unload->setObjectName("actionUnloadClip");

    connect(m_timeline, &TimelinePanel::timeChanged, m_document, &Document::setClipTime);
    // The clip poses the character only in Pose mode: playing or scrubbing turns it on, and says so,
    // instead of a frozen character beside a running timeline.
    auto showClipPose = [this] {
        if (poseMode() || !m_document->project().clip() || !m_document->project().rig())
            return;
        setPoseMode(true);
        statusBar()->showMessage(tr("Pose mode on to show the clip (the character moves only in Pose mode; "
                                    "Tab returns to Rig mode)."),
                                 8000);
    };
    connect(m_timeline, &TimelinePanel::playingChanged, this, [showClipPose](bool on) {
        if (on)
            showClipPose();
    });
    connect(m_timeline, &TimelinePanel::timeChanged, this, showClipPose);
    m_followAction = playback->addAction(tr("&Follow Character"));
    m_followAction->setObjectName("actionFollowCharacter");
    m_followAction->setCheckable(true);
    m_followAction->setChecked(true);
    m_followAction->setToolTip(tr("The camera moves with the character while a clip plays; Frame All (Home) frames it "
                                  "where it stands"));
    if (m_viewport)
        connect(m_followAction, &QAction::toggled, m_viewport, &Viewport::setFollow);
    connect(m_document, &Document::clipChanged, this, &MainWindow::onClipChanged);
    connect(m_timeline, &TimelinePanel::playingChanged, this, [this](bool on) {
        if (m_viewport)
            m_viewport->setContinuousRepaint(on || m_fpsLabel->isVisible());
    });
}

void MainWindow::showLoadClipDialog()
{
    QSettings settings;
    const QString dir = settings.value("clips/lastDir", QString("/usr/share/assimp/models/BVH")).toString();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Load Motion Clip"), dir,
                                     tr("Motion clips (*.bvh *.fbx *.glb *.gltf *.dae *.x *.md5mesh *.iqm *.smd *.ms3d *.b3d);;"
                                        "BVH motion clips (*.bvh);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue("clips/lastDir", QFileInfo(path).absolutePath());
    m_document->loadClip(path);
}

void MainWindow::onClipChanged()
{
    const auto& clip = m_document->project().clip();
    if (!clip) {
        m_timeline->setClip({}, 0, 1.0 / 30.0);
        return;
    }
    // A clip poses the character: show it posed (Pose mode).
    if (m_poseModeAction)
        setPoseMode(true);
    const double time = m_timeline->time();
    const bool same = m_timeline->frameCount() == int(clip->retargeted.frames.size());
    m_timeline->setClip(QString::fromStdString(clip->name), int(clip->retargeted.frames.size()),
                        clip->retargeted.frameTime);
    // Retargeted again after a rig edit: stay at the same time.
    m_timeline->setTime(same ? time : 0.0);
    updateView(); // the clip's skeleton at the timeline's time
    statusBar()->showMessage(tr("Clip %1: %2 of %3 joints mapped. Space plays, Left / Right step.")
                                 .arg(QString::fromStdString(clip->name))
                                 .arg(clip->retargeted.mapping.mappedCount())
                                 .arg(clip->retargeted.mapping.targetNames.size()),
                             10000);
}

} // namespace rig::ui
