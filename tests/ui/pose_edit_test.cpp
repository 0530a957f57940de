// Posing in the document and the Pose dock: the current pose, one undo step
// per edit, reset, unwrapped twists, the deformer; the Euler angle fields.
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/panels/joint_panel.h"

#include "core/deform/twist_lbs.h"

#include <gtest/gtest.h>

#include <QTest>

#include <QAction>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QUndoStack>

#include <numbers>

namespace rig::ui {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

/// One document with the default character rigged, shared by the tests (the
/// skeleton stage takes a while); each test starts from the bind pose.
class PoseEdit : public ::testing::Test {
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
        ASSERT_TRUE(doc->project().rig()) << "the default character must rig automatically";
        doc->undoStack()->clear();
        doc->cancelPosePreview();
        if (!isIdentity(doc->pose())) {
            doc->resetPose();
            doc->undoStack()->clear();
        }
        ASSERT_TRUE(isIdentity(doc->pose()));
    }
    static bool isIdentity(const Pose& p)
    {
        for (const auto& q : p.localRotations)
            if (q.angularDistance(Eigen::Quaterniond::Identity()) > 1e-9)
                return false;
        return true;
    }
    int joint(const char* name) const { return *doc->project().rig()->skeleton.find(name); }
    static Document* doc;
};
Document* PoseEdit::doc = nullptr;

TEST_F(PoseEdit, ThePoseMatchesTheRigAndStartsAtTheBindPose)
{
    EXPECT_EQ(static_cast<int>(doc->pose().localRotations.size()), doc->project().rig()->skeleton.jointCount());
    EXPECT_EQ(doc->poseTwist().size(), doc->pose().localRotations.size());
}

TEST_F(PoseEdit, PreviewsThenOneCommitMakeOneUndoStep)
{
    QSignalSpy changed(doc, &Document::poseChanged);
    const int elbow = joint("LeftForeArm");
    Pose p = doc->pose();
    for (int step = 1; step <= 5; ++step) {
        p.localRotations[size_t(elbow)] = Eigen::AngleAxisd(10.0 * step * kDeg, Vec3::UnitX());
        doc->previewPose(p);
    }
    EXPECT_EQ(changed.count(), 5);
    EXPECT_EQ(doc->undoStack()->count(), 0);
    ASSERT_TRUE(doc->commitPose(p, "Rotate LeftForeArm"));
    EXPECT_EQ(doc->undoStack()->count(), 1);
    EXPECT_NEAR(doc->pose().localRotations[size_t(elbow)].angularDistance(Eigen::Quaterniond::Identity()), 50 * kDeg, 1e-9);
    doc->undoStack()->undo();
    EXPECT_TRUE(isIdentity(doc->pose())) << "undo returns to the pose before the drag, previews included";
    doc->undoStack()->redo();
    EXPECT_NEAR(doc->pose().localRotations[size_t(elbow)].angularDistance(Eigen::Quaterniond::Identity()), 50 * kDeg, 1e-9);
}

TEST_F(PoseEdit, ResetPoseIsUndoable)
{
    const int neck = joint("Neck");
    ASSERT_TRUE(doc->setJointRotation(neck, Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3::UnitY()))));
    doc->resetPose();
    EXPECT_TRUE(isIdentity(doc->pose()));
    EXPECT_EQ(doc->undoStack()->count(), 2);
    doc->undoStack()->undo();
    EXPECT_NEAR(doc->pose().localRotations[size_t(neck)].angularDistance(Eigen::Quaterniond::Identity()), 0.5, 1e-9);
}

TEST_F(PoseEdit, APoseOfAnotherRigIsRefused)
{
    Pose wrong;
    wrong.localRotations.assign(3, Eigen::Quaterniond::Identity());
    EXPECT_FALSE(doc->commitPose(wrong, "bad"));
    EXPECT_EQ(doc->undoStack()->count(), 0);
    EXPECT_FALSE(doc->setJointRotation(-1, Eigen::Quaterniond::Identity()));
}

TEST_F(PoseEdit, TwistsDraggedPast180DegreesKeepTurning)
{
    const int hand = joint("LeftHand");
    const Skeleton& s = doc->project().rig()->skeleton;
    const Vec3 axis = s.bindOrientations[size_t(hand)].conjugate() * twistAxis(s, hand); // in the joint's frame
    Pose p = doc->pose();
    for (int deg = 10; deg <= 250; deg += 10) {
        p.localRotations[size_t(hand)] = Eigen::AngleAxisd(deg * kDeg, axis);
        doc->previewPose(p);
    }
    EXPECT_NEAR(doc->poseTwist()[size_t(hand)], 250 * kDeg, 1e-6) << "not wrapped to -110 degrees";
    ASSERT_TRUE(doc->commitPose(p, "Twist"));
    doc->undoStack()->undo();
    EXPECT_NEAR(doc->poseTwist()[size_t(hand)], 0.0, 1e-9);
    doc->undoStack()->redo();
    EXPECT_NEAR(doc->poseTwist()[size_t(hand)], 250 * kDeg, 1e-6);
}

TEST_F(PoseEdit, DeformerChangesAreSignalled)
{
    QSignalSpy spy(doc, &Document::deformerChanged);
    doc->setDeformer("twist");
    doc->setDeformer("twist");
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(doc->deformer(), "twist");
    doc->setDeformer("lbs");
}

TEST_F(PoseEdit, JointPanelShowsAndEditsEulerAngles)
{
    JointPanel panel(doc);
    auto* tree = panel.findChild<QTreeWidget*>("jointTree");
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->topLevelItemCount(), 1);
    const int elbow = joint("LeftForeArm");
    QSignalSpy selected(&panel, &JointPanel::jointSelected);
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        if ((*it)->data(0, Qt::UserRole).toInt() == elbow)
            tree->setCurrentItem(*it);
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(panel.selectedJoint(), elbow);

    auto* z = panel.findChild<QDoubleSpinBox*>("poseAngleZ");
    ASSERT_TRUE(z && z->isEnabled());
    z->setValue(45.0);
    EXPECT_EQ(doc->undoStack()->count(), 1);
    const Eigen::Quaterniond expected(Eigen::AngleAxisd(45 * kDeg, Vec3::UnitZ()));
    EXPECT_LT(doc->pose().localRotations[size_t(elbow)].angularDistance(expected), 1e-9);
    // A pose set elsewhere shows in the fields.
    Pose p = doc->pose();
    p.localRotations[size_t(elbow)] = Eigen::AngleAxisd(-30 * kDeg, Vec3::UnitX()) ;
    doc->commitPose(p, "edit");
    EXPECT_NEAR(panel.angles()[0], -30.0, 1e-6);
    EXPECT_NEAR(panel.angles()[2], 0.0, 1e-6);

    panel.findChild<QPushButton*>("resetPoseButton")->click();
    EXPECT_TRUE(isIdentity(doc->pose()));
    EXPECT_NEAR(panel.angles()[0], 0.0, 1e-9);
}

// Issue 20, item 5: a previewed pose (a ring dragged, a clip playing) reaches
// the angle fields at most every JointPanel::previewRefreshMs, so the window's
// raster widgets are not repainted - and recomposed - at every frame; the
// last preview always shows, and a committed pose shows at once.
TEST_F(PoseEdit, JointPanelShowsPreviewedPosesAtAReadableRateAndCommittedOnesAtOnce)
{
    JointPanel panel(doc);
    const int elbow = joint("LeftForeArm");
    panel.setSelectedJoint(elbow);
    Pose p = doc->pose();
    for (int step = 1; step <= 10; ++step) {
        p.localRotations[size_t(elbow)] = Eigen::AngleAxisd(2.0 * step * kDeg, Vec3::UnitX());
        doc->previewPose(p);
    }
    EXPECT_NEAR(panel.angles()[0], 0.0, 1e-9) << "not repainted at every preview";
    QTest::qWait(JointPanel::previewRefreshMs + 100);
    EXPECT_NEAR(panel.angles()[0], 20.0, 1e-6) << "the last preview shows";
    p.localRotations[size_t(elbow)] = Eigen::AngleAxisd(-15 * kDeg, Vec3::UnitX());
    doc->commitPose(p, "edit");
    EXPECT_NEAR(panel.angles()[0], -15.0, 1e-6) << "a committed pose shows at once";
}

TEST(PoseControls, ModeAndDeformerActionsInTheWindow)
{
    MainWindow w(MainWindow::ViewportKind::Placeholder);
    EXPECT_FALSE(w.poseMode());
    auto* mode = w.findChild<QAction*>("actionPoseMode");
    ASSERT_TRUE(mode);
    mode->trigger();
    EXPECT_TRUE(w.poseMode());
    auto* dqs = w.findChild<QAction*>("actionDeformer2");
    auto* twist = w.findChild<QAction*>("actionDeformer3");
    ASSERT_TRUE(dqs && twist);
    EXPECT_EQ(dqs->shortcut(), QKeySequence("2"));
    twist->trigger();
    EXPECT_EQ(w.document()->deformer(), "twist");
    dqs->trigger();
    EXPECT_EQ(w.document()->deformer(), "dqs");
    EXPECT_TRUE(w.jointPanel());
}

} // namespace
} // namespace rig::ui
