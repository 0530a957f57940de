#include "ui/panels/pipeline_panel.h"

#include "ui/document.h"

#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rig::ui {
namespace {

QString stageTitle(const QString& stage)
{
    if (stage == "load")
        return QObject::tr("Load character");
    return stage;
}

} // namespace

PipelinePanel::PipelinePanel(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    setObjectName("pipelinePanel");
    auto* layout = new QVBoxLayout(this);
    m_stages = new QTreeWidget(this);
    m_stages->setColumnCount(3);
    m_stages->setHeaderLabels({tr("Stage"), tr("State"), tr("Time")});
    m_stages->setRootIsDecorated(false);
    m_stages->header()->setSectionResizeMode(0, QHeaderView::Stretch);
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
    row("load");

    connect(m_cancel, &QPushButton::clicked, m_document, &Document::cancel);
    connect(m_document, &Document::stageStarted, this, &PipelinePanel::onStarted);
    connect(m_document, &Document::progressChanged, this, &PipelinePanel::onProgress);
    connect(m_document, &Document::stageFinished, this, &PipelinePanel::onFinished);
    connect(m_document, &Document::stageFailed, this, &PipelinePanel::onFailed);
    connect(m_document, &Document::stageCancelled, this, &PipelinePanel::onCancelled);
}

QTreeWidgetItem* PipelinePanel::row(const QString& stage)
{
    for (int i = 0; i < m_stages->topLevelItemCount(); ++i)
        if (m_stages->topLevelItem(i)->data(0, Qt::UserRole).toString() == stage)
            return m_stages->topLevelItem(i);
    auto* item = new QTreeWidgetItem(m_stages, {stageTitle(stage), tr("waiting"), QString()});
    item->setData(0, Qt::UserRole, stage);
    return item;
}

void PipelinePanel::onStarted(const QString& stage)
{
    row(stage)->setText(1, tr("running…"));
    m_progress->setValue(0);
    m_cancel->setEnabled(true);
    m_step->setText(stageTitle(stage) + "…");
}

void PipelinePanel::onProgress(const QString&, const QString& step, double fraction)
{
    m_progress->setValue(int(fraction * 1000));
    m_step->setText(step);
}

void PipelinePanel::onFinished(const QString& stage, double seconds)
{
    QTreeWidgetItem* item = row(stage);
    item->setText(1, tr("done"));
    item->setText(2, QString::number(seconds, 'f', 2) + " s");
    m_progress->setValue(1000);
    m_cancel->setEnabled(false);
    m_step->clear();
}

void PipelinePanel::onFailed(const QString& stage, const QString& message)
{
    QTreeWidgetItem* item = row(stage);
    item->setText(1, tr("failed"));
    item->setToolTip(1, message);
    m_progress->setValue(0);
    m_cancel->setEnabled(false);
    m_step->clear();
}

void PipelinePanel::onCancelled(const QString& stage)
{
    row(stage)->setText(1, tr("cancelled"));
    m_progress->setValue(0);
    m_cancel->setEnabled(false);
    m_step->clear();
}

} // namespace rig::ui
