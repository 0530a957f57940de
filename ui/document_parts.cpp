// Document: binding parts of the character to a bone (core/skin/part_binding.h).
#include "ui/document.h"

#include "core/import/mesh_import.h"

#include <QUndoCommand>

#include <algorithm>

namespace rig::ui {

/// One undoable change of the part bindings: the whole list before and after.
class PartBindingCommand : public QUndoCommand {
public:
    PartBindingCommand(Document* doc, const QString& text, std::vector<PartBinding> before,
                       std::vector<PartBinding> after)
        : QUndoCommand(text), m_doc(doc), m_before(std::move(before)), m_after(std::move(after))
    {
    }
    void undo() override { m_doc->applyPartBindings(m_before); }
    void redo() override { m_doc->applyPartBindings(m_after); }

private:
    Document* m_doc;
    std::vector<PartBinding> m_before, m_after;
};

void Document::setPartBinding(int part, const QString& joint)
{
    if (!m_project.character())
        return;
    const std::vector<CharacterPart> parts = characterParts(m_project.character()->imported);
    if (part < 0 || part >= static_cast<int>(parts.size()))
        return;
    std::vector<PartBinding> after = m_project.partBindings();
    std::erase_if(after, [part](const PartBinding& b) { return b.part == part; });
    const std::string name = parts[static_cast<size_t>(part)].name;
    if (!joint.isEmpty())
        after.push_back({part, name, joint.toStdString()});
    std::sort(after.begin(), after.end(), [](const PartBinding& a, const PartBinding& b) { return a.part < b.part; });
    if (after == m_project.partBindings())
        return;
    const QString text = joint.isEmpty() ? tr("Weight part %1 automatically").arg(QString::fromStdString(name))
                                         : tr("Bind part %1 to %2").arg(QString::fromStdString(name), joint);
    m_undo.push(new PartBindingCommand(this, text, m_project.partBindings(), std::move(after)));
}

void Document::applyPartBindings(const std::vector<PartBinding>& bindings)
{
    m_project.setPartBindings(bindings);
    setModified(true);
    emit partBindingsChanged();
    advance();
}

} // namespace rig::ui
