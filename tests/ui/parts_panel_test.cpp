// The parts list (issues 17, 18): binding a part to a bone from the panel is
// one undo step, every vertex of the part follows that bone, and the
// "Weighted by" column reports it.
#include "ui/panels/parts_panel.h"

#include "core/import/mesh_import.h"
#include "ui/document.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDockWidget>
#include <QFontMetrics>
#include <QHeaderView>
#include <QTreeWidget>
#include <QUndoStack>

namespace rig::ui {
namespace {

/// Every vertex of part `part` has weight 1 on joint `joint`.
bool partIsRigidOn(const Document& doc, int part, const std::string& joint)
{
    const auto& p = doc.project();
    const int j = *p.rig()->skeleton.find(joint);
    const SkinWeights& w = p.skinning()->weights;
    const auto vertices = partVertices(p.character()->imported);
    for (int v : vertices[static_cast<size_t>(part)])
        if (w.joints(v, 0) != j || w.weights(v, 0) != 1.0f)
            return false;
    return true;
}

TEST(PartsPanel, BindingAPartToABoneIsUndoableAndReported)
{
    Document doc;
    PartsPanel panel(&doc);
    doc.openCharacter("default+props");
    doc.waitForIdle();
    ASSERT_TRUE(doc.project().rig() && doc.project().skinning());
    ASSERT_EQ(panel.partCount(), 4);
    EXPECT_EQ(panel.binding(3), "");
    const int steps = doc.undoStack()->count();

    panel.setBinding(3, "RightHand"); // the prop
    doc.waitForIdle();
    EXPECT_EQ(doc.undoStack()->count(), steps + 1);
    ASSERT_EQ(doc.project().partBindings().size(), 1u);
    EXPECT_EQ(doc.project().partBindings()[0].partName, "prop");
    ASSERT_TRUE(doc.project().skinningCurrent());
    EXPECT_TRUE(partIsRigidOn(doc, 3, "RightHand"));
    EXPECT_EQ(panel.weightedBy(3), "RightHand (rigid)");
    EXPECT_TRUE(doc.isModified());

    doc.undoStack()->undo();
    doc.waitForIdle();
    EXPECT_TRUE(doc.project().partBindings().empty());
    EXPECT_EQ(panel.binding(3), "");
    doc.undoStack()->redo();
    doc.waitForIdle();
    EXPECT_EQ(panel.binding(3), "RightHand");
    EXPECT_TRUE(partIsRigidOn(doc, 3, "RightHand"));
}

// In the main window's Parts dock, at the default layout's width, each part's
// name shows in full (the other columns squeezed it to "b…", "e…", "p…").
TEST(PartsPanel, NamesShowInFullInTheDock)
{
    MainWindow window(MainWindow::ViewportKind::Placeholder);
    window.setAskBeforeDiscarding(false);
    window.resize(1600, 1000);
    window.show();
    window.openFile("default+props");
    window.document()->waitForIdle();
    if (auto* d = window.findChild<QDockWidget*>("partsDock"))
        d->raise();
    QCoreApplication::processEvents();
    auto* tree = window.findChild<QTreeWidget*>("partsTree");
    ASSERT_NE(tree, nullptr);
    ASSERT_EQ(tree->topLevelItemCount(), 4);
    const QFontMetrics fm(tree->font());
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QString name = tree->topLevelItem(i)->text(0);
        EXPECT_GE(tree->header()->sectionSize(0), fm.horizontalAdvance(name)) << name.toStdString();
    }
}

} // namespace
} // namespace rig::ui
