#include "ui/panels/rig_panel.h"

#include "core/rig/fingers.h"

#include "core/rig/template.h"

#include "core/rig/fit_checks.h"

#include "ui/document.h"
#include "ui/messages.h"
#include "ui/viewport/overlay_data.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace rig::ui {

RigPanel::RigPanel(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName("rigPanel");
    auto* layout = new QVBoxLayout(this);
    addTemplateBox(layout);
    // Up and facing share a row: the dock stays short enough for a laptop screen.
    auto* facingRow = new QHBoxLayout;
    addUpBox(facingRow);
    addFacingBox(facingRow);
    layout->addLayout(facingRow);
    addEndNodesBox(layout);
    addJointBox(layout);
    layout->addStretch(1);

    connect(m_document, &Document::rigChanged, this, &RigPanel::onRigChanged);
    refresh();
}

void RigPanel::addTemplateBox(QVBoxLayout* layout)
{
    auto* templ = new QGroupBox(tr("Template"), this);
    // The name above its buttons: the dock stays narrow and the viewport wide (issue 19 item 7).
    auto* templBox = new QVBoxLayout(templ);
    auto* templRow = new QHBoxLayout;
    m_templateName = new QLabel(tr("humanoid21 (21 joints, BVH names)"), templ);
    m_templateName->setObjectName("templateName");
    auto* templButton = new QPushButton(tr("Fit Skeleton From…"), templ);
    templButton->setToolTip(tr("Use a BVH file's hierarchy (or a template .json) as the skeleton to fit"));
    auto* templReset = new QPushButton(tr("Default"), templ);
    templReset->setToolTip(tr("Back to the 21-joint humanoid template"));
    templBox->addWidget(m_templateName);
    templRow->addWidget(templButton, 1);
    templRow->addWidget(templReset);
    templBox->addLayout(templRow);
    addFingerRow(templBox);
    layout->addWidget(templ);
    connect(templButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Fit This Skeleton"), QString(),
                                                          tr("Skeletons (*.bvh *.json);;All files (*)"));
        if (!path.isEmpty())
            m_document->setRigTemplate(path);
    });
    connect(templReset, &QPushButton::clicked, this, [this] { m_document->setRigTemplate("humanoid21"); });
    // The template the rig was fitted with and its joint count, after every
    // refit (a template, fingers on or off, a project opened).
    const auto showTemplate = [this] {
        const RigProject& p = m_document->project();
        QString name = QString::fromStdString(p.rigTemplate() ? p.rigTemplate()->name : std::string("humanoid21"));
        const auto& rig = p.rig();
        static const int defaultJoints = [] {
            try {
                return builtinTemplate("humanoid21").jointCount();
            } catch (const std::exception&) {
                return 0;
            }
        }();
        const int templateJoints = p.rigTemplate() ? p.rigTemplate()->jointCount() : defaultJoints;
        if (rig && templateJoints > 0 && rig->skeleton.jointCount() > templateJoints)
            name = tr("%1 + fingers").arg(name);
        m_templateName->setText(rig ? tr("%1 (%2 joints)").arg(name).arg(rig->skeleton.jointCount()) : name);
    };
    connect(m_document, &Document::rigTemplateChanged, this, showTemplate);
    connect(m_document, &Document::rigChanged, this, showTemplate);
}

void RigPanel::addUpBox(QHBoxLayout* facingRow)
{
    facingRow->addWidget(new QLabel(tr("Up"), this));
    auto* up = new QComboBox(this);
    up->setObjectName("upAxis");
    up->addItem(tr("File"), "file");
    up->addItem(tr("Auto"), "auto");
    for (const char* axis : {"+y", "-y", "+z", "-z", "+x", "-x"})
        up->addItem(QString(axis).toUpper(), axis);
    const QString upTip = tr("Which of the file's axes points up. A character lying down or upside down: "
                             "pick its up axis, or let Rigsmith detect it (feet on the ground, head up). "
                             "The character is loaded again and rigged in that frame (undoable). "
                             "File: as the file says, and from the shape where the file does not say and it "
                             "stands on two feet; Auto: detected from the shape whatever the file says");
    up->setToolTip(upTip);
    facingRow->addWidget(up, 1);
    connect(up, &QComboBox::activated, this,
            [this, up](int i) { m_document->setUpAxis(up->itemData(i).toString()); });
    // Undo, redo, a new character and a project's own choice show in the box;
    // a refused change (a stage still running, a failed load) shows the choice in force.
    // File and Auto show the axis they gave, with the detection's confidence;
    // the tooltip says what the detection saw (issue 48).
    const auto showUp = [this, up, upTip] {
        const QSignalBlocker block(up);
        up->setItemText(0, tr("File"));
        up->setItemText(1, tr("Auto"));
        const int current = std::max(0, up->findData(QString::fromStdString(m_document->project().orientation().up)));
        up->setCurrentIndex(current);
        up->setToolTip(upTip);
        if (!m_document->project().character() || current > 1)
            return;
        const OrientationResult& r = m_document->project().orientationResult();
        QString shown = QString::fromStdString(r.fileUp).toUpper();
        if (r.upSource == "detected")
            shown += QString(" %1").arg(r.upConfidence, 0, 'f', 2);
        up->setItemText(current, (current == 0 ? tr("File") : tr("Auto")) + ": " + shown);
        up->setToolTip(upTip + "\n\n" + QString::fromStdString(r.summary()) +
                       (r.upReason.empty() ? QString() : "\n" + QString::fromStdString(r.upReason)));
    };
    connect(m_document, &Document::characterChanged, up, showUp);
    connect(m_document, &Document::stageFailed, up, showUp);
}

void RigPanel::addFacingBox(QHBoxLayout* facingRow)
{
    facingRow->addWidget(new QLabel(tr("faces"), this));
    auto* facing = new QComboBox(this);
    facing->setObjectName("facing");
    facing->addItem(tr("Auto"), "auto");
    for (const char* f : {"+z", "-z", "+x", "-x"})
        facing->addItem(QString(f).toUpper(), f);
    facing->setToolTip(tr("The direction the character looks: decides its left and right, and the bone roll. "
                          "Auto: detected from the shape (toes and face to the front), and the character "
                          "turned to face +Z (loaded again, undoable)"));
    facingRow->addWidget(facing, 1);
    connect(facing, &QComboBox::activated, this,
            [this, facing](int i) { m_document->setFacing(facing->itemData(i).toString()); });
    // Undo, redo, a new character and a project's own facing show in the box;
    // a refused change shows the choice in force.
    const auto showFacing = [this, facing] {
        const QSignalBlocker block(facing);
        const std::string f = m_document->project().orientation().facing == "auto"
                                  ? std::string("auto")
                                  : facingName(m_document->project().front());
        facing->setCurrentIndex(std::max(0, facing->findData(QString::fromStdString(f))));
    };
    connect(m_document, &Document::frontChanged, facing, showFacing);
    connect(m_document, &Document::characterChanged, facing, showFacing);
    connect(m_document, &Document::stageFailed, facing, showFacing);
    showFacing();
}

void RigPanel::addEndNodesBox(QVBoxLayout* layout)
{
    auto* labels = new QGroupBox(tr("End nodes"), this);
    auto* grid = new QGridLayout(labels);
    for (Limb limb : allLimbs) {
        const int row = static_cast<int>(limb);
        const glm::vec3 c = limbColor(row);
        auto* swatch = new QLabel(labels);
        swatch->setFixedSize(12, 12);
        swatch->setStyleSheet(QString("background: rgb(%1,%2,%3); border-radius: 6px;")
                                  .arg(int(c.r * 255)).arg(int(c.g * 255)).arg(int(c.b * 255)));
        grid->addWidget(swatch, row, 0);
        grid->addWidget(new QLabel(limbTitle(limb), labels), row, 1);
        m_nodeLabels[row] = new QLabel(tr("—"), labels);
        grid->addWidget(m_nodeLabels[row], row, 2);
        m_pickButtons[row] = new QPushButton(tr("Pick"), labels);
        m_pickButtons[row]->setObjectName(QString("pick_%1").arg(QString::fromUtf8(limbKey(limb).data())));
        m_pickButtons[row]->setCheckable(true);
        m_pickButtons[row]->setToolTip(tr("Then click the %1's end node (a sphere) in the viewport").arg(limbTitle(limb).toLower()));
        grid->addWidget(m_pickButtons[row], row, 3);
        connect(m_pickButtons[row], &QPushButton::clicked, this, [this, limb](bool on) {
            arm(on ? std::optional<Limb>(limb) : std::nullopt);
        });
    }
    auto* autoButton = new QPushButton(tr("Auto-label"), labels);
    autoButton->setObjectName("autoLabel");
    autoButton->setToolTip(tr("Head = highest end node, feet = the two lowest, hands = the others; "
                              "left and right from the facing direction (+Z)"));
    grid->addWidget(autoButton, limbCount, 0, 1, 2);
    auto* walk = new QPushButton(tr("Label all…"), labels);
    walk->setToolTip(tr("Walk the five slots: click the head, then the left hand, ..."));
    grid->addWidget(walk, limbCount, 2, 1, 2);
    m_hint = new QLabel(labels);
    m_hint->setObjectName("labelHint");
    m_hint->setStyleSheet("color: #e0b040; font-weight: bold;");
    grid->addWidget(m_hint, limbCount + 1, 0, 1, 4);
    m_hint->hide();
    layout->addWidget(labels);
    m_fitNotes = new QLabel(this);
    m_fitNotes->setObjectName("fitNotes");
    m_fitNotes->setWordWrap(true);
    m_fitNotes->setStyleSheet("color: #e0b040;");
    m_fitNotes->hide();
    layout->addWidget(m_fitNotes);
    connect(autoButton, &QPushButton::clicked, m_document, &Document::autoLabel);
    connect(walk, &QPushButton::clicked, this, [this] { arm(Limb::Head); });
}

void RigPanel::addJointBox(QVBoxLayout* layout)
{
    auto* joint = new QGroupBox(tr("Selected joint"), this);
    auto* form = new QFormLayout(joint);
    m_jointName = new QLabel(tr("Click a joint (white sphere) to select it; drag to move it"), joint);
    m_jointName->setObjectName("jointName");
    m_jointName->setWordWrap(true);
    form->addRow(m_jointName);
    const char* axes[] = {"X", "Y", "Z"};
    for (int k = 0; k < 3; ++k) {
        m_coords[k] = new QDoubleSpinBox(joint);
        m_coords[k]->setObjectName(QString("joint%1").arg(axes[k]));
        m_coords[k]->setRange(-1e5, 1e5);
        m_coords[k]->setDecimals(4);
        m_coords[k]->setSingleStep(0.005);
        m_coords[k]->setKeyboardTracking(false);
        m_coords[k]->setEnabled(false);
        form->addRow(axes[k], m_coords[k]);
        connect(m_coords[k], &QDoubleSpinBox::editingFinished, this, &RigPanel::applyNumericEdit);
    }
    m_mirror = new QCheckBox(tr("Mirror edits to the other side (X)"), joint);
    m_mirror->setObjectName("mirrorEdits");
    form->addRow(m_mirror);
    connect(m_mirror, &QCheckBox::toggled, this, [this](bool on) { m_document->setMirrorEdits(on); });
    layout->addWidget(joint);
}

void RigPanel::addFingerRow(QVBoxLayout* box)
{
    // Fingers (issue 18): how they are placed and how many per hand; humanoid51 replaces humanoid21.
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Fingers"), this));
    auto* mode = new QComboBox(this);
    mode->setObjectName("fingerMode");
    mode->addItem(tr("None"), "none");
    mode->addItem(tr("From the mesh"), "auto");
    mode->addItem(tr("From the hand's shape"), "shape");
    mode->setToolTip(tr("None: the hands end at the wrist. From the mesh: fingertips found on separated fingers, "
                        "the others from the hand's shape. From the hand's shape: fingers side by side along the "
                        "hand (a mitten)."));
    auto* count = new QComboBox(this);
    count->setObjectName("fingerCount");
    count->addItem(tr("Auto"), -1);
    for (int n = 1; n <= maxFingers; ++n)
        count->addItem(QString::number(n), n);
    count->setToolTip(tr("Fingers per hand, thumb first (4: no pinky); Auto: as many as the mesh shows, else five"));
    row->addWidget(mode, 2);
    row->addWidget(count, 1);
    box->addLayout(row);
    const auto apply = [this, mode, count] {
        FingerOptions o = m_document->project().fingerOptions();
        o.mode = parseFingerMode(mode->currentData().toString().toStdString());
        o.count = count->currentData().toInt();
        m_document->setFingerOptions(o);
    };
    connect(mode, &QComboBox::activated, this, apply);
    connect(count, &QComboBox::activated, this, apply);
    // Undo, redo, a refused change and a project's own choice show in the boxes.
    const auto show = [this, mode, count] {
        const QSignalBlocker blockMode(mode), blockCount(count);
        const FingerOptions& o = m_document->project().fingerOptions();
        mode->setCurrentIndex(std::max(0, mode->findData(QString::fromUtf8(fingerModeId(o.mode).data()))));
        count->setCurrentIndex(std::max(0, count->findData(o.count)));
    };
    connect(m_document, &Document::rigChanged, mode, show);
    connect(m_document, &Document::stageFailed, mode, show);
}

void RigPanel::onRigChanged()
{
    const auto& rig = m_document->project().rig();
    // The project's template; none set means the bundled humanoid21 (fitRig()).
    static const auto humanoid21 = std::make_shared<const RigTemplate>(builtinTemplate("humanoid21"));
    const auto rigTemplate = m_document->project().rigTemplate() ? m_document->project().rigTemplate() : humanoid21;
    QStringList lines;
    int first = -1;
    std::vector<int> warned;
    if (rig) {
        for (const std::string& note : rig->notes)
            lines << tr("Note: %1").arg(QString::fromStdString(note));
        // A rig fitted with fingers checks against the template with fingers (humanoid51).
        const RigTemplate fittedWith = templateOfFit(*rigTemplate, rig->skeleton);
        if (fittedWith.jointCount() == rig->skeleton.jointCount())
            for (const FitWarning& w : fitWarnings(*rig, fittedWith)) {
                lines << tr("Warning: %1").arg(QString::fromStdString(w.message));
                if (first < 0)
                    first = w.joint;
                if (w.joint >= 0)
                    warned.push_back(w.joint);
            }
    }
    m_fitNotes->setText(lines.join("\n"));
    m_fitNotes->setVisible(!lines.isEmpty());
    emit warnedJoints(warned);
    if (first >= 0) {
        m_joint = first;
        emit warningJoint(first);
    }
    refresh();
}

void RigPanel::arm(std::optional<Limb> limb)
{
    m_armed = limb;
    for (Limb l : allLimbs)
        m_pickButtons[static_cast<int>(l)]->setChecked(limb && *limb == l);
    m_hint->setText(limb ? tr("Click the %1 in the viewport (Esc to stop)").arg(limbTitle(*limb).toLower()) : QString());
    m_hint->setVisible(limb.has_value()); // no empty row under the buttons
}

bool RigPanel::takeNodeClick(int node)
{
    if (!m_armed)
        return false;
    const Limb limb = *m_armed;
    m_document->setLabel(limb, node);
    const int next = static_cast<int>(limb) + 1;
    arm(next < limbCount ? std::optional<Limb>(static_cast<Limb>(next)) : std::nullopt);
    return true;
}

void RigPanel::setSelectedJoint(int joint)
{
    m_joint = joint;
    refresh();
}

void RigPanel::refresh()
{
    const EndNodeLabels& labels = m_document->project().labels();
    for (Limb limb : allLimbs) {
        const int node = labels[limb];
        m_nodeLabels[static_cast<int>(limb)]->setText(node >= 0 ? tr("node %1").arg(node) : tr("—"));
    }
    const auto& rig = m_document->project().rig();
    const bool valid = rig && m_joint >= 0 && m_joint < rig->skeleton.jointCount();
    for (auto* c : m_coords) {
        c->setEnabled(valid);
        c->blockSignals(true);
    }
    if (valid) {
        m_jointName->setText(QString::fromStdString(rig->skeleton.names[static_cast<size_t>(m_joint)]));
        for (int k = 0; k < 3; ++k)
            m_coords[k]->setValue(rig->skeleton.bindPositions(m_joint, k));
    }
    for (auto* c : m_coords)
        c->blockSignals(false);
}

void RigPanel::applyNumericEdit()
{
    const auto& rig = m_document->project().rig();
    if (!rig || m_joint < 0 || m_joint >= rig->skeleton.jointCount())
        return;
    const Vec3 p(m_coords[0]->value(), m_coords[1]->value(), m_coords[2]->value());
    if ((p - Vec3(rig->skeleton.bindPositions.row(m_joint).transpose())).norm() < 1e-9)
        return; // nothing changed
    m_document->moveJoint(m_joint, p);
}

} // namespace rig::ui
