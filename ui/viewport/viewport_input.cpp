// Viewport: the mouse and the keyboard — orbit, pan and zoom, picking and
// dragging joints, the rotate rings of Pose mode, hover tooltips and keys.
#include "ui/viewport/viewport.h"

#include "core/rig/fit_template.h"
#include "core/skeleton/extract.h"
#include "ui/viewport/picking.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rig::ui {

void Viewport::mousePressEvent(QMouseEvent* event)
{
    m_lastMouse = event->position().toPoint();
    m_pressPos = m_lastMouse;
    m_pressNode.reset();
    m_dragMoved = false;
    if (event->button() == Qt::LeftButton && m_mode == InteractionMode::Paint &&
        !(event->modifiers() & (Qt::AltModifier | Qt::ShiftModifier))) {
        // Paint mode: a joint click picks the joint to paint; a press on the mesh starts a stroke.
        if (const auto joint = jointAt(m_lastMouse)) {
            m_drag = Drag::None;
            setSelectedJoint(*joint);
            emit jointSelected(*joint);
            return;
        }
        if (const auto v = meshVertexAt(m_lastMouse)) {
                m_drag = Drag::Paint;
                emit paintStroke(*v, true);
                return;
        }
    }
    if (event->button() == Qt::LeftButton && posing()) {
        // Pose mode: a ring of the gizmo turns the selected joint; a joint click selects it.
        if (const auto ring = ringAt(m_lastMouse)) {
            m_drag = Drag::Gizmo;
            m_dragRing = *ring;
            m_dragGizmo = *gizmo();
            m_dragStartPose = m_state.pose;
            m_dragAngle = 0.0;
            m_lastRay = rayAt(m_lastMouse);
            update();
            return;
        }
        if (const auto joint = jointAt(m_lastMouse)) {
            m_drag = Drag::None;
            setSelectedJoint(*joint);
            emit jointSelected(*joint);
            return;
        }
    } else if (event->button() == Qt::LeftButton) {
        if (const auto joint = jointAt(m_lastMouse)) {
            m_drag = Drag::Joint;
            m_dragJoint = *joint;
            m_dragPlanePoint = m_rigDraw->centers[*joint];
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
    if (m_drag == Drag::Gizmo) {
        const Ray ray = rayAt(p);
        m_dragAngle += gizmoDragAngle(m_dragGizmo, m_dragRing, m_lastRay, ray); // summed: drags past 180° keep turning
        m_lastRay = ray;
        const bool snap = event->modifiers() & Qt::ControlModifier;
        const double angle = snap ? snapAngle(float(m_dragAngle), std::numbers::pi_v<float> / 12.0f) : m_dragAngle;
        setInteracting(true); // a dense mesh is posed through its stand-in while the ring turns
        emit poseDragged(rotateJoint(m_dragStartPose, m_selectedJoint, m_dragRing, angle));
        return;
    }
    if (m_drag == Drag::Paint) {
        updateBrush(p);
        if (const auto v = meshVertexAt(p))
            emit paintStroke(*v, false);
        return;
    }
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
        // Hover: highlight the gizmo ring, joint or node under the cursor and name the node.
        const int ring = posing() ? ringAt(p).value_or(-1) : -1;
        if (ring != m_hoverRing) {
            m_hoverRing = ring;
            update();
        }
        const int joint = ring >= 0 ? -1 : jointAt(p).value_or(-1);
        if (joint != m_hoverJoint) {
            m_hoverJoint = joint;
            rebuildRigDraw();
        }
        if (joint >= 0 && m_brushCentre) { // a joint click selects it: no brush there
            m_brushCentre.reset();
            update();
        } else if (joint < 0) {
            updateBrush(p);
        }
        const int hoverNode = joint < 0 ? nodeAt(p).value_or(-1) : -1;
        if (hoverNode != m_hoverNode) {
            m_hoverNode = hoverNode;
            rebuildSkeletonDraw();
        }
        const auto& rig = m_state.rig();
        if (joint >= 0 && rig) {
            QToolTip::showText(event->globalPosition().toPoint(),
                               posing() ? tr("Joint %1\nclick to select, then drag a ring to rotate (Ctrl: 15° steps)")
                                        : tr("Joint %1\ndrag to move (snaps to the skeleton; Shift: free)")
                                   .arg(QString::fromStdString(rig->skeleton.names[static_cast<size_t>(joint)])),
                               this);
        } else if (skinning() && m_coloring != MeshColoring::Shaded && mesh() && !nodeAt(p)) {
            // Weight views: name the influences of the vertex under the cursor.
            const auto v = meshVertexAt(p);
            if (v)
                emit vertexHovered(*v, event->globalPosition().toPoint());
            else
                QToolTip::hideText();
        } else if (const auto node = nodeAt(p); node && m_state.project.curveSkeleton()) {
            const auto& s = m_state.project.curveSkeleton()->refined;
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
    if (m_drag == Drag::Paint) {
        m_drag = Drag::None;
        emit paintStrokeEnded();
        return;
    }
    if (m_drag == Drag::Gizmo) {
        const int ring = m_dragRing;
        m_dragRing = -1;
        if (const auto& rig = m_state.rig(); m_dragMoved && rig && m_selectedJoint >= 0) {
            static const char* axes[] = {"X", "Y (twist)", "Z"};
            emit poseDropped(m_state.pose, tr("Rotate %1 about %2")
                                         .arg(QString::fromStdString(rig->skeleton.names[static_cast<size_t>(m_selectedJoint)]),
                                              axes[ring]));
        }
        m_drag = Drag::None;
        setInteracting(false); // full detail as soon as the ring is let go
        update();
        return;
    }
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
    case Qt::Key_F: frameSelected(); return;
    case Qt::Key_Home: frameAll(); return;
    case Qt::Key_Period:
        if (event->modifiers() & Qt::KeypadModifier) {
            frameSelected();
            return;
        }
        break;
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

// Posing ------------------------------------------------------------------

} // namespace rig::ui
