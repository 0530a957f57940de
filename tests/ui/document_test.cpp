#include "ui/document.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QSignalSpy>

namespace rig::ui {
namespace {

TEST(Document, LoadingStartsTheCurveSkeletonStage)
{
    Document doc;
    QSignalSpy finished(&doc, &Document::stageFinished);
    doc.openCharacter("default");
    doc.waitForIdle();
    ASSERT_EQ(finished.count(), 2);
    EXPECT_EQ(finished.at(0).at(0).toString(), "load");
    EXPECT_EQ(finished.at(1).at(0).toString(), "skeleton");
    ASSERT_TRUE(doc.project().curveSkeleton());
    EXPECT_EQ(doc.project().curveSkeleton()->refined.count(NodeType::End), 5);
}

TEST(Document, RebuildAtAnotherResolutionReplacesTheSkeleton)
{
    Document doc;
    doc.openCharacter("default");
    doc.waitForIdle();
    const auto before = doc.project().curveSkeleton();
    QSignalSpy changed(&doc, &Document::curveSkeletonChanged);
    doc.buildCurveSkeleton(100);
    doc.waitForIdle();
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(doc.project().curveSkeletonOptions().voxelize.resolution, 100);
    EXPECT_NE(doc.project().curveSkeleton(), before);
    EXPECT_LT(doc.project().curveSkeleton()->solid.dims.maxCoeff(), before->solid.dims.maxCoeff());
}

TEST(Document, BadResolutionFailsAndKeepsTheLastGoodSkeleton)
{
    Document doc;
    doc.openCharacter("default");
    doc.waitForIdle();
    const auto before = doc.project().curveSkeleton();
    QSignalSpy failed(&doc, &Document::stageFailed);
    doc.buildCurveSkeleton(8);
    doc.waitForIdle();
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.at(0).at(1).toString().contains("16")) << failed.at(0).at(1).toString().toStdString();
    EXPECT_EQ(doc.project().curveSkeleton(), before);
    EXPECT_EQ(doc.project().curveSkeletonOptions().voxelize.resolution, 155);
}

TEST(Document, CancellingTheSkeletonKeepsTheLastGoodOne)
{
    Document doc;
    doc.openCharacter("default");
    doc.waitForIdle();
    const auto before = doc.project().curveSkeleton();
    QSignalSpy cancelled(&doc, &Document::stageCancelled);
    QSignalSpy finished(&doc, &Document::stageFinished);
    doc.buildCurveSkeleton(400); // slow enough to be cancelled while running
    doc.cancel();
    doc.waitForIdle();
    EXPECT_EQ(cancelled.count() + finished.count(), 1);
    if (cancelled.count() == 1) {
        EXPECT_EQ(doc.project().curveSkeleton(), before);
    }
    EXPECT_FALSE(doc.busy());
}

TEST(Document, OnlyOneStageRunsAtATime)
{
    Document doc;
    doc.setAutoSkeleton(false);
    doc.openCharacter("default");
    doc.waitForIdle();
    QSignalSpy failed(&doc, &Document::stageFailed);
    doc.buildCurveSkeleton(155);
    doc.buildCurveSkeleton(155); // refused while the first runs
    doc.waitForIdle();
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.at(0).at(1).toString().contains("still running"));
    EXPECT_TRUE(doc.project().curveSkeleton());
}

} // namespace
} // namespace rig::ui
