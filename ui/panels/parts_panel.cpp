#include "ui/panels/parts_panel.h"

#include "core/import/mesh_import.h"
#include "core/skin/part_binding.h"
#include "ui/document.h"

#include <QComboBox>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rig::ui {

PartsPanel::PartsPanel(Document* document, QWidget* parent) : QWidget(parent), m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(tr("No character loaded"));
    m_summary->setObjectName("partsSummary");
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_tree = new QTreeWidget;
    m_tree->setObjectName("partsTree");
    m_tree->setRootIsDecorated(false);
    m_tree->setHeaderLabels({tr("Part"), tr("Vertices"), tr("Triangles"), tr("Pieces"), tr("Material"), tr("Bone"),
                             tr("Weighted by")});
    m_tree->headerItem()->setToolTip(5, tr("Automatic: the weight method decides. A bone: the whole part follows "
                                           "it rigidly (helmets, eyes, weapons, jewellery). Undoable."));
    m_tree->headerItem()->setToolTip(6, tr("The bone carrying most of the part's weight and its share; "
                                           "\"rigid\" when every vertex follows that bone alone."));
    // Every column as wide as its contents (the part's name in full; the dock
    // scrolls sideways when narrow), the last one taking what is left.
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    layout->addWidget(m_tree);
    connect(m_document, &Document::characterChanged, this, &PartsPanel::refresh);
    connect(m_document, &Document::rigChanged, this, &PartsPanel::refresh);
    // Not a rebuild: the combo box that made the change is still emitting.
    connect(m_document, &Document::partBindingsChanged, this, &PartsPanel::syncBindings);
    connect(m_document, &Document::skinningChanged, this, &PartsPanel::refreshWeights);
    refresh();
}

QString PartsPanel::binding(int part) const
{
    auto* item = m_tree->topLevelItem(part);
    auto* combo = item ? qobject_cast<QComboBox*>(m_tree->itemWidget(item, 5)) : nullptr;
    return combo && combo->currentIndex() > 0 ? combo->currentText() : QString();
}

void PartsPanel::setBinding(int part, const QString& joint)
{
    auto* item = m_tree->topLevelItem(part);
    auto* combo = item ? qobject_cast<QComboBox*>(m_tree->itemWidget(item, 5)) : nullptr;
    if (combo)
        combo->setCurrentIndex(joint.isEmpty() ? 0 : combo->findText(joint));
}

QString PartsPanel::weightedBy(int part) const
{
    auto* item = m_tree->topLevelItem(part);
    return item ? item->text(6) : QString();
}

void PartsPanel::syncBindings()
{
    for (int k = 0; k < m_tree->topLevelItemCount(); ++k) {
        auto* combo = qobject_cast<QComboBox*>(m_tree->itemWidget(m_tree->topLevelItem(k), 5));
        if (!combo)
            continue;
        int index = 0;
        for (const PartBinding& b : m_document->project().partBindings())
            if (b.part == k)
                index = std::max(0, combo->findText(QString::fromStdString(b.joint)));
        const QSignalBlocker block(combo);
        combo->setCurrentIndex(index);
    }
}

/// The bone column: "Automatic" or one of the rig's joints, the current binding selected.
QComboBox* PartsPanel::boneChooser(int part)
{
    auto* combo = new QComboBox;
    combo->addItem(tr("Automatic"));
    const auto& rig = m_document->project().rig();
    if (rig)
        for (const std::string& name : rig->skeleton.names)
            combo->addItem(QString::fromStdString(name));
    combo->setEnabled(rig != nullptr);
    for (const PartBinding& b : m_document->project().partBindings())
        if (b.part == part)
            combo->setCurrentIndex(std::max(0, combo->findText(QString::fromStdString(b.joint))));
    connect(combo, &QComboBox::currentIndexChanged, this, [this, part, combo](int index) {
        m_document->setPartBinding(part, index > 0 ? combo->currentText() : QString());
    });
    return combo;
}

void PartsPanel::refreshWeights()
{
    const RigProject& p = m_document->project();
    if (!p.character() || !p.rig() || !p.skinning() ||
        p.skinning()->weights.vertexCount() != p.character()->imported.mesh.vertexCount())
        return;
    std::vector<std::string> names;
    for (const CharacterPart& part : characterParts(p.character()->imported))
        names.push_back(part.name);
    const auto rows = partWeights(p.skinning()->weights, p.rig()->skeleton, partVertices(p.character()->imported),
                                  names, p.partBindings());
    for (size_t k = 0; k < rows.size() && k < static_cast<size_t>(m_tree->topLevelItemCount()); ++k) {
        const PartWeights& r = rows[k];
        const QString text = r.rigid ? tr("%1 (rigid)").arg(QString::fromStdString(r.dominantJoint))
                                     : tr("%1 %2%, %3 bones/vertex")
                                           .arg(QString::fromStdString(r.dominantJoint))
                                           .arg(qRound(100 * r.dominantShare))
                                           .arg(r.meanInfluences, 0, 'f', 1);
        m_tree->topLevelItem(static_cast<int>(k))->setText(6, text);
    }
    m_tree->resizeColumnToContents(6);
}

int PartsPanel::partCount() const { return m_tree->topLevelItemCount(); }

void PartsPanel::refresh()
{
    m_tree->clear();
    const auto& character = m_document->project().character();
    if (!character) {
        m_summary->setText(tr("No character loaded"));
        return;
    }
    const ImportedCharacter& c = character->imported;
    const auto parts = characterParts(c);
    for (const CharacterPart& p : parts) {
        auto* item = new QTreeWidgetItem(m_tree);
        item->setText(0, QString::fromStdString(p.name));
        item->setText(1, QString::number(p.vertices));
        item->setText(2, QString::number(p.triangles));
        item->setText(3, QString::number(p.components));
        item->setText(4, QString::fromStdString(p.material));
        for (int k = 1; k <= 3; ++k)
            item->setTextAlignment(k, Qt::AlignRight | Qt::AlignVCenter);
        m_tree->setItemWidget(item, 5, boneChooser(m_tree->indexOfTopLevelItem(item)));
    }
    refreshWeights();
    for (int k = 1; k < m_tree->columnCount(); ++k)
        m_tree->resizeColumnToContents(k);
    if (c.source.empty())
        m_summary->setText(tr("%n part(s) of the generated mesh (no file data)", "", static_cast<int>(parts.size())));
    else
        m_summary->setText(tr("%1 mesh(es) as the file has them: %2 vertices (%3 welded), %4 material(s), %5 texture(s)")
                               .arg(parts.size())
                               .arg(c.info.fileVertices)
                               .arg(c.mesh.vertexCount())
                               .arg(c.source.materials.size())
                               .arg(c.source.textures.size()));
    for (const std::string& w : c.source.warnings)
        m_summary->setText(m_summary->text() + "\n" + QString::fromStdString(w));
}

} // namespace rig::ui
