#include "ui/panels/paint_panel.h"

#include "ui/document.h"
#include "ui/weight_paint_tool.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace rig::ui {

PaintPanel::PaintPanel(Document* document, WeightPaintTool* tool, QWidget* parent)
    : QWidget(parent), m_document(document), m_tool(tool)
{
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);
    m_jointLabel = new QLabel(tr("(click a joint)"), this);
    m_jointLabel->setObjectName("paintJoint");
    form->addRow(tr("Joint"), m_jointLabel);
    m_toolCombo = new QComboBox(this);
    m_toolCombo->setObjectName("paintTool");
    m_toolCombo->addItem(tr("Add"), int(PaintTool::Add));
    m_toolCombo->addItem(tr("Subtract"), int(PaintTool::Subtract));
    m_toolCombo->addItem(tr("Set"), int(PaintTool::Set));
    m_toolCombo->addItem(tr("Smooth"), int(PaintTool::Smooth));
    form->addRow(tr("Tool"), m_toolCombo);
    m_falloffCombo = new QComboBox(this);
    m_falloffCombo->setObjectName("paintFalloff");
    m_falloffCombo->addItem(tr("Smooth"), int(BrushFalloff::Smooth));
    m_falloffCombo->addItem(tr("Linear"), int(BrushFalloff::Linear));
    m_falloffCombo->addItem(tr("Constant"), int(BrushFalloff::Constant));
    form->addRow(tr("Falloff"), m_falloffCombo);
    m_radius = new QDoubleSpinBox(this);
    m_radius->setObjectName("paintRadius");
    m_radius->setDecimals(4);
    m_radius->setRange(1e-4, 1e6);
    m_radius->setToolTip(tr("Brush radius in the character's units ([ smaller, ] larger)"));
    form->addRow(tr("Radius"), m_radius);
    m_strength = new QDoubleSpinBox(this);
    m_strength->setObjectName("paintStrength");
    m_strength->setRange(0.0, 1.0);
    m_strength->setSingleStep(0.05);
    form->addRow(tr("Strength"), m_strength);
    m_value = new QDoubleSpinBox(this);
    m_value->setObjectName("paintValue");
    m_value->setRange(0.0, 1.0);
    m_value->setSingleStep(0.05);
    m_value->setToolTip(tr("The weight the Set tool paints towards"));
    form->addRow(tr("Set to"), m_value);
    m_mirror = new QCheckBox(tr("Mirror (paint the other side too)"), this);
    m_mirror->setObjectName("paintMirror");
    layout->addWidget(m_mirror);
    m_lock = new QCheckBox(tr("Lock this joint's weights"), this);
    m_lock->setObjectName("paintLock");
    layout->addWidget(m_lock);
    m_gradient = new QPushButton(tr("Gradient Along Bone"), this);
    m_gradient->setObjectName("paintGradient");
    m_gradient->setToolTip(tr("The joint's weight from 1 at the joint to 0 at its child, within the brush radius of the bone"));
    layout->addWidget(m_gradient);
    auto* mirrorRow = new QHBoxLayout;
    auto* lr = new QPushButton(tr("Mirror L→R"), this);
    lr->setObjectName("paintMirrorLR");
    auto* rl = new QPushButton(tr("Mirror R→L"), this);
    rl->setObjectName("paintMirrorRL");
    mirrorRow->addWidget(lr);
    mirrorRow->addWidget(rl);
    layout->addLayout(mirrorRow);
    layout->addStretch(1);
    showBrush();

    for (QComboBox* c : {m_toolCombo, m_falloffCombo})
        connect(c, &QComboBox::currentIndexChanged, this, &PaintPanel::applyControls);
    for (QDoubleSpinBox* s : {m_radius, m_strength, m_value})
        connect(s, &QDoubleSpinBox::valueChanged, this, &PaintPanel::applyControls);
    connect(m_mirror, &QCheckBox::toggled, this, &PaintPanel::applyControls);
    connect(m_lock, &QCheckBox::toggled, this, [this](bool on) {
        if (!m_updating && m_joint >= 0)
            m_tool->setLocked(jointName(), on);
    });
    connect(m_gradient, &QPushButton::clicked, this, [this] {
        if (m_joint >= 0)
            m_tool->gradientAlongBone(m_joint);
    });
    connect(lr, &QPushButton::clicked, this, [this] { m_tool->mirrorAll(MirrorDirection::LeftToRight); });
    connect(rl, &QPushButton::clicked, this, [this] { m_tool->mirrorAll(MirrorDirection::RightToLeft); });
    connect(m_tool, &WeightPaintTool::brushChanged, this, &PaintPanel::showBrush);
}

QString PaintPanel::jointName() const
{
    const auto& rig = m_document->project().rig();
    if (!rig || m_joint < 0 || m_joint >= rig->skeleton.jointCount())
        return {};
    return QString::fromStdString(rig->skeleton.names[static_cast<size_t>(m_joint)]);
}

void PaintPanel::setJoint(int joint)
{
    m_joint = joint;
    const QString name = jointName();
    m_jointLabel->setText(name.isEmpty() ? tr("(click a joint)") : name);
    m_updating = true;
    m_lock->setEnabled(!name.isEmpty());
    m_lock->setChecked(!name.isEmpty() && m_tool->isLocked(name));
    m_gradient->setEnabled(!name.isEmpty());
    m_updating = false;
}

void PaintPanel::showBrush()
{
    if (m_updating)
        return;
    m_updating = true;
    const BrushSettings& b = m_tool->brush();
    m_toolCombo->setCurrentIndex(m_toolCombo->findData(int(b.tool)));
    m_falloffCombo->setCurrentIndex(m_falloffCombo->findData(int(b.falloff)));
    m_radius->setValue(b.radius);
    m_strength->setValue(b.strength);
    m_value->setValue(b.value);
    m_mirror->setChecked(b.mirror);
    m_updating = false;
}

void PaintPanel::applyControls()
{
    if (m_updating)
        return;
    BrushSettings b;
    b.tool = PaintTool(m_toolCombo->currentData().toInt());
    b.falloff = BrushFalloff(m_falloffCombo->currentData().toInt());
    b.radius = m_radius->value();
    b.strength = m_strength->value();
    b.value = m_value->value();
    b.mirror = m_mirror->isChecked();
    m_updating = true; // the tool's brushChanged comes back here
    m_tool->setBrush(b);
    m_updating = false;
}

} // namespace rig::ui
