#include "ui/panels/weight_panel.h"

#include "ui/document.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace rig::ui {

WeightPanel::WeightPanel(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName("weightPanel");
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);

    m_method = new QComboBox(this);
    m_method->setObjectName("weightMethod");
    for (const WeightMethod& m : weightMethods()) {
        m_method->addItem(QString::fromStdString(m.title), QString::fromStdString(m.id));
        m_method->setItemData(m_method->count() - 1, QString::fromStdString(m.reference), Qt::ToolTipRole);
    }
    m_method->setToolTip(tr("How the skinning weights are computed"));
    form->addRow(tr("Method"), m_method);

    m_segmentation = new QComboBox(this);
    m_segmentation->setObjectName("segmentationMethod");
    const MethodParameter& seg = segmentationParameters().front(); // "method": the thesis's algorithms
    for (size_t i = seg.choices.size(); i-- > 0;) // the thesis's default (3.2.4) first
        m_segmentation->addItem(QString::fromStdString(seg.choiceTitles.empty() ? seg.choices[i] : seg.choiceTitles[i]),
                                int(i));
    m_segmentation->setToolTip(tr("Which bone each vertex belongs to (also drives the twist-corrected deformer)"));
    form->addRow(tr("Segmentation"), m_segmentation);

    m_parameterBox = new QGroupBox(tr("Parameters"), this);
    m_parameterBox->setObjectName("weightParameters");
    auto* box = new QVBoxLayout(m_parameterBox);
    m_parameterForm = new QFormLayout;
    box->addLayout(m_parameterForm);
    m_allParameters = new QCheckBox(tr("All parameters"), m_parameterBox);
    m_allParameters->setObjectName("allWeightParameters");
    m_allParameters->setToolTip(tr("Also show the method's advanced parameters"));
    box->addWidget(m_allParameters);
    layout->addWidget(m_parameterBox);

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
    connect(m_method, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updating)
            return;
        WeightOptions o = m_document->project().weightOptions();
        o.method = selectedMethod();
        buildParameterFields(o);
        onControlsChanged();
    });
    connect(m_segmentation, &QComboBox::currentIndexChanged, this, &WeightPanel::onControlsChanged);
    connect(m_allParameters, &QCheckBox::toggled, this, [this] { buildParameterFields(options()); });
    connect(m_coloring, &QComboBox::currentIndexChanged, this, [this] { emit coloringChanged(coloring()); });
    connect(m_recompute, &QPushButton::clicked, m_document, &Document::computeWeights);
    connect(m_document, &Document::skinningChanged, this, &WeightPanel::onSkinningChanged);
    connect(m_document, &Document::weightOptionsChanged, this, [this] { showOptions(m_document->project().weightOptions()); });
    connect(m_document, &Document::rigChanged, this, &WeightPanel::updateEnabled);
    updateEnabled();
}

std::string WeightPanel::selectedMethod() const { return m_method->currentData().toString().toStdString(); }

WeightOptions WeightPanel::options() const
{
    WeightOptions o = m_document->project().weightOptions();
    o.method = selectedMethod();
    o.segmentation.method = SegmentationMethod(m_segmentation->currentData().toInt());
    if (m_fieldsMethod == o.method)
        for (const auto& [key, field] : m_fields)
            o.parameters[o.method][key] = field.get();
    return o;
}

void WeightPanel::buildParameterFields(const WeightOptions& o)
{
    while (m_parameterForm->rowCount() > 0)
        m_parameterForm->removeRow(0);
    m_fields.clear();
    const WeightMethod& method = findWeightMethod(o.method);
    m_fieldsMethod = method.id;
    for (const MethodParameter& p : method.parameters) {
        if (p.advanced && !m_allParameters->isChecked())
            continue;
        const double value = parameterValue(method.parameters, o.valuesOf(method.id), p.key, method.id);
        const QString name = QStringLiteral("param_%1_%2").arg(QString::fromStdString(method.id), QString::fromStdString(p.key));
        QWidget* field = nullptr;
        if (!p.choices.empty()) {
            auto* c = new QComboBox(m_parameterBox);
            for (size_t i = 0; i < p.choices.size(); ++i)
                c->addItem(QString::fromStdString(p.choiceTitles.empty() ? p.choices[i] : p.choiceTitles[i]), int(i));
            c->setCurrentIndex(int(std::lround(value)));
            connect(c, &QComboBox::currentIndexChanged, this, &WeightPanel::onControlsChanged);
            m_fields[p.key] = {[c] { return double(c->currentData().toInt()); },
                               [c](double v) { c->setCurrentIndex(int(std::lround(v))); }};
            field = c;
        } else if (p.decimals == 0 && p.min == 0.0 && p.max == 1.0) {
            auto* c = new QCheckBox(m_parameterBox);
            c->setChecked(value != 0.0);
            connect(c, &QCheckBox::toggled, this, &WeightPanel::onControlsChanged);
            m_fields[p.key] = {[c] { return c->isChecked() ? 1.0 : 0.0; }, [c](double v) { c->setChecked(v != 0.0); }};
            field = c;
        } else {
            auto* d = new QDoubleSpinBox(m_parameterBox);
            d->setDecimals(p.decimals);
            d->setRange(p.min, p.max);
            d->setSingleStep(p.decimals == 0 ? 1.0 : std::pow(10.0, 1 - p.decimals) / 2);
            d->setValue(value);
            connect(d, &QDoubleSpinBox::editingFinished, this, &WeightPanel::onControlsChanged);
            m_fields[p.key] = {[d] { return d->value(); }, [d](double v) { d->setValue(v); }};
            field = d;
        }
        field->setObjectName(name);
        field->setToolTip(QString::fromStdString(p.help));
        m_parameterForm->addRow(QString::fromStdString(p.title), field);
    }
    m_parameterBox->setVisible(m_parameterForm->rowCount() > 0 || !method.parameters.empty());
}

MeshColoring WeightPanel::coloring() const { return MeshColoring(m_coloring->currentData().toInt()); }

void WeightPanel::setColoring(MeshColoring c) { m_coloring->setCurrentIndex(m_coloring->findData(int(c))); }

void WeightPanel::showOptions(const WeightOptions& o)
{
    m_updating = true;
    m_method->setCurrentIndex(m_method->findData(QString::fromStdString(o.method)));
    m_segmentation->setCurrentIndex(m_segmentation->findData(int(o.segmentation.method)));
    if (o.method == m_fieldsMethod) { // the same fields: new values in place (a field may be emitting)
        const WeightMethod& method = findWeightMethod(o.method);
        for (auto& [key, field] : m_fields)
            field.set(parameterValue(method.parameters, o.valuesOf(o.method), key, o.method));
    } else {
        buildParameterFields(o);
    }
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
        lines << tr("No problems found: every vertex reached, no rigid parts, no bleeding between limbs, no weight "
                 "reaching far from its bone, every bone moves some vertex.");
    m_report->setText(lines.join("\n"));
}

} // namespace rig::ui
