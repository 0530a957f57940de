#pragma once
/// @file rig_panel.h
/// The Rig dock: the five end-node labels (thesis §2.5, Ch. 5 `Skel -snd`) as
/// slots the artist walks ("click the head", "click the left hand", ...), the
/// fit's notes (legs joined by cloth) and warnings (core/rig/fit_checks.h),
/// and the numeric edit of the selected joint with the X-mirror option (`ajM`).

#include "core/skeleton/end_nodes.h"

#include <QWidget>

#include <array>
#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QHBoxLayout;
class QVBoxLayout;

namespace rig::ui {

class Document;

class RigPanel : public QWidget {
    Q_OBJECT
public:
    explicit RigPanel(Document* document, QWidget* parent = nullptr);

    /// The limb waiting for a click in the viewport, if any.
    std::optional<Limb> armedLimb() const { return m_armed; }
    /// Arms a slot: the next end node clicked in the viewport gets this label.
    void arm(std::optional<Limb> limb);
    /// A node was clicked while a slot was armed: label it, then arm the next
    /// unlabelled slot (walking the five). Returns false when nothing was armed.
    bool takeNodeClick(int node);
    void setSelectedJoint(int joint);

signals:
    void selectedJointEdited();
    /// A fit warning concerns `joint` (issue 14, "never silent"): the window selects it.
    void warningJoint(int joint);
    /// Every joint a fit warning concerns (empty: none), drawn in the warning colour.
    void warnedJoints(const std::vector<int>& joints);

private:
    void refresh();
    void onRigChanged();
    void applyNumericEdit();
    /// The Fingers row of the template box: mode and fingers per hand.
    void addFingerRow(QVBoxLayout* box);
    void addTemplateBox(QVBoxLayout* layout);
    void addUpBox(QHBoxLayout* row);
    void addFacingBox(QHBoxLayout* row);
    void addEndNodesBox(QVBoxLayout* layout);
    void addJointBox(QVBoxLayout* layout);

    Document* m_document;
    std::optional<Limb> m_armed;
    std::array<QLabel*, limbCount> m_nodeLabels{};
    std::array<QPushButton*, limbCount> m_pickButtons{};
    QLabel* m_hint;
    QLabel* m_fitNotes; ///< What the fit did beyond the plain placement, and its plausibility warnings.
    QLabel* m_jointName;
    std::array<QDoubleSpinBox*, 3> m_coords{};
    QCheckBox* m_mirror;
    QLabel* m_templateName;
    int m_joint = -1;
};

} // namespace rig::ui
