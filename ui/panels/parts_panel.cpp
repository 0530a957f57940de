#include "ui/panels/parts_panel.h"

#include "core/io/mesh_import.h"
#include "ui/document.h"

#include <QHeaderView>
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
    m_tree->setHeaderLabels({tr("Part"), tr("Vertices"), tr("Triangles"), tr("Pieces"), tr("Material")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    layout->addWidget(m_tree);
    connect(m_document, &Document::characterChanged, this, &PartsPanel::refresh);
    refresh();
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
    }
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
