#pragma once
/// @file joint_panel.h
/// The Pose dock: the fitted rig's joints as a tree (click to select, the same
/// selection as a click in the viewport), the selected joint's local rotation
/// as Euler angles in degrees (R = Rz·Ry·Rx about the joint's own axes; Y is
/// the twist about the bone), the deformer, and Reset Pose. Every edit is one
/// undoable step of the document.

#include <QWidget>

#include <array>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace rig::ui {

class Document;

class JointPanel : public QWidget {
    Q_OBJECT
public:
    explicit JointPanel(Document* document, QWidget* parent = nullptr);

    int selectedJoint() const { return m_joint; }
    /// The Euler angles (degrees, x y z) shown for the selected joint.
    std::array<double, 3> angles() const;
    /// How often a previewed pose refreshes the angle fields (see onPoseChanged()).
    static constexpr int previewRefreshMs = 100;

public slots:
    void setSelectedJoint(int joint);

signals:
    /// The artist picked a joint in the tree.
    void jointSelected(int joint);

private:
    void rebuildTree();
    void refreshAngles();
    /// A committed pose shows at once; a previewed one (dragging, playback)
    /// at most every `previewRefreshMs`: each refresh repaints the fields, and
    /// any repainted widget makes Qt copy and upload the whole window's raster
    /// image when it composes the frame (12 ms of a pose-drag frame under
    /// llvmpipe at 1280x800, issue 20 item 5).
    void onPoseChanged();
    QTimer* m_previewRefresh = nullptr;
    void applyAngles();

    Document* m_document;
    QTreeWidget* m_tree;
    QLabel* m_jointName;
    std::array<QDoubleSpinBox*, 3> m_angles{};
    QComboBox* m_deformer;
    QPushButton* m_reset;
    int m_joint = -1;
    bool m_updating = false;
};

} // namespace rig::ui
