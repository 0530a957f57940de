// Issue 19: what a first-time user stumbled on. Keyboard focus (item 2),
// messages for people (item 9), displays in step with the state (item 5),
// the empty-state hint and Help ▸ Shortcuts (item 10).
#include "ui/main_window.h"

#include "core/project/rig_project.h"
#include "ui/document.h"
#include "ui/messages.h"
#include "ui/panels/timeline_panel.h"

#include "core/motion/sample_clip.h"
#include "ui/panels/joint_panel.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QDockWidget>
#include <QTest>
#include <QTreeWidget>

namespace rig::ui {
namespace {

using Kind = MainWindow::ViewportKind;

/// One window with the default character rigged and weighted, shared by the
/// tests (the stages take a while); shown and active so keys reach it.
class FirstUser : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        w = new MainWindow(Kind::Placeholder);
        w->setAskBeforeDiscarding(false);
        w->resize(1280, 800);
        w->show();
        w->openFile("default");
        w->document()->waitForIdle();
        QCoreApplication::processEvents();
    }
    static void TearDownTestSuite()
    {
        delete w;
        w = nullptr;
    }
    void SetUp() override
    {
        ASSERT_TRUE(w->document()->project().rig()) << "the default character must rig automatically";
        w->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(w));
        for (auto* box : w->findChildren<QMessageBox*>())
            box->close();
        QCoreApplication::processEvents();
    }
    static int joint(const char* name) { return *w->document()->project().rig()->skeleton.find(name); }
    static void type(QWidget* field, const QString& text)
    {
        field->setFocus();
        QCoreApplication::processEvents();
        if (auto* spin = qobject_cast<QAbstractSpinBox*>(field))
            spin->selectAll();
        QTest::keyClicks(QApplication::focusWidget(), text);
    }
    static MainWindow* w;
};
MainWindow* FirstUser::w = nullptr;

// Item 2: Enter keeps the typed angle and gives the focus back to the
// viewport; Escape drops it and does the same.
TEST_F(FirstUser, EnterAndEscapeInANumericFieldReturnTheFocusToTheViewport)
{
    const int elbow = joint("LeftForeArm");
    w->jointPanel()->setSelectedJoint(elbow);
    auto* x = w->jointPanel()->findChild<QDoubleSpinBox*>("poseAngleX");
    ASSERT_NE(x, nullptr);
    ASSERT_TRUE(x->isEnabled());
    type(x, "30");
    ASSERT_TRUE(x->hasFocus() || x->isAncestorOf(QApplication::focusWidget()));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    EXPECT_EQ(QApplication::focusWidget(), w->viewWidget());
    EXPECT_NEAR(w->jointPanel()->angles()[0], 30.0, 1e-6);
    const Eigen::Quaterniond committed = w->document()->pose().localRotations[size_t(elbow)];
    EXPECT_NEAR(committed.angularDistance(Eigen::Quaterniond::Identity()), 30.0 * M_PI / 180.0, 1e-3);

    type(x, "75");
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    EXPECT_EQ(QApplication::focusWidget(), w->viewWidget());
    EXPECT_NEAR(x->value(), 30.0, 1e-6);
    EXPECT_TRUE(w->document()->pose().localRotations[size_t(elbow)].isApprox(committed));
    w->document()->resetPose();
}

// Item 2: 1/2/3, S, Tab … work over a dock's tree (not only over the
// viewport); in a text field the same keys are typed.
TEST_F(FirstUser, SingleKeyShortcutsWorkOverANonTextDock)
{
    auto* tree = w->jointPanel()->findChild<QTreeWidget*>("jointTree");
    ASSERT_NE(tree, nullptr);
    ASSERT_GE(deformers().size(), 2u);
    tree->setFocus();
    QCoreApplication::processEvents();
    ASSERT_EQ(QApplication::focusWidget(), tree);
    QTest::keyClick(tree, Qt::Key_2);
    EXPECT_EQ(w->document()->deformer(), deformers()[1].id);
    QTest::keyClick(tree, Qt::Key_1);
    EXPECT_EQ(w->document()->deformer(), deformers()[0].id);
    const bool pose = w->poseMode();
    QTest::keyClick(tree, Qt::Key_Tab);
    EXPECT_NE(w->poseMode(), pose);
    // Tab toggled the mode; it did not move the focus on to a field.
    QWidget* focus = QApplication::focusWidget();
    EXPECT_TRUE(focus == tree || focus == w->viewWidget()) << (focus ? focus->objectName().toStdString() : "none");
    QTest::keyClick(focus, Qt::Key_Tab);
    EXPECT_EQ(w->poseMode(), pose);

    // Over the viewport too.
    w->viewWidget()->setFocus();
    QTest::keyClick(w->viewWidget(), Qt::Key_2);
    EXPECT_EQ(w->document()->deformer(), deformers()[1].id);
    QTest::keyClick(w->viewWidget(), Qt::Key_1);

    // In a numeric field, a digit is typed, not a deformer change.
    w->jointPanel()->setSelectedJoint(joint("LeftForeArm"));
    auto* x = w->jointPanel()->findChild<QDoubleSpinBox*>("poseAngleX");
    type(x, "2");
    EXPECT_EQ(w->document()->deformer(), deformers()[0].id);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    EXPECT_EQ(QApplication::focusWidget(), w->viewWidget());
}

// Item 9: core's "rig::assignRoot(): …" reaches the artist as a sentence;
// the function name stays in the log.
TEST(Messages, FunctionNamesAreLeftOutAndTheFirstSentenceIsShort)
{
    const QString core = "rig::assignRoot(): the lhand branch (end node 12) joins the body at the hips, not above "
                         "them; check the labels";
    const QString people = forPeople(core);
    EXPECT_FALSE(people.contains("assignRoot")) << people.toStdString();
    EXPECT_FALSE(people.contains("()")) << people.toStdString();
    EXPECT_TRUE(people.startsWith("The lhand branch")) << people.toStdString();
    EXPECT_TRUE(people.endsWith("check the labels.")) << people.toStdString();
    // Nested and repeated prefixes, a message that is already a sentence.
    EXPECT_EQ(forPeople("rig::io::readObj(): fitTemplate(): bad face."), "Bad face.");
    EXPECT_EQ(forPeople("Open a character first."), "Open a character first.");

    const QString longer = joinSentences("No rig yet: " + core, "Label the end nodes by clicking the spheres.");
    EXPECT_TRUE(longer.contains("check the labels. Label the end nodes")) << longer.toStdString();
    const QString brief = shortSentence(longer, 80);
    EXPECT_LE(brief.size(), 80);
    EXPECT_FALSE(brief.contains("assignRoot"));
    EXPECT_FALSE(brief.contains("Label the end nodes")); // only the first sentence
    EXPECT_EQ(shortSentence("First one. Second one."), "First one.");
}

TEST_F(FirstUser, AFailedStageShowsASentenceAndTheWholeMessageWithoutFunctionNames)
{
    const QString core = "rig::assignRoot(): the lhand branch (end node 12) joins the body at the hips, not above "
                         "them; check the labels. Label the end nodes by clicking the spheres, or rebuild the "
                         "skeleton at another resolution.";
    emit w->document()->stageFailed(Task::Rig, core);
    QCoreApplication::processEvents();
    const QString status = w->statusBar()->currentMessage();
    EXPECT_FALSE(status.isEmpty());
    EXPECT_FALSE(status.contains("::")) << status.toStdString();
    EXPECT_FALSE(status.contains("Label the end nodes")) << status.toStdString();
    auto* box = w->findChild<QMessageBox*>("errorBox");
    ASSERT_NE(box, nullptr);
    EXPECT_FALSE(box->text().contains("assignRoot")) << box->text().toStdString();
    EXPECT_TRUE(box->text().contains("Label the end nodes by clicking the spheres")) << box->text().toStdString();
    box->close();

    // A notice (not a failure) also keeps its whole text behind Details.
    emit w->document()->rigNotice(core);
    QCoreApplication::processEvents();
    EXPECT_FALSE(w->statusBar()->currentMessage().contains("assignRoot"));
    auto* details = w->findChild<QWidget*>("messageDetails");
    ASSERT_NE(details, nullptr);
    EXPECT_TRUE(details->isEnabled());
    EXPECT_TRUE(w->lastMessageFull().contains("rebuild the skeleton at another resolution"));
}

// Item 5: a pick in the Pose tree shows that joint's weights in the heat map.
TEST_F(FirstUser, PickingAJointInThePoseTreeUpdatesTheHeatMap)
{
    auto* tree = w->jointPanel()->findChild<QTreeWidget*>("jointTree");
    const int knee = joint("RightLeg");
    QTreeWidgetItem* item = nullptr;
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        if ((*it)->data(0, Qt::UserRole).toInt() == knee)
            item = *it;
    ASSERT_NE(item, nullptr);
    // The artist brings the Pose tab forward first (the docks share one tab group).
    for (QWidget* p = tree; p; p = p->parentWidget())
        if (auto* dock = qobject_cast<QDockWidget*>(p))
            dock->raise();
    QCoreApplication::processEvents();
    ASSERT_TRUE(tree->isVisible());
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
    EXPECT_EQ(w->jointPanel()->selectedJoint(), knee);
    EXPECT_EQ(w->heatMapJoint(), knee);
}

// Item 5: a later successful load clears the Pipeline table's failed rows.
TEST_F(FirstUser, ASuccessfulLoadClearsTheFailedRowsOfThePipelineTable)
{
    auto* table = w->findChild<QTreeWidget*>();
    for (auto* t : w->findChildren<QTreeWidget*>())
        if (t->headerItem()->text(0) == "Stage")
            table = t;
    auto rowOf = [table](const QString& stage) -> QTreeWidgetItem* {
        for (int i = 0; i < table->topLevelItemCount(); ++i)
            if (table->topLevelItem(i)->data(0, Qt::UserRole).toString() == stage)
                return table->topLevelItem(i);
        return nullptr;
    };
    emit w->document()->stageFailed(Task::Clip, "rig::loadClip(): walk.bvh: no such file");
    QCoreApplication::processEvents();
    ASSERT_NE(rowOf("clip"), nullptr);
    EXPECT_EQ(rowOf("clip")->text(1), "failed");
    EXPECT_FALSE(rowOf("clip")->toolTip(1).contains("loadClip"));
    for (auto* box : w->findChildren<QMessageBox*>())
        box->close();

    // A broken file fails to load: the load row says so; the default character then loads.
    QTemporaryDir dir;
    const QString broken = dir.filePath("broken.fbx");
    QFile f(broken);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("not an FBX");
    f.close();
    w->openFile(broken);
    w->document()->waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_EQ(rowOf("load")->text(1), "failed");
    for (auto* box : w->findChildren<QMessageBox*>())
        box->close();
    w->openFile("default");
    w->document()->waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_EQ(rowOf("load")->text(1), "done");
    EXPECT_TRUE(rowOf("load")->toolTip(1).isEmpty());
    EXPECT_NE(rowOf("clip")->text(1), "failed");
    EXPECT_TRUE(rowOf("clip")->toolTip(1).isEmpty());
}

// Item 5: a reopened project shows the pose of the timeline's current frame.
TEST_F(FirstUser, AReopenedProjectShowsThePoseOfTheCurrentFrame)
{
    const QString walk = "/usr/share/assimp/models/BVH/01_01.bvh";
    if (!QFile::exists(walk))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    w->document()->loadClip(walk);
    w->document()->waitForIdle();
    QCoreApplication::processEvents();
    ASSERT_TRUE(w->document()->project().clip());
    QTemporaryDir dir;
    const QString project = dir.filePath("walk.rsproj");
    ASSERT_TRUE(w->saveProjectTo(project));

    auto showsTheFrame = [](MainWindow& win) {
        const auto& clip = win.document()->project().clip();
        if (!clip)
            return ::testing::AssertionFailure() << "no clip";
        const Pose expected = sampleClip(clip->retargeted, win.timeline()->time());
        const Pose& shown = win.document()->pose();
        if (shown.localRotations.size() != expected.localRotations.size())
            return ::testing::AssertionFailure() << "pose of another rig";
        for (size_t j = 0; j < shown.localRotations.size(); ++j)
            if (shown.localRotations[j].angularDistance(expected.localRotations[j]) > 1e-6)
                return ::testing::AssertionFailure()
                       << "joint " << j << " is not at frame " << win.timeline()->frame() << " (off by "
                       << shown.localRotations[j].angularDistance(expected.localRotations[j]) << " rad; identity: "
                       << shown.localRotations[j].angularDistance(Eigen::Quaterniond::Identity()) << ")";
        if (!win.poseMode())
            return ::testing::AssertionFailure() << "not in Pose mode";
        return ::testing::AssertionSuccess();
    };
    // In a new window (the next session) and in the same one, at a later frame.
    MainWindow again(Kind::Placeholder);
    again.setAskBeforeDiscarding(false);
    again.openFile(project);
    again.document()->waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_TRUE(showsTheFrame(again));
    w->timeline()->setFrame(40);
    ASSERT_TRUE(showsTheFrame(*w));
    w->openFile(project);
    w->document()->waitForIdle();
    QCoreApplication::processEvents();
    EXPECT_TRUE(showsTheFrame(*w));
    w->document()->clearClip();
    w->setPoseMode(false);
}

// Item 10: an empty-state hint over the empty viewport, gone once a character is loaded.
TEST(FirstRun, TheEmptyViewportSaysWhatToDoFirst)
{
    MainWindow w(Kind::Placeholder);
    w.resize(1280, 800);
    w.show();
    QCoreApplication::processEvents();
    auto* hint = w.findChild<QWidget*>("emptyHint");
    ASSERT_NE(hint, nullptr);
    EXPECT_TRUE(hint->isVisible());
    const QString text = w.findChild<QLabel*>("emptyHintText")->text();
    EXPECT_TRUE(text.contains("Ctrl+O")) << text.toStdString();
    EXPECT_TRUE(text.contains("drop a file")) << text.toStdString();
    EXPECT_TRUE(text.contains("default character")) << text.toStdString();
    EXPECT_TRUE(w.viewWidget()->rect().contains(hint->geometry()));

    w.document()->setAutoSkeleton(false);
    w.findChild<QPushButton*>("emptyHintDefault")->click();
    w.document()->waitForIdle();
    QCoreApplication::processEvents();
    ASSERT_TRUE(w.document()->project().hasCharacter());
    EXPECT_FALSE(hint->isVisible());
}

// Item 10: Help ▸ Shortcuts lists the keys of the window's actions.
TEST(FirstRun, HelpShortcutsListsTheKeys)
{
    MainWindow w(Kind::Placeholder);
    auto* action = w.findChild<QAction*>("actionShortcuts");
    ASSERT_NE(action, nullptr);
    action->trigger();
    auto* sheet = w.findChild<QDialog*>("shortcutsSheet");
    ASSERT_NE(sheet, nullptr);
    auto* table = sheet->findChild<QTableWidget*>("shortcutsTable");
    ASSERT_NE(table, nullptr);
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << table->item(r, 0)->text() + " = " + table->item(r, 1)->text();
    for (const char* expected : {"Home = Frame All", "F, Num+. = Frame Selected", "Tab = Next Mode (Rig, Pose, Paint)", "Space = Play / Pause", "Ctrl+O = Open…"})
        EXPECT_TRUE(rows.contains(expected)) << expected << "\n" << rows.join("\n").toStdString();
    sheet->close();
}

} // namespace
} // namespace rig::ui
