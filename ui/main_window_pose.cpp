// MainWindow: the posing controls (issue 6) and the weight views (issue 5).
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
#include <QMenu>

#include <map>
#include <memory>
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

// Posing (issue 6) ----------------------------------------------------------

bool MainWindow::poseMode() const { return m_poseModeAction && m_poseModeAction->isChecked(); }

void MainWindow::setPoseMode(bool on) { m_poseModeAction->setChecked(on); }

bool MainWindow::followCharacter() const { return m_followAction && m_followAction->isChecked(); }

void MainWindow::updateSplitView()
{
    if (!m_viewport)
        return;
    // The chosen right half; when it is the current deformer, the first other one.
    std::string right = m_splitRight;
    if (right == m_document->deformer())
        for (const DeformerInfo& d : deformers())
            if (d.id != right) {
                right = d.id;
                break;
            }
    m_viewport->setSplitView(m_splitAction->isChecked(), right);
}

void MainWindow::createPoseControls(QMenu* view)
{
    auto* poseDock = new QDockWidget(tr("Pose"), this);
    poseDock->setObjectName("poseDock");
    m_jointPanel = new JointPanel(m_document, poseDock);
    poseDock->setWidget(scrollable(m_jointPanel));
    addDockWidget(Qt::RightDockWidgetArea, poseDock);

    QToolBar* bar = addToolBar(tr("Pose"));
    bar->setObjectName("poseToolBar");
    m_poseModeAction = bar->addAction(tr("Pose Mode"));
    m_poseModeAction->setObjectName("actionPoseMode");
    m_poseModeAction->setCheckable(true);
    m_poseModeAction->setShortcut(QKeySequence(Qt::Key_Tab));
    m_poseModeAction->setToolTip(tr("Pose mode: click a joint, drag a ring of the gizmo to rotate it (Ctrl: 15° "
                                    "steps). Off: Rig mode, drag joints to correct the rig (Tab)"));
    bar->addSeparator();
    // One button per row of the deformer table, keys 1, 2, 3, … in table order.
    auto* group = new QActionGroup(this);
    auto deformerActions = std::make_shared<std::map<std::string, QAction*>>();
    int number = 0;
    for (const DeformerInfo& d : deformers()) {
        const QString key = QString::number(++number);
        const QString title = QString::fromStdString(d.title);
        QAction* a = bar->addAction(QString::fromStdString(d.shortTitle));
        a->setObjectName(QStringLiteral("actionDeformer%1").arg(key));
        a->setCheckable(true);
        a->setChecked(d.id == m_document->deformer());
        if (number <= 9)
            a->setShortcut(QKeySequence(key));
        a->setToolTip(number <= 9 ? tr("%1 (%2)").arg(title, key) : title);
        group->addAction(a);
        (*deformerActions)[d.id] = a;
        connect(a, &QAction::triggered, this, [this, id = d.id] { m_document->setDeformer(id); });
    }
    m_splitAction = bar->addAction(tr("Split"));
    m_splitAction->setObjectName("actionSplitView");
    m_splitAction->setCheckable(true);
    m_splitAction->setShortcut(QKeySequence(tr("Ctrl+\\")));
    m_splitAction->setToolTip(tr("Split view: the left half with the current deformer, the right half with "
                                 "the one chosen in View ▸ Split With"));
    QAction* reset = bar->addAction(tr("Reset Pose"));
    reset->setObjectName("actionResetPose");
    reset->setShortcut(QKeySequence(tr("Alt+R")));
    connect(reset, &QAction::triggered, m_document, &Document::resetPose);
    if (view) {
        view->addSeparator();
        view->addAction(m_poseModeAction);
        view->addAction(m_splitAction);
        QMenu* splitWith = view->addMenu(tr("Split With"));
        splitWith->setObjectName("menuSplitWith");
        auto* splitGroup = new QActionGroup(splitWith);
        for (const DeformerInfo& d : deformers()) {
            QAction* a = splitWith->addAction(QString::fromStdString(d.title));
            a->setObjectName(QStringLiteral("actionSplitWith_%1").arg(QString::fromStdString(d.id)));
            a->setCheckable(true);
            a->setChecked(d.id == m_splitRight);
            splitGroup->addAction(a);
            connect(a, &QAction::triggered, this, [this, id = d.id] {
                m_splitRight = id;
                if (!m_splitAction->isChecked())
                    m_splitAction->setChecked(true); // choosing the other half shows it
                else
                    updateSplitView();
            });
        }
    }
    // Tab toggles the mode over the viewport and the docks; in a text field it
    // keeps moving between the fields (MainWindow::eventFilter, issue 19 item 2).
    addAction(m_poseModeAction);

    connect(m_splitAction, &QAction::toggled, this, &MainWindow::updateSplitView);
    connect(m_document, &Document::deformerChanged, this, [this, deformerActions](const QString& id) {
        const std::string d = id.toStdString();
        if (auto it = deformerActions->find(d); it != deformerActions->end())
            it->second->setChecked(true);
        updateSplitView();
        statusBar()->showMessage(tr("Deformer: %1").arg(QString::fromStdString(findDeformer(d).title)), 3000);
    });
    connect(m_document, &Document::poseChanged, this, &MainWindow::onPoseChanged);
    connect(m_jointPanel, &JointPanel::jointSelected, this, [this](int joint) {
        if (m_viewport)
            m_viewport->setSelectedJoint(joint);
        m_rigPanel->setSelectedJoint(joint);
        // The heat map follows the pick, as a click on the joint in the viewport does.
        showWeightsOf(joint);
    });
    connect(m_poseModeAction, &QAction::toggled, this, [this](bool on) {
        if (m_viewport)
            m_viewport->setMode(on ? InteractionMode::Pose : InteractionMode::Rig);
        if (on && m_viewport && !m_viewport->hasSkinning())
            statusBar()->showMessage(tr("Pose mode: no skin weights yet, posing moves only the skeleton. "
                                        "Compute the weights stage to see the mesh deform."),
                                     8000);
        else
            statusBar()->showMessage(on ? tr("Pose mode: click a joint, drag a ring to rotate it (Ctrl: 15° steps); "
                                             "1 / 2 / 3 switch the deformer; Tab back to Rig mode")
                                        : tr("Rig mode: drag joints to correct the rig"),
                                     6000);
    });
    if (m_viewport) {
        connect(m_viewport, &Viewport::jointSelected, m_jointPanel, &JointPanel::setSelectedJoint);
        connect(m_viewport, &Viewport::poseDragged, m_document, &Document::previewPose);
        connect(m_viewport, &Viewport::poseDropped, this,
                [this](const Pose& pose, const QString& text) { m_document->commitPose(pose, text); });
    }
}

void MainWindow::onPoseChanged()
{
    if (m_viewport && poseMode() && !m_document->project().skinning() && m_document->project().rig())
        statusBar()->showMessage(tr("No skin weights yet: posing moves only the skeleton."), 4000);
}

void MainWindow::createWeightControls()
{
    auto* dock = new QDockWidget(tr("Weights"), this);
    dock->setObjectName("weightDock");
    m_weightPanel = new WeightPanel(m_document, dock);
    dock->setWidget(scrollable(m_weightPanel));
    addDockWidget(Qt::RightDockWidgetArea, dock);
    auto* cycle = new QAction(tr("Cycle Mesh Colouring"), this);
    cycle->setShortcut(QKeySequence(tr("S")));
    connect(cycle, &QAction::triggered, this, [this] {
        m_weightPanel->setColoring(MeshColoring((int(m_weightPanel->coloring()) + 1) % 3));
    });
    addAction(cycle);
    connect(m_weightPanel, &WeightPanel::coloringChanged, this, &MainWindow::updateMeshColors);
    connect(m_document, &Document::skinningChanged, this, &MainWindow::updateMeshColors);
    if (m_viewport)
        connect(m_viewport, &Viewport::vertexHovered, this, [this](int v, const QPoint& at) {
            const auto& s = m_document->project().skinning();
            const auto& rig = m_document->project().rig();
            if (!s || !rig || v >= s->weights.vertexCount())
                return;
            QStringList lines{tr("Vertex %1").arg(v)};
            const int bone = v < s->segmentation.vertexCount() ? s->segmentation.bone[size_t(v)] : -1;
            if (bone >= 0 && bone < rig->skeleton.jointCount())
                lines << tr("segment %1, δ = %2")
                             .arg(QString::fromStdString(rig->skeleton.names[size_t(bone)]))
                             .arg(s->segmentation.delta[size_t(v)], 0, 'f', 2);
            else
                lines << tr("not segmented");
            for (int k = 0; k < s->weights.maxInfluences; ++k)
                if (const float w = s->weights.weights(v, k); w > 0.0f)
                    lines << tr("%1  %2")
                                 .arg(QString::fromStdString(rig->skeleton.names[size_t(s->weights.joints(v, k))]))
                                 .arg(double(w), 0, 'f', 3);
            QToolTip::showText(at, lines.join("\n"), m_viewport);
        });
    if (m_viewport)
        connect(m_viewport, &Viewport::jointSelected, this, &MainWindow::showWeightsOf);
    connect(m_document, &Document::stageStarted, this, [this](Task stage) {
        if (stage == Task::Weights)
            statusBar()->showMessage(tr("Computing weights…"));
    });
    connect(m_document, &Document::skinningChanged, this, [this] {
        const auto& s = m_document->project().skinning();
        if (!s)
            return;
        const auto& d = s->diagnostics;
        if (d.messages.empty())
            statusBar()->showMessage(tr("Weights ready."), 8000);
        else // the first finding as a sentence; all of them in the Weights tab's report
            showNotice(tr("Weights ready: %1").arg(QString::fromStdString(d.messages.front())), 8000);
    });
}

void MainWindow::showWeightsOf(int joint)
{
    if (joint < 0)
        return;
    m_colorJoint = joint;
    if (m_weightPanel->coloring() == MeshColoring::Weights)
        updateMeshColors();
}

void MainWindow::updateMeshColors()
{
    if (!m_viewport)
        return;
    const auto& s = m_document->project().skinning();
    const MeshColoring mode = m_weightPanel->coloring();
    const int joint = m_colorJoint >= 0 ? m_colorJoint : 0;
    m_viewport->setMeshColoring(mode, joint);
    if (!s || mode != MeshColoring::Weights)
        return;
    if (const auto& rig = m_document->project().rig(); rig && joint < rig->skeleton.jointCount())
        statusBar()->showMessage(tr("Weights of %1 (click a joint to see another)")
                                     .arg(QString::fromStdString(rig->skeleton.names[size_t(joint)])),
                                 5000);
}

} // namespace rig::ui
