#include "ui/panels/weight_panel.h"

#include "ui/document.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace rig::ui {

WeightPanel::WeightPanel(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName("weightPanel");
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);

    m_method = new QComboBox(this);
    m_method->setObjectName("weightMethod");
    m_method->addItem(tr("Segmentation + Gaussian (thesis 4.2.1)"), int(WeightMethod::Segmentation));
    m_method->addItem(tr("Bone heat (Baran & Popović)"), int(WeightMethod::Heat));
    m_method->setToolTip(tr("How the skinning weights are computed"));
    form->addRow(tr("Method"), m_method);

    m_segmentation = new QComboBox(this);
    m_segmentation->setObjectName("segmentationMethod");
    m_segmentation->addItem(tr("Region growing (3.2.4)"), int(SegmentationMethod::RegionGrow));
    m_segmentation->addItem(tr("Voxel line of sight (3.2.2)"), int(SegmentationMethod::LineOfSight));
    m_segmentation->addItem(tr("Nearest link (3.2.1)"), int(SegmentationMethod::NearestLink));
    m_segmentation->setToolTip(tr("Which bone each vertex belongs to (also drives the twist-corrected deformer)"));
    form->addRow(tr("Segmentation"), m_segmentation);

    m_gaussianBox = new QGroupBox(tr("Distribution (eq. 4.1)"), this);
    auto* g = new QFormLayout(m_gaussianBox);
    m_level = new QSpinBox(m_gaussianBox);
    m_level->setObjectName("hierarchyLevel");
    m_level->setRange(0, 4);
    m_level->setToolTip(tr("Hierarchy level h: how many neighbouring bones share a vertex (0 = rigid)"));
    g->addRow(tr("Hierarchy level h"), m_level);
    m_function = new QComboBox(m_gaussianBox);
    m_function->setObjectName("weightFunction");
    m_function->addItem(tr("Gaussian"), int(WeightFunction::Gaussian));
    m_function->addItem(tr("Linear"), int(WeightFunction::Linear));
    m_function->addItem(tr("Smoothstep"), int(WeightFunction::Smoothstep));
    g->addRow(tr("Function"), m_function);
    m_b = new QDoubleSpinBox(m_gaussianBox);
    m_b->setObjectName("gaussianB");
    m_b->setRange(0.0, 1.0);
    m_b->setSingleStep(0.05);
    m_b->setToolTip(tr("Peak position along the bone (thesis: 0.5)"));
    g->addRow(tr("Peak b"), m_b);
    m_c = new QDoubleSpinBox(m_gaussianBox);
    m_c->setObjectName("gaussianC");
    m_c->setRange(0.02, 2.0);
    m_c->setSingleStep(0.05);
    m_c->setToolTip(tr("Width (thesis: 0.25): larger blends further across joints"));
    g->addRow(tr("Width c"), m_c);
    layout->addWidget(m_gaussianBox);

    m_heatBox = new QGroupBox(tr("Bone heat"), this);
    auto* h = new QFormLayout(m_heatBox);
    m_heatConstant = new QDoubleSpinBox(m_heatBox);
    m_heatConstant->setObjectName("heatConstant");
    m_heatConstant->setRange(0.01, 10.0);
    m_heatConstant->setSingleStep(0.1);
    m_heatConstant->setToolTip(tr("c in H = c / d²: larger follows the nearest bone more rigidly"));
    h->addRow(tr("Heat constant"), m_heatConstant);
    layout->addWidget(m_heatBox);

    m_coloring = new QComboBox(this);
    m_coloring->setObjectName("meshColoring");
    m_coloring->addItem(tr("Shaded"), int(MeshColoring::Shaded));
    m_coloring->addItem(tr("Segments (one colour per bone)"), int(MeshColoring::Segments));
    m_coloring->addItem(tr("Weights of the selected joint"), int(MeshColoring::Weights));
    m_coloring->setToolTip(tr("What the mesh is coloured by (S cycles)"));
    auto* show = new QFormLayout;
    show->addRow(tr("Show"), m_coloring);
    layout->addLayout(show);

    m_recompute = new QPushButton(tr("Recompute Weights"), this);
    m_recompute->setObjectName("recomputeWeights");
    layout->addWidget(m_recompute);
    m_report = new QLabel(tr("No weights yet: they are computed after the rig is fitted."), this);
    m_report->setObjectName("weightReport");
    m_report->setWordWrap(true);
    m_report->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_report);
    layout->addStretch(1);

    showOptions(document->project().weightOptions());
    for (QComboBox* c : {m_method, m_segmentation, m_function})
        connect(c, &QComboBox::currentIndexChanged, this, &WeightPanel::onControlsChanged);
    connect(m_level, &QSpinBox::valueChanged, this, &WeightPanel::onControlsChanged);
    for (QDoubleSpinBox* s : {m_b, m_c, m_heatConstant})
        connect(s, &QDoubleSpinBox::editingFinished, this, &WeightPanel::onControlsChanged);
    connect(m_coloring, &QComboBox::currentIndexChanged, this, [this] { emit coloringChanged(coloring()); });
    connect(m_recompute, &QPushButton::clicked, m_document, &Document::computeWeights);
    connect(m_document, &Document::skinningChanged, this, &WeightPanel::onSkinningChanged);
    connect(m_document, &Document::weightOptionsChanged, this, [this] { showOptions(m_document->project().weightOptions()); });
    connect(m_document, &Document::rigChanged, this, &WeightPanel::updateEnabled);
    updateEnabled();
}

WeightOptions WeightPanel::options() const
{
    WeightOptions o = m_document->project().weightOptions();
    o.method = WeightMethod(m_method->currentData().toInt());
    o.segmentation.method = SegmentationMethod(m_segmentation->currentData().toInt());
    o.gaussian.hierarchyLevel = m_level->value();
    o.gaussian.function = WeightFunction(m_function->currentData().toInt());
    o.gaussian.b = m_b->value();
    o.gaussian.c = m_c->value();
    o.heat.heatConstant = m_heatConstant->value();
    return o;
}

MeshColoring WeightPanel::coloring() const { return MeshColoring(m_coloring->currentData().toInt()); }

void WeightPanel::setColoring(MeshColoring c) { m_coloring->setCurrentIndex(m_coloring->findData(int(c))); }

void WeightPanel::showOptions(const WeightOptions& o)
{
    m_updating = true;
    m_method->setCurrentIndex(m_method->findData(int(o.method)));
    m_segmentation->setCurrentIndex(m_segmentation->findData(int(o.segmentation.method)));
    m_level->setValue(o.gaussian.hierarchyLevel);
    m_function->setCurrentIndex(m_function->findData(int(o.gaussian.function)));
    m_b->setValue(o.gaussian.b);
    m_c->setValue(o.gaussian.c);
    m_heatConstant->setValue(o.heat.heatConstant);
    m_updating = false;
    updateEnabled();
}

void WeightPanel::onControlsChanged()
{
    updateEnabled();
    if (m_updating)
        return;
    m_document->setWeightOptions(options());
}

void WeightPanel::updateEnabled()
{
    const bool heat = WeightMethod(m_method->currentData().toInt()) == WeightMethod::Heat;
    m_gaussianBox->setVisible(!heat);
    m_heatBox->setVisible(heat);
    m_recompute->setEnabled(m_document->project().rig() != nullptr);
}

void WeightPanel::onSkinningChanged()
{
    const auto& s = m_document->project().skinning();
    if (!s) {
        m_report->setText(m_document->project().rig() ? tr("Weights are out of date: recomputing…")
                                                      : tr("No weights yet: they are computed after the rig is fitted."));
        return;
    }
    const WeightDiagnostics& d = s->diagnostics;
    QStringList lines;
    lines << tr("%1 vertices weighted, at most %2 bones each.").arg(s->weights.vertexCount()).arg(s->weights.maxInfluences);
    for (const std::string& m : d.messages)
        lines << QString::fromStdString(m);
    if (d.messages.empty())
        lines << tr("No problems found: every vertex reached, no rigid parts, no bleeding between limbs.");
    m_report->setText(lines.join("\n"));
}

} // namespace rig::ui
