#pragma once
/// @file main_window.h
/// The application window: File and View menus, drag and drop, recent files
/// and window state in QSettings, the status bar with mesh statistics, the
/// pipeline dock, and the 3D viewport (or a plain placeholder in widget tests,
/// where a QOpenGLWidget cannot run).

#include <QLockFile>
#include <QMainWindow>
#include <QStringList>

#include "core/export/project_file.h"
#include "core/rig/fit_template.h"
#include "ui/task.h"

#include <memory>
#include <optional>
#include <string>

class QAction;
class QLabel;
class QMenu;
class QMessageBox;

namespace rig::ui {

class Document;
class JointPanel;
class RigPanel;
class MappingDialog;
class TimelinePanel;
class WeightPanel;
class Viewport;
class PaintPanel;
class WeightPaintTool;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class ViewportKind { OpenGL, Placeholder };
    explicit MainWindow(ViewportKind kind = ViewportKind::OpenGL, QWidget* parent = nullptr);
    ~MainWindow() override;

    Document* document() const { return m_document; }
    /// The GL viewport, or null with the placeholder.
    Viewport* viewport() const { return m_viewport; }
    RigPanel* rigPanel() const { return m_rigPanel; }
    WeightPanel* weightPanel() const { return m_weightPanel; }
    TimelinePanel* timeline() const { return m_timeline; }
    JointPanel* jointPanel() const { return m_jointPanel; }
    /// Pose mode (Tab): joint clicks select and the gizmo rotates; Rig mode
    /// (the default): joint drags move the bind positions.
    bool poseMode() const;
    /// View ▸ Follow Character: the camera moves with the playing character (on by default).
    bool followCharacter() const;
    void setPoseMode(bool on);
    /// Paint mode (issue 18; Tab cycles Rig → Pose → Paint): a drag on the mesh
    /// paints the heat map joint's weights with the Paint dock's brush.
    bool paintMode() const;
    void setPaintMode(bool on);
    WeightPaintTool* paintTool() const { return m_paintTool; }
    PaintPanel* paintPanel() const { return m_paintPanel; }
    /// Recent files, most recent first (from QSettings).
    QStringList recentFiles() const;
    static constexpr int maxRecentFiles = 10;

    /// The folder of the automatic saves (the app's local data folder, or $RIGSMITH_AUTOSAVE_DIR).
    static QString autosaveFolder();
    /// Where this window's automatic save of the current project goes: one file
    /// per running instance and per project ("autosave-INSTANCE-PROJECT.rsproj"),
    /// beside the instance's lock file ("autosave-INSTANCE.lock", held while it
    /// runs); removed on a clean exit.
    QString autosavePath() const;
    static constexpr int autosaveIntervalMs = 3 * 60 * 1000;
    /// Autosaves left by instances that are no longer running (their lock is not
    /// held), newest first: what a crash left to recover. Never this instance's
    /// own, nor those of another instance still running.
    static QStringList recoverableAutosaves();
    /// When `recoverableAutosaves()` is not empty, asks whether to recover the
    /// newest (Recover / Discard / Later: only Discard deletes it) and recovers
    /// it. Called by the app at start.
    bool offerRecovery();
    /// Opens `autosave` as recovered, unsaved work (`Document::recoverProject()`):
    /// it is deleted only once the work is saved (anywhere) or explicitly discarded.
    bool recoverAutosave(const QString& autosave);
    /// The autosave being recovered, kept until the work is saved or discarded; empty when none.
    QString recoveredAutosave() const { return m_recoveredAutosave; }
    /// Saves the project to `path` as Save As does after its dialog. False on failure.
    bool saveProjectTo(const QString& path);
    /// Whether closing or opening with unsaved changes asks first (tests turn it off).
    void setAskBeforeDiscarding(bool on) { m_askBeforeDiscarding = on; }

public slots:
    /// Saves to the current project file, or asks for one. False on failure or cancel.
    bool saveProject();
    /// Opens a file path, "default" or "default:POSE" (the slot File ▸ Open uses).
    void openFile(const QString& spec);
    void openDefaultCharacter();
    void showOpenDialog();

    /// The widget that takes the keyboard focus back after a numeric field is
    /// done (Enter / Escape): the viewport, or the placeholder in widget tests.
    QWidget* viewWidget() const;
    /// The joint whose weights the heat map shows (Weights ▸ Heat map).
    int heatMapJoint() const { return m_colorJoint; }
    /// The last message shown for the artist (status bar sentence, dialog or
    /// Details text); empty when none (issue 19 item 9).
    QString lastMessageShort() const { return m_lastShort; }
    QString lastMessageFull() const { return m_lastFull; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    /// `panel` inside a frameless vertical scroll area (for the docks).
    static QWidget* scrollable(QWidget* panel);
    void createMenus();
    /// The docks' default places: the Pipeline above the Rig / Weights / Pose / Parts tabs.
    void arrangeDocks();
    void updateRecentMenu();
    void addRecentFile(const QString& path);
    void onCharacterChanged();
    void onCurveSkeletonChanged();
    /// Shows the document's state in the viewport (`Viewport::showState()`): the
    /// one call on each change of the document (stage results, pose, deformer, clip).
    void updateView();
    /// The joint being dragged's preview rig (`Document::previewJointMove()`), null when none.
    std::shared_ptr<const FitResult> m_rigPreview;
    void onNodeClicked(int node, const QPoint& globalPos);
    void createDisplayToolBar();
    /// Pose mode, deformer (1 / 2 / 3), split view, Reset Pose; the Pose dock.
    void createPoseControls(QMenu* view);
    /// Shows or hides the split view with the right half's deformer (View ▸ Split With).
    void updateSplitView();
    void onPoseChanged();
    QAction* m_followAction = nullptr;
    /// The Weights dock (method, parameters, mesh colouring, diagnostics).
    void createWeightControls();
    /// The Timeline dock, File ▸ Load Clip…, Space / Left / Right.
    void createClipControls(QMenu* file);
    void onClipChanged();
    void showLoadClipDialog();
    /// File ▸ Save / Save As / Export, autosave, the title's unsaved marker.
    void createProjectControls(QMenu* file);
    void updateTitle();
    void autosave();
    bool saveProjectAs();
    void showExportDialog();
    /// Asks to save unsaved changes; false when the user cancelled.
    bool maybeSave();
    std::optional<ProjectCamera> currentCamera() const;
    QString m_lastExport;
    /// Colours the mesh as the Weights dock says (shaded, segments, heat map) and names the heat map's joint.
    void updateMeshColors();
    int m_colorJoint = -1; ///< The joint whose weights the heat map shows.
    /// The heat map shows `joint`'s weights (a pick in the viewport or the Pose tree).
    void showWeightsOf(int joint);
    bool m_showClipSkeleton = true; ///< The clip's own skeleton is drawn beside the character.
    MappingDialog* m_mappingDialog = nullptr;
    bool m_askBeforeDiscarding = !qEnvironmentVariableIsSet("RIGSMITH_NO_PROMPTS");
    /// Autosave and recovery state (issue 21).
    QString m_instanceId;                 ///< "PID_STARTTIME", unique among the instances.
    std::unique_ptr<QLockFile> m_instanceLock; ///< Held while this instance runs (taken at the first autosave).
    QString m_ownAutosave;                ///< This instance's last autosave file; empty when none.
    QString m_recoveredAutosave;          ///< A dead instance's autosave being recovered.
    /// After the work was saved or discarded: the recovered autosave is no longer needed.
    void dropRecoveredAutosave();
    void onStageFailed(Task stage, const QString& message);
    /// Keyboard focus (issue 19 item 2): Enter / Escape in a numeric field give
    /// the focus back to the viewport; single-key shortcuts work over any widget
    /// that is not a text field.
    void installFocusHandling();
    /// A notice for the artist: its first sentence in the status bar, the whole
    /// text behind the status bar's Details button; the original text in the log.
    void showNotice(const QString& message, int timeoutMs);
    QString m_lastShort, m_lastFull;
    QAction* m_detailsAction = nullptr;
    /// Help ▸ Shortcuts and the empty-state hint over the viewport (issue 19 item 10).
    void createHelpControls();
    void updateEmptyHint();
    QWidget* m_emptyHint = nullptr;
    void showError(const QString& title, const QString& message);

    Document* m_document;
    Viewport* m_viewport = nullptr;
    QWidget* m_placeholder = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_statsLabel = nullptr;
    /// The loaded character's import warnings (far from the origin, lost
    /// precision), kept in the status bar while it is loaded: a transient
    /// message was overwritten within seconds (issue 47).
    QLabel* m_importWarning = nullptr;
    QLabel* m_fpsLabel = nullptr;
    QString m_pendingSpec; ///< What the running load was asked to open.
    QAction* m_xrayAction = nullptr;
    QAction* m_skeletonAction = nullptr;
    QAction* m_voxelsAction = nullptr;
    QAction* m_clipAction = nullptr;
    RigPanel* m_rigPanel = nullptr;
    JointPanel* m_jointPanel = nullptr;
    WeightPanel* m_weightPanel = nullptr;
    TimelinePanel* m_timeline = nullptr;
    QAction* m_poseModeAction = nullptr;
    QAction* m_splitAction = nullptr;
    /// Paint mode, its dock, Tab's cycle of the modes, `[` / `]` (issue 18).
    void createPaintControls(QMenu* view);
    QAction* m_paintModeAction = nullptr;
    WeightPaintTool* m_paintTool = nullptr;
    PaintPanel* m_paintPanel = nullptr;
    /// The right half of the split view: the thesis's deformer beside the current one by default.
    std::string m_splitRight = "twist";
};

} // namespace rig::ui
