// Issue 19 item 4: every setting change is an undo step that restores the
// previous result (weight method, segmentation, weight parameters,
// resolution, facing, template), in the document and through the panels.
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/panels/weight_panel.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QUndoStack>

namespace rig::ui {
namespace {

/// One rigged, weighted default character shared by the tests (the stages take a while).
class SettingsUndo : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        doc = new Document;
        doc->openCharacter("default");
        doc->waitForIdle();
    }
    static void TearDownTestSuite()
    {
        delete doc;
        doc = nullptr;
    }
    void SetUp() override
    {
        ASSERT_TRUE(doc->project().rig());
        ASSERT_TRUE(doc->project().skinningCurrent());
        doc->undoStack()->clear();
    }
    static void settle()
    {
        doc->waitForIdle();
        QCoreApplication::processEvents();
    }
    static Document* doc;
};
Document* SettingsUndo::doc = nullptr;

TEST_F(SettingsUndo, WeightMethodSegmentationAndParametersAreUndoStepsThatRestoreTheWeights)
{
    const WeightOptions o0 = doc->project().weightOptions();
    const auto w0 = doc->project().skinning();

    // The method.
    WeightOptions o1 = o0;
    o1.method = o0.method == "gaussian" ? "heat" : "gaussian";
    doc->setWeightOptions(o1);
    settle();
    ASSERT_TRUE(doc->project().skinningCurrent());
    const auto w1 = doc->project().skinning();
    ASSERT_NE(w1, w0);
    EXPECT_EQ(doc->undoStack()->count(), 1);

    // The segmentation.
    WeightOptions o2 = o1;
    o2.segmentation.method = o1.segmentation.method == SegmentationMethod::RegionGrow ? SegmentationMethod::NearestLink
                                                                                     : SegmentationMethod::RegionGrow;
    doc->setWeightOptions(o2);
    settle();
    const auto w2 = doc->project().skinning();
    ASSERT_NE(w2, w1);

    // A parameter of the method.
    WeightOptions o3 = o2;
    o3.parameters[o3.method]["maxInfluences"] = 2;
    doc->setWeightOptions(o3);
    settle();
    const auto w3 = doc->project().skinning();
    ASSERT_NE(w3, w2);
    EXPECT_EQ(doc->undoStack()->count(), 3);

    QSignalSpy started(doc, &Document::stageStarted);
    doc->undoStack()->undo();
    settle();
    EXPECT_EQ(doc->project().weightOptions().parameters.count(o3.method) ? doc->project().weightOptions().valuesOf(o3.method).count("maxInfluences") : 0u, 0u);
    EXPECT_EQ(doc->project().skinning(), w2); // the previous result itself, not a recomputation
    EXPECT_TRUE(doc->project().skinningCurrent());
    doc->undoStack()->undo();
    EXPECT_EQ(doc->project().weightOptions().segmentation.method, o1.segmentation.method);
    EXPECT_EQ(doc->project().skinning(), w1);
    doc->undoStack()->undo();
    EXPECT_EQ(doc->project().weightOptions().method, o0.method);
    EXPECT_EQ(doc->project().skinning(), w0);
    settle();
    EXPECT_EQ(started.count(), 0) << "undo recomputed what it could restore";

    doc->undoStack()->redo();
    EXPECT_EQ(doc->project().weightOptions().method, o1.method);
    EXPECT_EQ(doc->project().skinning(), w1);
    doc->undoStack()->undo();
    EXPECT_EQ(doc->project().skinning(), w0);
}

TEST_F(SettingsUndo, ResolutionIsAnUndoStepBackToThePreviousSkeletonRigAndWeights)
{
    const auto skeleton0 = doc->project().curveSkeleton();
    const auto rig0 = doc->project().rig();
    const auto w0 = doc->project().skinning();
    const int n0 = doc->project().curveSkeletonOptions().voxelize.resolution;
    // An edit on the first skeleton stays below the resolution step.
    const int knee = *rig0->skeleton.find("LeftLeg");
    ASSERT_TRUE(doc->moveJoint(knee, Vec3(rig0->skeleton.bindPositions.row(knee)) + Vec3(0.0, 0.0, 0.01)));
    settle();
    const auto moved = doc->project().rig();
    const auto wMoved = doc->project().skinning();

    doc->buildCurveSkeleton(n0 - 20);
    settle();
    ASSERT_NE(doc->project().curveSkeleton(), skeleton0);
    ASSERT_TRUE(doc->project().rig());
    EXPECT_EQ(doc->undoStack()->count(), 2);
    const auto skeleton1 = doc->project().curveSkeleton();

    doc->undoStack()->undo();
    settle();
    EXPECT_EQ(doc->project().curveSkeleton(), skeleton0);
    EXPECT_EQ(doc->project().curveSkeletonOptions().voxelize.resolution, n0);
    EXPECT_EQ(doc->project().rig(), moved);
    EXPECT_EQ(doc->project().skinning(), wMoved);
    doc->undoStack()->undo(); // the joint move, on the skeleton it was made on
    EXPECT_EQ(doc->project().rig(), rig0);
    doc->undoStack()->redo();
    doc->undoStack()->redo();
    settle();
    EXPECT_EQ(doc->project().curveSkeleton(), skeleton1);
    EXPECT_EQ(doc->project().curveSkeletonOptions().voxelize.resolution, n0 - 20);
    doc->undoStack()->undo();
    doc->undoStack()->undo();
    settle();
    EXPECT_EQ(doc->project().rig(), rig0);
    EXPECT_TRUE(doc->project().skinningCurrent()); // the joint move's undo recomputes (as it always did)
}

TEST_F(SettingsUndo, FacingIsOneUndoStepWithItsRelabelling)
{
    const auto rig0 = doc->project().rig();
    const EndNodeLabels labels0 = doc->project().labels();
    QSignalSpy front(doc, &Document::frontChanged);
    doc->setFront(-Vec3::UnitZ());
    settle();
    EXPECT_EQ(doc->undoStack()->count(), 1);
    EXPECT_TRUE(doc->project().front().isApprox(-Vec3::UnitZ()));
    EXPECT_NE(doc->project().labels()[Limb::LeftHand], labels0[Limb::LeftHand]); // left and right swapped
    doc->undoStack()->undo();
    settle();
    EXPECT_TRUE(doc->project().front().isApprox(Vec3::UnitZ()));
    EXPECT_EQ(doc->project().labels(), labels0);
    EXPECT_EQ(doc->project().rig(), rig0);
    EXPECT_EQ(front.count(), 2);
}

TEST_F(SettingsUndo, TemplateIsAnUndoStep)
{
    const QString bvh = "/usr/share/assimp/models/BVH/01_01.bvh";
    if (!QFile::exists(bvh))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    const auto rig0 = doc->project().rig();
    const auto t0 = doc->project().rigTemplate();
    ASSERT_TRUE(doc->setRigTemplate(bvh));
    settle();
    ASSERT_NE(doc->project().rig(), rig0);
    EXPECT_NE(doc->project().rig()->skeleton.jointCount(), rig0->skeleton.jointCount());
    EXPECT_EQ(doc->undoStack()->count(), 1);
    doc->undoStack()->undo();
    settle();
    EXPECT_EQ(doc->project().rigTemplate(), t0);
    EXPECT_EQ(doc->project().rig(), rig0);
    EXPECT_EQ(static_cast<int>(doc->pose().localRotations.size()), rig0->skeleton.jointCount());
}

// Through the Weights dock: a change of the method box is undone by Edit ▸ Undo, and the box follows.
TEST(SettingsUndoPanel, TheWeightsDockFollowsUndo)
{
    MainWindow w(MainWindow::ViewportKind::Placeholder);
    w.openFile("default");
    w.document()->waitForIdle();
    ASSERT_TRUE(w.document()->project().skinningCurrent());
    auto* method = w.weightPanel()->findChild<QComboBox*>("weightMethod");
    ASSERT_NE(method, nullptr);
    const QString before = method->currentData().toString();
    const int other = method->currentIndex() == 0 ? 1 : 0;
    method->setCurrentIndex(other);
    w.document()->waitForIdle();
    EXPECT_NE(w.document()->project().weightOptions().method, before.toStdString());
    w.document()->undoStack()->undo();
    w.document()->waitForIdle();
    EXPECT_EQ(w.document()->project().weightOptions().method, before.toStdString());
    EXPECT_EQ(method->currentData().toString(), before);
}

} // namespace
} // namespace rig::ui
