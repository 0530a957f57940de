#pragma once
/// @file parts_panel.h
/// The loaded character's parts (`characterParts()`, core/io/mesh_import.h):
/// the file's meshes by name, with their vertices, triangles, connected
/// pieces and material; the welded mesh's parts for the generated character.

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace rig::ui {

class Document;

class PartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit PartsPanel(Document* document, QWidget* parent = nullptr);

    /// Rows shown (for tests).
    int partCount() const;

private:
    void refresh();

    Document* m_document;
    QTreeWidget* m_tree;
    QLabel* m_summary;
};

} // namespace rig::ui
