// Document: weight painting (issue 18, core/skin/weight_paint.h). The strokes
// themselves run in WeightPaintTool; the document holds the result and the undo steps.
#include "ui/document.h"

#include <QUndoCommand>

namespace rig::ui {

/// One stroke: the weights before and after, restored bit for bit.
class WeightStrokeCommand : public QUndoCommand {
public:
    WeightStrokeCommand(Document* doc, const QString& text, SkinWeights before, SkinWeights after)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after))
    {
    }
    void undo() override { m_doc->applyPaintedWeights(m_before); }
    void redo() override { m_doc->applyPaintedWeights(m_after); }

private:
    Document* m_doc;
    SkinWeights m_before, m_after;
};

namespace {

bool sameShape(const SkinWeights& a, const SkinWeights& b)
{
    return a.maxInfluences == b.maxInfluences && a.joints.rows() == b.joints.rows() &&
           a.joints.cols() == b.joints.cols() && a.weights.rows() == b.weights.rows() &&
           a.weights.cols() == b.weights.cols();
}

} // namespace

void Document::applyPaintedWeights(const SkinWeights& weights)
{
    const std::shared_ptr<const SkinningResult>& current = m_project.skinning();
    if (!current || !sameShape(current->weights, weights))
        return;
    auto next = std::make_shared<SkinningResult>(*current);
    next->weights = weights;
    m_paintedSkinning = next;
    m_project.setSkinning(std::move(next));
    setModified(true);
    emit weightsPainted();
}

void Document::previewWeights(const SkinWeights& weights) { applyPaintedWeights(weights); }

bool Document::commitWeightStroke(SkinWeights before, SkinWeights after, const QString& description)
{
    const std::shared_ptr<const SkinningResult>& current = m_project.skinning();
    if (!current || !sameShape(current->weights, before) || !sameShape(before, after))
        return false;
    m_undo.push(new WeightStrokeCommand(this, description, std::move(before), std::move(after)));
    return true;
}

} // namespace rig::ui
