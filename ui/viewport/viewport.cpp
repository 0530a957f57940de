#include "ui/viewport/viewport.h"

#include "core/common/error.h"
#include "core/mesh/mesh.h"
#include "core/rig/fit_template.h"
#include "core/skeleton/extract.h"
#include "ui/render_offscreen.h"
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

void Viewport::setMesh(std::shared_ptr<const Mesh> mesh)
{
    m_mesh = std::move(mesh);
    m_meshDirty = true;
    m_skinDirty = true;
    m_keepWeightFreeBindings = false;
    m_cpuBound.clear();
    invalidatePick(true);
    if (m_mesh && m_mesh->vertexCount() > 0) {
        const Eigen::RowVector3d lo = m_mesh->V.colwise().minCoeff(), hi = m_mesh->V.colwise().maxCoeff();
        m_boundsMin = glm::vec3(lo(0), lo(1), lo(2));
        m_boundsMax = glm::vec3(hi(0), hi(1), hi(2));
    }
    m_characterOffset = glm::vec3(0.0f); // a new character stands at rest
    updateClipPlane();
    frameAll();
}

void Viewport::setVertexHover(bool on) { m_vertexHover = on; }

void Viewport::setClipSkeleton(std::vector<LineVertex> lines)
{
    m_clipLines = std::move(lines);
    m_clipLinesDirty = true;
    update();
}

void Viewport::setVertexColors(std::vector<glm::vec3> colors)
{
    m_vertexColors = std::move(colors);
    m_meshDirty = true;
    update();
}

void Viewport::setCurveSkeleton(std::shared_ptr<const CurveSkeletonResult> skeleton)
{
    if (skeleton != m_skeleton)
        m_voxelsDirty = true;
    m_skeleton = std::move(skeleton);
    m_hoverNode = -1;
    rebuildSkeletonDraw();
}

void Viewport::rebuildSkeletonDraw()
{
    m_skeletonDraw = m_skeleton ? makeSkeletonDrawData(m_skeleton->refined, float(1.8 * m_skeleton->solid.voxelSize),
                                                       m_endColors, m_hoverNode)
                                : SkeletonDrawData{};
    m_skeletonDirty = true;
    update();
}

void Viewport::setEndNodeColors(std::vector<glm::vec4> colors)
{
    m_endColors = std::move(colors);
    setCurveSkeleton(m_skeleton); // rebuild the glyphs with the new colours
}

void Viewport::setRig(std::shared_ptr<const FitResult> rig)
{
    m_rig = std::move(rig);
    invalidatePick(true);
    if (!m_rig || m_selectedJoint >= m_rig->skeleton.jointCount())
        m_selectedJoint = -1;
    if (!m_rig || m_hoverJoint >= m_rig->skeleton.jointCount())
        m_hoverJoint = -1;
    updatePosed();
    rebuildRigDraw();
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
    // Pose and Paint mode draw the posed skeleton; Rig mode edits the bind pose.
    m_rigDraw = !m_rig ? RigDrawData{}
                : deforming() ? makeRigDrawData(posedSkeleton(m_rig->skeleton, m_posed), 0.012f * size, m_selectedJoint,
                                             m_hoverJoint, m_warnedJoints)
                           : makeRigDrawData(m_rig->skeleton, 0.012f * size, m_selectedJoint, m_hoverJoint, m_warnedJoints);
    m_rigDirty = true;
    m_gizmoDirty = true;
    update();
}

std::optional<int> Viewport::jointAt(const QPoint& pixel) const
{
    if (m_rigDraw.centers.empty() || !m_options.rig)
        return std::nullopt;
    // Joints are drawn in front: pick by screen distance, nearest first.
    std::optional<int> best;
    double bestD = 12.0; // pixels
    for (size_t j = 0; j < m_rigDraw.centers.size(); ++j) {
        const QPointF p = project(m_rigDraw.centers[j]);
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
    if (m_skeletonDraw.centers.empty() || !m_options.skeleton)
        return std::nullopt;
    const Ray ray = rayThroughPixel(m_camera, float(pixel.x()), float(pixel.y()), float(width()), float(height()));
    return pickSphere(ray, m_skeletonDraw.centers, m_skeletonDraw.pickRadius);
}

QPointF Viewport::project(const glm::vec3& world) const
{
    const glm::vec4 clip = m_camera.projection(aspect()) * m_camera.view() * glm::vec4(world, 1.0f);
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    return QPointF((ndc.x * 0.5 + 0.5) * width(), (0.5 - ndc.y * 0.5) * height());
}

void Viewport::setLabels(std::vector<ViewportLabel> labels)
{
    m_labels = std::move(labels);
    update();
}

std::vector<ViewportLabel> Viewport::shownLabels() const
{
    std::vector<ViewportLabel> shown;
    for (const ViewportLabel& label : m_labels)
        if (!label.skeleton || m_options.skeleton)
            shown.push_back(label);
    return shown;
}

void Viewport::setSkeletonVisible(bool on)
{
    m_options.skeleton = on;
    update();
}

void Viewport::setRigVisible(bool on)
{
    m_options.rig = on;
    m_gizmoDirty = true;
    update();
}

void Viewport::setVoxelsVisible(bool on)
{
    m_options.voxels = on;
    m_voxelsDirty = true;
    update();
}

void Viewport::setSource(std::shared_ptr<const ImportedCharacter> character)
{
    m_source = std::move(character);
    m_meshDirty = true;
    m_skinDirty = true;
    update();
}

void Viewport::setTexturesVisible(bool on)
{
    m_texturesOn = on;
    m_options.textures = on;
    m_meshDirty = true;
    m_skinDirty = true;
    update();
}

bool Viewport::drawsSourceMeshes() const
{
    return m_texturesOn && m_source && m_mesh && !m_source->source.empty() &&
           m_source->mesh.vertexCount() == m_mesh->vertexCount();
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
    const int n = static_cast<int>(m_rigDraw.centers.size());
    if (!m_rig || m_selectedJoint < 0 || m_selectedJoint >= n || m_rig->skeleton.jointCount() != n) {
        frameAll();
        return;
    }
    const std::vector<int>& parents = m_rig->skeleton.parents;
    std::vector<char> inside(static_cast<size_t>(n), 0);
    inside[static_cast<size_t>(m_selectedJoint)] = 1;
    glm::vec3 lo = m_rigDraw.centers[static_cast<size_t>(m_selectedJoint)], hi = lo;
    for (int j = m_selectedJoint + 1; j < n; ++j) // parents[j] < j: one pass finds every descendant
        if (const int p = parents[static_cast<size_t>(j)]; p >= 0 && inside[static_cast<size_t>(p)]) {
            inside[static_cast<size_t>(j)] = 1;
            lo = glm::min(lo, m_rigDraw.centers[static_cast<size_t>(j)]);
            hi = glm::max(hi, m_rigDraw.centers[static_cast<size_t>(j)]);
        }
    // With weights, the skin those joints move (half its weight or more), as
    // drawn: a leaf's part reaches beyond its joint (the default character's
    // head joint sits at the base of the skull, and F left the top of the head
    // out of view; Cesium Man's put the camera inside the head).
    bool skin = false;
    if (m_weights && m_mesh && skinFits()) {
        const MatrixX3d& drawn = pickPositions();
        const SkinWeights& w = *m_weights;
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
        margin = glm::length(m_rigDraw.centers[static_cast<size_t>(m_selectedJoint)] -
                             m_rigDraw.centers[static_cast<size_t>(parent)]);
    margin = std::max(margin, 0.02f * glm::length(m_boundsMax - m_boundsMin));
    m_camera.frame(lo - glm::vec3(margin), hi + glm::vec3(margin), aspect());
    update();
}

void Viewport::setCharacterOffset(const glm::vec3& offset)
{
    if (offset == m_characterOffset)
        return;
    if (m_follow)
        m_camera.target += offset - m_characterOffset; // the same view of the character, wherever it goes
    m_characterOffset = offset;
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
    m_meshDirty = true;
    m_skeletonDirty = true;
    m_voxelsDirty = true;
    m_rigDirty = true;
    m_skinDirty = true;
    m_gizmoDirty = true;
    m_clipLinesDirty = true;
    m_fpsTimer.start();
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
    if (m_meshDirty && m_renderer.initialized()) {
        if (m_mesh) {
            const bool source = drawsSourceMeshes();
            m_drawnWelded.clear();
            MeshDrawData data = source ? makeSourceDrawData(*m_source, m_drawnWelded) : makeMeshDrawData(*m_mesh);
            // The weight views colour each vertex (segments, heat map), untextured.
            if (m_vertexColors.size() == static_cast<size_t>(m_mesh->vertexCount())) {
                for (size_t v = 0; v < data.vertices.size(); ++v)
                    data.vertices[v].color = m_vertexColors[source ? static_cast<size_t>(m_drawnWelded[v]) : v];
                for (MeshDrawRange& r : data.ranges)
                    r.image = -1;
            }
            m_drawColors.resize(data.vertices.size());
            for (size_t v = 0; v < data.vertices.size(); ++v)
                m_drawColors[v] = data.vertices[v].color;
            m_renderer.setMesh(data);
            m_cpuDeformDirty = true;
        } else
            m_renderer.clearMesh();
        m_meshDirty = false;
    }
    if (m_clipLinesDirty && m_renderer.initialized()) {
        m_renderer.setClipSkeleton(m_clipLines);
        m_clipLinesDirty = false;
    }
    if (m_skinDirty && m_renderer.initialized()) {
        // Influences only when they fit the mesh and the rig (a stale stage result draws unskinned).
        const bool fits = skinFits();
        std::vector<SkinVertex> skin;
        if (fits && m_segmentation) {
            try { // the twist as the CPU deformer has it (δ·λ, core/deform/twist_lbs.h)
                skin = makeSkinVertices(*m_weights, *m_segmentation, m_rig->skeleton);
            } catch (const Error& e) {
                qWarning().noquote() << "twist segmentation:" << e.what(); // drawn with the links' δ
                skin = makeSkinVertices(*m_weights, m_segmentation.get());
            }
        } else if (fits) {
            skin = makeSkinVertices(*m_weights, nullptr);
        }
        if (!skin.empty() && !m_drawnWelded.empty()) { // the file's meshes: each vertex skinned as its welded twin
            std::vector<SkinVertex> drawn(m_drawnWelded.size());
            for (size_t v = 0; v < drawn.size(); ++v)
                drawn[v] = skin[static_cast<size_t>(m_drawnWelded[v])];
            skin = std::move(drawn);
        }
        m_renderer.setSkin(skin);
        std::erase_if(m_cpuBound, [this](const auto& bound) {
            return !m_keepWeightFreeBindings || deformerUsesWeights(bound.first);
        });
        m_keepWeightFreeBindings = false;
        m_skinDirty = false;
        m_poseDirty = true;
    }
    if (m_poseDirty && m_renderer.initialized()) {
        if (m_rig && !m_posed.skinning.empty()) {
            try {
                m_renderer.setSkinPose(makeSkinTexels(m_rig->skeleton, m_pose, unwrappedTwist()));
            } catch (const Error&) {
                m_renderer.setSkinPose(makeSkinTexels(m_rig->skeleton, m_pose)); // twists that do not match: wrapped
            }
        }
        m_poseDirty = false;
        m_cpuDeformDirty = true;
    }
    lap(m_frameTimes.upload);
    if (m_cpuDeformDirty && m_renderer.initialized() && deforming()) {
        updateCpuDeformed();
        m_cpuDeformDirty = false;
    }
    lap(m_frameTimes.cpuDeform);
    if (m_gizmoDirty && m_renderer.initialized()) {
        const std::optional<RotateGizmo> g = gizmo();
        m_renderer.setGizmo(g ? makeGizmoLines(*g, m_dragRing >= 0 ? m_dragRing : m_hoverRing) : std::vector<LineVertex>{});
        m_gizmoDirty = false;
    }
    m_options.skinning = deforming();
    if (m_rigDirty && m_renderer.initialized()) {
        m_renderer.setRig(m_rigDraw);
        m_rigDirty = false;
    }
    if (m_skeletonDirty && m_renderer.initialized()) {
        m_renderer.setSkeleton(m_skeletonDraw);
        m_skeletonDirty = false;
    }
    if (m_voxelsDirty && m_renderer.initialized() && (m_options.voxels || !m_skeleton)) {
        // Built only when shown: a fine grid has hundreds of thousands of voxels.
        if (m_skeleton && m_options.voxels)
            m_renderer.setVoxels(makeVoxelPoints(m_skeleton->solid, true), float(m_skeleton->solid.voxelSize));
        else
            m_renderer.setVoxels({}, 0.0f);
        m_voxelsDirty = false;
    }
    const qreal dpr = devicePixelRatioF();
    double more = 0.0; // the gizmo, rig, skeleton and voxel buffers: uploads too
    lap(more);
    m_frameTimes.upload += more;
    m_renderer.render(m_camera, int(width() * dpr), int(height() * dpr), m_options);
    lap(m_frameTimes.draw);
    paintOverlay();
    lap(m_frameTimes.overlay);
    m_frameTimes.ended = std::chrono::steady_clock::now();

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
    if (m_continuous)
        update();
}

void Viewport::setSkinning(std::shared_ptr<const SkinWeights> weights, std::shared_ptr<const Segmentation> segmentation)
{
    // Painted weights: the same segmentation for the same mesh and rig. The
    // deformers that read no weights keep their binding then.
    const bool sameSegmentation = weights && m_weights && segmentation && m_segmentation && m_rig.get() == m_skinRig &&
                                  segmentation->bone == m_segmentation->bone &&
                                  segmentation->delta == m_segmentation->delta;
    // (Several changes before the next frame: kept only if every one kept them.)
    m_keepWeightFreeBindings = (m_skinDirty ? m_keepWeightFreeBindings : true) && sameSegmentation;
    m_weights = std::move(weights);
    m_segmentation = m_weights ? std::move(segmentation) : nullptr;
    m_skinRig = m_rig.get();
    m_skinDirty = true;
    // A stroke's own dabs keep the surface it started on (picked where it was drawn).
    invalidatePick(m_drag != Drag::Paint && !(sameSegmentation && !drawnDeformerUsesWeights()));
    update();
}

void Viewport::updatePosed()
{
    m_posed = PosedSkeleton{};
    if (m_rig && static_cast<int>(m_pose.localRotations.size()) == m_rig->skeleton.jointCount()) {
        try {
            m_posed = forwardKinematics(m_rig->skeleton, m_pose);
        } catch (const Error&) {
            m_posed = PosedSkeleton{};
        }
    }
    m_poseDirty = true;
}

void Viewport::setPose(const Pose& pose, const std::vector<double>& twist)
{
    m_pose = pose;
    m_poseTwist = twist;
    invalidatePick(false);
    updatePosed();
    rebuildRigDraw();
}

void Viewport::setMode(InteractionMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_cpuDeformDirty = true;
    m_brushCentre.reset();
    invalidatePick(false);
    m_drag = Drag::None;
    m_dragRing = m_hoverRing = -1;
    rebuildRigDraw();
}

void Viewport::setDeformer(const std::string& deformer)
{
    m_options.deformer = deformer;
    m_cpuDeformDirty = true;
    invalidatePick(true);
    update();
}

void Viewport::setSplitView(bool on, const std::string& right)
{
    m_options.split = on;
    m_options.splitDeformer = right;
    m_cpuDeformDirty = true;
    update();
}

void Viewport::updateCpuDeformed()
{
    std::vector<std::string> ids{m_options.deformer};
    if (m_options.split)
        ids.push_back(m_options.splitDeformer);
    for (const std::string& id : ids) {
        const DeformerInfo* info = nullptr;
        for (const DeformerInfo& d : deformers())
            if (d.id == id)
                info = &d;
        if (!info || info->gpuProgram >= 0)
            continue;
        std::vector<MeshVertex> vertices;
        try {
            if (!m_renderer.skinned() || !m_mesh || !m_rig || !m_weights)
                throw Error("no skin to deform");
            std::unique_ptr<BoundDeformer>& bound = m_cpuBound[id];
            if (!bound)
                bound = info->bind(DeformerInput{*m_mesh, *m_weights, m_segmentation.get(), m_rig->skeleton});
            SkinnedMesh posed;
            bound->deform(m_pose, unwrappedTwist(), posed);
            // The file's meshes drawn: each vertex deformed as its welded twin.
            vertices.resize(m_drawnWelded.empty() ? static_cast<size_t>(posed.vertexCount()) : m_drawnWelded.size());
            for (size_t v = 0; v < vertices.size(); ++v) {
                const PackedVertex& p = posed.vertices[m_drawnWelded.empty() ? v : static_cast<size_t>(m_drawnWelded[v])];
                vertices[v].position = glm::vec3(p.p[0], p.p[1], p.p[2]);
                vertices[v].normal = bound->hasNormals() ? glm::vec3(p.n[0], p.n[1], p.n[2]) : glm::vec3(0, 1, 0);
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
