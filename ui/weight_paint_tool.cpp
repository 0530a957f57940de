#include "ui/weight_paint_tool.h"

#include "core/common/error.h"
#include "ui/document.h"

#include <algorithm>
#include <cmath>

namespace rig::ui {

WeightPaintTool::WeightPaintTool(Document* document, QObject* parent) : QObject(parent), m_document(document)
{
    // New weights, rig or character: a stroke under way is dropped (its preview
    // was replaced) and the painter is rebuilt on the next dab.
    const auto drop = [this] {
        m_stroking = false;
        m_painter.reset();
    };
    connect(document, &Document::skinningChanged, this, drop);
    connect(document, &Document::rigChanged, this, drop);
    connect(document, &Document::characterChanged, this, drop);
    // A stroke's undo or redo: the painter follows the document's weights.
    connect(document, &Document::weightsPainted, this, [this] {
        if (m_stroking || !m_painter)
            return;
        const auto& s = m_document->project().skinning();
        if (s && s->weights.vertexCount() == m_painter->weights().vertexCount())
            m_painter->setWeights(s->weights);
        else
            m_painter.reset();
    });
}

WeightPaintTool::~WeightPaintTool() = default;

void WeightPaintTool::setBrush(const BrushSettings& brush)
{
    m_brush = brush;
    m_brush.radius = std::max(brush.radius, 1e-6);
    m_brush.strength = std::clamp(brush.strength, 0.0, 1.0);
    m_brush.value = std::clamp(brush.value, 0.0, 1.0);
    emit brushChanged();
}

void WeightPaintTool::stepRadius(int steps)
{
    BrushSettings b = m_brush;
    b.radius *= std::pow(1.25, steps);
    setBrush(b);
}

void WeightPaintTool::setLocked(const QString& joint, bool locked)
{
    if (locked)
        m_locked.insert(joint.toStdString());
    else
        m_locked.erase(joint.toStdString());
    if (m_painter)
        if (const auto& rig = m_document->project().rig())
            if (const auto j = rig->skeleton.find(joint.toStdString()))
                m_painter->setLocked(*j, locked);
}

QString WeightPaintTool::jointName(int joint) const
{
    const auto& rig = m_document->project().rig();
    if (!rig || joint < 0 || joint >= rig->skeleton.jointCount())
        return QString::number(joint);
    return QString::fromStdString(rig->skeleton.names[static_cast<size_t>(joint)]);
}

WeightPainter* WeightPaintTool::painter()
{
    if (m_painter)
        return m_painter.get();
    const RigProject& p = m_document->project();
    if (!p.character() || !p.rig() || !p.skinning())
        return nullptr;
    try {
        m_painter = std::make_unique<WeightPainter>(p.character()->imported.mesh, p.rig()->skeleton,
                                                    p.skinning()->weights);
        for (int j = 0; j < p.rig()->skeleton.jointCount(); ++j)
            m_painter->setLocked(j, m_locked.count(p.rig()->skeleton.names[static_cast<size_t>(j)]) > 0);
    } catch (const Error& e) {
        emit message(tr("Cannot paint: %1").arg(QString::fromUtf8(e.what())));
        return nullptr;
    }
    return m_painter.get();
}

void WeightPaintTool::dab(const Vec3& centre)
{
    const BrushSettings& b = m_brush;
    m_painter->setMirror(b.mirror);
    const std::vector<int> changed = m_painter->apply(BrushDab{.centre = centre, .radius = b.radius,
                                                               .strength = b.strength, .falloff = b.falloff,
                                                               .tool = b.tool, .joint = m_joint, .value = b.value});
    m_changed = m_changed || !changed.empty();
    m_last = centre;
}

bool WeightPaintTool::beginStroke(int vertex, int joint)
{
    if (m_stroking)
        endStroke();
    WeightPainter* p = painter();
    if (!p) {
        emit message(tr("Nothing to paint yet: the character needs a rig and weights."));
        return false;
    }
    const Mesh& mesh = m_document->project().character()->imported.mesh;
    if (vertex < 0 || vertex >= mesh.vertexCount())
        return false;
    if (m_brush.tool != PaintTool::Smooth && (joint < 0 || joint >= m_document->project().rig()->skeleton.jointCount())) {
        emit message(tr("Click a joint first: it is the one the brush paints."));
        return false;
    }
    if (m_brush.tool != PaintTool::Smooth && p->isLocked(joint)) {
        emit message(tr("%1 is locked: unlock it in the Paint dock to paint it.").arg(jointName(joint)));
        return false;
    }
    m_joint = joint;
    m_before = p->weights();
    m_changed = false;
    m_stroking = true;
    dab(mesh.V.row(vertex).transpose());
    m_document->previewWeights(p->weights());
    return true;
}

void WeightPaintTool::continueStroke(int vertex)
{
    if (!m_stroking || !m_painter)
        return;
    const Mesh& mesh = m_document->project().character()->imported.mesh;
    if (vertex < 0 || vertex >= mesh.vertexCount())
        return;
    const Vec3 to = mesh.V.row(vertex).transpose();
    const double spacing = 0.25 * m_brush.radius;
    const double length = (to - m_last).norm();
    if (length < spacing)
        return;
    const Vec3 from = m_last;
    const int steps = static_cast<int>(std::floor(length / spacing));
    for (int i = 1; i <= steps; ++i)
        dab(from + (to - from) * (i * spacing / length));
    m_document->previewWeights(m_painter->weights());
}

void WeightPaintTool::endStroke()
{
    if (!m_stroking)
        return;
    m_stroking = false;
    if (!m_painter || !m_changed)
        return;
    const QString what = m_brush.tool == PaintTool::Smooth ? tr("Smooth weights") : tr("Paint %1").arg(jointName(m_joint));
    commit(std::move(m_before), what);
}

void WeightPaintTool::commit(SkinWeights before, const QString& text)
{
    m_document->commitWeightStroke(std::move(before), m_painter->weights(), text);
}

bool WeightPaintTool::gradientAlongBone(int joint)
{
    WeightPainter* p = painter();
    if (!p)
        return false;
    try {
        SkinWeights before = p->weights();
        p->setMirror(m_brush.mirror);
        p->apply(boneGradient(m_document->project().rig()->skeleton, joint, m_brush.radius));
        commit(std::move(before), tr("Gradient along %1").arg(jointName(joint)));
    } catch (const Error& e) {
        emit message(QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

bool WeightPaintTool::mirrorAll(MirrorDirection direction)
{
    WeightPainter* p = painter();
    if (!p)
        return false;
    SkinWeights before = p->weights();
    p->mirrorAll(direction);
    commit(std::move(before),
           direction == MirrorDirection::LeftToRight ? tr("Mirror weights L→R") : tr("Mirror weights R→L"));
    return true;
}

} // namespace rig::ui
