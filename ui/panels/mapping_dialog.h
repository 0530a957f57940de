#pragma once
/// @file mapping_dialog.h
/// The retargeting mapping table of the loaded clip (thesis Ch. 5, "Adjust
/// between two logic skeletons"): one row per rig joint with how it was
/// matched (name, length, covered, branch, by hand, unmapped) and the clip
/// joints driving it with their blend weights. Choosing another source joint
/// in a row corrects the correspondence (undoable); the clip is retargeted
/// again at once.

#include <QDialog>

class QLabel;
class QTableWidget;

namespace rig::ui {

class Document;

class MappingDialog : public QDialog {
    Q_OBJECT
public:
    explicit MappingDialog(Document* document, QWidget* parent = nullptr);
    QTableWidget* table() const { return m_table; }

public slots:
    /// Rebuilds the rows from the document's clip.
    void refresh();

private:
    Document* m_document;
    QTableWidget* m_table;
    QLabel* m_summary;
    bool m_filling = false;
};

} // namespace rig::ui
