#pragma once
/// @file viewport.h
/// The interactive 3D view (the application's one GL widget): orbit with the
/// left or middle button, pan with Shift + drag, zoom with the wheel towards the
/// cursor, Home to frame everything, F (or keypad .) to frame the selected
/// joint with the joints below it, named views.
///
/// It draws what the document showed it last (`showState()`: the project, the
/// pose, the deformer in one `ViewState`) and keeps no other copy of the
/// document's data. What the GPU holds is remembered by what it was made from
/// (`MadeFrom`: the identity of the shared results, made_from.h): a frame
/// uploads what differs from that, nothing else. The view's own state
/// (camera, display toggles, mode, selection, hover, brush) is set here.

#include "ui/viewport/gizmo.h"
#include "ui/viewport/made_from.h"
#include "ui/viewport/renderer.h"
#include "ui/viewport/view_state.h"
#include "ui/viewport/weight_colors.h"

#include <QElapsedTimer>
#include <QPainter>
#include <QTimer>
#include <QColor>
#include <QStringList>
#include <QOpenGLWidget>

#include <optional>

#include <map>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>


namespace rig::ui {

/// What a click on a joint does: Rig mode edits the bind pose (drag a joint to
/// move it), Pose mode selects the joint and shows the rotate gizmo (Tab),
/// Paint mode selects the joint to paint and a drag on the mesh paints its
/// weights (issue 18).
enum class InteractionMode { Rig, Pose, Paint };

/// A text drawn beside a world position (node labels, the side marker).
struct ViewportLabel {
    glm::vec3 world;
    QString text;
    QColor color;
    /// A label of the skeleton (an end node's limb): hidden with the skeleton.
    bool skeleton = false;
};

class Viewport : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit Viewport(QWidget* parent = nullptr);
    ~Viewport() override;

    /// Shows the document's state: the character (framed when it is another
    /// one), curve skeleton, labels, rig, weights, pose, deformer and clip of
    /// `state`. Results the GPU already holds (the same shared objects) are
    /// not uploaded again.
    void showState(const ViewState& state);
    /// What was shown last.
    const ViewState& state() const { return m_state; }
    /// Textured shading of the file's meshes on (default) or off (the welded mesh, untextured).
    void setTexturesVisible(bool on);
    /// True when the character's own file meshes (`SourceAsset`) are drawn
    /// instead of its welded mesh (textures on and it has them), unwelded with
    /// their UVs and base-colour images; the skin and weight colours of each
    /// vertex are its welded twin's.
    bool drawsSourceMeshes() const;
    /// What the mesh is coloured by: shading, segments, or `heatJoint`'s
    /// weights as a heat map (with its legend). With weights and a colouring,
    /// hovering the mesh emits `vertexHovered`.
    void setMeshColoring(MeshColoring coloring, int heatJoint);
    /// The node under a pixel (logical coordinates), if any.
    std::optional<int> nodeAt(const QPoint& pixel) const;
    /// The joint under a pixel, if any (joints are in front: they win over nodes).
    std::optional<int> jointAt(const QPoint& pixel) const;
    int selectedJoint() const { return m_selectedJoint; }
    void setSelectedJoint(int joint);
    /// Joints a fit warning concerns, drawn in the warning colour (overlay_data.h).
    void setWarnedJoints(const std::vector<int>& joints);
    /// Screen position (logical pixels) of a world point.
    QPointF project(const glm::vec3& world) const;
    /// Texts drawn over the 3D view beside their world positions: the
    /// character's left and right sides, each labelled end node's limb.
    const std::vector<ViewportLabel>& labels() const { return m_labels; }
    /// The labels drawn now: none while labels are hidden, the skeleton's only while the skeleton is shown.
    std::vector<ViewportLabel> shownLabels() const;
    /// Shows the labels (default) or hides them all (pixel measures of the character alone).
    void setLabelsVisible(bool on);
    /// The titles over the two halves of the split view (left, right); empty when not split.
    QStringList splitTitles() const;
    /// The heat map's colour legend (0 … 1) beside the view: the heat map is shown.
    bool heatLegend() const { return m_coloring == MeshColoring::Weights && skinning(); }
    /// Where the legend's colour bar is drawn (logical pixels), bottom = 0, top = 1.
    QRect heatLegendBar() const;
    OrbitCamera& camera() { return m_camera; }
    const RenderOptions& renderOptions() const { return m_options; }
    /// Frames per second over the last second of repaints.
    double fps() const { return m_fps; }
    /// Triangles of the character in the last frame (Renderer::lastCharacterTriangles()).
    int drawnTriangles() const { return m_renderer.lastCharacterTriangles(); }
    /// The size of a dense mesh's stand-in (Renderer::standInTriangles()).
    int standInTriangles() const { return m_renderer.standInTriangles(); }
    /// Where the last frame's time went, in ms (issue 20, item 5), measured
    /// only when asked (`setMeasureFrames`: a glFinish after each part, which
    /// a bench wants and the app does not): the skin pose and any rebuilt
    /// buffer uploaded, the CPU deformers (simplex, rigid-blended) run and
    /// uploaded, the scene drawn, the overlay painted. The rest of a frame is
    /// Qt's composition of the window.
    struct FrameTimes {
        double upload = 0.0, cpuDeform = 0.0, draw = 0.0, overlay = 0.0;
        double total() const { return upload + cpuDeform + draw + overlay; }
        /// When paintGL() began and returned (steady clock), kept for every
        /// frame: what happens between them and the swap is Qt's composition.
        std::chrono::steady_clock::time_point began, ended;
    };
    void setMeasureFrames(bool on) { m_measureFrames = on; }
    const FrameTimes& lastFrameTimes() const { return m_frameTimes; }
    /// The last shader or context error, empty when all is well.
    QString glError() const { return m_glError; }

    // Posing (issue 6)
    InteractionMode mode() const { return m_mode; }
    /// The shown project has weights (without them posing moves only the skeleton).
    bool hasSkinning() const { return skinning() != nullptr; }
    /// The pose shown in Pose mode.
    const Pose& pose() const { return m_state.pose; }
    /// The deformer drawn: the project's (an id of core/deform/deformers.h).
    const std::string& deformer() const { return m_state.project.deformer(); }
    /// The rotate gizmo of the selected joint in Pose mode, if shown.
    std::optional<RotateGizmo> gizmo() const;

    // Painting (issue 18)
    /// The mesh as the viewport picks it: its rest positions, or in Pose and
    /// Paint mode with a rig and weights, the mesh deformed by the drawn
    /// deformer (`deformer()`), so a stroke lands where the artist sees the
    /// surface. Bound again after a stroke, not during one (the weights it
    /// paints move the surface under the brush).
    const MatrixX3d& pickPositions() const;
    /// The mesh vertex under a pixel (nearest to where the ray first hits the
    /// surface of `pickPositions()`), if any.
    std::optional<int> meshVertexAt(const QPoint& pixel) const;
    /// Paint mode's brush radius (world units): drawn as a circle around the
    /// mesh point under the cursor.
    void setBrushRadius(double radius);
    /// Where the brush circle is drawn (its centre and radius in logical
    /// pixels); nullopt when the cursor is off the mesh or not in Paint mode.
    std::optional<std::pair<QPointF, double>> brushCircle() const;

    // Following the character (issue 19 item 1)
    /// How far the character stands from its rest position: in Pose and Paint
    /// mode the posed root's move (playback, a clip's root motion). Frame All
    /// frames it there; while following, the camera moves with it.
    glm::vec3 characterOffset() const { return m_characterOffset; }
    /// The camera keeps the character in view as it moves (on by default).
    void setFollow(bool on);
    bool follow() const { return m_follow; }

public slots:
    void setWireframe(bool on);
    void setGridVisible(bool on);
    void frameAll();
    /// Frames the selected joint with its descendants (a hand with its
    /// fingers, an arm), as drawn now (posed in Pose and Paint mode), with a
    /// margin of a quarter of their extent (a leaf: its own bone);
    /// `frameAll()` when no joint is selected.
    void frameSelected();
    void setViewPreset(rig::ui::ViewPreset preset);
    /// Repaints continuously and reports the frame rate (for the FPS readout and benchmarks).
    void setContinuousRepaint(bool on);
    void setSkeletonVisible(bool on);
    /// The fitted rig (joints, bones) and with it the rotate gizmo.
    void setRigVisible(bool on);
    void setVoxelsVisible(bool on);
    /// Mesh opacity: 1 opaque, less for the x-ray view of the skeleton.
    void setMeshOpacity(float opacity);
    void setClipEnabled(bool on);
    /// Position of the clipping plane through the model, 0 (front) .. 1 (back).
    void setClipPosition(double t);
    /// Draw dense meshes from a coarse stand-in while the camera moves (on by default).
    void setSimplifyWhileMoving(bool on);
    void setMode(rig::ui::InteractionMode mode);
    /// Split view: the left half with the current deformer, the right half with `right`.
    void setSplitView(bool on, const std::string& right);

signals:
    void fpsChanged(double fps);
    /// The mouse rests over `vertex` of the rest mesh (with weights and a weight colouring).
    void vertexHovered(int vertex, const QPoint& globalPos);
    /// A curve-skeleton node was clicked (pressed and released without dragging).
    void nodeClicked(int node, const QPoint& globalPos);
    void jointSelected(int joint);
    /// While dragging a joint: the point under the cursor on the plane through
    /// the joint facing the camera; `free` when Shift is held (no snapping).
    void jointDragged(int joint, const glm::vec3& position, bool free);
    /// The drag ended there.
    void jointDropped(int joint, const glm::vec3& position, bool free);
    /// Pose mode: while dragging a gizmo ring, the pose with the joint turned.
    void poseDragged(const rig::Pose& pose);
    /// The drag ended with this pose; `description` names the edit ("Rotate LeftArm about Y").
    void poseDropped(const rig::Pose& pose, const QString& description);
    /// Paint mode: a left drag over the mesh (Alt or Shift: the camera instead)
    /// passes over `vertex` of the rest mesh; `first` on the press.
    void paintStroke(int vertex, bool first);
    /// Paint mode: the drag that painted ended.
    void paintStrokeEnded();

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void cleanup();
    float aspect() const { return height() > 0 ? float(width()) / float(height()) : 1.0f; }

    // The document's state, as shown last, and what the view reads of it.
    ViewState m_state;
    const Mesh* mesh() const;
    const std::shared_ptr<const SkinningResult>& skinning() const { return m_state.project.skinning(); }
    const SkinWeights* weights() const { return skinning() ? &skinning()->weights : nullptr; }
    /// Counts the poses shown: the pose's identity for the products made from it.
    std::uint64_t m_poseRevision = 0;
    /// The segmentation as the deformers that read no weights bind it: the
    /// same object while painted weights keep it equal (`SceneChange::weightsOnly`).
    std::shared_ptr<const Segmentation> m_segmentation;

    // What the view derives from the state (CPU), rebuilt when an input changes.
    void onNewCharacter();
    void updatePosed();
    PosedSkeleton m_posed; ///< forwardKinematics of the pose (empty when it does not match the rig).
    void rebuildRigDraw();
    std::shared_ptr<const RigDrawData> m_rigDraw = std::make_shared<const RigDrawData>();
    void rebuildSkeletonDraw();
    std::shared_ptr<const SkeletonDrawData> m_skeletonDraw = std::make_shared<const SkeletonDrawData>();
    void updateVertexColors();
    /// #V colours of the weight view, null when shaded.
    std::shared_ptr<const std::vector<glm::vec3>> m_vertexColors;
    MadeFrom<std::shared_ptr<const SkinningResult>, std::shared_ptr<const LoadedCharacter>, MeshColoring, int>
        m_colorsFrom;
    void rebuildClipLines();
    std::shared_ptr<const std::vector<LineVertex>> m_clipLines = std::make_shared<const std::vector<LineVertex>>();
    /// The side markers and limb labels of the state (viewport_overlay.cpp).
    std::vector<ViewportLabel> sceneLabels() const;
    std::vector<ViewportLabel> m_labels;
    bool m_labelsVisible = true;
    void updateCharacterOffset();

    // What the GPU holds, by what it was made from (paintGL uploads the rest).
    void uploadScene();
    void uploadMesh();
    void uploadSkin();
    void uploadOverlays();
    MadeFrom<std::shared_ptr<const LoadedCharacter>, bool, std::shared_ptr<const std::vector<glm::vec3>>> m_meshMade;
    std::uint64_t m_meshUploads = 0;
    MadeFrom<std::shared_ptr<const LoadedCharacter>, bool, std::shared_ptr<const SkinningResult>,
             std::shared_ptr<const FitResult>>
        m_skinMade;
    std::uint64_t m_skinUploads = 0;
    MadeFrom<std::shared_ptr<const FitResult>, std::uint64_t, std::uint64_t> m_skinPoseMade;
    MadeFrom<std::vector<std::string>, std::uint64_t, std::uint64_t, std::uint64_t> m_cpuDeformedMade;
    MadeFrom<std::shared_ptr<const RigDrawData>> m_rigMade;
    MadeFrom<std::shared_ptr<const SkeletonDrawData>> m_skeletonMade;
    MadeFrom<std::shared_ptr<const CurveSkeletonResult>> m_voxelsMade;
    MadeFrom<std::shared_ptr<const std::vector<LineVertex>>> m_clipLinesMade;
    MadeFrom<std::shared_ptr<const RigDrawData>, int, bool> m_gizmoMade;
    /// Forgets every upload (a new context).
    void forgetUploads();
    std::vector<int> m_drawnWelded; ///< Welded twin of each drawn vertex when the file's meshes are drawn.
    /// Colours of the mesh as uploaded (parts, weight views), for the CPU-deformed copies.
    std::vector<glm::vec3> m_drawColors;

    Renderer m_renderer;
    OrbitCamera m_camera;
    RenderOptions m_options;
    bool m_texturesOn = true;
    double m_clipT = 0.5;
    MeshColoring m_coloring = MeshColoring::Shaded;
    int m_heatJoint = 0;
    void paintLabels();
    /// Texts and marks over the 3D view: labels, the split view's divider and titles, the heat legend.
    void paintOverlay();
    void updateClipPlane();
    glm::vec3 m_boundsMin{-0.5f, 0.0f, -0.5f}, m_boundsMax{0.5f, 1.8f, 0.5f};
    QPoint m_lastMouse;
    enum class Drag { None, Orbit, Pan, Joint, Gizmo, Paint } m_drag = Drag::None;
    int m_selectedJoint = -1;
    std::vector<int> m_warnedJoints;
    int m_hoverJoint = -1;
    int m_hoverNode = -1;
    int m_dragJoint = -1;
    glm::vec3 m_dragPlanePoint{0.0f};
    glm::vec3 m_lastDragPosition{0.0f};
    bool m_dragMoved = false;
    std::optional<int> m_pressNode;
    QPoint m_pressPos;
    glm::vec3 dragPoint(const QPoint& pixel) const;
    bool m_continuous = false;
    bool m_simplifyWhileMoving = true;
    QTimer* m_settleTimer = nullptr; ///< Ends the interactive state shortly after the last wheel step.
    void setInteracting(bool on);
    QElapsedTimer m_fpsTimer;
    bool m_measureFrames = false;
    FrameTimes m_frameTimes;
    int m_framesSinceTick = 0;
    double m_fps = 0.0;
    /// Counts the frames over the last second and reports the rate.
    void countFrame();
    QString m_glError;
    glm::vec3 m_characterOffset{0.0f};
    bool m_follow = true;

    InteractionMode m_mode = InteractionMode::Rig;
    /// A deformer bound to the shown skin, and what it was bound from.
    struct Binding {
        std::unique_ptr<BoundDeformer> bound;
        std::uint64_t serial = 0; ///< Counts the bindings made: their identity.
        MadeFrom<std::string, std::shared_ptr<const LoadedCharacter>, std::shared_ptr<const FitResult>,
                 std::shared_ptr<const void>>
            from;
    };
    /// What deformer `id` binds from the shown state: the character, the rig,
    /// and the weights (the whole skinning result), or for a deformer that reads
    /// no weights the segmentation alone (kept across painted weights).
    std::shared_ptr<const void> boundSkin(const std::string& id) const;
    /// `binding` bound to the shown state for deformer `id` (bound again when
    /// stale, unless `keep` and it is bound); null when the skin does not fit.
    /// @throws rig::Error as the deformer's `bind`.
    void bind(Binding& binding, const std::string& id, bool keep) const;
    /// Skins bound for the deformers drawn from their CPU output, by id.
    std::map<std::string, Binding> m_cpuBound;
    /// Deforms the mesh on the CPU for each drawn deformer without a GPU program.
    void updateCpuDeformed();
    /// The drawn deformers without a GPU program (the split view's too).
    std::vector<std::string> cpuDeformers() const;
    /// The pose's unwrapped twists when they match the rig, else none (wrapped angles).
    std::span<const double> unwrappedTwist() const;
    bool posing() const { return m_mode == InteractionMode::Pose && m_state.rig() && !m_posed.skinning.empty(); }
    /// The mesh is drawn deformed: Pose mode, and Paint mode (painting the posed mesh).
    bool deforming() const
    {
        return (m_mode == InteractionMode::Pose || m_mode == InteractionMode::Paint) && m_state.rig() &&
               !m_posed.skinning.empty();
    }
    /// The weights fit the mesh and the rig (a stale stage result draws unskinned).
    bool skinFits() const;
    // Picking the deformed mesh (viewport_paint.cpp).
    mutable Binding m_pickBound;
    mutable MatrixX3d m_pickPositions;
    mutable MadeFrom<std::uint64_t, std::uint64_t> m_pickPositionsFrom; ///< Binding serial, pose revision.
    double m_brushRadius = 0.05;
    std::optional<glm::vec3> m_brushCentre; ///< The mesh point under the cursor in Paint mode.
    void updateBrush(const QPoint& pixel);
    void paintBrush(QPainter& painter) const;
    int m_hoverRing = -1;
    int m_dragRing = -1;
    RotateGizmo m_dragGizmo;
    Pose m_dragStartPose;
    double m_dragAngle = 0.0;
    Ray m_lastRay;
    Ray rayAt(const QPoint& pixel) const;
    std::optional<int> ringAt(const QPoint& pixel) const;
};

} // namespace rig::ui
