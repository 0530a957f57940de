#include "ui/panels/pipeline_panel.h"

#include "ui/document.h"
#include "ui/messages.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rig::ui {

PipelinePanel::PipelinePanel(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName("pipelinePanel");
    auto* layout = new QVBoxLayout(this);
    m_stages = new QTreeWidget(this);
    m_stages->setColumnCount(3);
    m_stages->setHeaderLabels({tr("Stage"), tr("State"), tr("Time")});
    m_stages->setRootIsDecorated(false);
    m_stages->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_stages->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_stages->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_stages->header()->setStretchLastSection(false);
    m_stages->setMaximumHeight(150);
    layout->addWidget(m_stages);
    m_step = new QLabel(this);
    layout->addWidget(m_step);
    auto* bar = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("cancelButton");
    m_cancel->setEnabled(false);
    m_cancel->setToolTip(tr("Stop the running stage (Esc); the previous result stays"));
    bar->addWidget(m_progress, 1);
    bar->addWidget(m_cancel);
    layout->addLayout(bar);
    row(Task::Load);
    row(Task::Skeleton);

    auto* group = new QGroupBox(tr("Curve skeleton"), this);
    auto* form = new QFormLayout(group);
    m_resolution = new QSpinBox(group);
    m_resolution->setObjectName("resolutionSpin");
    m_resolution->setRange(16, 1024);
    m_resolution->setValue(m_document->project().curveSkeletonOptions().voxelize.resolution);
    m_resolution->setSuffix(tr(" voxels"));
    m_resolution->setToolTip(tr("Voxels along the longest side of the model (thesis default 155). "
                                "Higher follows thin limbs better and takes longer."));
    m_rebuild = new QPushButton(tr("Rebuild"), group);
    m_rebuild->setObjectName("rebuildSkeleton");
    m_rebuild->setToolTip(tr("Voxelize, thin and build the geometric skeleton again (Ctrl+R)"));
    auto* resRow = new QHBoxLayout;
    resRow->addWidget(m_resolution, 1);
    resRow->addWidget(m_rebuild);
    form->addRow(tr("Resolution"), resRow);
    m_skeletonStats = new QLabel(tr("—"), group);
    m_skeletonStats->setObjectName("skeletonStats");
    m_skeletonStats->setWordWrap(false); // explicit line breaks: a wrapped label is squeezed by the form layout
    m_skeletonStats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(m_skeletonStats);
    layout->insertWidget(1, group);
    layout->insertStretch(2, 1);
    connect(m_rebuild, &QPushButton::clicked, this, [this] { m_document->buildCurveSkeleton(m_resolution->value()); });
    connect(m_document, &Document::curveSkeletonChanged, this, &PipelinePanel::onCurveSkeletonChanged);
    connect(m_document, &Document::busyChanged, m_rebuild, &QWidget::setDisabled);

    connect(m_cancel, &QPushButton::clicked, m_document, &Document::cancel);
    connect(m_document, &Document::stageStarted, this, &PipelinePanel::onStarted);
    connect(m_document, &Document::progressChanged, this, &PipelinePanel::onProgress);
    connect(m_document, &Document::stageFinished, this, &PipelinePanel::onFinished);
    connect(m_document, &Document::stageFailed, this, &PipelinePanel::onFailed);
    connect(m_document, &Document::stageCancelled, this, &PipelinePanel::onCancelled);
}

QTreeWidgetItem* PipelinePanel::row(Task stage)
{
    for (int i = 0; i < m_stages->topLevelItemCount(); ++i)
        if (m_stages->topLevelItem(i)->data(0, Qt::UserRole).toString() == taskName(stage))
            return m_stages->topLevelItem(i);
    auto* item = new QTreeWidgetItem(m_stages, {taskTitle(stage), tr("waiting"), QString()});
    item->setData(0, Qt::UserRole, taskName(stage)); // the stable id: tests and tools find rows by it
    return item;
}

void PipelinePanel::onCurveSkeletonChanged()
{
    const auto& result = m_document->project().curveSkeleton();
    if (!result) {
        m_skeletonStats->setText(tr("—"));
        row(Task::Skeleton)->setText(1, tr("waiting"));
        row(Task::Skeleton)->setText(2, QString());
        return;
    }
    const CurveSkeleton& s = result->refined;
    m_resolution->setValue(m_document->project().curveSkeletonOptions().voxelize.resolution);
    QString text = tr("<b>%1</b> end · <b>%2</b> flow · <b>%3</b> connection nodes<br>%4 segments · %5 loop(s) found")
                       .arg(s.count(NodeType::End))
                       .arg(s.count(NodeType::Flow))
                       .arg(s.count(NodeType::Connection))
                       .arg(s.segments.size())
                       .arg(result->refineReport.loopsFound);
    if (result->bridgedGaps > 0)
        text += tr("<br>%1 hole(s) in the surface bridged").arg(result->bridgedGaps);
    if (s.count(NodeType::End) < 5)
        text += tr("<br><font color='#d66'>Fewer than 5 end nodes: touching limbs merge.<br>"
                   "Try a higher resolution.</font>");
    m_skeletonStats->setText(text);
}

void PipelinePanel::onStarted(Task stage)
{
    row(stage)->setText(1, tr("running…"));
    row(stage)->setData(1, Qt::UserRole, false);
    m_progress->setValue(0);
    m_cancel->setEnabled(true);
    m_step->setText(taskTitle(stage) + "…");
}

void PipelinePanel::onProgress(Task, const QString& step, double fraction)
{
    if (!m_document->busy())
        return; // a report queued before the stage ended
    m_progress->setValue(int(fraction * 1000));
    m_step->setText(step);
}

void PipelinePanel::onFinished(Task stage, double seconds)
{
    QTreeWidgetItem* item = row(stage);
    item->setText(1, tr("done"));
    item->setText(2, QString::number(seconds, 'f', 2) + " s");
    item->setToolTip(1, QString());
    item->setData(1, Qt::UserRole, false);
    if (stage == Task::Load || stage == Task::Project) {
        // A new character: what failed or was cancelled on the previous one no longer applies.
        for (int i = 0; i < m_stages->topLevelItemCount(); ++i) {
            QTreeWidgetItem* other = m_stages->topLevelItem(i);
            if (other != item && other->data(1, Qt::UserRole).toBool()) {
                other->setText(1, tr("waiting"));
                other->setText(2, QString());
                other->setToolTip(1, QString());
                other->setData(1, Qt::UserRole, false);
            }
        }
    }
    m_progress->setValue(1000);
    m_cancel->setEnabled(false);
    m_step->clear();
}

void PipelinePanel::onFailed(Task stage, const QString& message)
{
    QTreeWidgetItem* item = row(stage);
    item->setText(1, tr("failed"));
    item->setToolTip(1, forPeople(message));
    item->setData(1, Qt::UserRole, true); // failed or cancelled: cleared by the next successful load
    m_progress->setValue(0);
    m_cancel->setEnabled(false);
    m_step->clear();
}

void PipelinePanel::onCancelled(Task stage)
{
    row(stage)->setText(1, tr("cancelled"));
    row(stage)->setData(1, Qt::UserRole, true);
    m_progress->setValue(0);
    m_cancel->setEnabled(false);
    m_step->clear();
}

} // namespace rig::ui
