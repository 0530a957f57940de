#include "ui/messages.h"
#include "ui/main_window.h"

#include "core/project/rig_project.h"
#include "ui/document.h"
#include "ui/panels/parts_panel.h"
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
#include <QDateTime>
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
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include <array>
#include <cmath>

namespace rig::ui {
namespace {

QString formatCount(int n) { return QLocale().toString(n); }

QString formatLength(double metres)
{
    return QString::number(metres, 'g', 3);
}

} // namespace

MainWindow::MainWindow(ViewportKind kind, QWidget* parent) : QMainWindow(parent), m_document(new Document(this))
{
    setObjectName("mainWindow");
    setWindowTitle("Rigsmith");
    static int windows = 0; // several windows of one process (tests) are instances of their own
    m_instanceId = QString::number(QCoreApplication::applicationPid()) + "_" +
                   QString::number(QDateTime::currentMSecsSinceEpoch(), 36) + QString::number(windows++, 36);
    setAcceptDrops(true);
    if (kind == ViewportKind::OpenGL) {
        m_viewport = new Viewport(this);
        m_viewport->setObjectName("viewport");
        setCentralWidget(m_viewport);
    } else {
        auto* label = new QLabel(tr("(3D viewport)"), this);
        label->setAlignment(Qt::AlignCenter);
        label->setObjectName("viewportPlaceholder");
        m_placeholder = label;
        setCentralWidget(label);
    }

    auto* dock = new QDockWidget(tr("Pipeline"), this);
    dock->setObjectName("pipelineDock");
    dock->setWidget(scrollable(new PipelinePanel(m_document, dock)));
    addDockWidget(Qt::RightDockWidgetArea, dock);
    auto* rigDock = new QDockWidget(tr("Rig"), this);
    rigDock->setObjectName("rigDock");
    m_rigPanel = new RigPanel(m_document, rigDock);
    {
        // Above the panel: "This does not look like a humanoid ..." while it applies (issue 21).
        auto* box = new QWidget(rigDock);
        auto* layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* warning = new QLabel(box);
        warning->setObjectName("humanoidWarning");
        warning->setWordWrap(true);
        warning->setStyleSheet("QLabel { background: #5c4400; color: #ffe08a; padding: 6px; }");
        warning->hide();
        layout->addWidget(warning);
        layout->addWidget(m_rigPanel, 1);
        rigDock->setWidget(scrollable(box));
        connect(m_document, &Document::humanoidWarningChanged, warning, [warning](const QString& text) {
            warning->setText(text);
            warning->setVisible(!text.isEmpty());
        });
    }
    addDockWidget(Qt::RightDockWidgetArea, rigDock);
    auto* partsDock = new QDockWidget(tr("Parts"), this);
    partsDock->setObjectName("partsDock");
    partsDock->setWidget(new PartsPanel(m_document, partsDock));
    addDockWidget(Qt::RightDockWidgetArea, partsDock);

    m_importWarning = new QLabel(this);
    m_importWarning->setObjectName("importWarning");
    m_importWarning->setStyleSheet("color: #e0a030;");
    m_importWarning->setVisible(false);
    statusBar()->addPermanentWidget(m_importWarning);
    m_statsLabel = new QLabel(tr("No character loaded — File ▸ Open or drop a file here"), this);
    m_statsLabel->setObjectName("meshStats");
    statusBar()->addPermanentWidget(m_statsLabel); // stays visible beside transient messages
    m_fpsLabel = new QLabel(this);
    m_fpsLabel->setObjectName("fpsLabel");
    m_fpsLabel->setVisible(false);
    statusBar()->addPermanentWidget(m_fpsLabel);

    createMenus();
    createDisplayToolBar();
    createPoseControls(menuBar()->findChild<QMenu*>("viewMenu"));
    createWeightControls();
    createPaintControls(menuBar()->findChild<QMenu*>("viewMenu"));
    createClipControls(menuBar()->findChild<QMenu*>("fileMenu"));
    createProjectControls(menuBar()->findChild<QMenu*>("fileMenu"));
    createHelpControls();
    installFocusHandling();
    arrangeDocks();
    connect(m_document, &Document::characterChanged, this, &MainWindow::onCharacterChanged);
    connect(m_document, &Document::curveSkeletonChanged, this, &MainWindow::onCurveSkeletonChanged);
    // The viewport reads the document's state on each change of it: one call (view_state.h).
    for (void (Document::*changed)() : {&Document::characterChanged, &Document::curveSkeletonChanged,
                                        &Document::rigChanged, &Document::frontChanged, &Document::skinningChanged,
                                        &Document::weightsPainted, &Document::poseChanged, &Document::clipChanged})
        connect(m_document, changed, this, &MainWindow::updateView);
    connect(m_document, &Document::deformerChanged, this, &MainWindow::updateView);
    connect(m_document, &Document::rigNotice, this, [this](const QString& m) { showNotice(m, 20000); });
    if (m_viewport) {
        connect(m_viewport, &Viewport::nodeClicked, this, &MainWindow::onNodeClicked);
        connect(m_viewport, &Viewport::jointSelected, m_rigPanel, &RigPanel::setSelectedJoint);
        // A fit warning selects the joint it concerns (issue 14).
        connect(m_rigPanel, &RigPanel::warningJoint, m_viewport, &Viewport::setSelectedJoint);
        connect(m_rigPanel, &RigPanel::warnedJoints, m_viewport, &Viewport::setWarnedJoints);
        // Dragging a joint: snap to the curve skeleton (thesis ajM) unless Shift is held;
        // preview live, commit one undoable move on release.
        auto target = [this](const glm::vec3& p, bool free) {
            const Vec3 v(p.x, p.y, p.z);
            return free ? v : m_document->snapToSkeleton(v);
        };
        connect(m_viewport, &Viewport::jointDragged, this, [this, target](int joint, const glm::vec3& p, bool free) {
            if (auto preview = m_document->previewJointMove(joint, target(p, free))) {
                m_rigPreview = preview;
                updateView();
            }
        });
        connect(m_viewport, &Viewport::jointDropped, this, [this, target](int joint, const glm::vec3& p, bool free) {
            m_rigPreview = nullptr;
            if (!m_document->moveJoint(joint, target(p, free)))
                updateView(); // the rig as it was
        });
    }
    connect(m_document, &Document::stageFailed, this, &MainWindow::onStageFailed);
    connect(m_document, &Document::stageCancelled, this,
            [this](Task) { statusBar()->showMessage(tr("Cancelled; nothing changed."), 5000); });

    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    if (settings.value("window/geometry").isNull())
        resize(1280, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::arrangeDocks()
{
    // Right: one tab group (Pipeline, Rig, Weights, Pose, Parts), so each tab
    // has the whole height of the column and its main controls fit a 1280×800
    // window without scrolling (issue 19 item 7). A running stage shows its
    // progress in the status bar whichever tab is in front.
    auto* pipeline = findChild<QDockWidget*>("pipelineDock");
    for (const char* name : {"rigDock", "weightDock", "poseDock", "partsDock", "paintDock"})
        if (auto* d = findChild<QDockWidget*>(name))
            tabifyDockWidget(pipeline, d);
    findChild<QDockWidget*>("rigDock")->raise();
    resizeDocks({pipeline}, {330}, Qt::Horizontal);
    auto* progress = new QProgressBar(this);
    progress->setObjectName("statusProgress");
    progress->setRange(0, 1000);
    progress->setMaximumWidth(160);
    progress->setMaximumHeight(14);
    progress->setTextVisible(false);
    progress->hide();
    auto* step = new QLabel(this);
    step->setObjectName("statusStep");
    step->hide();
    statusBar()->insertPermanentWidget(0, progress);
    statusBar()->insertPermanentWidget(0, step);
    connect(m_document, &Document::stageStarted, this, [progress, step](Task stage) {
        progress->setValue(0);
        progress->show();
        step->setText(taskTitle(stage) + "…");
        step->show();
    });
    connect(m_document, &Document::progressChanged, this,
            [progress](Task, const QString&, double fraction) { progress->setValue(int(fraction * 1000)); });
    connect(m_document, &Document::busyChanged, this, [progress, step](bool busy) {
        progress->setVisible(busy);
        step->setVisible(busy);
    });
    // The mode's own tab comes forward: Pose mode shows the joint tree and angles, Rig mode the labels.
    connect(m_poseModeAction, &QAction::toggled, this, [this](bool on) {
        if (auto* d = findChild<QDockWidget*>(on ? "poseDock" : "rigDock"))
            d->raise();
        // A field that went behind the other tab does not keep the keys: the viewport takes them.
        if (QWidget* f = QApplication::focusWidget(); !f || !f->isVisible())
            viewWidget()->setFocus(Qt::OtherFocusReason);
    });
}

QWidget* MainWindow::scrollable(QWidget* panel)
{
    // A dock's panel scrolls when the docks share less height than their
    // panels ask for, instead of making the window taller than the screen.
    auto* area = new QScrollArea;
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the panel needs (with room for the vertical scroll bar): only the height scrolls.
    area->setMinimumWidth(panel->minimumSizeHint().width() + area->verticalScrollBar()->sizeHint().width());
    return area;
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName("fileMenu");
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::showOpenDialog);
    open->setShortcut(QKeySequence::Open);
    open->setObjectName("actionOpen");
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName("recentMenu");
    QAction* def = file->addAction(tr("Open &Default Character"), this, &MainWindow::openDefaultCharacter);
    def->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
    QMenu* poses = file->addMenu(tr("Open Default Character in &Pose"));
    for (HumanoidPose p : allHumanoidPoses()) {
        const QString name = QString::fromUtf8(humanoidPoseName(p).data(), qsizetype(humanoidPoseName(p).size()));
        poses->addAction(name, this, [this, name] { openFile("default:" + name); });
    }
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    updateRecentMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName("actionUndo");
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence(tr("Ctrl+Y"))});
    redo->setObjectName("actionRedo");
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName("viewMenu");
    QAction* wire = view->addAction(tr("&Wireframe Overlay"));
    wire->setCheckable(true);
    wire->setShortcut(QKeySequence(tr("W")));
    wire->setObjectName("actionWireframe");
    QAction* grid = view->addAction(tr("Ground &Grid"));
    grid->setCheckable(true);
    grid->setChecked(true);
    grid->setShortcut(QKeySequence(tr("G")));
    QAction* fps = view->addAction(tr("Show &FPS"));
    fps->setCheckable(true);
    QAction* simplify = view->addAction(tr("&Simplify Dense Meshes While Orbiting"));
    simplify->setCheckable(true);
    simplify->setChecked(true);
    simplify->setToolTip(tr("Draw a coarse stand-in of meshes above 60k triangles while the camera moves"));
    view->addSeparator();
    QAction* frame = view->addAction(tr("Frame &All"));
    frame->setShortcut(QKeySequence(Qt::Key_Home));
    QAction* frameSelected = view->addAction(tr("&Frame Selected"));
    frameSelected->setShortcuts({QKeySequence(tr("F")), QKeySequence(Qt::KeypadModifier | Qt::Key_Period)});
    frameSelected->setToolTip(tr("Frames the selected joint with the joints below it and the skin they move (a hand with "
                                 "its fingers, a head joint with the head); everything when no joint is selected"));
    struct Preset {
        const char* name;
        ViewPreset preset;
        const char* key;
    };
    for (const Preset& p : {Preset{"&Front", ViewPreset::Front, "Ctrl+1"}, Preset{"&Side", ViewPreset::Side, "Ctrl+3"},
                            Preset{"&Top", ViewPreset::Top, "Ctrl+7"},
                            Preset{"T&hree-Quarter", ViewPreset::ThreeQuarter, "Ctrl+9"}}) {
        QAction* a = view->addAction(tr(p.name));
        a->setShortcut(QKeySequence(tr(p.key)));
        const ViewPreset preset = p.preset;
        connect(a, &QAction::triggered, this, [this, preset] {
            if (m_viewport)
                m_viewport->setViewPreset(preset);
        });
    }
    if (m_viewport) {
        connect(wire, &QAction::toggled, m_viewport, &Viewport::setWireframe);
        connect(grid, &QAction::toggled, m_viewport, &Viewport::setGridVisible);
        connect(frame, &QAction::triggered, m_viewport, &Viewport::frameAll);
        connect(frameSelected, &QAction::triggered, m_viewport, &Viewport::frameSelected);
        connect(simplify, &QAction::toggled, m_viewport, &Viewport::setSimplifyWhileMoving);
        connect(fps, &QAction::toggled, this, [this](bool on) {
            m_fpsLabel->setVisible(on);
            m_viewport->setContinuousRepaint(on);
        });
        connect(m_viewport, &Viewport::fpsChanged, this,
                [this](double f) { m_fpsLabel->setText(QString::number(f, 'f', 1) + " fps"); });
    }
    QAction* rebuild = new QAction(tr("Rebuild Curve Skeleton"), this);
    rebuild->setShortcut(QKeySequence(tr("Ctrl+R")));
    connect(rebuild, &QAction::triggered, this, [this] {
        m_document->buildCurveSkeleton(m_document->project().curveSkeletonOptions().voxelize.resolution);
    });
    addAction(rebuild);
    QAction* cancel = new QAction(tr("Cancel Running Stage"), this);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(cancel, &QAction::triggered, m_document, &Document::cancel);
    connect(cancel, &QAction::triggered, this, [this] { m_rigPanel->arm(std::nullopt); });
    addAction(cancel);
}

void MainWindow::createDisplayToolBar()
{
    QToolBar* bar = addToolBar(tr("Display"));
    bar->setObjectName("displayToolBar");
    m_xrayAction = bar->addAction(tr("X-Ray"));
    m_xrayAction->setCheckable(true);
    m_xrayAction->setShortcut(QKeySequence(tr("Alt+Z")));
    m_xrayAction->setToolTip(tr("See-through mesh so the skeleton shows (Alt+Z)"));
    m_skeletonAction = bar->addAction(tr("Skeleton"));
    m_skeletonAction->setObjectName("actionSkeleton");
    m_skeletonAction->setCheckable(true);
    m_skeletonAction->setChecked(true);
    m_skeletonAction->setShortcut(QKeySequence(tr("K")));
    m_skeletonAction->setToolTip(tr("The skeletons, their labels and the rotate gizmo. Geometric skeleton: spheres = "
                                    "end nodes, small cubes = flow nodes, large cubes = connection nodes (K)"));
    m_voxelsAction = bar->addAction(tr("Voxels"));
    m_voxelsAction->setCheckable(true);
    m_voxelsAction->setShortcut(QKeySequence(tr("V")));
    m_voxelsAction->setToolTip(tr("Voxels of the solid: blue = surface, amber = interior (V)"));
    auto* texturesAction = bar->addAction(tr("Textures"));
    texturesAction->setObjectName("texturesAction");
    texturesAction->setCheckable(true);
    texturesAction->setChecked(true);
    texturesAction->setShortcut(QKeySequence(tr("T")));
    texturesAction->setToolTip(tr("Shade the file's own meshes with their UVs and base-colour textures; "
                                  "off: the welded mesh the pipeline works on (T)"));
    m_clipAction = bar->addAction(tr("Clip"));
    m_clipAction->setCheckable(true);
    m_clipAction->setShortcut(QKeySequence(tr("C")));
    m_clipAction->setToolTip(tr("Cut the model open with a plane facing the front (C); the slider moves it"));
    auto* clipSlider = new QSlider(Qt::Horizontal, bar);
    clipSlider->setObjectName("clipSlider");
    clipSlider->setRange(0, 100);
    clipSlider->setValue(50);
    clipSlider->setMaximumWidth(140);
    clipSlider->setToolTip(tr("Clipping plane position, front to back"));
    clipSlider->setEnabled(false);
    bar->addWidget(clipSlider);
    connect(m_clipAction, &QAction::toggled, clipSlider, &QWidget::setEnabled);
    if (m_viewport) {
        connect(m_xrayAction, &QAction::toggled, this, [this](bool on) { m_viewport->setMeshOpacity(on ? 0.3f : 1.0f); });
        // The skeletons, their labels and the gizmo show and hide together (issue 19 item 5).
        connect(m_skeletonAction, &QAction::toggled, m_viewport, &Viewport::setSkeletonVisible);
        connect(m_skeletonAction, &QAction::toggled, m_viewport, &Viewport::setRigVisible);
        connect(m_voxelsAction, &QAction::toggled, m_viewport, &Viewport::setVoxelsVisible);
        connect(m_clipAction, &QAction::toggled, m_viewport, &Viewport::setClipEnabled);
        connect(texturesAction, &QAction::toggled, m_viewport, &Viewport::setTexturesVisible);
        connect(clipSlider, &QSlider::valueChanged, this, [this](int v) { m_viewport->setClipPosition(v / 100.0); });
    }
}

void MainWindow::updateView()
{
    if (!m_viewport)
        return;
    ViewState state;
    state.project = m_document->project();
    state.pose = m_document->pose();
    state.poseTwist = m_document->poseTwist();
    state.rigPreview = m_rigPreview;
    state.clipTime = m_timeline ? m_timeline->time() : 0.0;
    state.clipSkeleton = m_showClipSkeleton;
    m_viewport->showState(state);
}

void MainWindow::onNodeClicked(int node, const QPoint& globalPos)
{
    const auto& sk = m_document->project().curveSkeleton();
    if (!sk || node < 0 || node >= sk->refined.nodeCount())
        return;
    if (m_rigPanel->takeNodeClick(node))
        return;
    if (sk->refined.types[node] != NodeType::End) {
        statusBar()->showMessage(tr("Only end nodes (spheres) carry labels."), 4000);
        return;
    }
    QMenu menu(this);
    menu.setObjectName("labelMenu");
    menu.addSection(tr("Label node %1 as").arg(node));
    for (Limb limb : allLimbs) {
        QAction* a = menu.addAction(limbTitle(limb));
        a->setCheckable(true);
        a->setChecked(m_document->project().labels()[limb] == node);
        connect(a, &QAction::triggered, this, [this, limb, node] { m_document->setLabel(limb, node); });
    }
    menu.exec(globalPos);
}

void MainWindow::onCurveSkeletonChanged()
{
    const auto& result = m_document->project().curveSkeleton();
    // Show the new skeleton through the mesh, as the artist asked for it.
    if (result && !m_xrayAction->isChecked())
        m_xrayAction->setChecked(true);
    if (result)
        statusBar()->showMessage(tr("Curve skeleton: %1 end, %2 connection nodes; hover a node for details.")
                                     .arg(result->refined.count(NodeType::End))
                                     .arg(result->refined.count(NodeType::Connection)),
                                 8000);
}

QStringList MainWindow::recentFiles() const { return QSettings().value("recentFiles").toStringList(); }

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString& f : files) {
        QAction* a = m_recentMenu->addAction(QFileInfo(f).fileName(), this, [this, f] { openFile(f); });
        a->setToolTip(f);
        a->setStatusTip(f);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear Menu"), this, [this] {
            QSettings().remove("recentFiles");
            updateRecentMenu();
        });
    }
}

void MainWindow::addRecentFile(const QString& path)
{
    if (path.startsWith("default"))
        return;
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    QSettings().setValue("recentFiles", files);
    updateRecentMenu();
}

void MainWindow::openFile(const QString& spec)
{
    if (!maybeSave())
        return;
    const QString suffix = QFileInfo(spec).suffix().toLower();
    if (suffix == "rsproj") {
        statusBar()->showMessage(tr("Opening project %1…").arg(spec));
        m_document->openProject(spec);
        addRecentFile(spec);
        return;
    }
    if (suffix == "bvh") {
        m_document->loadClip(spec);
        return;
    }
    m_pendingSpec = spec;
    statusBar()->showMessage(tr("Loading %1…").arg(spec));
    m_document->openCharacter(spec);
}

void MainWindow::openDefaultCharacter() { openFile("default"); }

void MainWindow::showOpenDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Character"), QSettings().value("lastOpenDir").toString(),
        tr("Characters and projects (*.rsproj *.fbx *.obj *.gltf *.glb *.dae *.x *.ply *.stl *.md5mesh *.smd *.iqm *.3ds "
           "*.blend);;Rigsmith projects (*.rsproj);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue("lastOpenDir", QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::onCharacterChanged()
{
    const auto& character = m_document->project().character();
    if (!character)
        return;
    const MeshStats& s = character->stats;
    const Vec3 size = s.bounds.size();
    m_statsLabel->setText(tr("%1 vertices · %2 triangles · %3 part(s) · %4 · %5 × %6 × %7")
                              .arg(formatCount(s.vertices), formatCount(s.triangles), formatCount(s.parts),
                                   s.watertight ? tr("watertight") : tr("not watertight"), formatLength(size.x()),
                                   formatLength(size.y()), formatLength(size.z())));
    setWindowTitle(QString::fromStdString(character->displayName) + " — Rigsmith");
    const ImportInfo& info = character->imported.info;
    const OrientationResult& orientation = m_document->project().orientationResult();
    if (info.upAxisGuessed && orientation.upSource == "detected")
        m_statsLabel->setText(m_statsLabel->text() +
                              tr(" · up axis %1 (from the shape)").arg(QString::fromStdString(orientation.fileUp).toUpper()));
    else if (info.upAxisGuessed && info.upAxis != "+Y")
        m_statsLabel->setText(m_statsLabel->text() +
                              tr(" · up axis %1 (guessed)").arg(QString::fromStdString(info.upAxis)));
    QStringList importWarnings;
    for (const std::string& w : info.warnings)
        importWarnings << QString::fromStdString(w);
    if (!orientation.warning.empty()) // the shape was asked which way is up and was not sure
        importWarnings << QString::fromStdString(orientation.warning);
    // Far from the origin, lost precision: the artist must see it, not only
    // the log (issue 21), and still see it after the next messages (issue 47).
    QString gist = importWarnings.isEmpty() ? QString() : importWarnings.first();
    if (gist.startsWith('\'') && gist.indexOf("': ") > 0) // the file is named in the window's title
        gist = gist.mid(gist.indexOf("': ") + 3);
    m_importWarning->setText(gist.isEmpty() ? QString() : "⚠ " + shortSentence(gist, 60));
    m_importWarning->setToolTip(importWarnings.join("\n"));
    m_importWarning->setVisible(!importWarnings.isEmpty());
    if (!importWarnings.isEmpty()) {
        showNotice(importWarnings.join(' '), 30000);
    } else if (m_document->project().orientation().up != "file" || orientation.upSource == "detected")
        statusBar()->showMessage(tr("Loaded %1: %2")
                                     .arg(QString::fromStdString(character->displayName),
                                          QString::fromStdString(orientation.summary())),
                                 15000);
    else if (info.upAxisGuessed)
        statusBar()->showMessage(
            tr("%1 does not say which axis is up; guessed %2 from its shape (turned to +Y up).")
                .arg(QString::fromStdString(character->displayName), QString::fromStdString(info.upAxis)),
            10000);
    else
        statusBar()->showMessage(tr("Loaded %1").arg(QString::fromStdString(character->displayName)), 5000);
    if (m_placeholder)
        static_cast<QLabel*>(m_placeholder)->setText(QString::fromStdString(character->displayName));
    addRecentFile(QString::fromStdString(character->source));
}

void MainWindow::showError(const QString& title, const QString& message)
{
    // Window-modal but non-blocking: the app keeps running and the user dismisses it.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName("errorBox");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) {
        const QString path = urls.first().toLocalFile();
        // A motion clip plays on the current rig; anything else is a character.
        if (QFileInfo(path).suffix().compare("bvh", Qt::CaseInsensitive) == 0)
            m_document->loadClip(path);
        else
            openFile(path);
        event->acceptProposedAction();
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    // A clean exit: this instance's autosave is not needed next time. A
    // recovered autosave goes only once its work was saved or discarded
    // (maybeSave() and the saves drop it); else it is offered again.
    if (!m_ownAutosave.isEmpty())
        QFile::remove(m_ownAutosave);
    m_ownAutosave.clear();
    if (m_instanceLock)
        m_instanceLock->unlock();
    m_document->cancel();
    m_document->waitForIdle();
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    event->accept();
}

} // namespace rig::ui
