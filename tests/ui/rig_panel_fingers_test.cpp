// The Rig dock's Fingers row (issue 18): the choice refits at once, is undoable and shows.
#include "ui/main_window.h"

#include "core/eval/joint_map.h"
#include "core/project/rig_project.h"
#include "ui/document.h"

#include "tests/support/qt/open_and_fit.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QUndoStack>

namespace rig::ui {
namespace {

using test::openAndFit;

/// Picks `id` in a combo box as a user does (the box's `activated` signal).
void pick(QComboBox* box, const QVariant& id)
{
    const int i = box->findData(id);
    ASSERT_GE(i, 0) << id.toString().toStdString();
    box->setCurrentIndex(i);
    emit box->activated(i);
}

TEST(RigPanelFingers, FingersFromTheHandsShapeRefitAndUndo)
{
    MainWindow w(MainWindow::ViewportKind::Placeholder);
    openAndFit(w, "default");
    ASSERT_TRUE(w.document()->project().rig());
    w.document()->waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_EQ(w.document()->project().rig()->skeleton.jointCount(), 21);
    auto* mode = w.findChild<QComboBox*>("fingerMode");
    auto* count = w.findChild<QComboBox*>("fingerCount");
    ASSERT_NE(mode, nullptr);
    ASSERT_NE(count, nullptr);

    auto* templateName = w.findChild<QLabel*>("templateName");
    ASSERT_NE(templateName, nullptr);
    pick(mode, "shape");
    ASSERT_TRUE(w.document()->project().rig());
    EXPECT_EQ(w.document()->project().fingerOptions().mode, FingerMode::Shape);
    EXPECT_EQ(w.document()->project().rig()->skeleton.jointCount(), 51);
    // The dock names what was fitted (it kept saying "humanoid21 (21 joints)").
    EXPECT_TRUE(templateName->text().contains("51 joints")) << templateName->text().toStdString();
    EXPECT_TRUE(templateName->text().contains("fingers")) << templateName->text().toStdString();
    pick(count, 4);
    EXPECT_EQ(mapFingerJoints(w.document()->project().rig()->skeleton).fingers(0), 4);

    w.document()->waitForIdle();
    QCoreApplication::processEvents();
    w.document()->undoStack()->undo(); // back to five fingers
    w.document()->undoStack()->undo(); // back to none
    QCoreApplication::processEvents();
    EXPECT_EQ(w.document()->project().fingerOptions().mode, FingerMode::None);
    ASSERT_TRUE(w.document()->project().rig());
    EXPECT_EQ(w.document()->project().rig()->skeleton.jointCount(), 21);
    EXPECT_EQ(mode->currentData().toString(), "none");
    EXPECT_TRUE(templateName->text().contains("21 joints")) << templateName->text().toStdString();
}

} // namespace
} // namespace rig::ui
