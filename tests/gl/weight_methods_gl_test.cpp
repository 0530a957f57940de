// Each weight method's heat map on a devset character in the real window
// (issue 15). RIGSMITH_SHOTS=DIR saves the screenshots.
#include "ui/main_window.h"

#include "ui/document.h"
#include "ui/panels/weight_panel.h"
#include "ui/viewport/viewport.h"

#include "core/skin/weight_methods.h"
#include "tests/support/qt/image_compare.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <QPainter>
#include <QSet>
#include <QTest>

#include <cstdlib>
#include <filesystem>

namespace rig::ui {
namespace {

/// Distinct hues (in 12 bins) of the saturated pixels.
int hueCount(const QImage& img)
{
    QSet<int> bins;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3) {
            const QColor c = QColor::fromRgb(img.pixel(x, y));
            if (c.hsvSaturation() > 90 && c.value() > 60)
                bins.insert(c.hsvHue() / 30);
        }
    return int(bins.size());
}

TEST(WeightMethodsGl, EachMethodsHeatMapColoursADevsetCharacter)
{
    const std::string file = rig::test::sourcePath("../shared/devset/re_female.glb");
    if (!std::filesystem::exists(file))
        GTEST_SKIP() << "the devset (" << file << ") is not here; this test needs ../shared beside the clone";
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openFile(QString::fromStdString(file));
    window.document()->waitForIdle();
    QCoreApplication::processEvents();
    Viewport* viewport = window.viewport();
    ASSERT_TRUE(window.document()->project().skinning()) << "no weights after loading " << file;
    const auto joint = window.document()->project().rig()->skeleton.find("LeftArm");
    ASSERT_TRUE(joint.has_value());
    const auto frame = [&] {
        QCoreApplication::processEvents();
        return viewport->grabFramebuffer();
    };
    window.weightPanel()->setColoring(MeshColoring::Shaded);
    const QImage shaded = frame();
    std::vector<QImage> heat;
    for (const WeightMethod& m : weightMethods()) {
        if (m.id.find("test") != std::string::npos)
            continue;
        SCOPED_TRACE(m.id);
        WeightOptions o = window.document()->project().weightOptions();
        o.method = m.id;
        window.document()->setWeightOptions(o);
        window.document()->waitForIdle();
        emit viewport->jointSelected(*joint);
        window.weightPanel()->setColoring(MeshColoring::Weights);
        const QImage shot = frame();
        EXPECT_GT(test::imageDifference(shaded, shot), 0.01) << "the heat map does not colour the mesh";
        EXPECT_GE(hueCount(shot), 2);
        for (const QImage& other : heat)
            EXPECT_GT(test::imageDifference(other, shot), 0.0) << "two methods drew the same heat map";
        heat.push_back(shot);
        if (const char* dir = std::getenv("RIGSMITH_SHOTS")) {
            QImage full = window.grab().toImage();
            QPainter painter(&full);
            painter.drawImage(viewport->mapTo(&window, QPoint(0, 0)), shot);
            painter.end();
            full.save(QString("%1/weights_%2_leftarm.png").arg(dir, QString::fromStdString(m.id)));
        }
    }
    EXPECT_GE(heat.size(), 4u);
}

} // namespace
} // namespace rig::ui
