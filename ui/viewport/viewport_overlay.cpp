// Viewport: the 2D overlay drawn over the 3D view with QPainter — labels
// beside world points, the split view's divider and titles, the heat map's
// colour legend and Paint mode's brush circle.
#include "ui/viewport/viewport.h"

#include "core/deform/deformers.h"
#include "ui/messages.h"
#include "ui/viewport/weight_colors.h"

#include <QPainter>

#include <algorithm>

namespace rig::ui {

void Viewport::paintLabels()
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    for (const ViewportLabel& label : shownLabels()) {
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

QStringList Viewport::splitTitles() const
{
    if (!m_options.split || !deforming() || !skinning())
        return {};
    return {QString::fromStdString(findDeformer(deformer()).title),
            QString::fromStdString(findDeformer(m_options.splitDeformer).title)};
}

std::vector<ViewportLabel> Viewport::sceneLabels() const
{
    std::vector<ViewportLabel> labels;
    const RigProject& p = m_state.project;
    if (const auto& c = p.character()) {
        // The character's left is up x front (+X when it faces +Z): mark both
        // sides at hip height, just outside the bounding box.
        const Box3& b = c->stats.bounds;
        const Vec3 left = Vec3::UnitY().cross(p.front()).normalized();
        const Vec3 centre(b.center().x(), b.min.y() + 0.55 * (b.max.y() - b.min.y()), b.center().z());
        const double reach = 0.5 * std::abs(left.dot(b.size())) + 0.08 * b.size().maxCoeff();
        const Vec3 l = centre + reach * left, r = centre - reach * left;
        labels.push_back({glm::vec3(float(l.x()), float(l.y()), float(l.z())), tr("L"), QColor(120, 200, 255)});
        labels.push_back({glm::vec3(float(r.x()), float(r.y()), float(r.z())), tr("R"), QColor(255, 150, 150)});
    }
    // The label of each tagged end node, in its colour.
    if (const auto& sk = p.curveSkeleton())
        for (Limb limb : allLimbs)
            if (const int node = p.labels()[limb]; node >= 0 && node < sk->refined.nodeCount()) {
                const glm::vec3 c = limbColor(int(limb));
                labels.push_back({glm::vec3(sk->refined.positions(node, 0), sk->refined.positions(node, 1),
                                            sk->refined.positions(node, 2)),
                                  limbTitle(limb), QColor::fromRgbF(c.r, c.g, c.b), true});
            }
    return labels;
}

QRect Viewport::heatLegendBar() const
{
    const int h = std::clamp(height() / 3, 80, 260);
    return QRect(width() - 46, (height() - h) / 2, 16, h);
}

void Viewport::paintOverlay()
{
    paintLabels();
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    auto shadowed = [&painter](const QRect& box, int flags, const QString& text, const QColor& color) {
        painter.setPen(QColor(0, 0, 0, 200));
        painter.drawText(box.translated(1, 1), flags, text);
        painter.setPen(color);
        painter.drawText(box, flags, text);
    };
    const QStringList titles = splitTitles();
    if (titles.size() == 2) {
        // The divider the two deformers meet at, and each half's deformer at its top.
        const int x = width() / 2;
        painter.fillRect(QRect(x - 1, 0, 3, height()), QColor(20, 20, 24, 220));
        painter.fillRect(QRect(x, 0, 1, height()), QColor(235, 235, 240));
        const QFontMetrics fm(font);
        const int line = fm.height() + 8;
        for (int half = 0; half < 2; ++half) {
            const QRect box(half == 0 ? 0 : x, 8, x, line);
            const QString text = titles[half];
            const int tw = fm.horizontalAdvance(text) + 16;
            const QRect pill(box.center().x() - tw / 2, box.top(), tw, line);
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(20, 22, 26, 190));
            painter.drawRoundedRect(pill, 6, 6);
            shadowed(pill, Qt::AlignCenter, text, QColor(240, 240, 245));
        }
    }
    if (heatLegend()) {
        // The heat map's scale: 0 at the bottom to 1 at the top, as `heatColor()` paints it.
        const QRect bar = heatLegendBar();
        for (int y = 0; y < bar.height(); ++y) {
            const glm::vec3 c = heatColor(1.0f - float(y) / float(std::max(1, bar.height() - 1)));
            painter.fillRect(QRect(bar.left(), bar.top() + y, bar.width(), 1), QColor::fromRgbF(c.r, c.g, c.b));
        }
        painter.setPen(QColor(230, 230, 235));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(bar.adjusted(0, 0, -1, -1));
        const QFontMetrics fm(font);
        shadowed(QRect(bar.left() - 30, bar.top() - fm.height() - 4, bar.width() + 60, fm.height()), Qt::AlignCenter,
                 "1", QColor(240, 240, 245));
        shadowed(QRect(bar.left() - 30, bar.bottom() + 4, bar.width() + 60, fm.height()), Qt::AlignCenter, "0",
                 QColor(240, 240, 245));
        shadowed(QRect(bar.left() - 60, bar.top() - 2 * fm.height() - 8, bar.width() + 90, fm.height()),
                 Qt::AlignCenter, tr("weight"), QColor(200, 200, 210));
    }
    paintBrush(painter);
    painter.end();
}

} // namespace rig::ui
