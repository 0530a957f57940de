// The weight views (segments, heat map) and clip playback in the real window.
#include "ui/main_window.h"

#include "ui/document.h"
#include "ui/panels/timeline_panel.h"
#include "ui/panels/weight_panel.h"
#include "ui/viewport/viewport.h"

#include "tests/support/qt/image_compare.h"
#include "tests/support/qt/window_shot.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <cstdlib>

namespace rig::ui {
namespace {

/// Fraction of sampled pixels whose colour differs between the two images.
double difference(const QImage& a, const QImage& b) { return test::imageDifference(a, b); }

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

class WeightsClipTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        window = std::make_unique<MainWindow>(MainWindow::ViewportKind::OpenGL);
        window->resize(1100, 800);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        window->openFile("default");
        window->document()->waitForIdle();
        QCoreApplication::processEvents();
        viewport = window->viewport();
        ASSERT_TRUE(window->document()->project().skinning());
    }
    QImage frame()
    {
        QCoreApplication::processEvents();
        return viewport->grabFramebuffer();
    }
    void saveShot(const char* name)
    {
        if (const char* dir = std::getenv("RIGSMITH_SHOTS")) {
            QCoreApplication::processEvents();
            QImage shot = window->grab().toImage();
            QPainter painter(&shot);
            painter.drawImage(viewport->mapTo(window.get(), QPoint(0, 0)), viewport->grabFramebuffer());
            painter.end();
            shot.save(QString("%1/%2.png").arg(dir, name));
        }
    }
    std::unique_ptr<MainWindow> window;
    Viewport* viewport = nullptr;
};

TEST_F(WeightsClipTest, SegmentAndHeatMapViewsColourTheMesh)
{
    const QImage shaded = frame();
    window->weightPanel()->setColoring(MeshColoring::Segments);
    const QImage segments = frame();
    saveShot("weights_segments");
    EXPECT_GT(difference(shaded, segments), 0.03);
    EXPECT_GE(hueCount(segments), hueCount(shaded) + 2) << "one colour per bone";

    // The heat map of the left forearm: red on it, blue elsewhere.
    const int forearm = *window->document()->project().rig()->skeleton.find("LeftForeArm");
    emit viewport->jointSelected(forearm);
    window->weightPanel()->setColoring(MeshColoring::Weights);
    const QImage heat = frame();
    saveShot("weights_heat_leftforearm");
    EXPECT_GT(difference(segments, heat), 0.03);
    EXPECT_GE(hueCount(heat), 2);

    window->weightPanel()->setColoring(MeshColoring::Shaded);
    EXPECT_LT(difference(shaded, frame()), 0.01);
}

TEST_F(WeightsClipTest, EachCmuClipPlaysAndTheTimelineMovesTheCharacter)
{
    for (const char* name : {"01_01", "01_03", "Boxing_Toes"}) {
        SCOPED_TRACE(name);
        const QString clip = QStringLiteral(RIGSMITH_ASSIMP_MODELS "/BVH/%1.bvh").arg(name);
        if (!QFile::exists(clip))
            GTEST_SKIP() << "assimp-testmodels is not installed";
        window->document()->loadClip(clip);
        window->document()->waitForIdle();
        QCoreApplication::processEvents();
        TimelinePanel* timeline = window->timeline();
        ASSERT_GT(timeline->frameCount(), 100);
        EXPECT_TRUE(window->poseMode()) << "a clip shows the character posed";
        timeline->setTime(0.5);
        const QImage a = frame();
        saveShot(QString("clip_%1_t0.5").arg(name).toUtf8().constData());
        timeline->setTime(2.0);
        const QImage b = frame();
        saveShot(QString("clip_%1_t2.0").arg(name).toUtf8().constData());
        EXPECT_GT(difference(a, b), 0.002);
    }
    // Playing advances time by itself.
    TimelinePanel* timeline = window->timeline();
    timeline->play();
    QTest::qWait(400);
    EXPECT_GT(timeline->time(), 2.0);
    timeline->pause();
}

// Issue 22: a devset character's own animation (the file's first clip) loaded
// onto its auto rig: every limb joint driven, the character moves, and the
// artist's skeleton walks beside it (the clip overlay). Screenshots with
// RIGSMITH_SHOTS at two times. A player, the drone (no clavicles: its upper
// arms hang from the chest) and Cesium Man (ankle joints high on the instep).
class DevsetClipGl : public ::testing::TestWithParam<const char*> {};

TEST_P(DevsetClipGl, ItsOwnClipMovesItsAutoRigBesideTheArtistsSkeleton)
{
    const std::string name = GetParam();
    const QString file = QString::fromStdString(rig::test::sourcePath("../shared/devset/" + name + ".glb"));
    if (!QFile::exists(file))
        GTEST_SKIP() << file.toStdString() << " is missing (the devset lies beside the clone in CI only)";
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openFile(file);
    window.document()->waitForIdle();
    window.document()->loadClip(file);
    window.document()->waitForIdle();
    QCoreApplication::processEvents();
    const auto& clip = window.document()->project().clip();
    ASSERT_TRUE(clip);
    int driven = 0;
    for (const auto& j : clip->retargeted.mapping.joints)
        driven += j.sources.empty() ? 0 : 1;
    EXPECT_GE(driven, 21) << "the body's joints follow the artist's";
    Viewport* viewport = window.viewport();
    auto shot = [&](const std::string& when) {
        rig::test::saveWindowShot(window, ("devset_clip_" + name + "_" + when).c_str());
        QCoreApplication::processEvents();
        return viewport->grabFramebuffer();
    };
    TimelinePanel* timeline = window.timeline();
    ASSERT_GT(timeline->frameCount(), 2);
    timeline->setTime(0.0);
    const QImage a = shot("first");
    timeline->setTime(0.5 * timeline->duration());
    const QImage b = shot("middle");
    EXPECT_TRUE(window.poseMode());
    EXPECT_GT(test::imageDifference(a, b), 0.002);
}

INSTANTIATE_TEST_SUITE_P(Characters, DevsetClipGl, ::testing::Values("re_male", "re_drone", "khr_cesium_man"));

} // namespace
} // namespace rig::ui
