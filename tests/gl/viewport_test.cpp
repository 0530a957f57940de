#include "ui/main_window.h"

#include "core/project/rig_project.h"
#include "ui/document.h"
#include "ui/render_offscreen.h"

#include "core/skeleton/curve_skeleton.h"
#include "ui/panels/rig_panel.h"
#include "ui/viewport/viewport.h"

#include <QAction>
#include <QPushButton>
#include <QUndoStack>

#include "tests/support/qt/image_compare.h"
#include "tests/support/qt/window_shot.h"

#include <gtest/gtest.h>

#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>

namespace rig::ui {
namespace {

/// Fraction of pixels that differ from the background colour at (2, 2).
double coverage(const QImage& img, QRect region = {})
{
    if (region.isNull())
        region = img.rect();
    const QRgb bg = img.pixel(2, 2);
    long differ = 0, total = 0;
    for (int y = region.top(); y <= region.bottom(); y += 2)
        for (int x = region.left(); x <= region.right(); x += 2) {
            const QRgb p = img.pixel(x, y);
            differ += (std::abs(qRed(p) - qRed(bg)) + std::abs(qGreen(p) - qGreen(bg)) + std::abs(qBlue(p) - qBlue(bg))) > 30;
            ++total;
        }
    return total ? double(differ) / double(total) : 0.0;
}

double difference(const QImage& a, const QImage& b) { return test::imageDifference(a, b); }

class ViewportTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        window = std::make_unique<MainWindow>(MainWindow::ViewportKind::OpenGL);
        window->resize(1000, 700);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        QSignalSpy done(window->document(), &Document::stageFinished);
        window->openFile("default");
        window->document()->waitForIdle();
        QCoreApplication::processEvents();
        ASSERT_GE(done.count(), 1);
        viewport = window->viewport();
        ASSERT_NE(viewport, nullptr);
    }
    QImage frame()
    {
        QCoreApplication::processEvents();
        return viewport->grabFramebuffer();
    }
    std::unique_ptr<MainWindow> window;
    Viewport* viewport = nullptr;
};

TEST_F(ViewportTest, DefaultCharacterCoversTheCentreOfTheView)
{
    viewport->setMeshOpacity(1.0f); // opaque, as before a skeleton exists
    viewport->setGridVisible(false); // measure the character alone
    const QImage img = frame();
    ASSERT_FALSE(img.isNull());
    EXPECT_TRUE(viewport->glError().isEmpty()) << viewport->glError().toStdString();
    // Framed: the pixels that differ from the background form a box centred in
    // the view and nearly as tall as it (the character is taller than wide).
    const QRgb bg = img.pixel(2, 2);
    QRect covered;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb p = img.pixel(x, y);
            const int d = std::abs(qRed(p) - qRed(bg)) + std::abs(qGreen(p) - qGreen(bg)) + std::abs(qBlue(p) - qBlue(bg));
            if (d > 60) // the grid lines differ by less than that
                covered |= QRect(x, y, 1, 1);
        }
    const int w = img.width(), h = img.height();
    // Framing fits the bounding box, so the character fills the view along
    // whichever side binds (height in a wide view, width in a narrow one).
    EXPECT_GT(std::max(double(covered.height()) / h, double(covered.width()) / w), 0.6)
        << "covered " << covered.width() << "x" << covered.height() << " of " << w << "x" << h;
    EXPECT_LT(covered.width(), covered.height());
    EXPECT_NEAR(covered.center().x(), w / 2, 0.1 * w);
    EXPECT_NEAR(covered.center().y(), h / 2, 0.1 * h);
    const double corner = coverage(img, QRect(0, 0, w / 8, h / 8));
    EXPECT_LT(corner, 0.05) << "corner coverage " << corner;
    const double all = coverage(img);
    EXPECT_GT(all, 0.05);
    EXPECT_LT(all, 0.6);
}

TEST_F(ViewportTest, OrbitingChangesTheImage)
{
    const QImage before = frame();
    const QPoint start(viewport->width() / 2, viewport->height() / 2);
    QMouseEvent press(QEvent::MouseButtonPress, start, viewport->mapToGlobal(start), Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &press);
    for (int i = 1; i <= 10; ++i) {
        const QPoint p = start + QPoint(12 * i, 0);
        QMouseEvent move(QEvent::MouseMove, p, viewport->mapToGlobal(p), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &move);
    }
    EXPECT_TRUE(viewport->renderOptions().interactive); // the camera is moving
    QMouseEvent release(QEvent::MouseButtonRelease, start, viewport->mapToGlobal(start), Qt::LeftButton, Qt::NoButton,
                        Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &release);
    EXPECT_FALSE(viewport->renderOptions().interactive); // full detail once it stops
    const QImage after = frame();
    EXPECT_GT(difference(before, after), 0.02);
    EXPECT_GT(coverage(after), 0.05); // still framed after orbiting
}

TEST_F(ViewportTest, WheelZoomsAndFrameAllRestores)
{
    viewport->setMeshOpacity(1.0f);
    viewport->setGridVisible(false);
    viewport->frameAll(); // at the final window size
    const QImage framed = frame();
    const float d0 = viewport->camera().distance;
    const QPoint c(viewport->width() / 2, viewport->height() / 2);
    QWheelEvent wheel(c, viewport->mapToGlobal(c), QPoint(), QPoint(0, 480), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(viewport, &wheel);
    EXPECT_LT(viewport->camera().distance, d0);
    EXPECT_GT(coverage(frame()), coverage(framed)); // closer: the body fills more of the view
    viewport->frameAll();
    EXPECT_NEAR(viewport->camera().distance, d0, 1e-4f * d0);
}

// F frames the selected joint with the joints below it (Maya's F, Blender's
// keypad period); Home frames everything; with nothing selected F does too.
TEST_F(ViewportTest, FFramesTheSelectedJointAndHomeFramesAll)
{
    const auto& rig = window->document()->project().rig();
    ASSERT_TRUE(rig);
    const auto arm = rig->skeleton.find("LeftArm");
    ASSERT_TRUE(arm);
    viewport->frameAll(); // at the final window size
    const float all = viewport->camera().distance;
    viewport->setSelectedJoint(-1);
    QTest::keyClick(viewport, Qt::Key_F);
    EXPECT_NEAR(viewport->camera().distance, all, 1e-4f * all) << "F with nothing selected frames everything";
    viewport->setSelectedJoint(*arm);
    QTest::keyClick(viewport, Qt::Key_F);
    EXPECT_LT(viewport->camera().distance, 0.8f * all);
    // The arm and every joint below it in view.
    const QRectF view(0, 0, viewport->width(), viewport->height());
    const Skeleton& k = rig->skeleton;
    std::vector<char> below(static_cast<size_t>(k.jointCount()), 0);
    below[static_cast<size_t>(*arm)] = 1;
    for (int j = *arm + 1; j < k.jointCount(); ++j)
        if (const int p = k.parents[static_cast<size_t>(j)]; p >= 0 && below[static_cast<size_t>(p)]) {
            below[static_cast<size_t>(j)] = 1;
            const glm::vec3 w(float(k.bindPositions(j, 0)), float(k.bindPositions(j, 1)), float(k.bindPositions(j, 2)));
            EXPECT_TRUE(view.contains(viewport->project(w))) << k.names[static_cast<size_t>(j)];
        }
    QTest::keyClick(viewport, Qt::Key_Home);
    EXPECT_NEAR(viewport->camera().distance, all, 1e-4f * all);
}

// F on a leaf joint frames the part it moves: the head joint of the default
// character sits at the base of the skull, and F framed its 9 cm neck link
// either side of it, with the top of the head out of view (Cesium Man's head
// joint, in the middle of its head: the camera inside the head).
TEST_F(ViewportTest, FOnALeafJointFramesItsPart)
{
    const auto& rig = window->document()->project().rig();
    ASSERT_TRUE(rig);
    const auto head = rig->skeleton.find("Head");
    ASSERT_TRUE(head);
    const Mesh& mesh = window->document()->project().character()->imported.mesh;
    Eigen::Index top = 0;
    mesh.V.col(1).maxCoeff(&top);
    const glm::vec3 crown(float(mesh.V(top, 0)), float(mesh.V(top, 1)), float(mesh.V(top, 2)));
    viewport->frameAll();
    const float all = viewport->camera().distance;
    viewport->setSelectedJoint(*head);
    QTest::keyClick(viewport, Qt::Key_F);
    EXPECT_LT(viewport->camera().distance, 0.5f * all); // closer than the whole body
    const QRectF view(0, 0, viewport->width(), viewport->height());
    EXPECT_TRUE(view.contains(viewport->project(crown))) << "the top of the head is out of view";
}

TEST_F(ViewportTest, WireframeOverlayDrawsEdges)
{
    const QImage shaded = frame();
    viewport->setWireframe(true);
    const QImage wire = frame();
    EXPECT_GT(difference(shaded, wire), 0.01);
}

/// Pixels of a glyph's hue, whatever the lighting: orange (end spheres), cyan
/// (flow cubes), amber (interior voxels).
enum class Hue { Orange, Cyan, Amber };
int countColour(const QImage& img, Hue hue)
{
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor p = img.pixelColor(x, y);
            const int r = p.red(), g = p.green(), b = p.blue();
            switch (hue) {
            case Hue::Orange: n += r > g + 40 && g > b + 40; break;
            case Hue::Cyan: n += b > r + 50 && g > r + 50; break;
            case Hue::Amber: n += r > b + 80 && g > b + 30 && r > 150; break;
            }
        }
    return n;
}

TEST_F(ViewportTest, CurveSkeletonShowsThroughTheXRayMesh)
{
    ASSERT_TRUE(window->document()->project().curveSkeleton());
    const QImage img = frame();
    // End spheres (orange) and flow cubes (cyan) are visible in the x-ray view.
    EXPECT_GT(countColour(img, Hue::Orange), 20);
    EXPECT_GT(countColour(img, Hue::Cyan), 50);
    viewport->setSkeletonVisible(false);
    EXPECT_LT(countColour(frame(), Hue::Cyan), countColour(img, Hue::Cyan) / 4);
}

TEST_F(ViewportTest, VoxelsAndClippingChangeTheImage)
{
    const QImage plain = frame();
    viewport->setVoxelsVisible(true);
    const QImage voxels = frame();
    EXPECT_GT(difference(plain, voxels), 0.02);
    viewport->setClipEnabled(true);
    viewport->setClipPosition(0.5);
    const QImage clipped = frame();
    EXPECT_GT(difference(voxels, clipped), 0.005);
    // Interior voxels (amber) only show once the model is cut open.
    EXPECT_GT(countColour(clipped, Hue::Amber), countColour(voxels, Hue::Amber) + 100);
}

TEST_F(ViewportTest, HoveringAnEndNodePicksIt)
{
    const auto& s = window->document()->project().curveSkeleton()->refined;
    const int end = s.nodesOf(NodeType::End).front();
    const QPointF p = viewport->project(glm::vec3(s.positions(end, 0), s.positions(end, 1), s.positions(end, 2)));
    const auto picked = viewport->nodeAt(p.toPoint());
    ASSERT_TRUE(picked.has_value());
    EXPECT_EQ(*picked, end);
    EXPECT_FALSE(viewport->nodeAt(QPoint(2, 2)).has_value());
}

TEST_F(ViewportTest, SideMarkersAreDrawnBesideTheCharacter)
{
    // The main window labels the character's left (+X) and right sides, and
    // writes each tagged end node's label beside it.
    ASSERT_EQ(viewport->labels().size(), 2u + limbCount);
    EXPECT_EQ(viewport->labels()[0].text, "L");
    EXPECT_GT(viewport->labels()[0].world.x, 0.0f);
    EXPECT_EQ(viewport->labels()[2].text, "Head");
    // The "L" is drawn in its colour beside its point (and goes when labels are hidden).
    const QPoint at = viewport->project(viewport->labels()[0].world).toPoint() + QPoint(10, -6);
    const QColor colour = viewport->labels()[0].color;
    auto count = [&](const QImage& img) {
        int n = 0;
        const qreal dpr = img.devicePixelRatio();
        for (int y = at.y() - 16; y <= at.y() + 4; ++y)
            for (int x = at.x() - 2; x <= at.x() + 16; ++x) {
                const QColor p = img.pixelColor(int(x * dpr), int(y * dpr));
                n += std::abs(p.red() - colour.red()) + std::abs(p.green() - colour.green()) +
                         std::abs(p.blue() - colour.blue()) < 60;
            }
        return n;
    };
    EXPECT_GT(count(frame()), 5);
    viewport->setLabelsVisible(false);
    EXPECT_EQ(count(frame()), 0);
}

QPoint screenOf(Viewport* v, const MatrixX3d& P, int row)
{
    return v->project(glm::vec3(float(P(row, 0)), float(P(row, 1)), float(P(row, 2)))).toPoint();
}

TEST_F(ViewportTest, ClickingNodesThroughTheLabelSlotsRelabelsAndUndoes)
{
    Document* doc = window->document();
    const EndNodeLabels before = doc->project().labels();
    const auto& s = doc->project().curveSkeleton()->refined;
    rig::test::saveWindowShot(*window, "1_auto_labels");
    viewport->setRigVisible(false); // keep joint spheres from covering the end nodes for this test
    // Walk two slots: the left hand gets the right hand's node, the right hand the left's.
    auto* pick = window->rigPanel()->findChild<QPushButton*>("pick_lhand");
    ASSERT_NE(pick, nullptr);
    QTest::mouseClick(pick, Qt::LeftButton);
    ASSERT_TRUE(window->rigPanel()->armedLimb().has_value());
    QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, screenOf(viewport, s.positions, before[Limb::RightHand]));
    EXPECT_EQ(doc->project().labels()[Limb::LeftHand], before[Limb::RightHand]);
    EXPECT_EQ(doc->project().labels()[Limb::RightHand], before[Limb::LeftHand]); // swapped
    EXPECT_EQ(doc->undoStack()->count(), 1);
    rig::test::saveWindowShot(*window, "2_hands_swapped_by_clicking");
    // The walk moved on to the next slot (right hand).
    ASSERT_TRUE(window->rigPanel()->armedLimb().has_value());
    EXPECT_EQ(*window->rigPanel()->armedLimb(), Limb::RightHand);
    window->rigPanel()->arm(std::nullopt);
    // Edit > Undo (Ctrl+Z) restores the labels; Redo (Ctrl+Shift+Z) applies them again.
    auto* undo = window->findChild<QAction*>("actionUndo");
    auto* redo = window->findChild<QAction*>("actionRedo");
    ASSERT_TRUE(undo && redo);
    EXPECT_EQ(undo->shortcut(), QKeySequence::keyBindings(QKeySequence::Undo).value(0));
    EXPECT_TRUE(redo->shortcuts().contains(QKeySequence("Ctrl+Shift+Z")));
    undo->trigger();
    EXPECT_EQ(doc->project().labels(), before);
    redo->trigger();
    EXPECT_EQ(doc->project().labels()[Limb::LeftHand], before[Limb::RightHand]);
}

TEST_F(ViewportTest, DraggingAJointMovesItAndUndoRestoresItExactly)
{
    Document* doc = window->document();
    const Skeleton rest = doc->project().rig()->skeleton;
    const int elbow = *rest.find("LeftForeArm");
    const QPoint start = screenOf(viewport, rest.bindPositions, elbow);
    ASSERT_EQ(viewport->jointAt(start), elbow);
    // Shift: a free move in the view plane, 30 pixels up.
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
    for (int i = 1; i <= 6; ++i) {
        const QPoint p = start + QPoint(0, -5 * i);
        QMouseEvent move(QEvent::MouseMove, p, viewport->mapToGlobal(p), Qt::NoButton, Qt::LeftButton,
                         Qt::ShiftModifier);
        QCoreApplication::sendEvent(viewport, &move);
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ShiftModifier, start + QPoint(0, -30));
    rig::test::saveWindowShot(*window, "3_elbow_dragged_up");
    const Skeleton& moved = doc->project().rig()->skeleton;
    EXPECT_GT(moved.bindPositions(elbow, 1), rest.bindPositions(elbow, 1) + 0.01); // went up
    EXPECT_EQ(doc->undoStack()->count(), 1);
    EXPECT_EQ(viewport->selectedJoint(), elbow);
    doc->undoStack()->undo();
    EXPECT_EQ(doc->project().rig()->skeleton.bindPositions, rest.bindPositions);
    rig::test::saveWindowShot(*window, "4_undone");

    // Without Shift the joint snaps onto the curve skeleton.
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
    const QPoint p = start + QPoint(8, -8);
    QMouseEvent move(QEvent::MouseMove, p, viewport->mapToGlobal(p), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &move);
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, p);
    const auto& cs = doc->project().curveSkeleton()->refined;
    const Vec3 snapped = doc->project().rig()->skeleton.bindPositions.row(elbow).transpose();
    double nearest = 1e9;
    for (int i = 0; i < cs.nodeCount(); ++i)
        nearest = std::min(nearest, (Vec3(cs.positions.row(i).transpose()) - snapped).norm());
    EXPECT_LT(nearest, 1e-9);
}

TEST(RenderOffscreen, RendersTheCharacterToAnImage)
{
    const auto c = loadCharacter("default");
    QString error;
    const QImage img = renderOffscreen(c.imported.mesh, QSize(320, 240), ViewPreset::Front, {}, &error);
    ASSERT_FALSE(img.isNull()) << error.toStdString();
    EXPECT_EQ(img.size(), QSize(320, 240));
    EXPECT_GT(coverage(img), 0.05);
}

} // namespace
} // namespace rig::ui
