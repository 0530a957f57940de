// Paint mode in the real viewport: a stroke of Spine's weight dragged with
// QTest over the left thigh (where Spine has none) changes the weights only
// within the brush of the vertices the drag passed over and their mirror
// images, is one undo step, and its undo restores the weights bit for bit.
// RIGSMITH_SHOTS=DIR saves the window before and after: Spine's heat map
// gains a stripe on each thigh (the mirror of a middle joint is itself).
#include "ui/main_window.h"

#include "core/common/segment.h"
#include "core/deform/deformers.h"
#include "core/rig/pose.h"

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

#include <functional>
#include <numbers>

namespace rig::ui {
namespace {

/// Opens the default character in `window` (the real viewport, 1000 x 700,
/// seen from the front) and waits for its weights; false when they did not come.
bool openDefaultFromTheFront(MainWindow& window)
{
    window.setAskBeforeDiscarding(false);
    window.resize(1000, 700);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    window.openFile("default");
    window.document()->waitForIdle();
    QCoreApplication::processEvents();
    if (!window.document()->project().skinning() || !window.viewport())
        return false;
    window.viewport()->setViewPreset(ViewPreset::Front);
    return true;
}

/// The pixel a world point is drawn at.
QPoint screenOf(const Viewport& viewport, const Vec3& p)
{
    return viewport.project(glm::vec3(float(p.x()), float(p.y()), float(p.z()))).toPoint();
}

/// `steps` + 1 pixels evenly from `from` to `to`.
std::vector<QPoint> line(const QPoint& from, const QPoint& to, int steps)
{
    std::vector<QPoint> path;
    for (int i = 0; i <= steps; ++i)
        path.push_back(from + (to - from) * i / steps);
    return path;
}

/// A left-button drag along `path`: pressed at its first pixel, moved through
/// the others (`afterMove` after each), released at its last.
void drag(Viewport& viewport, const std::vector<QPoint>& path, const std::function<void()>& afterMove = {})
{
    QTest::mousePress(&viewport, Qt::LeftButton, Qt::NoModifier, path.front());
    for (size_t i = 1; i < path.size(); ++i) {
        QMouseEvent move(QEvent::MouseMove, path[i], viewport.mapToGlobal(path[i]), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QCoreApplication::sendEvent(&viewport, &move);
        if (afterMove)
            afterMove();
    }
    QTest::mouseRelease(&viewport, Qt::LeftButton, Qt::NoModifier, path.back());
}

TEST(WeightPaintGl, AStrokeDraggedOverTheThighPaintsOnlyUnderTheBrushAndUndoes)
{
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    ASSERT_TRUE(openDefaultFromTheFront(window));
    Document* doc = window.document();
    Viewport* viewport = window.viewport();
    window.setPaintMode(true);
    EXPECT_EQ(viewport->mode(), InteractionMode::Paint);
    const Skeleton& rig = doc->project().rig()->skeleton;
    const int thigh = *rig.find("LeftUpLeg"), spine = *rig.find("Spine");
    emit viewport->jointSelected(spine); // as a click on the joint does
    EXPECT_EQ(window.heatMapJoint(), spine);
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
    const auto screen = [viewport](const Vec3& p) { return screenOf(*viewport, p); };
    const QPoint from = screen(hip + (knee - hip) / 3.0), to = screen(hip + 2.0 * (knee - hip) / 3.0);
    const std::vector<QPoint> path = line(from, to, 8);
    const SkinWeights before = doc->project().skinning()->weights;
    drag(*viewport, path);
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

// Painting on the posed mesh: with the left arm raised above the shoulder (a
// pose from Pose mode), Paint mode draws the arm raised and a stroke dragged
// over the raised forearm paints the forearm's vertices — picked on the
// deformed surface, not on the rest mesh (which has nothing there).
TEST(WeightPaintGl, AStrokeOnTheRaisedArmPaintsTheForearmWhereItIsDrawn)
{
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    ASSERT_TRUE(openDefaultFromTheFront(window));
    Document* doc = window.document();
    Viewport* viewport = window.viewport();
    const Skeleton& rig = doc->project().rig()->skeleton;
    const int shoulder = *rig.find("LeftArm"), elbow = *rig.find("LeftForeArm"), wrist = *rig.find("LeftHand");

    // The left arm turned 80° up about the view axis (world Z), in its own bind frame.
    Pose pose = identityPose(rig);
    const Eigen::Quaterniond b = rig.bindOrientations[size_t(shoulder)];
    const Vec3 out = (rig.bindPositions.row(elbow) - rig.bindPositions.row(shoulder)).transpose();
    const double up = out.x() > 0.0 ? 1.0 : -1.0; // raising the arm turns it towards +Y
    pose.localRotations[size_t(shoulder)] =
        b.conjugate() * Eigen::Quaterniond(Eigen::AngleAxisd(up * 80.0 * std::numbers::pi / 180.0, Vec3::UnitZ())) * b;
    ASSERT_TRUE(doc->commitPose(pose, "Raise the left arm"));
    window.setPaintMode(true);
    QCoreApplication::processEvents();
    emit viewport->jointSelected(elbow);
    BrushSettings brush = window.paintTool()->brush();
    brush.radius = 0.04;
    brush.strength = 0.8;
    brush.tool = PaintTool::Subtract;
    brush.mirror = false;
    window.paintTool()->setBrush(brush);

    // Along the posed forearm, from a quarter to three quarters of the way to the wrist.
    const PosedSkeleton posed = forwardKinematics(rig, doc->pose());
    const Vec3 e = posed.positions.row(elbow).transpose(), w = posed.positions.row(wrist).transpose();
    ASSERT_GT(e.y(), rig.bindPositions(shoulder, 1) + 0.1) << "the pose must raise the forearm above the shoulder";
    const auto screen = [viewport](const Vec3& p) { return screenOf(*viewport, p); };
    const QPoint from = screen(e + 0.25 * (w - e)), to = screen(e + 0.75 * (w - e));
    // The brush circle follows the cursor over the posed arm.
    QTest::mouseMove(viewport, from);
    QCoreApplication::processEvents();
    const auto circle = viewport->brushCircle();
    ASSERT_TRUE(circle) << "no brush circle over the raised arm";
    EXPECT_LT(QLineF(circle->first, QPointF(from)).length(), 12.0);
    EXPECT_GT(circle->second, 2.0);
    const SkinWeights before = doc->project().skinning()->weights;
    drag(*viewport, line(from, to, 8));
    QCoreApplication::processEvents();
    rig::test::saveWindowShot(window, "paint_3_posed_arm");

    // Every changed vertex lies on the forearm at rest (near the bone from the
    // elbow to the wrist), and enough of them changed.
    const Mesh& mesh = doc->project().character()->imported.mesh;
    const SkinWeights& after = doc->project().skinning()->weights;
    const Vec3 restElbow = rig.bindPositions.row(elbow).transpose(), restWrist = rig.bindPositions.row(wrist).transpose();
    int changed = 0;
    for (int v = 0; v < mesh.vertexCount(); ++v) {
        if (after.joints.row(v) == before.joints.row(v) && after.weights.row(v) == before.weights.row(v))
            continue;
        ++changed;
        const Vec3 p = mesh.V.row(v).transpose();
        ASSERT_LE((p - closestPointOnSegment(p, restElbow, restWrist)).norm(), 0.12)
            << "vertex " << v << " off the forearm changed";
    }
    EXPECT_GT(changed, 10);
}

// A deformer that reads no weights (simplex, rigid-blended: a sparse
// factorization per binding) keeps its binding while the weights are painted;
// one that reads them binds again. Counted with a test deformer of each kind.
int g_binds[2] = {0, 0};

void registerCountingDeformers()
{
    for (int usesWeights = 0; usesWeights < 2; ++usesWeights) {
        DeformerInfo d;
        d.id = usesWeights ? "test-counting-weighted" : "test-counting-weight-free";
        d.title = d.shortTitle = d.id;
        d.usesWeights = usesWeights == 1;
        d.bind = [usesWeights](const DeformerInput& in) {
            ++g_binds[usesWeights];
            return findDeformer("lbs").bind(in);
        };
        registerDeformer(std::move(d));
    }
}

TEST(WeightPaintGl, DeformersThatReadNoWeightsAreNotBoundAgainByEveryDab)
{
    registerCountingDeformers();
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    ASSERT_TRUE(openDefaultFromTheFront(window));
    Document* doc = window.document();
    Viewport* viewport = window.viewport();
    const Skeleton& rig = doc->project().rig()->skeleton;
    const int thigh = *rig.find("LeftUpLeg"), knee = *rig.find("LeftLeg");
    window.setPaintMode(true);
    emit viewport->jointSelected(thigh);
    const Vec3 a = rig.bindPositions.row(thigh).transpose(), b = rig.bindPositions.row(knee).transpose();
    const auto screen = [viewport](const Vec3& p) { return screenOf(*viewport, p); };
    for (int usesWeights = 0; usesWeights < 2; ++usesWeights) {
        SCOPED_TRACE(usesWeights ? "reads weights" : "reads no weights");
        window.document()->setDeformer(usesWeights ? "test-counting-weighted" : "test-counting-weight-free");
        QTest::mouseMove(viewport, screen(a + 0.5 * (b - a))); // the first pick binds
        QCoreApplication::processEvents();
        viewport->grabFramebuffer(); // a frame draws it (the CPU-deformed path binds too)
        const int before = g_binds[usesWeights];
        ASSERT_GT(before, 0);
        // Three strokes of a few dabs, each followed by a frame and a hover.
        for (int stroke = 0; stroke < 3; ++stroke) {
            const QPoint from = screen(a + (0.3 + 0.1 * stroke) * (b - a)), to = screen(a + (0.4 + 0.1 * stroke) * (b - a));
            drag(*viewport, line(from, to, 4), [viewport] { viewport->grabFramebuffer(); });
            QTest::mouseMove(viewport, from);
            viewport->grabFramebuffer();
        }
        if (usesWeights)
            EXPECT_GE(g_binds[1] - before, 3) << "a deformer that reads weights must see the painted ones";
        else
            EXPECT_EQ(g_binds[0], before) << "painting bound a weight-free deformer again";
    }
}

} // namespace
} // namespace rig::ui
