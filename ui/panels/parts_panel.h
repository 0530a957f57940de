#pragma once
/// @file parts_panel.h
/// The loaded character's parts (`characterParts()`, core/import/mesh_import.h):
/// the file's meshes by name, with their vertices, triangles, connected
/// pieces and material; the welded mesh's parts for the generated character.
/// Each part can be bound to a bone (undoable, core/skin/part_binding.h), and
/// the "Weighted by" column says which bone carries it and whether rigidly.

#include <QWidget>

class QComboBox;
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
    /// The bone part `part` is bound to, empty for automatic (for tests).
    QString binding(int part) const;
    /// Chooses a bone for part `part` as the user would (empty: automatic).
    void setBinding(int part, const QString& joint);
    /// The "Weighted by" text of part `part` (for tests).
    QString weightedBy(int part) const;

private:
    void refresh();
    void refreshWeights();
    void syncBindings();
    QComboBox* boneChooser(int part);

    Document* m_document;
    QTreeWidget* m_tree;
    QLabel* m_summary;
};

} // namespace rig::ui
