#pragma once
/// @file paint_panel.h
/// The Paint dock (issue 18): the brush of Paint mode (tool, falloff, radius,
/// strength, Set's value, mirror), the lock of the selected joint, the gradient
/// along its bone and "Mirror weights L→R / R→L". It edits the
/// WeightPaintTool's settings and asks it to act; it computes nothing.

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace rig::ui {

class Document;
class WeightPaintTool;

class PaintPanel : public QWidget {
    Q_OBJECT
public:
    PaintPanel(Document* document, WeightPaintTool* tool, QWidget* parent = nullptr);

public slots:
    /// The joint the brush paints (the heat map's joint).
    void setJoint(int joint);
    /// Shows the tool's brush in the controls.
    void showBrush();

private:
    void applyControls();
    QString jointName() const;

    Document* m_document;
    WeightPaintTool* m_tool;
    int m_joint = -1;
    bool m_updating = false;
    QLabel* m_jointLabel;
    QComboBox* m_toolCombo;
    QComboBox* m_falloffCombo;
    QDoubleSpinBox* m_radius;
    QDoubleSpinBox* m_strength;
    QDoubleSpinBox* m_value;
    QCheckBox* m_mirror;
    QCheckBox* m_lock;
    QPushButton* m_gradient;
};

} // namespace rig::ui
