#pragma once
/// @file weight_panel.h
/// The Weights dock: the weight method and its parameters (thesis Alg. 4.2.1
/// with its segmentation algorithm, hierarchy level and distribution function,
/// or bone heat), what the viewport colours the mesh by (shading, one colour
/// per segment, or the selected joint's weights as a heat map), and the
/// diagnostics of the last result (unreached vertices, rigid parts, bleeding).
///
/// Changing a parameter recomputes the weights on the document's worker thread
/// (the last good result stays visible meanwhile); the panel itself computes
/// nothing.

#include "core/skin/skinning.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QPushButton;
class QGroupBox;

namespace rig::ui {

class Document;

/// What the mesh is coloured by.
enum class MeshColoring { Shaded, Segments, Weights };

class WeightPanel : public QWidget {
    Q_OBJECT
public:
    explicit WeightPanel(Document* document, QWidget* parent = nullptr);

    /// The options the controls show.
    WeightOptions options() const;
    MeshColoring coloring() const;

public slots:
    /// Shows `options` in the controls (no recompute).
    void showOptions(const rig::WeightOptions& options);
    void setColoring(rig::ui::MeshColoring coloring);

signals:
    void coloringChanged(rig::ui::MeshColoring coloring);

private:
    void onControlsChanged();
    void onSkinningChanged();
    void updateEnabled();

    Document* m_document;
    bool m_updating = false;
    QComboBox* m_method;
    QComboBox* m_segmentation;
    QGroupBox* m_gaussianBox;
    QSpinBox* m_level;
    QComboBox* m_function;
    QDoubleSpinBox* m_b;
    QDoubleSpinBox* m_c;
    QGroupBox* m_heatBox;
    QDoubleSpinBox* m_heatConstant;
    QComboBox* m_coloring;
    QPushButton* m_recompute;
    QLabel* m_report;
};

} // namespace rig::ui
