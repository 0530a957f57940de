#pragma once
/// @file weight_panel.h
/// The Weights dock: the weight method (a row of the table in
/// core/skin/weight_methods.h) and its parameters, built from the row's
/// parameter descriptions (the panel names no method), the segmentation, what
/// the viewport colours the mesh by (shading, one colour
/// per segment, or the selected joint's weights as a heat map), and the
/// diagnostics of the last result (unreached vertices, rigid parts, bleeding).
///
/// Changing a parameter recomputes the weights on the document's worker thread
/// (the last good result stays visible meanwhile); the panel itself computes
/// nothing.

#include "core/skin/skinning.h"
#include "ui/viewport/weight_colors.h"

#include <QWidget>

#include <functional>

#include <map>
#include <string>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QGroupBox;

namespace rig::ui {

class Document;

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
    /// Rebuilds the parameter fields of the selected method showing `options`.
    void buildParameterFields(const WeightOptions& options);
    /// The method id the combo shows.
    std::string selectedMethod() const;

    Document* m_document;
    bool m_updating = false;
    QComboBox* m_method;
    QComboBox* m_segmentation;
    QGroupBox* m_parameterBox;
    QFormLayout* m_parameterForm;
    QCheckBox* m_allParameters;
    /// A parameter field: reads and shows its value as a number.
    struct Field {
        std::function<double()> get;
        std::function<void(double)> set;
    };
    /// The fields of the method `m_fieldsMethod`'s parameters, by key.
    std::map<std::string, Field> m_fields;
    std::string m_fieldsMethod;
    QComboBox* m_coloring;
    QPushButton* m_recompute;
    QLabel* m_report;
};

} // namespace rig::ui
