#include "ui/panels/mapping_dialog.h"

#include "ui/document.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rig::ui {

MappingDialog::MappingDialog(Document* document, QWidget* parent) : QDialog(parent), m_document(document)
{
    setObjectName("mappingDialog");
    setWindowTitle(tr("Clip Joint Mapping"));
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_table = new QTableWidget(this);
    m_table->setObjectName("mappingTable");
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels({tr("Rig joint"), tr("Matched by"), tr("Clip joint(s)"), tr("Why")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);
    layout->addWidget(m_table);
    resize(760, 620);
    connect(m_document, &Document::clipChanged, this, &MappingDialog::refresh);
    refresh();
}

void MappingDialog::refresh()
{
    m_filling = true;
    m_table->setRowCount(0);
    const auto& clip = m_document->project().clip();
    if (!clip) {
        m_summary->setText(tr("No clip loaded: File ▸ Load Clip…"));
        m_filling = false;
        return;
    }
    const RetargetMapping& m = clip->retargeted.mapping;
    QString notes;
    for (const std::string& msg : m.messages)
        notes += "\n• " + QString::fromStdString(msg);
    const std::string_view rest = retargetRestName(m.restUsed);
    m_summary->setText(tr("%1: %2 of %3 rig joints follow the clip (source rest pose: %4). Pick another clip joint "
                          "to correct a row (Ctrl+Z undoes it).%5")
                           .arg(QString::fromStdString(clip->name))
                           .arg(m.mappedCount())
                           .arg(m.targetNames.size())
                           .arg(QString::fromUtf8(rest.data(), qsizetype(rest.size())))
                           .arg(notes));
    m_table->setRowCount(int(m.targetNames.size()));
    for (size_t t = 0; t < m.targetNames.size(); ++t) {
        const int row = int(t);
        const QString target = QString::fromStdString(m.targetNames[t]);
        auto* name = new QTableWidgetItem(target);
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(row, 0, name);
        const JointRetarget& j = m.joints[t];
        const std::string_view match = retargetMatchName(j.match);
        auto* kind = new QTableWidgetItem(QString::fromUtf8(match.data(), qsizetype(match.size())));
        kind->setFlags(kind->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(row, 1, kind);
        auto* why = new QTableWidgetItem(QString::fromStdString(j.note));
        why->setFlags(why->flags() & ~Qt::ItemIsEditable);
        why->setToolTip(why->text());
        m_table->setItem(row, 3, why);

        auto* combo = new QComboBox(m_table);
        combo->addItem(tr("(none: keeps its rest pose)"), QString());
        for (const std::string& s : m.sourceNames)
            combo->addItem(QString::fromStdString(s), QString::fromStdString(s));
        if (j.sources.size() > 1) {
            // A blend of several clip joints (thesis Fig. 5.7): shown as is.
            QStringList parts;
            for (const RetargetSource& s : j.sources)
                parts << QString("%1 %2").arg(QString::fromStdString(m.sourceNames[size_t(s.joint)])).arg(s.weight, 0, 'f', 2);
            combo->insertItem(1, parts.join(" + "), QStringLiteral("\x01blend"));
            combo->setCurrentIndex(1);
        } else if (j.sources.size() == 1) {
            combo->setCurrentIndex(combo->findData(QString::fromStdString(m.sourceNames[size_t(j.sources[0].joint)])));
        } else {
            combo->setCurrentIndex(0);
        }
        connect(combo, &QComboBox::currentIndexChanged, this, [this, combo, target] {
            if (m_filling)
                return;
            const QString source = combo->currentData().toString();
            if (source == QStringLiteral("\x01blend"))
                return;
            // Deferred: the edit rebuilds this table (and this combo).
            QMetaObject::invokeMethod(this, [this, target, source] { m_document->setClipMapping(target, source); },
                                      Qt::QueuedConnection);
        });
        m_table->setCellWidget(row, 2, combo);
    }
    m_table->resizeColumnsToContents();
    m_filling = false;
}

} // namespace rig::ui
