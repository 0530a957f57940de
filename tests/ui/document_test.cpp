#include "ui/document.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QSignalSpy>
#include <QUndoStack>

#include <memory>

namespace rig::ui {
namespace {

TEST(Document, LoadingStartsTheCurveSkeletonStage)
{
    Document doc;
    QSignalSpy finished(&doc, &Document::stageFinished);
    doc.openCharacter("default");
    doc.waitForIdle();
    // load → skeleton → (auto labels and fit) → weights, each after the other.
    ASSERT_EQ(finished.count(), 3);
    EXPECT_EQ(finished.at(0).at(0).toString(), "load");
    EXPECT_EQ(finished.at(1).at(0).toString(), "skeleton");
    EXPECT_EQ(finished.at(2).at(0).toString(), "weights");
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
    int skeletonFinished = 0;
    for (const auto& args : finished)
        skeletonFinished += args.at(0).toString() == "skeleton";
    EXPECT_EQ(cancelled.count() + skeletonFinished, 1);
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

namespace rig::ui {
namespace {

/// A document with the default character fitted.
std::unique_ptr<Document> fittedDocument()
{
    auto doc = std::make_unique<Document>();
    doc->openCharacter("default");
    doc->waitForIdle();
    return doc;
}

TEST(DocumentRig, TheSkeletonStageEndsWithSuggestedLabelsAndAFittedRig)
{
    auto doc = fittedDocument();
    const RigProject& p = doc->project();
    ASSERT_TRUE(p.rig());
    EXPECT_EQ(p.rig()->skeleton.jointCount(), 21);
    for (Limb limb : allLimbs)
        EXPECT_GE(p.labels()[limb], 0);
    EXPECT_EQ(doc->undoStack()->count(), 0); // the suggestion is part of the stage, not an edit
}

TEST(DocumentRig, RelabellingSwapsAndUndoRedoRestoreExactly)
{
    auto doc = fittedDocument();
    const EndNodeLabels before = doc->project().labels();
    const auto rigBefore = doc->project().rig();
    // Give the left hand's label to the right-hand node: the two swap and the rig is refitted.
    ASSERT_TRUE(doc->setLabel(Limb::LeftHand, before[Limb::RightHand]));
    EXPECT_EQ(doc->project().labels()[Limb::LeftHand], before[Limb::RightHand]);
    EXPECT_EQ(doc->project().labels()[Limb::RightHand], before[Limb::LeftHand]);
    EXPECT_NE(doc->project().rig(), rigBefore);
    EXPECT_EQ(doc->undoStack()->count(), 1);
    doc->undoStack()->undo();
    EXPECT_EQ(doc->project().labels(), before);
    EXPECT_EQ(doc->project().rig(), rigBefore); // the very same fitted rig: exact
    doc->undoStack()->redo();
    EXPECT_EQ(doc->project().labels()[Limb::LeftHand], before[Limb::RightHand]);
}

TEST(DocumentRig, LabelOnAFlowNodeIsRefusedWithAClearMessage)
{
    auto doc = fittedDocument();
    const auto& s = doc->project().curveSkeleton()->refined;
    const int flow = s.nodesOf(NodeType::Flow).front();
    QSignalSpy failed(doc.get(), &Document::stageFailed);
    const EndNodeLabels before = doc->project().labels();
    EXPECT_FALSE(doc->setLabel(Limb::Head, flow));
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.at(0).at(1).toString().contains("flow")) << failed.at(0).at(1).toString().toStdString();
    EXPECT_EQ(doc->project().labels(), before);
}

TEST(DocumentRig, JointMovesAreUndoableAndMirrored)
{
    auto doc = fittedDocument();
    const Skeleton rest = doc->project().rig()->skeleton;
    const int la = *rest.find("LeftArm"), ra = *rest.find("RightArm");
    const Vec3 target = rest.bindPositions.row(la).transpose() + Vec3(0.01, 0.02, -0.005);

    ASSERT_TRUE(doc->moveJoint(la, target));
    EXPECT_TRUE(doc->project().rig()->skeleton.bindPositions.row(la).transpose().isApprox(target));
    EXPECT_EQ(doc->project().rig()->skeleton.bindPositions.row(ra), rest.bindPositions.row(ra)); // no mirror

    doc->setMirrorEdits(true);
    const Vec3 target2 = target + Vec3(0.0, 0.01, 0.0);
    ASSERT_TRUE(doc->moveJoint(la, target2));
    const Skeleton& moved = doc->project().rig()->skeleton;
    const double cx = moved.bindPositions(0, 0);
    EXPECT_NEAR(moved.bindPositions(ra, 0), 2 * cx - target2.x(), 1e-12);
    EXPECT_NEAR(moved.bindPositions(ra, 1), target2.y(), 1e-12);

    EXPECT_EQ(doc->undoStack()->count(), 2);
    doc->undoStack()->undo();
    doc->undoStack()->undo();
    // Exactly the fitted positions and orientations again.
    const Skeleton& back = doc->project().rig()->skeleton;
    EXPECT_EQ(back.bindPositions, rest.bindPositions);
    for (int j = 0; j < rest.jointCount(); ++j)
        EXPECT_EQ(back.bindOrientations[j].coeffs(), rest.bindOrientations[j].coeffs());
    doc->undoStack()->redo();
    EXPECT_TRUE(doc->project().rig()->skeleton.bindPositions.row(la).transpose().isApprox(target));
}

TEST(DocumentRig, SnapPutsAPointOnTheCurveSkeleton)
{
    auto doc = fittedDocument();
    const auto& s = doc->project().curveSkeleton()->refined;
    const Vec3 node = s.positions.row(s.nodesOf(NodeType::Flow)[10]).transpose();
    const Vec3 snapped = doc->snapToSkeleton(node + Vec3(0.002, -0.001, 0.001));
    bool onNode = false;
    for (int i = 0; i < s.nodeCount(); ++i)
        onNode |= (Vec3(s.positions.row(i).transpose()) - snapped).norm() < 1e-12;
    EXPECT_TRUE(onNode);
    EXPECT_LT((snapped - node).norm(), 0.02);
}

} // namespace
} // namespace rig::ui
