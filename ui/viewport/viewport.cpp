#include "ui/viewport/viewport.h"

#include "core/mesh/mesh.h"
#include "core/rig/fit_template.h"
#include "core/skeleton/extract.h"
#include "ui/viewport/picking.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QPainter>
#include <QSurfaceFormat>
#include <QToolTip>
#include <QWheelEvent>

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
    if (m_mesh && m_mesh->vertexCount() > 0) {
        const Eigen::RowVector3d lo = m_mesh->V.colwise().minCoeff(), hi = m_mesh->V.colwise().maxCoeff();
        m_boundsMin = glm::vec3(lo(0), lo(1), lo(2));
        m_boundsMax = glm::vec3(hi(0), hi(1), hi(2));
    }
    updateClipPlane();
    frameAll();
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
    if (!m_rig || m_selectedJoint >= m_rig->skeleton.jointCount())
        m_selectedJoint = -1;
    if (!m_rig || m_hoverJoint >= m_rig->skeleton.jointCount())
        m_hoverJoint = -1;
    rebuildRigDraw();
}

void Viewport::setSelectedJoint(int joint)
{
    m_selectedJoint = joint;
    rebuildRigDraw();
}

void Viewport::rebuildRigDraw()
{
    const float size = glm::length(m_boundsMax - m_boundsMin);
    m_rigDraw = m_rig ? makeRigDrawData(m_rig->skeleton, 0.012f * size, m_selectedJoint, m_hoverJoint) : RigDrawData{};
    m_rigDirty = true;
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

void Viewport::paintLabels()
{
    if (m_labels.empty())
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    for (const ViewportLabel& label : m_labels) {
        const glm::vec4 clip = m_camera.projection(aspect()) * m_camera.view() * glm::vec4(label.world, 1.0f);
        if (clip.w <= 0.0f)
            continue; // behind the camera
        const QPointF p = project(label.world) + QPointF(10, -6);
        painter.setPen(QColor(0, 0, 0, 180)); // shadow for legibility on any background
        painter.drawText(p + QPointF(1, 1), label.text);
        painter.setPen(label.color);
        painter.drawText(p, label.text);
    }
    painter.end();
}

void Viewport::setSkeletonVisible(bool on)
{
    m_options.skeleton = on;
    update();
}

void Viewport::setVoxelsVisible(bool on)
{
    m_options.voxels = on;
    m_voxelsDirty = true;
    update();
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
    m_camera.frame(m_boundsMin, m_boundsMax, aspect());
    update();
}

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
    m_fpsTimer.start();
}

void Viewport::resizeGL(int, int) {}

void Viewport::paintGL()
{
    if (m_meshDirty && m_renderer.initialized()) {
        if (m_mesh)
            m_renderer.setMesh(makeMeshDrawData(*m_mesh));
        else
            m_renderer.clearMesh();
        m_meshDirty = false;
    }
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
    m_renderer.render(m_camera, int(width() * dpr), int(height() * dpr), m_options);
    paintLabels();

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

void Viewport::mousePressEvent(QMouseEvent* event)
{
    m_lastMouse = event->position().toPoint();
    m_pressPos = m_lastMouse;
    m_pressNode.reset();
    m_dragMoved = false;
    if (event->button() == Qt::LeftButton) {
        if (const auto joint = jointAt(m_lastMouse)) {
            m_drag = Drag::Joint;
            m_dragJoint = *joint;
            m_dragPlanePoint = m_rigDraw.centers[*joint];
            m_lastDragPosition = m_dragPlanePoint;
            setSelectedJoint(*joint);
            emit jointSelected(*joint);
            return;
        }
        m_pressNode = nodeAt(m_lastMouse);
    }
    if (event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton)
        m_drag = (event->modifiers() & Qt::ShiftModifier) ? Drag::Pan : Drag::Orbit;
    else if (event->button() == Qt::RightButton)
        m_drag = Drag::Pan;
}

void Viewport::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint p = event->position().toPoint();
    const QPoint d = p - m_lastMouse;
    m_lastMouse = p;
    if ((p - m_pressPos).manhattanLength() > 3)
        m_dragMoved = true;
    if (m_drag == Drag::Joint) {
        if (m_dragMoved) {
            m_lastDragPosition = dragPoint(p);
            emit jointDragged(m_dragJoint, m_lastDragPosition, event->modifiers() & Qt::ShiftModifier);
        }
        return;
    }
    if (m_drag == Drag::Orbit || m_drag == Drag::Pan)
        setInteracting(true);
    if (m_drag == Drag::Orbit) {
        m_camera.orbit(float(d.x()), float(d.y()));
    } else if (m_drag == Drag::Pan) {
        m_camera.pan(float(d.x()), float(d.y()), float(height()));
    } else {
        // Hover: highlight the joint or node under the cursor and name the node.
        const int joint = jointAt(p).value_or(-1);
        if (joint != m_hoverJoint) {
            m_hoverJoint = joint;
            rebuildRigDraw();
        }
        const int hoverNode = joint < 0 ? nodeAt(p).value_or(-1) : -1;
        if (hoverNode != m_hoverNode) {
            m_hoverNode = hoverNode;
            rebuildSkeletonDraw();
        }
        if (joint >= 0 && m_rig) {
            QToolTip::showText(event->globalPosition().toPoint(),
                               tr("Joint %1\ndrag to move (snaps to the skeleton; Shift: free)")
                                   .arg(QString::fromStdString(m_rig->skeleton.names[static_cast<size_t>(joint)])),
                               this);
        } else if (const auto node = nodeAt(p); node && m_skeleton) {
            const auto& s = m_skeleton->refined;
            static const char* names[] = {"", "End node", "Flow node", "Connection node"};
            QToolTip::showText(event->globalPosition().toPoint(),
                               tr("%1 #%2\nradius %3")
                                   .arg(names[int(s.types[*node])])
                                   .arg(*node)
                                   .arg(s.radii[*node], 0, 'g', 3),
                               this);
        } else {
            QToolTip::hideText();
        }
        return;
    }
    update();
}

void Viewport::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::Joint && m_dragMoved)
        emit jointDropped(m_dragJoint, dragPoint(event->position().toPoint()), event->modifiers() & Qt::ShiftModifier);
    else if (m_drag == Drag::Orbit && !m_dragMoved && m_pressNode)
        emit nodeClicked(*m_pressNode, event->globalPosition().toPoint());
    m_drag = Drag::None;
    m_pressNode.reset();
    setInteracting(false); // full detail as soon as the camera stops
}

void Viewport::wheelEvent(QWheelEvent* event)
{
    const float steps = float(event->angleDelta().y()) / 120.0f;
    if (steps == 0.0f)
        return;
    const QPointF p = event->position();
    const float ndcX = float(2.0 * p.x() / std::max(1, width()) - 1.0);
    const float ndcY = float(1.0 - 2.0 * p.y() / std::max(1, height()));
    m_camera.zoomTowards(std::pow(0.85f, steps), ndcX, ndcY, aspect());
    setInteracting(true);
    m_settleTimer->start();
    update();
}

void Viewport::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_F:
    case Qt::Key_Home: frameAll(); return;
    default: break;
    }
    // Blender's numeric keypad views; the plain digits stay free for tools.
    if (event->modifiers() & Qt::KeypadModifier) {
        switch (event->key()) {
        case Qt::Key_1: setViewPreset(ViewPreset::Front); return;
        case Qt::Key_3: setViewPreset(ViewPreset::Side); return;
        case Qt::Key_7: setViewPreset(ViewPreset::Top); return;
        case Qt::Key_9: setViewPreset(ViewPreset::ThreeQuarter); return;
        default: break;
        }
    }
    QOpenGLWidget::keyPressEvent(event);
}

} // namespace rig::ui
