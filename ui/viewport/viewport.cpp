#include "ui/viewport/viewport.h"

#include "core/mesh/mesh.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <cmath>

namespace rig::ui {

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent)
{
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSamples(4);
    setFormat(format);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 240);
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
    frameAll();
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
    const qreal dpr = devicePixelRatioF();
    m_renderer.render(m_camera, int(width() * dpr), int(height() * dpr), m_options);

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
    if (m_drag == Drag::Orbit)
        m_camera.orbit(float(d.x()), float(d.y()));
    else if (m_drag == Drag::Pan)
        m_camera.pan(float(d.x()), float(d.y()), float(height()));
    else
        return;
    update();
}

void Viewport::mouseReleaseEvent(QMouseEvent*) { m_drag = Drag::None; }

void Viewport::wheelEvent(QWheelEvent* event)
{
    const float steps = float(event->angleDelta().y()) / 120.0f;
    if (steps == 0.0f)
        return;
    const QPointF p = event->position();
    const float ndcX = float(2.0 * p.x() / std::max(1, width()) - 1.0);
    const float ndcY = float(1.0 - 2.0 * p.y() / std::max(1, height()));
    m_camera.zoomTowards(std::pow(0.85f, steps), ndcX, ndcY, aspect());
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
