// Issue 20, item 5: a dense character is posed through its coarse stand-in
// while a joint is dragged. Before, the stand-in was used only unposed (camera
// moves), so dragging a joint of a 100k-vertex character drew all 200k
// triangles every frame (35 ms of a 50 ms frame under llvmpipe).
#include "core/character/humanoid.h"
#include "core/export/mesh_write.h"
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/render_offscreen.h"
#include "ui/viewport/gizmo.h"
#include "ui/viewport/renderer.h"
#include "ui/viewport/viewport.h"
#include "tests/support/qt/image_compare.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <numbers>

namespace rig::ui {
namespace {

/// Pixels that differ from the background at (2, 2), as a mask.
std::vector<bool> silhouette(const QImage& img)
{
    const QRgb bg = img.pixel(2, 2);
    std::vector<bool> mask(static_cast<size_t>(img.width() * img.height()));
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb p = img.pixel(x, y);
            mask[static_cast<size_t>(y * img.width() + x)] =
                std::abs(qRed(p) - qRed(bg)) + std::abs(qGreen(p) - qGreen(bg)) + std::abs(qBlue(p) - qBlue(bg)) > 30;
        }
    return mask;
}

/// Intersection over union of two silhouettes.
double overlap(const std::vector<bool>& a, const std::vector<bool>& b)
{
    long both = 0, either = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        both += a[i] && b[i];
        either += a[i] || b[i];
    }
    return either ? double(both) / double(either) : 1.0;
}

TEST(StandInGl, ADenseCharacterIsPosedThroughItsStandInWhileMovingAndInFullOnceStill)
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("dense.ply").toStdString();
    writeMesh(path, generateHumanoid({.cellSize = 0.008}).mesh); // ~200k triangles, above the stand-in's 60k
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    window.resize(1000, 750);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openFile(QString::fromStdString(path));
    Document* doc = window.document();
    doc->waitForIdle();
    QCoreApplication::processEvents();
    ASSERT_TRUE(doc->project().rig());
    Viewport* viewport = window.viewport();
    ASSERT_TRUE(viewport->hasSkinning());
    window.setPoseMode(true);
    doc->setDeformer("lbs");
    viewport->setMeshOpacity(1.0f);
    viewport->setSkeletonVisible(false);
    viewport->setRigVisible(false);
    viewport->setGridVisible(false);
    viewport->setSimplifyWhileMoving(true);
    viewport->frameAll();
    auto frame = [&] {
        QCoreApplication::processEvents();
        return viewport->grabFramebuffer();
    };
    const int full = int(doc->project().character()->imported.mesh.triangleCount());
    const std::vector<bool> rest = silhouette(frame());
    EXPECT_EQ(viewport->drawnTriangles(), full);

    // Both arms raised 80° (about each upper arm's Z axis): the silhouette changes a lot.
    const Skeleton& s = doc->project().rig()->skeleton;
    Pose pose = doc->pose();
    for (const char* arm : {"LeftArm", "RightArm"})
        pose = rotateJoint(pose, *s.find(arm), 2, (arm[0] == 'L' ? 1.0 : -1.0) * 80.0 * std::numbers::pi / 180.0);
    doc->previewPose(pose);
    const std::vector<bool> posedFull = silhouette(frame());
    EXPECT_EQ(viewport->drawnTriangles(), full);

    // A wheel step starts the interactive state (as a drag does) and zooms a
    // little; the same camera is drawn again in full once it settles.
    const QPoint centre(viewport->width() / 2, viewport->height() / 2);
    QWheelEvent wheel(centre, viewport->mapToGlobal(centre), QPoint(), QPoint(0, 30), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(viewport, &wheel);
    ASSERT_TRUE(viewport->renderOptions().interactive);
    const QImage standInImage = frame();
    const std::vector<bool> posedStandIn = silhouette(standInImage);
    const int standIn = viewport->drawnTriangles();
    EXPECT_GT(standIn, 0);
    EXPECT_LE(standIn, int(1.15 * viewport->standInTriangles())) << "the stand-in is drawn while moving, posed";
    if (softwareRenderer()) { // where triangles cost CPU time: half the size (bench/notes/deformers.md, stop 33)
        EXPECT_LE(standIn, int(1.15 * Renderer::interactiveTriangles / 2));
        EXPECT_TRUE(viewport->testAttribute(Qt::WA_NativeWindow)) << "composed alone, not with the whole window";
    }
    for (int i = 0; i < 100 && viewport->renderOptions().interactive; ++i)
        QTest::qWait(20); // the settle timer
    ASSERT_FALSE(viewport->renderOptions().interactive);
    const QImage fullImage = frame();
    const std::vector<bool> posedFullZoomed = silhouette(fullImage);
    if (const char* dir = std::getenv("RIGSMITH_SHOTS")) { // to look at, not asserted
        standInImage.save(QString("%1/stand_in_posed.png").arg(dir));
        fullImage.save(QString("%1/full_posed.png").arg(dir));
    }
    EXPECT_EQ(viewport->drawnTriangles(), full) << "full detail once still";

    // The stand-in shows the pose: its silhouette matches the full posed one
    // far better than the unposed mesh matches either.
    const double standInVsFull = overlap(posedStandIn, posedFullZoomed);
    const double restVsPosed = overlap(rest, posedFull);
    EXPECT_GT(standInVsFull, 0.9) << "rest vs posed " << restVsPosed;
    EXPECT_LT(restVsPosed, 0.8) << "stand-in vs full " << standInVsFull;
    std::cout << "silhouette overlap: stand-in vs full, posed " << standInVsFull << "; rest vs posed " << restVsPosed << "\n";
    EXPECT_TRUE(viewport->glError().isEmpty()) << viewport->glError().toStdString();
}

} // namespace
} // namespace rig::ui
