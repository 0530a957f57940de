// The file's own meshes in the viewport with their base-colour textures (issue 17),
// and the Textures toggle back to the welded, untextured mesh.
#include "ui/main_window.h"

#include "ui/document.h"
#include "ui/viewport/viewport.h"

#include "tests/support/qt/image_compare.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <set>

namespace rig::ui {
namespace {

/// Distinct colours (quantized to 32 levels per channel) in the middle third of a frame.
size_t colours(const QImage& img)
{
    std::set<int> seen;
    for (int y = img.height() / 3; y < 2 * img.height() / 3; y += 2)
        for (int x = img.width() / 3; x < 2 * img.width() / 3; x += 2) {
            const QRgb p = img.pixel(x, y);
            seen.insert((qRed(p) / 8) << 10 | (qGreen(p) / 8) << 5 | (qBlue(p) / 8));
        }
    return seen.size();
}

TEST(TexturedViewport, TheFilesMeshesAreDrawnWithTheirTextureAndTheToggleTurnsItOff)
{
    const QString box = QStringLiteral(RIGSMITH_ASSIMP_MODELS "/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb");
    if (!QFile::exists(box))
        GTEST_SKIP() << "assimp-testmodels not installed (scripts/deps.sh)";
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    window.resize(900, 700);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openFile(box);
    window.document()->waitForIdle();
    QCoreApplication::processEvents();
    Viewport* viewport = window.viewport();
    ASSERT_NE(viewport, nullptr);
    viewport->setGridVisible(false);
    viewport->setSkeletonVisible(false);
    viewport->setMeshOpacity(1.0f);
    EXPECT_TRUE(viewport->drawsSourceMeshes());
    QCoreApplication::processEvents();
    const QImage textured = viewport->grabFramebuffer();
    EXPECT_TRUE(viewport->glError().isEmpty()) << viewport->glError().toStdString();
    auto* toggle = window.findChild<QAction*>("texturesAction");
    ASSERT_NE(toggle, nullptr);
    toggle->setChecked(false);
    EXPECT_FALSE(viewport->drawsSourceMeshes());
    QCoreApplication::processEvents();
    const QImage plain = viewport->grabFramebuffer();
    // The Cesium logo (blue, white, dark) against the untextured box's single base colour.
    EXPECT_GT(test::imageDifference(textured, plain), 0.02);
    EXPECT_GT(colours(textured), colours(plain));
    toggle->setChecked(true);
    EXPECT_TRUE(viewport->drawsSourceMeshes());
}

} // namespace
} // namespace rig::ui
