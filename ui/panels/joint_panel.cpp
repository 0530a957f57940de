#include "ui/panels/joint_panel.h"

#include "ui/document.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>
#include <numbers>

namespace rig::ui {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

/// Euler angles (x, y, z) in degrees of R = Rz·Ry·Rx.
std::array<double, 3> eulerXyz(const Eigen::Quaterniond& q)
{
    const Vec3 zyx = q.normalized().toRotationMatrix().eulerAngles(2, 1, 0); // R = Rz(a0)·Ry(a1)·Rx(a2)
    std::array<double, 3> a = {zyx[2] / kDeg, zyx[1] / kDeg, zyx[0] / kDeg};
    // Eigen returns a0 in [0, π]: prefer the equivalent triple with the smaller angles.
    const std::array<double, 3> alt = {a[0] - 180.0, 180.0 - a[1], a[2] - 180.0};
    auto size = [](const std::array<double, 3>& e) {
        double s = 0.0;
        for (double v : e)
            s += std::abs(std::remainder(v, 360.0));
        return s;
    };
    const std::array<double, 3>& best = size(alt) < size(a) ? alt : a;
    return {std::remainder(best[0], 360.0), std::remainder(best[1], 360.0), std::remainder(best[2], 360.0)};
}

} // namespace

JointPanel::JointPanel(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName("jointPanel");
    auto* layout = new QVBoxLayout(this);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName("jointTree");
    m_tree->setHeaderHidden(true);
    m_tree->setMinimumHeight(160);
    layout->addWidget(m_tree, 1);

    m_jointName = new QLabel(tr("No joint selected"), this);
    m_jointName->setObjectName("poseJointName");
    layout->addWidget(m_jointName);
    auto* form = new QFormLayout;
    const char* names[] = {"X", "Y (twist)", "Z"};
    for (int i = 0; i < 3; ++i) {
        auto* spin = new QDoubleSpinBox(this);
        spin->setObjectName(QStringLiteral("poseAngle%1").arg(QChar('X' + i)));
        spin->setRange(-180.0, 180.0);
        spin->setDecimals(1);
        spin->setSingleStep(5.0);
        spin->setSuffix(QStringLiteral("°"));
        spin->setWrapping(true);
        spin->setKeyboardTracking(false); // one undo step per entered value, not per keystroke
        spin->setEnabled(false);
        form->addRow(tr(names[i]), spin);
        m_angles[size_t(i)] = spin;
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this] { applyAngles(); });
    }
    layout->addLayout(form);

    auto* row = new QHBoxLayout;
    m_deformer = new QComboBox(this);
    m_deformer->setObjectName("deformerCombo");
    for (const DeformerInfo& d : deformers())
        m_deformer->addItem(QString::fromStdString(d.title), QString::fromStdString(d.id));
    m_deformer->setCurrentIndex(m_deformer->findData(QString::fromStdString(m_document->deformer())));
    m_deformer->setToolTip(tr("Deformer of the viewport (keys 1, 2, 3, … in this list's order)"));
    row->addWidget(m_deformer, 1);
    m_reset = new QPushButton(tr("Reset Pose"), this);
    m_reset->setObjectName("resetPoseButton");
    row->addWidget(m_reset);
    layout->addLayout(row);

    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (m_updating || !item)
            return;
        const int joint = item->data(0, Qt::UserRole).toInt();
        setSelectedJoint(joint);
        emit jointSelected(joint);
    });
    connect(m_reset, &QPushButton::clicked, m_document, &Document::resetPose);
    connect(m_deformer, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_document->setDeformer(m_deformer->itemData(i).toString().toStdString()); });
    connect(m_document, &Document::deformerChanged, this,
            [this](const QString& id) { m_deformer->setCurrentIndex(m_deformer->findData(id)); });
    connect(m_document, &Document::rigChanged, this, &JointPanel::rebuildTree);
    m_previewRefresh = new QTimer(this);
    m_previewRefresh->setSingleShot(true);
    m_previewRefresh->setInterval(previewRefreshMs);
    connect(m_previewRefresh, &QTimer::timeout, this, &JointPanel::refreshAngles);
    connect(m_document, &Document::poseChanged, this, &JointPanel::onPoseChanged);
    rebuildTree();
}

void JointPanel::rebuildTree()
{
    m_updating = true;
    m_tree->clear();
    const auto& rig = m_document->project().rig();
    const int n = rig ? rig->skeleton.jointCount() : 0;
    std::vector<QTreeWidgetItem*> items(static_cast<size_t>(n), nullptr);
    for (int j = 0; j < n; ++j) {
        const int p = rig->skeleton.parents[static_cast<size_t>(j)];
        auto* item = p < 0 ? new QTreeWidgetItem(m_tree) : new QTreeWidgetItem(items[static_cast<size_t>(p)]);
        item->setText(0, QString::fromStdString(rig->skeleton.names[static_cast<size_t>(j)]));
        item->setData(0, Qt::UserRole, j);
        items[static_cast<size_t>(j)] = item;
    }
    m_tree->expandAll();
    m_updating = false;
    if (m_joint >= n)
        m_joint = -1;
    setSelectedJoint(m_joint);
}

void JointPanel::setSelectedJoint(int joint)
{
    m_joint = joint;
    m_updating = true;
    QTreeWidgetItem* found = nullptr;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        if ((*it)->data(0, Qt::UserRole).toInt() == joint)
            found = *it;
    m_tree->setCurrentItem(found);
    m_updating = false;
    refreshAngles();
}

std::array<double, 3> JointPanel::angles() const
{
    return {m_angles[0]->value(), m_angles[1]->value(), m_angles[2]->value()};
}

void JointPanel::onPoseChanged()
{
    if (m_document->poseCommitted()) {
        m_previewRefresh->stop();
        refreshAngles();
    } else if (!m_previewRefresh->isActive()) {
        m_previewRefresh->start();
    }
}

void JointPanel::refreshAngles()
{
    const Pose& pose = m_document->pose();
    const bool valid = m_joint >= 0 && m_joint < static_cast<int>(pose.localRotations.size());
    const auto& rig = m_document->project().rig();
    m_jointName->setText(valid && rig ? QString::fromStdString(rig->skeleton.names[static_cast<size_t>(m_joint)])
                                      : tr("No joint selected"));
    const std::array<double, 3> a =
        valid ? eulerXyz(pose.localRotations[static_cast<size_t>(m_joint)]) : std::array<double, 3>{0.0, 0.0, 0.0};
    m_updating = true;
    for (int i = 0; i < 3; ++i) {
        m_angles[size_t(i)]->setEnabled(valid);
        m_angles[size_t(i)]->setValue(a[size_t(i)]);
    }
    m_updating = false;
}

void JointPanel::applyAngles()
{
    if (m_updating || m_joint < 0)
        return;
    const std::array<double, 3> a = angles();
    const Eigen::Quaterniond q = Eigen::AngleAxisd(a[2] * kDeg, Vec3::UnitZ()) *
                                 Eigen::AngleAxisd(a[1] * kDeg, Vec3::UnitY()) *
                                 Eigen::AngleAxisd(a[0] * kDeg, Vec3::UnitX());
    m_document->setJointRotation(m_joint, q);
}

} // namespace rig::ui
