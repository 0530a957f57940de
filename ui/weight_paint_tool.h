#pragma once
/// @file weight_paint_tool.h
/// Paint mode's strokes (issue 18): turns the viewport's drags over the mesh
/// into brush dabs of core/skin/weight_paint.h on the document's weights, shows
/// each dab at once (`Document::previewWeights()`) and makes each stroke one
/// undo step (`Document::commitWeightStroke()`). Holds the brush settings and
/// the joint locks; the painter (grid, mirror maps) is built on the first dab
/// after the weights, rig or character changed.
///
/// Dabs are spaced along the drag at a quarter of the radius, so a stroke's
/// effect does not depend on how fast the mouse moves.

#include "core/skin/weight_paint.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <set>

namespace rig::ui {

class Document;

/// The brush as the Paint dock sets it.
struct BrushSettings {
    PaintTool tool = PaintTool::Add;
    BrushFalloff falloff = BrushFalloff::Smooth;
    double radius = 0.05;   ///< World units (the character's), > 0.
    double strength = 0.2;  ///< In [0, 1].
    double value = 1.0;     ///< Set's target weight.
    bool mirror = false;    ///< Paint the other side too.
};

class WeightPaintTool : public QObject {
    Q_OBJECT
public:
    explicit WeightPaintTool(Document* document, QObject* parent = nullptr);
    ~WeightPaintTool() override;

    const BrushSettings& brush() const { return m_brush; }
    void setBrush(const BrushSettings& brush);
    /// Multiplies the radius by 1.25^steps (the `[` and `]` keys).
    void stepRadius(int steps);

    /// Locks (or unlocks) a joint by name: its weights do not change.
    void setLocked(const QString& joint, bool locked);
    bool isLocked(const QString& joint) const { return m_locked.count(joint.toStdString()) > 0; }

    /// Starts a stroke of `joint` at vertex `vertex` of the rest mesh. False
    /// (and `message`) without weights, for a bad joint or a locked one.
    bool beginStroke(int vertex, int joint);
    /// Continues the stroke to `vertex` (dabs every quarter radius on the way).
    void continueStroke(int vertex);
    /// Ends the stroke: one undo step when it changed anything.
    void endStroke();
    bool stroking() const { return m_stroking; }

    /// The gradient of `joint` along its bone, over the brush radius around it (one undo step).
    bool gradientAlongBone(int joint);
    /// "Mirror weights L→R / R→L" for the whole character (one undo step).
    bool mirrorAll(MirrorDirection direction);

signals:
    /// Something the artist should read in the status bar (a locked joint, no weights yet).
    void message(const QString& text);
    void brushChanged();

private:
    /// The painter for the document's current weights; null when there are none.
    WeightPainter* painter();
    void dab(const Vec3& centre);
    void commit(SkinWeights before, const QString& text);
    QString jointName(int joint) const;

    Document* m_document;
    BrushSettings m_brush;
    std::set<std::string> m_locked;
    std::unique_ptr<WeightPainter> m_painter;
    bool m_stroking = false;
    int m_joint = -1;
    Vec3 m_last = Vec3::Zero();
    SkinWeights m_before;
    bool m_changed = false;
};

} // namespace rig::ui
