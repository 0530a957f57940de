// The Rig dock says what the fit did and warns about implausible fits (issue 14).
#include "ui/main_window.h"

#include "core/project/rig_project.h"
#include "ui/document.h"
#include "ui/panels/rig_panel.h"

#include "tests/support/qt/open_and_fit.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QLabel>
#include <QSignalSpy>

namespace rig::ui {
namespace {

using test::openAndFit;

TEST(RigPanel, ShowsTheClothNoteOfASkirt)
{
    MainWindow w(MainWindow::ViewportKind::Placeholder);
    openAndFit(w, "default+skirt");
    ASSERT_TRUE(w.document()->project().rig());
    const auto* notes = w.findChild<QLabel*>("fitNotes");
    ASSERT_NE(notes, nullptr);
    EXPECT_FALSE(notes->isHidden());
    EXPECT_TRUE(notes->text().contains("legs joined by cloth")) << notes->text().toStdString();
}

TEST(RigPanel, APlausibleFitShowsNothing)
{
    MainWindow w(MainWindow::ViewportKind::Placeholder);
    openAndFit(w, "default");
    ASSERT_TRUE(w.document()->project().rig());
    const auto* notes = w.findChild<QLabel*>("fitNotes");
    ASSERT_NE(notes, nullptr);
    EXPECT_TRUE(notes->isHidden());
}

TEST(RigPanel, AWarningSelectsItsJoint)
{
    MainWindow w(MainWindow::ViewportKind::Placeholder);
    openAndFit(w, "default");
    ASSERT_TRUE(w.document()->project().rig());
    auto* panel = w.rigPanel();
    ASSERT_NE(panel, nullptr);
    QSignalSpy spy(panel, &RigPanel::warningJoint);
    // Drag the hips below the knees: the fit is implausible now.
    const Skeleton& s = w.document()->project().rig()->skeleton;
    const int hips = *s.find("Hips");
    Vec3 p = s.bindPositions.row(hips).transpose();
    p.y() = s.bindPositions(*s.find("LeftLeg"), 1) - 0.05;
    for (int i = 0; i < 50 && !w.document()->moveJoint(hips, p); ++i) { // refused while the weights run
        w.document()->waitForIdle();
        QCoreApplication::processEvents();
    }
    w.document()->waitForIdle();
    QCoreApplication::processEvents();
    ASSERT_GE(spy.count(), 1);
    EXPECT_EQ(spy.last().first().toInt(), hips);
    const auto* notes = w.findChild<QLabel*>("fitNotes");
    EXPECT_TRUE(notes->text().contains("below the knee")) << notes->text().toStdString();
}

} // namespace
} // namespace rig::ui
