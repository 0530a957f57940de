// MainWindow: Paint mode (issue 18). Tab cycles Rig → Pose → Paint; a drag on
// the mesh paints the heat map joint's weights with the Paint dock's brush,
// `[` / `]` shrink and grow the brush; each stroke is one undo step.
#include "ui/main_window.h"

#include "ui/document.h"
#include "ui/panels/paint_panel.h"
#include "ui/panels/weight_panel.h"
#include "ui/viewport/viewport.h"
#include "ui/weight_paint_tool.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QStatusBar>
#include <QToolBar>

namespace rig::ui {

bool MainWindow::paintMode() const { return m_paintModeAction && m_paintModeAction->isChecked(); }

void MainWindow::setPaintMode(bool on) { m_paintModeAction->setChecked(on); }

void MainWindow::createPaintControls(QMenu* view)
{
    m_paintTool = new WeightPaintTool(m_document, this);
    auto* dock = new QDockWidget(tr("Paint"), this);
    dock->setObjectName("paintDock");
    m_paintPanel = new PaintPanel(m_document, m_paintTool, dock);
    dock->setWidget(scrollable(m_paintPanel));
    addDockWidget(Qt::RightDockWidgetArea, dock);

    m_paintModeAction = new QAction(tr("Paint Mode"), this);
    m_paintModeAction->setObjectName("actionPaintMode");
    m_paintModeAction->setCheckable(true);
    m_paintModeAction->setToolTip(tr("Paint mode: click a joint, drag over the mesh to paint its weights "
                                     "([ / ] brush size; Alt + drag orbits). Tab cycles Rig, Pose, Paint"));
    if (auto* bar = findChild<QToolBar*>("poseToolBar"))
        bar->addAction(m_paintModeAction);
    if (view)
        view->addAction(m_paintModeAction);
    addAction(m_paintModeAction);

    // Tab cycles the three modes (it toggled Pose mode before Paint mode existed).
    m_poseModeAction->setShortcut(QKeySequence());
    auto* next = new QAction(tr("Next Mode (Rig, Pose, Paint)"), this);
    next->setObjectName("actionNextMode");
    next->setShortcut(QKeySequence(Qt::Key_Tab));
    connect(next, &QAction::triggered, this, [this] {
        if (paintMode())
            setPaintMode(false);
        else if (poseMode())
            setPaintMode(true);
        else
            setPoseMode(true);
    });
    addAction(next);

    auto* smaller = new QAction(tr("Smaller Brush"), this);
    smaller->setObjectName("actionBrushSmaller");
    smaller->setShortcut(QKeySequence(Qt::Key_BracketLeft));
    connect(smaller, &QAction::triggered, this, [this] { m_paintTool->stepRadius(-1); });
    auto* larger = new QAction(tr("Larger Brush"), this);
    larger->setObjectName("actionBrushLarger");
    larger->setShortcut(QKeySequence(Qt::Key_BracketRight));
    connect(larger, &QAction::triggered, this, [this] { m_paintTool->stepRadius(1); });
    for (QAction* a : {smaller, larger}) {
        a->setEnabled(false);
        addAction(a);
    }

    connect(m_poseModeAction, &QAction::toggled, this, [this](bool on) {
        if (on && paintMode())
            setPaintMode(false);
    });
    connect(m_paintModeAction, &QAction::toggled, this, [this, smaller, larger](bool on) {
        smaller->setEnabled(on);
        larger->setEnabled(on);
        if (on && poseMode())
            setPoseMode(false); // the pose stays: Paint mode paints the posed mesh
        if (!on)
            m_paintTool->endStroke();
        if (m_viewport) {
            m_viewport->setMode(on ? InteractionMode::Paint : poseMode() ? InteractionMode::Pose : InteractionMode::Rig);
            m_viewport->setBrushRadius(m_paintTool->brush().radius);
        }
        if (on) {
            // The heat map of the joint painted, with its legend.
            if (m_colorJoint < 0 && m_document->project().rig())
                m_colorJoint = m_viewport && m_viewport->selectedJoint() >= 0 ? m_viewport->selectedJoint() : 0;
            m_weightPanel->setColoring(MeshColoring::Weights);
            m_paintPanel->setJoint(m_colorJoint);
            updateMeshColors();
            if (auto* d = findChild<QDockWidget*>("paintDock"))
                d->raise();
            statusBar()->showMessage(m_document->project().skinning()
                                         ? tr("Paint mode: click a joint, drag over the mesh to paint its weights; "
                                              "[ / ] brush size; Tab back to Rig mode")
                                         : tr("Paint mode: no weights yet; compute the weights stage first."),
                                     6000);
        }
    });
    connect(m_paintTool, &WeightPaintTool::message, this, [this](const QString& text) { showNotice(text, 6000); });
    connect(m_paintTool, &WeightPaintTool::brushChanged, this, [this] {
        if (m_viewport)
            m_viewport->setBrushRadius(m_paintTool->brush().radius);
        if (paintMode())
            statusBar()->showMessage(tr("Brush radius %1").arg(m_paintTool->brush().radius, 0, 'g', 3), 2000);
    });
    // A painted stroke (preview, undo, redo): the viewport shows it (`updateView()`), the heat map's joint is named.
    connect(m_document, &Document::weightsPainted, this, &MainWindow::updateMeshColors);
    connect(m_document, &Document::rigChanged, this, [this] { m_paintPanel->setJoint(m_colorJoint); });
    if (m_viewport) {
        connect(m_viewport, &Viewport::jointSelected, this, [this](int joint) {
            if (paintMode())
                m_paintPanel->setJoint(joint);
        });
        connect(m_viewport, &Viewport::paintStroke, this, [this](int vertex, bool first) {
            if (first)
                m_paintTool->beginStroke(vertex, m_colorJoint);
            else
                m_paintTool->continueStroke(vertex);
        });
        connect(m_viewport, &Viewport::paintStrokeEnded, m_paintTool, &WeightPaintTool::endStroke);
    }
}

} // namespace rig::ui
