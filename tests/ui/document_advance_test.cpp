// Issue 43 item 1: the Document asks core what to run next (`nextStage()`)
// and its signals carry the task, not a string.
#include "ui/document.h"

#include <gtest/gtest.h>

#include <QSignalSpy>

namespace rig::ui {
namespace {

int startsOf(const QSignalSpy& started, Task task)
{
    int n = 0;
    for (const auto& args : started)
        n += args.at(0).value<Task>() == task;
    return n;
}

TEST(DocumentAdvance, StageSignalsCarryTheTaskAndReadAsItsId)
{
    Document doc;
    QSignalSpy finished(&doc, &Document::stageFinished);
    doc.openCharacter("default");
    doc.waitForIdle();
    ASSERT_GE(finished.count(), 3);
    EXPECT_EQ(finished.at(0).at(0).value<Task>(), Task::Load);
    EXPECT_EQ(finished.at(0).at(0).toString(), "load"); // logs and spies read the core id
    EXPECT_EQ(finished.at(1).at(0).value<Task>(), Task::Skeleton);
    EXPECT_EQ(taskName(Task::Project), "project");
    for (const Stage s : allStages())
        EXPECT_EQ(stageOf(taskOf(s)), s);
    EXPECT_FALSE(stageOf(Task::Autosave));
}

// Cancelling the automatic weights stage holds: before, the document ran
// whatever the project lacked after every stage, so the next stage to end (here
// a clip that fails to load) started the cancelled weights again.
TEST(DocumentAdvance, ACancelledAutomaticStageStaysCancelledUntilItsInputsChange)
{
    Document doc;
    QSignalSpy started(&doc, &Document::stageStarted);
    QSignalSpy cancelled(&doc, &Document::stageCancelled);
    bool asked = false;
    QObject::connect(&doc, &Document::stageStarted, &doc, [&](Task task) {
        if (task == Task::Weights && !asked) {
            asked = true;
            doc.cancel(); // before the worker's first progress report
        }
    });
    doc.openCharacter("default");
    doc.waitForIdle();
    ASSERT_EQ(cancelled.count(), 1);
    EXPECT_EQ(cancelled.at(0).at(0).value<Task>(), Task::Weights);
    ASSERT_TRUE(doc.project().rig());
    EXPECT_FALSE(doc.project().skinning());
    EXPECT_EQ(startsOf(started, Task::Weights), 1);

    QSignalSpy failed(&doc, &Document::stageFailed);
    doc.loadClip("/nonexistent/walk.bvh");
    doc.waitForIdle();
    ASSERT_EQ(failed.count(), 1);
    EXPECT_EQ(failed.at(0).at(0).value<Task>(), Task::Clip);
    EXPECT_EQ(startsOf(started, Task::Weights), 1) << "the cancelled weights started again by themselves";
    EXPECT_FALSE(doc.project().skinning());

    // New inputs (another method): the stage runs again by itself.
    WeightOptions o = doc.project().weightOptions();
    o.method = "heat";
    doc.setWeightOptions(o);
    doc.waitForIdle();
    EXPECT_EQ(startsOf(started, Task::Weights), 2);
    EXPECT_TRUE(doc.project().skinningCurrent());
}

// A request made while a stage runs waits for it instead of being refused:
// the clip loads after the weights the rig edit started.
TEST(DocumentAdvance, AClipAskedForWhileTheWeightsRunLoadsAfterThem)
{
    const QString walk = QStringLiteral(RIGSMITH_ASSIMP_MODELS "/BVH/01_01.bvh");
    if (!QFile::exists(walk))
        GTEST_SKIP() << walk.toStdString() << " is missing (assimp-testmodels)";
    Document doc;
    doc.openCharacter("default");
    doc.waitForIdle();
    QSignalSpy failed(&doc, &Document::stageFailed);
    QSignalSpy clip(&doc, &Document::clipChanged);
    const int elbow = *doc.project().rig()->skeleton.find("LeftForeArm");
    ASSERT_TRUE(doc.moveJoint(elbow, doc.project().rig()->skeleton.bindPositions.row(elbow).transpose() +
                                         Vec3(0.0, 0.01, 0.0)));
    ASSERT_TRUE(doc.busy()) << "the weights of the moved joint run";
    doc.loadClip(walk);
    doc.waitForIdle();
    EXPECT_TRUE(failed.isEmpty()) << failed.at(0).at(1).toString().toStdString();
    ASSERT_TRUE(doc.project().clip());
    EXPECT_EQ(doc.project().clipRig(), doc.project().rig());
    EXPECT_TRUE(doc.project().skinningCurrent());
    EXPECT_EQ(clip.count(), 1);
}

} // namespace
} // namespace rig::ui
