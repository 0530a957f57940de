// Paint mode without a GL viewport: strokes through WeightPaintTool, one undo
// step each restoring the weights bit for bit, Tab's cycle of the modes, the
// brush keys, mirror L→R as one step, painted weights in the saved project.
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/panels/paint_panel.h"
#include "ui/weight_paint_tool.h"

#include "core/export/project_file.h"
#include "core/project/project_io.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QTemporaryDir>
#include <QUndoStack>

namespace rig::ui {
namespace {

class WeightPaintUi : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        window = new MainWindow(MainWindow::ViewportKind::Placeholder);
        window->setAskBeforeDiscarding(false);
        window->document()->openCharacter("default");
        window->document()->waitForIdle();
    }
    static void TearDownTestSuite()
    {
        delete window;
        window = nullptr;
    }
    void SetUp() override
    {
        ASSERT_TRUE(doc()->project().skinning()) << "the default character gets weights";
        doc()->undoStack()->clear();
    }
    static Document* doc() { return window->document(); }
    static const SkinWeights& paintUiWeights() { return doc()->project().skinning()->weights; }
    static int paintUiJoint(const char* name) { return *doc()->project().rig()->skeleton.find(name); }
    /// The vertex nearest to a joint (on the surface around it).
    static int paintUiVertexNear(const char* joint)
    {
        const Mesh& m = doc()->project().character()->imported.mesh;
        const Vec3 p = doc()->project().rig()->skeleton.bindPositions.row(paintUiJoint(joint)).transpose();
        int best = 0;
        for (int v = 1; v < m.vertexCount(); ++v)
            if ((m.V.row(v).transpose() - p).squaredNorm() < (m.V.row(best).transpose() - p).squaredNorm())
                best = v;
        return best;
    }
    static MainWindow* window;
};
MainWindow* WeightPaintUi::window = nullptr;

bool paintUiSame(const SkinWeights& a, const SkinWeights& b) { return a.joints == b.joints && a.weights == b.weights; }

TEST_F(WeightPaintUi, AStrokeIsOneUndoStepThatRestoresTheWeightsBitForBit)
{
    WeightPaintTool* tool = window->paintTool();
    const SkinWeights before = paintUiWeights();
    BrushSettings b = tool->brush();
    b.radius = 0.06;
    b.strength = 0.5;
    tool->setBrush(b);
    const int joint = paintUiJoint("LeftForeArm");
    ASSERT_TRUE(tool->beginStroke(paintUiVertexNear("LeftForeArm"), joint));
    tool->continueStroke(paintUiVertexNear("LeftHand"));
    EXPECT_FALSE(paintUiSame(paintUiWeights(), before)); // live while stroking
    EXPECT_EQ(doc()->undoStack()->count(), 0);
    tool->endStroke();
    ASSERT_EQ(doc()->undoStack()->count(), 1);
    EXPECT_EQ(doc()->undoStack()->text(0), "Paint LeftForeArm");
    const SkinWeights after = paintUiWeights();
    EXPECT_NO_THROW(validateSkinWeights(after, after.vertexCount(), doc()->project().rig()->skeleton.jointCount()));
    doc()->undoStack()->undo();
    EXPECT_TRUE(paintUiSame(paintUiWeights(), before));
    doc()->undoStack()->redo();
    EXPECT_TRUE(paintUiSame(paintUiWeights(), after));
    // The tool follows undo: a stroke after an undo starts from the undone weights.
    doc()->undoStack()->undo();
    ASSERT_TRUE(tool->beginStroke(paintUiVertexNear("RightLeg"), paintUiJoint("RightLeg")));
    tool->endStroke();
    const SkinWeights& now = paintUiWeights();
    int differ = 0;
    for (int v = 0; v < now.vertexCount(); ++v)
        differ += (now.weights.row(v) != before.weights.row(v)) ? 1 : 0;
    EXPECT_GT(differ, 0);
    // Only around the knee: nothing at the forearm the undone stroke painted.
    const int forearm = paintUiVertexNear("LeftForeArm");
    EXPECT_TRUE(now.weights.row(forearm) == before.weights.row(forearm));
    doc()->undoStack()->undo();
    EXPECT_TRUE(paintUiSame(paintUiWeights(), before));
}

TEST_F(WeightPaintUi, LockedJointsAndBadStrokesAreRefused)
{
    WeightPaintTool* tool = window->paintTool();
    tool->setLocked("LeftArm", true);
    EXPECT_FALSE(tool->beginStroke(paintUiVertexNear("LeftArm"), paintUiJoint("LeftArm")));
    EXPECT_NE(window->lastMessageShort().indexOf("locked"), -1) << window->lastMessageShort().toStdString();
    tool->setLocked("LeftArm", false);
    EXPECT_FALSE(tool->beginStroke(paintUiVertexNear("LeftArm"), -1));
    EXPECT_EQ(doc()->undoStack()->count(), 0);
}

TEST_F(WeightPaintUi, TabCyclesRigPosePaintAndBracketsSizeTheBrush)
{
    auto* next = window->findChild<QAction*>("actionNextMode");
    ASSERT_NE(next, nullptr);
    EXPECT_EQ(next->shortcut(), QKeySequence(Qt::Key_Tab));
    ASSERT_FALSE(window->poseMode());
    ASSERT_FALSE(window->paintMode());
    next->trigger();
    EXPECT_TRUE(window->poseMode());
    next->trigger();
    EXPECT_TRUE(window->paintMode());
    EXPECT_FALSE(window->poseMode());
    const double r = window->paintTool()->brush().radius;
    window->findChild<QAction*>("actionBrushLarger")->trigger();
    EXPECT_DOUBLE_EQ(window->paintTool()->brush().radius, r * 1.25);
    window->findChild<QAction*>("actionBrushSmaller")->trigger();
    window->findChild<QAction*>("actionBrushSmaller")->trigger();
    EXPECT_DOUBLE_EQ(window->paintTool()->brush().radius, r / 1.25);
    next->trigger();
    EXPECT_FALSE(window->paintMode());
    EXPECT_FALSE(window->poseMode());
    EXPECT_FALSE(window->findChild<QAction*>("actionBrushLarger")->isEnabled()); // only while painting
}

TEST_F(WeightPaintUi, MirrorLeftToRightIsOneStepAndPaintedWeightsAreSaved)
{
    WeightPaintTool* tool = window->paintTool();
    const SkinWeights before = paintUiWeights();
    BrushSettings b = tool->brush();
    b.strength = 0.8;
    b.radius = 0.1;
    tool->setBrush(b);
    ASSERT_TRUE(tool->beginStroke(paintUiVertexNear("LeftArm"), paintUiJoint("LeftArm")));
    tool->endStroke();
    ASSERT_TRUE(tool->mirrorAll(MirrorDirection::LeftToRight));
    ASSERT_EQ(doc()->undoStack()->count(), 2);
    EXPECT_EQ(doc()->undoStack()->text(1), QString::fromUtf8("Mirror weights L→R"));
    const SkinWeights mirrored = paintUiWeights();
    EXPECT_FALSE(paintUiSame(mirrored, before));
    // What a save writes (and the export reads) is the painted weights.
    ProjectSaveState state;
    state.includeWeights = true;
    const ProjectFile file = projectFileFrom(doc()->project(), state);
    ASSERT_TRUE(file.computedWeights.has_value());
    EXPECT_TRUE(file.computedWeights->weights == mirrored.weights);
    doc()->undoStack()->undo();
    doc()->undoStack()->undo();
    EXPECT_TRUE(paintUiSame(paintUiWeights(), before));
}

TEST_F(WeightPaintUi, ReopeningAProjectKeepsItsPaintedWeights)
{
    WeightPaintTool* tool = window->paintTool();
    ASSERT_TRUE(tool->beginStroke(paintUiVertexNear("RightForeArm"), paintUiJoint("RightForeArm")));
    tool->endStroke();
    const SkinWeights painted = paintUiWeights();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("painted.rsproj");
    ASSERT_TRUE(doc()->saveProject(path, std::nullopt));
    EXPECT_EQ(readProjectFile(path.toStdString()).weights.names.count("weights.painted"), 1u);
    doc()->openProject(path);
    doc()->waitForIdle();
    ASSERT_TRUE(doc()->project().skinning());
    EXPECT_TRUE(paintUiSame(paintUiWeights(), painted)) << "the weights stage recomputed the painted weights";
    // Weights the method computed are not marked: reopening recomputes them, as before.
    doc()->computeWeights();
    doc()->waitForIdle();
    EXPECT_FALSE(paintUiSame(paintUiWeights(), painted));
    ASSERT_TRUE(doc()->saveProject(path, std::nullopt));
    EXPECT_EQ(readProjectFile(path.toStdString()).weights.names.count("weights.painted"), 0u);
}

} // namespace
} // namespace rig::ui
