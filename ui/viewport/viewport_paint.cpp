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
    return m_weights && m_mesh && m_rig && m_weights->vertexCount() == m_mesh->vertexCount() &&
           (m_weights->joints.size() == 0 || m_weights->joints.maxCoeff() < m_rig->skeleton.jointCount()) &&
           (!m_segmentation || m_segmentation->vertexCount() == 0 ||
            m_segmentation->vertexCount() == m_mesh->vertexCount());
}

std::span<const double> Viewport::unwrappedTwist() const
{
    return m_rig && static_cast<int>(m_poseTwist.size()) == m_rig->skeleton.jointCount()
               ? std::span<const double>(m_poseTwist)
               : std::span<const double>{};
}

bool Viewport::deformerUsesWeights(const std::string& id)
{
    for (const DeformerInfo& d : deformers())
        if (d.id == id)
            return d.usesWeights;
    return true;
}

void Viewport::invalidatePick(bool rebind)
{
    m_pickDirty = true;
    if (rebind)
        m_pickBound.reset();
}

const MatrixX3d& Viewport::pickPositions() const
{
    static const MatrixX3d none;
    if (!m_mesh)
        return none;
    if (!deforming() || !skinFits())
        return m_mesh->V;
    if (!m_pickDirty && m_pickPositions.rows() == m_mesh->vertexCount())
        return m_pickPositions;
    try {
        if (!m_pickBound)
            m_pickBound = findDeformer(m_options.deformer)
                              .bind(DeformerInput{*m_mesh, *m_weights, m_segmentation.get(), m_rig->skeleton});
        SkinnedMesh posed;
        m_pickBound->deform(m_pose, unwrappedTwist(), posed);
        m_pickPositions.resize(posed.vertexCount(), 3);
        for (int v = 0; v < posed.vertexCount(); ++v) {
            const PackedVertex& p = posed.vertices[static_cast<size_t>(v)];
            m_pickPositions.row(v) = Vec3(p.p[0], p.p[1], p.p[2]).transpose();
        }
    } catch (const Error&) {
        m_pickBound.reset();
        m_pickPositions = m_mesh->V; // a skin the deformer refuses is drawn at rest too
    }
    m_pickDirty = false;
    return m_pickPositions;
}

std::optional<int> Viewport::meshVertexAt(const QPoint& pixel) const
{
    if (!m_mesh)
        return std::nullopt;
    return pickMeshVertex(rayAt(pixel), pickPositions(), m_mesh->F);
}

void Viewport::setBrushRadius(double radius)
{
    m_brushRadius = radius;
    update();
}

void Viewport::updateBrush(const QPoint& pixel)
{
    std::optional<glm::vec3> centre;
    if (m_mode == InteractionMode::Paint && m_weights)
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
