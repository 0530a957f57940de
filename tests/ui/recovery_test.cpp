// Crash recovery that keeps the work (issue 21): a recovered autosave opens as
// unsaved work, Save asks where, and the autosave goes only once the work is saved.
#include "ui/main_window.h"

#include "core/export/project_file.h"
#include "core/project/rig_project.h"
#include "ui/document.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

namespace rig::ui {
namespace {

using Kind = MainWindow::ViewportKind;

/// Runs events until no stage is running or queued.
void settle(MainWindow& w)
{
    for (int round = 0; round < 50; ++round) {
        w.document()->waitForIdle();
        QCoreApplication::processEvents();
        QTest::qWait(20);
        if (!w.document()->busy())
            return;
    }
}

/// Fires the window's autosave timer once.
void autosaveNow(MainWindow& w)
{
    auto* timer = w.findChild<QTimer*>("autosaveTimer");
    ASSERT_NE(timer, nullptr);
    timer->start(1);
    QTest::qWait(50);
    timer->start(MainWindow::autosaveIntervalMs);
}

double savedGaussianA(const QString& project)
{
    const ProjectFile f = readProjectFile(project.toStdString());
    return f.weights.numbers.at("gaussian.a");
}

TEST(Recovery, ARecoveredSessionIsSavedElsewhereBeforeItsAutosaveGoes)
{
    for (const QString& old : MainWindow::recoverableAutosaves())
        QFile::remove(old);
    QTemporaryDir dir;
    const QString original = dir.filePath("hero.rsproj");
    double editedA = 0.0;
    QString autosave;
    {
        // The session that will crash: saved once, then edited (not saved).
        auto w1 = std::make_unique<MainWindow>(Kind::Placeholder);
        w1->openFile("default");
        settle(*w1);
        ASSERT_TRUE(w1->document()->project().hasCharacter());
        ASSERT_TRUE(w1->saveProjectTo(original));
        WeightOptions o = w1->document()->project().weightOptions();
        editedA = 1.3 + 0.75; // the default a of eq. 4.1, edited
        o.parameters["gaussian"]["a"] = editedA;
        w1->document()->setWeightOptions(o);
        settle(*w1);
        ASSERT_TRUE(w1->document()->isModified());
        autosaveNow(*w1);
        autosave = w1->autosavePath();
        ASSERT_TRUE(QFileInfo::exists(autosave)) << autosave.toStdString();
        EXPECT_DOUBLE_EQ(savedGaussianA(autosave), editedA);
        // While w1 runs its autosave is not a crash's: nothing to recover.
        EXPECT_FALSE(MainWindow::recoverableAutosaves().contains(autosave));
        // The crash: the window goes without closing (no closeEvent); its lock is released as the OS would.
    }
    ASSERT_TRUE(QFileInfo::exists(autosave));
    ASSERT_TRUE(MainWindow::recoverableAutosaves().contains(autosave));
    EXPECT_NE(savedGaussianA(original), editedA) << "the edit was never saved to the project";

    MainWindow w2(Kind::Placeholder);
    ASSERT_TRUE(w2.recoverAutosave(autosave));
    settle(w2);
    Document* doc = w2.document();
    ASSERT_TRUE(doc->project().hasCharacter());
    EXPECT_DOUBLE_EQ(doc->project().weightOptions().valuesOf("gaussian").at("a"), editedA);
    // Unsaved work standing for the original project, not the autosave file.
    EXPECT_TRUE(doc->isModified());
    EXPECT_TRUE(doc->isRecovered());
    EXPECT_EQ(QFileInfo(doc->projectPath()).absoluteFilePath(), QFileInfo(original).absoluteFilePath());
    EXPECT_EQ(w2.recoveredAutosave(), QFileInfo(autosave).absoluteFilePath());
    // Its own autosaves go to its own file; the recovered one is untouched.
    autosaveNow(w2);
    EXPECT_NE(w2.autosavePath(), autosave);
    EXPECT_TRUE(QFileInfo::exists(autosave)) << "deleted before the work was saved";
    EXPECT_DOUBLE_EQ(savedGaussianA(autosave), editedA);

    const QString saved = dir.filePath("recovered.rsproj");
    ASSERT_TRUE(w2.saveProjectTo(saved));
    EXPECT_DOUBLE_EQ(savedGaussianA(saved), editedA) << "the saved project lacks the recovered edit";
    EXPECT_FALSE(doc->isModified());
    EXPECT_FALSE(doc->isRecovered());
    EXPECT_FALSE(QFileInfo::exists(autosave)) << "the recovered autosave outlived the save of its work";
    EXPECT_TRUE(w2.close());
    EXPECT_TRUE(QFileInfo::exists(saved));
    EXPECT_TRUE(QFileInfo::exists(original));
    EXPECT_NE(savedGaussianA(original), editedA) << "the original was overwritten without asking";
    EXPECT_TRUE(MainWindow::recoverableAutosaves().isEmpty());
}

TEST(Recovery, ARunningInstancesAutosaveIsNeverOffered)
{
    const QString folder = MainWindow::autosaveFolder();
    // Another instance, alive: its lock is held.
    const QString live = folder + "/autosave-424242_live0-untitled.rsproj";
    const QString dead = folder + "/autosave-434343_dead0-untitled.rsproj";
    QFile::copy(QString::fromStdString(rig::test::sourcePath("tests/ui/recovery_test.cpp")), live); // contents do not matter here
    QFile::copy(QString::fromStdString(rig::test::sourcePath("tests/ui/recovery_test.cpp")), dead);
    QLockFile lock(folder + "/autosave-424242_live0.lock");
    ASSERT_TRUE(lock.tryLock(0));
    const QStringList offered = MainWindow::recoverableAutosaves();
    EXPECT_FALSE(offered.contains(live));
    EXPECT_TRUE(offered.contains(dead));
    lock.unlock();
    EXPECT_TRUE(MainWindow::recoverableAutosaves().contains(live)) << "its instance ended without cleaning up";
    // A broken autosave is refused with a message and kept for a later try.
    MainWindow w(Kind::Placeholder);
    EXPECT_FALSE(w.recoverAutosave(dead));
    EXPECT_TRUE(QFileInfo::exists(dead));
    QFile::remove(live);
    QFile::remove(dead);
}

} // namespace
} // namespace rig::ui
