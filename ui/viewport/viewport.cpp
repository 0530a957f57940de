#include "ui/viewport/viewport.h"

#include "core/common/error.h"
#include "core/deform/deformers.h"
#include "core/mesh/mesh.h"
#include "core/rig/fit_template.h"
#include "core/skeleton/extract.h"
#include "ui/render_offscreen.h"
#include "ui/viewport/clip_overlay.h"
#include "ui/viewport/picking.h"
#include "ui/viewport/weight_colors.h"

#include <QCoreApplication>
#include <QDebug>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QSurfaceFormat>

#include <algorithm>
#include <cmath>

namespace rig::ui {

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent)
{
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSamples(QSurfaceFormat::defaultFormat().samples());
    setFormat(format);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 240);
    setMouseTracking(true); // hover tooltips on skeleton nodes
    // On a software rasterizer Qt composes the window on the CPU at every
    // frame; in a native window of its own only the viewport's pixels are
    // composed (1280x800 window: 7.8 -> 5.4 ms per frame, bench/notes/deformers.md,
    // stop 33). A GPU composes for free: the widget stays alien there.
    if (softwareRenderer()) {
        QCoreApplication::setAttribute(Qt::AA_DontCreateNativeWidgetSiblings); // the docks stay alien
        setAttribute(Qt::WA_NativeWindow);
    }
    // paintGL() clears every pixel: nothing under the viewport needs painting
    // or composing first (1280x800 window under llvmpipe: composition 7.0 ->
    // 4.5 ms per frame, bench/notes/deformers.md, stop 33).
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAttribute(Qt::WA_NoSystemBackground);
    m_settleTimer = new QTimer(this);
    m_settleTimer->setSingleShot(true);
    m_settleTimer->setInterval(250);
    connect(m_settleTimer, &QTimer::timeout, this, [this] { setInteracting(false); });
    m_camera.setPreset(ViewPreset::ThreeQuarter);
}

Viewport::~Viewport() { cleanup(); }

void Viewport::cleanup()
{
    if (!m_renderer.initialized())
        return;
    makeCurrent();
    m_renderer.release();
    doneCurrent();
}

const Mesh* Viewport::mesh() const
{
    const auto& character = m_state.project.character();
    return character ? &character->imported.mesh : nullptr;
}

void Viewport::showState(const ViewState& state)
{
    const SceneChange change = sceneChange(m_state, state);
    m_state = state;
    if (change.skinning && !change.weightsOnly) {
        const auto& s = skinning();
        m_segmentation = s ? std::shared_ptr<const Segmentation>(s, &s->segmentation) : nullptr;
    }
    if (change.pose)
        ++m_poseRevision;
    if (change.character)
        onNewCharacter();
    if (change.rig) {
        const auto& rig = m_state.rig();
        if (!rig || m_selectedJoint >= rig->skeleton.jointCount())
            m_selectedJoint = -1;
        if (!rig || m_hoverJoint >= rig->skeleton.jointCount())
            m_hoverJoint = -1;
    }
    if (change.rig || change.pose)
        updatePosed();
    if (change.curveSkeleton)
        m_hoverNode = -1;
    if (change.curveSkeleton || change.labels)
        rebuildSkeletonDraw();
    if (change.character || change.rig || change.pose)
        rebuildRigDraw();
    updateVertexColors();
    if (change.clip || change.character || change.rig || change.pose)
        rebuildClipLines();
    if (change.character || change.labels || change.curveSkeleton)
        m_labels = sceneLabels();
    updateCharacterOffset();
    if (change.any())
        update();
}

void Viewport::onNewCharacter()
{
    if (const Mesh* m = mesh(); m && m->vertexCount() > 0) {
        const Eigen::RowVector3d lo = m->V.colwise().minCoeff(), hi = m->V.colwise().maxCoeff();
        m_boundsMin = glm::vec3(lo(0), lo(1), lo(2));
        m_boundsMax = glm::vec3(hi(0), hi(1), hi(2));
    }
    m_characterOffset = glm::vec3(0.0f); // a new character stands at rest
    updateClipPlane();
    frameAll();
}

void Viewport::updatePosed()
{
    m_posed = PosedSkeleton{};
    const auto& rig = m_state.rig();
    if (rig && static_cast<int>(m_state.pose.localRotations.size()) == rig->skeleton.jointCount()) {
        try {
            m_posed = forwardKinematics(rig->skeleton, m_state.pose);
        } catch (const Error&) {
            m_posed = PosedSkeleton{};
        }
    }
}

void Viewport::updateCharacterOffset()
{
    // In Pose and Paint mode the character stands where the pose's root moved it (a clip's root motion).
    const Vec3 t = m_mode != InteractionMode::Rig && m_state.project.rig() ? m_state.pose.rootTranslation : Vec3::Zero();
    const glm::vec3 offset(float(t.x()), float(t.y()), float(t.z()));
    if (offset == m_characterOffset)
        return;
    if (m_follow)
        m_camera.target += offset - m_characterOffset; // the same view of the character, wherever it goes
    m_characterOffset = offset;
    update();
}

void Viewport::setMeshColoring(MeshColoring coloring, int heatJoint)
{
    m_coloring = coloring;
    m_heatJoint = std::max(heatJoint, 0);
    updateVertexColors();
    update();
}

void Viewport::updateVertexColors()
{
    const auto& s = skinning();
    const MeshColoring coloring = s ? m_coloring : MeshColoring::Shaded;
    const int joint = coloring == MeshColoring::Weights ? m_heatJoint : 0;
    if (!m_colorsFrom.stale(s, m_state.project.character(), coloring, joint))
        return;
    m_colorsFrom.made(s, m_state.project.character(), coloring, joint);
    switch (coloring) {
    case MeshColoring::Shaded: m_vertexColors = nullptr; break;
    case MeshColoring::Segments:
        // Neighbouring segments on the surface get different colours of the categorical palette.
        m_vertexColors = std::make_shared<const std::vector<glm::vec3>>(
            mesh() ? segmentColors(s->segmentation, mesh()->F) : segmentColors(s->segmentation));
        break;
    case MeshColoring::Weights:
        m_vertexColors = std::make_shared<const std::vector<glm::vec3>>(weightColors(s->weights, s->segmentation, joint));
        break;
    }
}

void Viewport::rebuildClipLines()
{
    const auto& clip = m_state.project.clip();
    const auto& character = m_state.project.character();
    if (!clip || !character || !m_state.clipSkeleton) {
        if (!m_clipLines->empty())
            m_clipLines = std::make_shared<const std::vector<LineVertex>>();
        return;
    }
    // Scaled to the character by the leg-length ratio, walking beside it:
    // anchored at the posed hips, moved aside (30% of the height) and back (15%).
    const Box3& b = character->stats.bounds;
    Vec3 hips = b.center();
    if (const auto& rig = m_state.project.rig(); rig && rig->skeleton.jointCount() > 0)
        hips = Vec3(rig->skeleton.bindPositions.row(0)) + m_state.pose.rootTranslation;
    const glm::vec3 anchor(float(hips.x() + 0.3 * b.size().y()), float(b.min.y()), float(hips.z() - 0.15 * b.size().y()));
    m_clipLines = std::make_shared<const std::vector<LineVertex>>(makeClipSkeletonLines(
        clip->source, m_state.clipTime, clip->retargeted.mapping.translationScale, anchor));
}

void Viewport::rebuildSkeletonDraw()
{
    const auto& skeleton = m_state.project.curveSkeleton();
    if (!skeleton) {
        m_skeletonDraw = std::make_shared<const SkeletonDrawData>();
        update();
        return;
    }
    // Each labelled end node in its limb's colour.
    std::vector<glm::vec4> endColors(static_cast<size_t>(skeleton->refined.nodeCount()), glm::vec4(0.0f));
    for (Limb limb : allLimbs)
        if (const int node = m_state.project.labels()[limb]; node >= 0 && node < skeleton->refined.nodeCount())
            endColors[static_cast<size_t>(node)] = glm::vec4(limbColor(int(limb)), 1.0f);
    m_skeletonDraw = std::make_shared<const SkeletonDrawData>(
        makeSkeletonDrawData(skeleton->refined, float(1.8 * skeleton->solid.voxelSize), endColors, m_hoverNode));
    update();
}

void Viewport::setSelectedJoint(int joint)
{
    m_selectedJoint = joint;
    rebuildRigDraw();
}

void Viewport::setWarnedJoints(const std::vector<int>& joints)
{
    m_warnedJoints = joints;
    rebuildRigDraw();
}

void Viewport::rebuildRigDraw()
{
    const float size = glm::length(m_boundsMax - m_boundsMin);
    const auto& rig = m_state.rig();
    // Pose and Paint mode draw the posed skeleton; Rig mode edits the bind pose.
    m_rigDraw = std::make_shared<const RigDrawData>(
        !rig ? RigDrawData{}
        : deforming()
            ? makeRigDrawData(posedSkeleton(rig->skeleton, m_posed), 0.012f * size, m_selectedJoint, m_hoverJoint,
                              m_warnedJoints)
            : makeRigDrawData(rig->skeleton, 0.012f * size, m_selectedJoint, m_hoverJoint, m_warnedJoints));
    update();
}

std::optional<int> Viewport::jointAt(const QPoint& pixel) const
{
    if (m_rigDraw->centers.empty() || !m_options.rig)
        return std::nullopt;
    // Joints are drawn in front: pick by screen distance, nearest first.
    std::optional<int> best;
    double bestD = 12.0; // pixels
    for (size_t j = 0; j < m_rigDraw->centers.size(); ++j) {
        const QPointF p = project(m_rigDraw->centers[j]);
        const double d = std::hypot(p.x() - pixel.x(), p.y() - pixel.y());
        if (d < bestD) {
            bestD = d;
            best = static_cast<int>(j);
        }
    }
    return best;
}

glm::vec3 Viewport::dragPoint(const QPoint& pixel) const
{
    // The plane through the joint's start facing the camera.
    const Ray ray = rayThroughPixel(m_camera, float(pixel.x()), float(pixel.y()), float(width()), float(height()));
    const glm::vec3 normal = glm::normalize(m_camera.eye() - m_camera.target);
    const float denom = glm::dot(ray.direction, normal);
    if (std::abs(denom) < 1e-6f)
        return m_dragPlanePoint;
    const float t = glm::dot(m_dragPlanePoint - ray.origin, normal) / denom;
    return ray.origin + t * ray.direction;
}

std::optional<int> Viewport::nodeAt(const QPoint& pixel) const
{
    if (m_skeletonDraw->centers.empty() || !m_options.skeleton)
        return std::nullopt;
    const Ray ray = rayThroughPixel(m_camera, float(pixel.x()), float(pixel.y()), float(width()), float(height()));
    return pickSphere(ray, m_skeletonDraw->centers, m_skeletonDraw->pickRadius);
}

QPointF Viewport::project(const glm::vec3& world) const
{
    const glm::vec4 clip = m_camera.projection(aspect()) * m_camera.view() * glm::vec4(world, 1.0f);
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    return QPointF((ndc.x * 0.5 + 0.5) * width(), (0.5 - ndc.y * 0.5) * height());
}

std::vector<ViewportLabel> Viewport::shownLabels() const
{
    std::vector<ViewportLabel> shown;
    for (const ViewportLabel& label : m_labels)
        if (m_labelsVisible && (!label.skeleton || m_options.skeleton))
            shown.push_back(label);
    return shown;
}

void Viewport::setLabelsVisible(bool on)
{
    m_labelsVisible = on;
    update();
}

void Viewport::setSkeletonVisible(bool on)
{
    m_options.skeleton = on;
    update();
}

void Viewport::setRigVisible(bool on)
{
    m_options.rig = on;
    update();
}

void Viewport::setVoxelsVisible(bool on)
{
    m_options.voxels = on;
    update();
}

void Viewport::setTexturesVisible(bool on)
{
    m_texturesOn = on;
    m_options.textures = on;
    update();
}

bool Viewport::drawsSourceMeshes() const
{
    const auto& character = m_state.project.character();
    return m_texturesOn && character && !character->imported.source.empty();
}

void Viewport::setMeshOpacity(float opacity)
{
    m_options.meshOpacity = std::clamp(opacity, 0.05f, 1.0f);
    update();
}

void Viewport::setClipEnabled(bool on)
{
    m_options.clip = on;
    updateClipPlane();
    update();
}

void Viewport::setClipPosition(double t)
{
    m_clipT = std::clamp(t, 0.0, 1.0);
    updateClipPlane();
    update();
}

void Viewport::updateClipPlane()
{
    // A plane facing the character's front (+Z): keeps z <= c, so the front
    // part is cut away and the inside shows from the front views.
    const float c = m_boundsMax.z + float(m_clipT) * (m_boundsMin.z - m_boundsMax.z);
    m_options.clipPlane = glm::vec4(0.0f, 0.0f, -1.0f, c);
}

void Viewport::setSimplifyWhileMoving(bool on)
{
    m_simplifyWhileMoving = on;
    if (!on)
        setInteracting(false);
}

void Viewport::setInteracting(bool on)
{
    on = on && m_simplifyWhileMoving;
    if (m_options.interactive == on)
        return;
    m_options.interactive = on;
    update();
}

void Viewport::setWireframe(bool on)
{
    m_options.wireframe = on;
    update();
}

void Viewport::setGridVisible(bool on)
{
    m_options.grid = on;
    update();
}

void Viewport::frameAll()
{
    // Where the character is now, not where it was at rest.
    m_camera.frame(m_boundsMin + m_characterOffset, m_boundsMax + m_characterOffset, aspect());
    update();
}

void Viewport::frameSelected()
{
    const int n = static_cast<int>(m_rigDraw->centers.size());
    const auto& rig = m_state.rig();
    if (!rig || m_selectedJoint < 0 || m_selectedJoint >= n || rig->skeleton.jointCount() != n) {
        frameAll();
        return;
    }
    const std::vector<int>& parents = rig->skeleton.parents;
    std::vector<char> inside(static_cast<size_t>(n), 0);
    inside[static_cast<size_t>(m_selectedJoint)] = 1;
    glm::vec3 lo = m_rigDraw->centers[static_cast<size_t>(m_selectedJoint)], hi = lo;
    for (int j = m_selectedJoint + 1; j < n; ++j) // parents[j] < j: one pass finds every descendant
        if (const int p = parents[static_cast<size_t>(j)]; p >= 0 && inside[static_cast<size_t>(p)]) {
            inside[static_cast<size_t>(j)] = 1;
            lo = glm::min(lo, m_rigDraw->centers[static_cast<size_t>(j)]);
            hi = glm::max(hi, m_rigDraw->centers[static_cast<size_t>(j)]);
        }
    // With weights, the skin those joints move (half its weight or more), as
    // drawn: a leaf's part reaches beyond its joint (the default character's
    // head joint sits at the base of the skull, and F left the top of the head
    // out of view; Cesium Man's put the camera inside the head).
    bool skin = false;
    if (skinFits()) {
        const MatrixX3d& drawn = pickPositions();
        const SkinWeights& w = *weights();
        for (int v = 0; v < w.vertexCount() && v < drawn.rows(); ++v) {
            float on = 0.0f;
            for (int k = 0; k < w.maxInfluences; ++k)
                if (const int j = w.joints(v, k); j >= 0 && j < n && inside[static_cast<size_t>(j)])
                    on += w.weights(v, k);
            if (on < 0.5f)
                continue;
            const glm::vec3 p(float(drawn(v, 0)), float(drawn(v, 1)), float(drawn(v, 2)));
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
            skin = true;
        }
    }
    // A margin of a quarter of the joints' extent (the flesh around a hand's
    // joints), a tenth of the skin's; without weights, for a leaf, its own
    // bone, so a fingertip is framed with its finger.
    float margin = (skin ? 0.1f : 0.25f) * glm::length(hi - lo);
    const int parent = parents[static_cast<size_t>(m_selectedJoint)];
    if (hi == lo && parent >= 0)
        margin = glm::length(m_rigDraw->centers[static_cast<size_t>(m_selectedJoint)] -
                             m_rigDraw->centers[static_cast<size_t>(parent)]);
    margin = std::max(margin, 0.02f * glm::length(m_boundsMax - m_boundsMin));
    m_camera.frame(lo - glm::vec3(margin), hi + glm::vec3(margin), aspect());
    update();
}

void Viewport::setFollow(bool on) { m_follow = on; }

void Viewport::setViewPreset(ViewPreset preset)
{
    m_camera.setPreset(preset);
    frameAll();
}

void Viewport::setContinuousRepaint(bool on)
{
    m_continuous = on;
    m_fpsTimer.restart();
    m_framesSinceTick = 0;
    update();
}

void Viewport::initializeGL()
{
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &Viewport::cleanup, Qt::UniqueConnection);
    if (!m_renderer.initialize(&m_glError))
        return;
    forgetUploads();
    m_fpsTimer.start();
}

void Viewport::forgetUploads()
{
    m_meshMade.forget();
    m_skinMade.forget();
    m_skinPoseMade.forget();
    m_cpuDeformedMade.forget();
    m_rigMade.forget();
    m_skeletonMade.forget();
    m_voxelsMade.forget();
    m_clipLinesMade.forget();
    m_gizmoMade.forget();
}

void Viewport::resizeGL(int, int) {}

void Viewport::paintGL()
{
    // Frame parts timed for benches only (each ends with a glFinish).
    QElapsedTimer partTimer;
    partTimer.start();
    auto lap = [&](double& into) {
        if (!m_measureFrames)
            return;
        context()->functions()->glFinish();
        into = double(partTimer.nsecsElapsed()) * 1e-6;
        partTimer.restart();
    };
    m_frameTimes = {};
    m_frameTimes.began = std::chrono::steady_clock::now();
    uploadMesh();
    if (deforming()) // the skin is drawn only then: a joint dragged in Rig mode uploads none
        uploadSkin();
    lap(m_frameTimes.upload);
    if (deforming() && m_renderer.initialized()) {
        const std::vector<std::string> ids = cpuDeformers();
        if (m_cpuDeformedMade.stale(ids, m_poseRevision, m_meshUploads, m_skinUploads)) {
            updateCpuDeformed();
            m_cpuDeformedMade.made(ids, m_poseRevision, m_meshUploads, m_skinUploads);
        }
    }
    lap(m_frameTimes.cpuDeform);
    uploadOverlays();
    m_options.skinning = deforming();
    m_options.deformer = deformer();
    const qreal dpr = devicePixelRatioF();
    double more = 0.0; // the gizmo, rig, skeleton and voxel buffers: uploads too
    lap(more);
    m_frameTimes.upload += more;
    m_renderer.render(m_camera, int(width() * dpr), int(height() * dpr), m_options);
    lap(m_frameTimes.draw);
    paintOverlay();
    lap(m_frameTimes.overlay);
    m_frameTimes.ended = std::chrono::steady_clock::now();
    countFrame();
    if (m_continuous)
        update();
}

void Viewport::countFrame()
{
    ++m_framesSinceTick;
    if (!m_fpsTimer.isValid())
        m_fpsTimer.start();
    const qint64 ms = m_fpsTimer.elapsed();
    if (ms >= 1000) {
        m_fps = 1000.0 * m_framesSinceTick / double(ms);
        m_framesSinceTick = 0;
        m_fpsTimer.restart();
        emit fpsChanged(m_fps);
    }
}

void Viewport::uploadMesh()
{
    const auto& character = m_state.project.character();
    const bool source = drawsSourceMeshes();
    if (!m_renderer.initialized() || !m_meshMade.stale(character, source, m_vertexColors))
        return;
    m_meshMade.made(character, source, m_vertexColors);
    ++m_meshUploads;
    m_drawnWelded.clear();
    if (!character) {
        m_renderer.clearMesh();
        return;
    }
    MeshDrawData data = source ? makeSourceDrawData(character->imported, m_drawnWelded) : makeMeshDrawData(*mesh());
    // The weight views colour each vertex (segments, heat map), untextured.
    if (m_vertexColors && m_vertexColors->size() == static_cast<size_t>(mesh()->vertexCount())) {
        for (size_t v = 0; v < data.vertices.size(); ++v)
            data.vertices[v].color = (*m_vertexColors)[source ? static_cast<size_t>(m_drawnWelded[v]) : v];
        for (MeshDrawRange& r : data.ranges)
            r.image = -1;
    }
    m_drawColors.resize(data.vertices.size());
    for (size_t v = 0; v < data.vertices.size(); ++v)
        m_drawColors[v] = data.vertices[v].color;
    m_renderer.setMesh(data);
}

void Viewport::uploadSkin()
{
    if (!m_renderer.initialized())
        return;
    const auto& rig = m_state.rig();
    const auto& character = m_state.project.character();
    const bool source = drawsSourceMeshes();
    if (m_skinMade.stale(character, source, skinning(), rig)) {
        m_skinMade.made(character, source, skinning(), rig);
        ++m_skinUploads;
        // Influences only when they fit the mesh and the rig (a stale stage result draws unskinned).
        std::vector<SkinVertex> skin;
        if (skinFits() && skinning()->segmentation.vertexCount() > 0) {
            try { // the twist as the CPU deformer has it (δ·λ, core/deform/twist_lbs.h)
                skin = makeSkinVertices(*weights(), skinning()->segmentation, rig->skeleton);
            } catch (const Error& e) {
                qWarning().noquote() << "twist segmentation:" << e.what(); // drawn with the links' δ
                skin = makeSkinVertices(*weights(), &skinning()->segmentation);
            }
        } else if (skinFits()) {
            skin = makeSkinVertices(*weights(), nullptr);
        }
        if (!skin.empty() && !m_drawnWelded.empty()) { // the file's meshes: each vertex skinned as its welded twin
            std::vector<SkinVertex> drawn(m_drawnWelded.size());
            for (size_t v = 0; v < drawn.size(); ++v)
                drawn[v] = skin[static_cast<size_t>(m_drawnWelded[v])];
            skin = std::move(drawn);
        }
        m_renderer.setSkin(skin);
    }
    if (rig && !m_posed.skinning.empty() && m_skinPoseMade.stale(rig, m_poseRevision, m_skinUploads)) {
        m_skinPoseMade.made(rig, m_poseRevision, m_skinUploads);
        try {
            m_renderer.setSkinPose(makeSkinTexels(rig->skeleton, m_state.pose, unwrappedTwist()));
        } catch (const Error&) {
            m_renderer.setSkinPose(makeSkinTexels(rig->skeleton, m_state.pose)); // twists that do not match: wrapped
        }
    }
}

void Viewport::uploadOverlays()
{
    if (!m_renderer.initialized())
        return;
    if (m_clipLinesMade.stale(m_clipLines)) {
        m_clipLinesMade.made(m_clipLines);
        m_renderer.setClipSkeleton(*m_clipLines);
    }
    const int ring = m_dragRing >= 0 ? m_dragRing : m_hoverRing;
    if (m_gizmoMade.stale(m_rigDraw, ring, m_options.rig)) {
        m_gizmoMade.made(m_rigDraw, ring, m_options.rig);
        const std::optional<RotateGizmo> g = gizmo();
        m_renderer.setGizmo(g ? makeGizmoLines(*g, ring) : std::vector<LineVertex>{});
    }
    if (m_rigMade.stale(m_rigDraw)) {
        m_rigMade.made(m_rigDraw);
        m_renderer.setRig(*m_rigDraw);
    }
    if (m_skeletonMade.stale(m_skeletonDraw)) {
        m_skeletonMade.made(m_skeletonDraw);
        m_renderer.setSkeleton(*m_skeletonDraw);
    }
    // Voxels built only when shown (a fine grid has hundreds of thousands), cleared with the skeleton.
    const auto& skeleton = m_state.project.curveSkeleton();
    const auto shown = m_options.voxels ? skeleton : nullptr;
    if ((m_options.voxels || !skeleton) && m_voxelsMade.stale(shown)) {
        m_voxelsMade.made(shown);
        if (shown)
            m_renderer.setVoxels(makeVoxelPoints(shown->solid, true), float(shown->solid.voxelSize));
        else
            m_renderer.setVoxels({}, 0.0f);
    }
}

void Viewport::setMode(InteractionMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_brushCentre.reset();
    m_drag = Drag::None;
    m_dragRing = m_hoverRing = -1;
    updateCharacterOffset();
    rebuildRigDraw();
}

void Viewport::setSplitView(bool on, const std::string& right)
{
    m_options.split = on;
    m_options.splitDeformer = right;
    update();
}

std::vector<std::string> Viewport::cpuDeformers() const
{
    std::vector<std::string> ids{deformer()};
    if (m_options.split)
        ids.push_back(m_options.splitDeformer);
    std::erase_if(ids, [](const std::string& id) {
        for (const DeformerInfo& d : deformers())
            if (d.id == id)
                return d.gpuProgram >= 0;
        return true;
    });
    return ids;
}

std::shared_ptr<const void> Viewport::boundSkin(const std::string& id) const
{
    for (const DeformerInfo& d : deformers())
        if (d.id == id && !d.usesWeights)
            return m_segmentation;
    return skinning();
}

void Viewport::bind(Binding& binding, const std::string& id, bool keep) const
{
    const auto& character = m_state.project.character();
    const auto& rig = m_state.rig();
    const std::shared_ptr<const void> skin = boundSkin(id);
    if (!binding.from.stale(id, character, rig, skin) || (keep && binding.bound))
        return;
    binding.from.made(id, character, rig, skin);
    binding.bound.reset();
    ++binding.serial;
    if (skinFits())
        binding.bound = findDeformer(id).bind(DeformerInput{*mesh(), *weights(), &skinning()->segmentation, rig->skeleton});
}

void Viewport::updateCpuDeformed()
{
    for (const std::string& id : cpuDeformers()) {
        std::vector<MeshVertex> vertices;
        try {
            Binding& binding = m_cpuBound[id];
            bind(binding, id, false);
            if (!m_renderer.skinned() || !binding.bound)
                throw Error("no skin to deform");
            SkinnedMesh posed;
            binding.bound->deform(m_state.pose, unwrappedTwist(), posed);
            // The file's meshes drawn: each vertex deformed as its welded twin.
            vertices.resize(m_drawnWelded.empty() ? static_cast<size_t>(posed.vertexCount()) : m_drawnWelded.size());
            for (size_t v = 0; v < vertices.size(); ++v) {
                const PackedVertex& p = posed.vertices[m_drawnWelded.empty() ? v : static_cast<size_t>(m_drawnWelded[v])];
                vertices[v].position = glm::vec3(p.p[0], p.p[1], p.p[2]);
                vertices[v].normal = binding.bound->hasNormals() ? glm::vec3(p.n[0], p.n[1], p.n[2]) : glm::vec3(0, 1, 0);
                vertices[v].color = v < m_drawColors.size() ? m_drawColors[v] : glm::vec3(0.78f, 0.74f, 0.70f);
            }
        } catch (const Error&) {
            vertices.clear(); // drawn in its rest shape until the skin fits
        }
        m_renderer.setCpuDeformed(id, vertices);
    }
}

std::optional<RotateGizmo> Viewport::gizmo() const
{
    if (!posing() || !m_options.rig || m_selectedJoint < 0 ||
        m_selectedJoint >= static_cast<int>(m_posed.skinning.size()))
        return std::nullopt; // no gizmo without its joint in view
    return makeRotateGizmo(m_posed, m_selectedJoint, 0.06f * glm::length(m_boundsMax - m_boundsMin));
}

Ray Viewport::rayAt(const QPoint& pixel) const
{
    return rayThroughPixel(m_camera, float(pixel.x()), float(pixel.y()), float(width()), float(height()));
}

std::optional<int> Viewport::ringAt(const QPoint& pixel) const
{
    const std::optional<RotateGizmo> g = gizmo();
    if (!g)
        return std::nullopt;
    return pickGizmoRing(
        *g,
        [this](const glm::vec3& w) {
            const QPointF p = project(w);
            return glm::vec2(float(p.x()), float(p.y()));
        },
        glm::vec2(float(pixel.x()), float(pixel.y())));
}

} // namespace rig::ui
