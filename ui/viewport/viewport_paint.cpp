// Viewport: what Paint mode needs from the view (issue 18) — picking the mesh
// as it is drawn (deformed by the pose in Pose and Paint mode) and the brush
// circle around the cursor.
#include "ui/viewport/viewport.h"

#include "core/common/error.h"
#include "core/deform/deformers.h"
#include "core/mesh/mesh.h"
#include "core/rig/fit_template.h"
#include "ui/viewport/picking.h"

#include <QPainter>

#include <cmath>

namespace rig::ui {

bool Viewport::skinFits() const
{
    const auto& s = skinning();
    const Mesh* m = mesh();
    const auto& rig = m_state.rig();
    return s && m && rig && s->weights.vertexCount() == m->vertexCount() &&
           (s->weights.joints.size() == 0 || s->weights.joints.maxCoeff() < rig->skeleton.jointCount()) &&
           (s->segmentation.vertexCount() == 0 || s->segmentation.vertexCount() == m->vertexCount());
}

std::span<const double> Viewport::unwrappedTwist() const
{
    const auto& rig = m_state.rig();
    return rig && static_cast<int>(m_state.poseTwist.size()) == rig->skeleton.jointCount()
               ? std::span<const double>(m_state.poseTwist)
               : std::span<const double>{};
}

const MatrixX3d& Viewport::pickPositions() const
{
    static const MatrixX3d none;
    const Mesh* m = mesh();
    if (!m)
        return none;
    if (!deforming() || !skinFits())
        return m->V;
    try {
        // A stroke's own dabs keep the surface it started on (picked where it was drawn).
        bind(m_pickBound, deformer(), m_drag == Drag::Paint);
    } catch (const Error&) {
        m_pickBound.bound.reset();
    }
    if (!m_pickBound.bound)
        return m->V; // a skin the deformer refuses is drawn at rest too
    if (!m_pickPositionsFrom.stale(m_pickBound.serial, m_poseRevision) && m_pickPositions.rows() == m->vertexCount())
        return m_pickPositions;
    m_pickPositionsFrom.made(m_pickBound.serial, m_poseRevision);
    try {
        SkinnedMesh posed;
        m_pickBound.bound->deform(m_state.pose, unwrappedTwist(), posed);
        m_pickPositions.resize(posed.vertexCount(), 3);
        for (int v = 0; v < posed.vertexCount(); ++v) {
            const PackedVertex& p = posed.vertices[static_cast<size_t>(v)];
            m_pickPositions.row(v) = Vec3(p.p[0], p.p[1], p.p[2]).transpose();
        }
    } catch (const Error&) {
        m_pickPositions = m->V;
    }
    return m_pickPositions;
}

std::optional<int> Viewport::meshVertexAt(const QPoint& pixel) const
{
    if (!mesh())
        return std::nullopt;
    return pickMeshVertex(rayAt(pixel), pickPositions(), mesh()->F);
}

void Viewport::setBrushRadius(double radius)
{
    m_brushRadius = radius;
    update();
}

void Viewport::updateBrush(const QPoint& pixel)
{
    std::optional<glm::vec3> centre;
    if (m_mode == InteractionMode::Paint && skinning())
        if (const auto v = meshVertexAt(pixel)) {
            const auto p = pickPositions().row(*v);
            centre = glm::vec3(float(p(0)), float(p(1)), float(p(2)));
        }
    if (centre != m_brushCentre) {
        m_brushCentre = centre;
        update();
    }
}

void Viewport::leaveEvent(QEvent* event)
{
    if (m_brushCentre && m_drag != Drag::Paint) {
        m_brushCentre.reset();
        update();
    }
    QOpenGLWidget::leaveEvent(event);
}

std::optional<std::pair<QPointF, double>> Viewport::brushCircle() const
{
    if (m_mode != InteractionMode::Paint || !m_brushCentre)
        return std::nullopt;
    // The radius measured across the view at the brush's depth.
    const glm::mat4 view = m_camera.view();
    const glm::vec3 right(view[0][0], view[1][0], view[2][0]);
    const QPointF c = project(*m_brushCentre);
    const QPointF edge = project(*m_brushCentre + float(m_brushRadius) * right);
    return std::pair{c, std::hypot(edge.x() - c.x(), edge.y() - c.y())};
}

void Viewport::paintBrush(QPainter& painter) const
{
    const auto circle = brushCircle();
    if (!circle)
        return;
    const auto [c, r] = *circle;
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(0, 0, 0, 160), 3.0));
    painter.drawEllipse(c, r, r);
    painter.setPen(QPen(QColor(255, 255, 255, 230), 1.5));
    painter.drawEllipse(c, r, r);
    painter.drawPoint(c);
}

} // namespace rig::ui
