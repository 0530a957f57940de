// "This does not look like a humanoid" in the Rig dock and the status bar (issue 21).
#include "ui/main_window.h"

#include "core/project/rig_project.h"
#include "ui/document.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

namespace rig::ui {
namespace {

using Kind = MainWindow::ViewportKind;

void settle(MainWindow& w)
{
    for (int round = 0; round < 100; ++round) {
        w.document()->waitForIdle();
        QCoreApplication::processEvents();
        QTest::qWait(20);
        if (!w.document()->busy())
            return;
    }
}

TEST(HumanoidWarning, AQuadrupedGetsTheWarningInTheRigDockAndTheStatusBar)
{
    const QString wuson = QStringLiteral(RIGSMITH_ASSIMP_MODELS "/X/Testwuson.X");
    if (!QFileInfo::exists(wuson))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    MainWindow w(Kind::Placeholder);
    auto* label = w.findChild<QLabel*>("humanoidWarning");
    ASSERT_NE(label, nullptr);
    QSignalSpy notices(w.document(), &Document::rigNotice);
    w.openFile(wuson);
    settle(w);
    ASSERT_TRUE(w.document()->project().hasCharacter());
    EXPECT_TRUE(w.document()->humanoidWarning().startsWith("This does not look like a humanoid"))
        << w.document()->humanoidWarning().toStdString();
    EXPECT_FALSE(label->isHidden());
    EXPECT_EQ(label->text(), w.document()->humanoidWarning());
    bool noticed = false;
    for (const auto& n : notices)
        noticed |= n.first().toString().startsWith("This does not look like a humanoid");
    EXPECT_TRUE(noticed) << "no status-bar notice";
    // A humanoid clears it.
    w.openFile("default");
    settle(w);
    EXPECT_TRUE(w.document()->humanoidWarning().isEmpty()) << w.document()->humanoidWarning().toStdString();
    EXPECT_TRUE(label->isHidden());
}

// Issue 39: a rig written although the body was found with little confidence
// says so where the refusal would have (the generated character reaching up:
// its hands above its head cost the body its confidence).
TEST(HumanoidWarning, ADoubtfulBodyAsksToCheckTheLabelsInTheRigDock)
{
    MainWindow w(Kind::Placeholder);
    auto* label = w.findChild<QLabel*>("humanoidWarning");
    ASSERT_NE(label, nullptr);
    w.openFile("default:reach");
    settle(w);
    ASSERT_TRUE(w.document()->project().rig()) << "no rig";
    EXPECT_TRUE(w.document()->humanoidWarning().startsWith("Check the labels Rigsmith chose: "))
        << w.document()->humanoidWarning().toStdString();
    EXPECT_NE(w.document()->humanoidWarning().indexOf("little confidence"), -1);
    EXPECT_FALSE(label->isHidden());
    w.openFile("default");
    settle(w);
    EXPECT_TRUE(w.document()->humanoidWarning().isEmpty()) << w.document()->humanoidWarning().toStdString();
}

} // namespace
} // namespace rig::ui
