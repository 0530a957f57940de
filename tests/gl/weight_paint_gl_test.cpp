// Paint mode in the real viewport: a stroke dragged with QTest over the thigh
// changes the weights only within the brush of the vertices the drag passed
// over, is one undo step, and its undo restores the weights bit for bit.
// RIGSMITH_SHOTS=DIR saves the window before and after (a stroke with mirror).
#include "ui/main_window.h"

#include "core/common/segment.h"

#include "ui/document.h"
#include "ui/viewport/picking.h"
#include "ui/viewport/viewport.h"
#include "ui/weight_paint_tool.h"

#include "tests/support/qt/window_shot.h"

#include <gtest/gtest.h>

#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

namespace rig::ui {
namespace {

TEST(WeightPaintGl, AStrokeDraggedOverTheThighPaintsOnlyUnderTheBrushAndUndoes)
{
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    window.setAskBeforeDiscarding(false);
    window.resize(1000, 700);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openFile("default");
    Document* doc = window.document();
    doc->waitForIdle();
    QCoreApplication::processEvents();
    ASSERT_TRUE(doc->project().skinning());
    Viewport* viewport = window.viewport();
    ASSERT_NE(viewport, nullptr);
    viewport->setViewPreset(ViewPreset::Front);
    window.setPaintMode(true);
    EXPECT_EQ(viewport->mode(), InteractionMode::Paint);
    const Skeleton& rig = doc->project().rig()->skeleton;
    const int thigh = *rig.find("LeftUpLeg");
    emit viewport->jointSelected(thigh); // as a click on the joint does
    EXPECT_EQ(window.heatMapJoint(), thigh);
    BrushSettings brush = window.paintTool()->brush();
    brush.radius = 0.05;
    brush.strength = 0.6;
    brush.mirror = true;
    window.paintTool()->setBrush(brush);
    rig::test::saveWindowShot(window, "paint_1_before");

    // From a third of the way down the left thigh to two thirds, on its front.
    const Mesh& mesh = doc->project().character()->imported.mesh;
    const Vec3 hip = rig.bindPositions.row(thigh).transpose();
    const Vec3 knee = rig.bindPositions.row(*rig.find("LeftLeg")).transpose();
    const auto screen = [&](const Vec3& p) {
        return viewport->project(glm::vec3(float(p.x()), float(p.y()), float(p.z()))).toPoint();
    };
    const QPoint from = screen(hip + (knee - hip) / 3.0), to = screen(hip + 2.0 * (knee - hip) / 3.0);
    std::vector<QPoint> path;
    for (int i = 0; i <= 8; ++i)
        path.push_back(from + (to - from) * i / 8);
    const SkinWeights before = doc->project().skinning()->weights;
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, path.front());
    for (size_t i = 1; i < path.size(); ++i) {
        QMouseEvent move(QEvent::MouseMove, path[i], viewport->mapToGlobal(path[i]), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &move);
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, path.back());
    rig::test::saveWindowShot(window, "paint_2_stroke_with_mirror");

    // The vertices the drag passed over, as the viewport picks them.
    std::vector<Vec3> picked;
    for (const QPoint& p : path)
        if (const auto v = pickMeshVertex(rayThroughPixel(viewport->camera(), float(p.x()), float(p.y()),
                                                          float(viewport->width()), float(viewport->height())),
                                          mesh.V, mesh.F))
            picked.push_back(mesh.V.row(*v).transpose());
    ASSERT_GE(picked.size(), 2u) << "the drag must pass over the mesh";
    const SkinWeights& after = doc->project().skinning()->weights;
    ASSERT_EQ(doc->undoStack()->count(), 1);
    int changed = 0, mirrored = 0;
    for (int v = 0; v < mesh.vertexCount(); ++v) {
        if (after.joints.row(v) == before.joints.row(v) && after.weights.row(v) == before.weights.row(v))
            continue;
        ++changed;
        Vec3 p = mesh.V.row(v).transpose();
        // Dabs lie a quarter radius apart on the way between the picks; the
        // right side is painted by the mirror, whose map has the slack of a
        // polygonizer cell (a vertex's twin lies within 2 cm of its reflection).
        double slack = 0.25 * brush.radius;
        if (p.x() < 0.0) {
            p.x() = -p.x();
            slack += 0.02;
            ++mirrored;
        }
        double d = 1e9;
        for (size_t i = 0; i + 1 < picked.size(); ++i)
            d = std::min(d, (p - closestPointOnSegment(p, picked[i], picked[i + 1])).norm());
        ASSERT_LE(d, brush.radius + slack) << "vertex " << v << " changed outside the brush";
    }
    EXPECT_GT(changed, 20);
    EXPECT_GT(mirrored, 10);
    doc->undoStack()->undo();
    EXPECT_TRUE(doc->project().skinning()->weights.weights == before.weights);
    EXPECT_TRUE(doc->project().skinning()->weights.joints == before.joints);
}

} // namespace
} // namespace rig::ui
