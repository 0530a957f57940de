// Issue 19 item 7: at 1280×800 and 1600×1000 the Rig, Weights and Pose docks
// show their main controls without scrolling (the Pipeline above one tab group).
#include "ui/main_window.h"

#include "ui/document.h"

#include <gtest/gtest.h>

#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTest>

namespace rig::ui {
namespace {

class DockLayout : public ::testing::TestWithParam<QSize> {};

TEST_P(DockLayout, MainControlsOfEachDockAreVisibleWithoutScrolling)
{
    QSettings().remove("window/state"); // the default layout, as on a first start
    QSettings().remove("window/geometry");
    MainWindow w(MainWindow::ViewportKind::Placeholder);
    w.openFile("default");
    w.document()->waitForIdle();
    ASSERT_TRUE(w.document()->project().skinning());
    w.resize(GetParam());
    w.show();
    QCoreApplication::processEvents();
    ASSERT_EQ(w.size(), GetParam());
    const std::vector<std::pair<const char*, std::vector<const char*>>> docks = {
        {"rigDock", {"templateName", "upAxis", "facing", "autoLabel", "pick_head", "jointName", "jointX", "jointY", "jointZ",
                     "mirrorEdits"}},
        {"weightDock", {"weightMethod", "segmentationMethod", "weightParameters", "meshColoring", "recomputeWeights"}},
        {"poseDock", {"jointTree", "poseJointName", "poseAngleX", "poseAngleY", "poseAngleZ", "deformerCombo",
                      "resetPoseButton"}},
    };
    for (const auto& [name, controls] : docks) {
        auto* dock = w.findChild<QDockWidget*>(name);
        ASSERT_NE(dock, nullptr) << name;
        dock->raise();
        QCoreApplication::processEvents();
        ASSERT_TRUE(dock->isVisible()) << name;
        auto* area = qobject_cast<QScrollArea*>(dock->widget());
        ASSERT_NE(area, nullptr) << name;
        EXPECT_EQ(area->verticalScrollBar()->maximum(), 0)
            << name << " scrolls at " << GetParam().width() << "x" << GetParam().height() << ": needs "
            << area->widget()->minimumSizeHint().height() << " px, has " << area->viewport()->height();
        for (const char* control : controls) {
            auto* c = area->widget()->findChild<QWidget*>(control);
            ASSERT_NE(c, nullptr) << name << " " << control;
            EXPECT_TRUE(c->isVisible()) << name << " " << control;
            const QRect r(c->mapTo(area->viewport(), QPoint(0, 0)), c->size());
            EXPECT_TRUE(area->viewport()->rect().contains(r)) << name << " " << control << " is outside the view";
        }
    }
    w.findChild<QDockWidget*>("rigDock")->raise();
}

INSTANTIATE_TEST_SUITE_P(Issue19, DockLayout, ::testing::Values(QSize(1280, 800), QSize(1600, 1000)),
                         [](const auto& info) {
                             return std::to_string(info.param.width()) + "x" + std::to_string(info.param.height());
                         });

} // namespace
} // namespace rig::ui
