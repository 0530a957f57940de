// Issue 19 in the real window: readable views (item 6: even shading of
// HUMAN.blend, the heat legend, connection nodes in x-ray), the split view's
// divider and titles (item 3), the skeleton toggle (item 5) and the camera
// following a playing clip (item 1).
#include "ui/main_window.h"

#include "core/skeleton/curve_skeleton.h"
#include "ui/document.h"
#include "ui/panels/timeline_panel.h"
#include "ui/panels/weight_panel.h"
#include "ui/viewport/viewport.h"
#include "ui/viewport/weight_colors.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QPainter>
#include <QTest>

#include <cmath>
#include <cstdlib>

namespace rig::ui {
namespace {

double luminance(QRgb p) { return 0.2126 * qRed(p) + 0.7152 * qGreen(p) + 0.0722 * qBlue(p); }

bool near(QRgb p, const glm::vec3& c, int tolerance)
{
    return std::abs(qRed(p) - int(c.r * 255)) <= tolerance && std::abs(qGreen(p) - int(c.g * 255)) <= tolerance &&
           std::abs(qBlue(p) - int(c.b * 255)) <= tolerance;
}

std::unique_ptr<MainWindow> openWindow(const QString& file)
{
    auto w = std::make_unique<MainWindow>(MainWindow::ViewportKind::OpenGL);
    w->setAskBeforeDiscarding(false);
    w->resize(1200, 800);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()))
        return nullptr;
    w->openFile(file);
    w->document()->waitForIdle();
    QCoreApplication::processEvents();
    return w;
}

// Item 6: HUMAN.blend was drawn in two tones split down its middle. Seen from
// the front, its left and right halves are about as bright.
TEST(FirstUserGl, HumanBlendIsShadedAlikeOnBothSides)
{
    const QString human = "/usr/share/assimp/models/BLEND/HUMAN.blend";
    if (!QFile::exists(human))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    auto w = openWindow(human);
    ASSERT_TRUE(w);
    ASSERT_TRUE(w->document()->project().hasCharacter());
    Viewport* v = w->viewport();
    v->setSkeletonVisible(false);
    v->setRigVisible(false);
    v->setGridVisible(false);
    v->setMeshOpacity(1.0f);
    v->setLabelsVisible(false);
    // The welded mesh the pipeline works on (Textures off), where each file mesh was tinted apart.
    v->setTexturesVisible(false);
    ASSERT_FALSE(v->drawsSourceMeshes());
    v->setViewPreset(ViewPreset::Front);
    QCoreApplication::processEvents();
    const QImage img = v->grabFramebuffer();
    ASSERT_FALSE(img.isNull());
    const QRgb bg = img.pixel(2, 2);
    // The character's pixels and their horizontal middle.
    long count = 0;
    double sumX = 0.0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb p = img.pixel(x, y);
            if (std::abs(qRed(p) - qRed(bg)) + std::abs(qGreen(p) - qGreen(bg)) + std::abs(qBlue(p) - qBlue(bg)) > 24) {
                ++count;
                sumX += x;
            }
        }
    ASSERT_GT(count, 2000) << "the character is not in view";
    const double middle = sumX / double(count);
    double sum[2] = {0.0, 0.0}, warm[2] = {0.0, 0.0};
    long n[2] = {0, 0};
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb p = img.pixel(x, y);
            if (std::abs(qRed(p) - qRed(bg)) + std::abs(qGreen(p) - qGreen(bg)) + std::abs(qBlue(p) - qBlue(bg)) <= 24)
                continue;
            const int side = x < middle ? 0 : 1;
            sum[side] += luminance(p);
            warm[side] += qRed(p) - qBlue(p); // the tone: red over blue
            ++n[side];
        }
    ASSERT_GT(n[0], 500);
    ASSERT_GT(n[1], 500);
    const double left = sum[0] / double(n[0]), right = sum[1] / double(n[1]);
    EXPECT_LT(std::abs(left - right), 0.10 * std::max(left, right))
        << "mean luminance left " << left << ", right " << right;
    // One tone: the two halves are as warm as each other (a tint per file mesh made one bluish).
    const double warmLeft = warm[0] / double(n[0]), warmRight = warm[1] / double(n[1]);
    EXPECT_LT(std::abs(warmLeft - warmRight), 8.0) << "red - blue left " << warmLeft << ", right " << warmRight;
}

/// One window with the default character rigged and weighted, shared by the tests below.
class FirstUserView : public ::testing::Test {
protected:
    static void SetUpTestSuite() { window = openWindow("default").release(); }
    static void TearDownTestSuite()
    {
        delete window;
        window = nullptr;
    }
    void SetUp() override
    {
        ASSERT_NE(window, nullptr);
        ASSERT_TRUE(window->document()->project().skinning());
        viewport = window->viewport();
    }
    QImage frame()
    {
        QCoreApplication::processEvents();
        return viewport->grabFramebuffer();
    }
    /// With RIGSMITH_SHOTS=DIR set, saves the window (not used for any assertion).
    void saveShot(const char* name)
    {
        if (const char* dir = std::getenv("RIGSMITH_SHOTS")) {
            QImage shot = window->grab().toImage();
            QPainter painter(&shot);
            painter.drawImage(viewport->mapTo(window, QPoint(0, 0)), frame());
            painter.end();
            shot.save(QString("%1/%2.png").arg(dir, name));
        }
    }
    static MainWindow* window;
    Viewport* viewport = nullptr;
};
MainWindow* FirstUserView::window = nullptr;

// Item 3: the split view has a divider and each half says its deformer.
TEST_F(FirstUserView, SplitViewHasADividerAndEachHalfNamesItsDeformer)
{
    window->setPoseMode(true);
    auto* split = window->findChild<QAction*>("actionSplitView");
    ASSERT_NE(split, nullptr);
    EXPECT_TRUE(viewport->splitTitles().isEmpty());
    // Any two deformers: the left half is the current one (1, 2, 3 …), the right one is chosen in Split With.
    ASSERT_GE(deformers().size(), 3u);
    window->document()->setDeformer(deformers()[2].id);
    auto* with = window->findChild<QAction*>(QString("actionSplitWith_%1").arg(QString::fromStdString(deformers()[1].id)));
    ASSERT_NE(with, nullptr);
    with->trigger();
    EXPECT_TRUE(split->isChecked());
    const QStringList titles = viewport->splitTitles();
    ASSERT_EQ(titles.size(), 2);
    EXPECT_EQ(titles[0].toStdString(), deformers()[2].title);
    EXPECT_EQ(titles[1].toStdString(), deformers()[1].title);
    const QImage img = frame();
    saveShot("split_view");
    // The divider: the middle column is light from top to bottom.
    const int x = int(viewport->width() * img.devicePixelRatio()) / 2;
    int light = 0;
    for (int y = 0; y < img.height(); ++y)
        light += luminance(img.pixel(x, y)) > 200;
    EXPECT_GT(light, img.height() * 9 / 10);
    split->setChecked(false);
    EXPECT_TRUE(viewport->splitTitles().isEmpty());
    window->document()->setDeformer(deformers()[0].id);
    window->setPoseMode(false);
}

// Item 6: the heat map has its colour scale beside it, 0 at the bottom, 1 at the top.
TEST_F(FirstUserView, HeatMapShowsAColourLegend)
{
    window->weightPanel()->setColoring(MeshColoring::Weights);
    EXPECT_TRUE(viewport->heatLegend());
    const QImage img = frame();
    saveShot("heat_legend");
    window->weightPanel()->setColoring(MeshColoring::Segments);
    saveShot("segments");
    window->weightPanel()->setColoring(MeshColoring::Weights);
    const QRect bar = viewport->heatLegendBar();
    const double dpr = img.devicePixelRatio();
    const QPoint bottom(int((bar.center().x()) * dpr), int((bar.bottom() - 2) * dpr));
    const QPoint top(int((bar.center().x()) * dpr), int((bar.top() + 2) * dpr));
    EXPECT_TRUE(near(img.pixel(bottom), heatColor(0.0f), 24)) << std::hex << img.pixel(bottom);
    EXPECT_TRUE(near(img.pixel(top), heatColor(1.0f), 24)) << std::hex << img.pixel(top);
    window->weightPanel()->setColoring(MeshColoring::Shaded);
    EXPECT_FALSE(viewport->heatLegend());
}

// Item 6: in x-ray, a connection node under a joint sphere still shows.
TEST_F(FirstUserView, ConnectionNodesShowThroughTheJointSpheresInXRay)
{
    const auto& sk = window->document()->project().curveSkeleton();
    const auto& rig = window->document()->project().rig();
    ASSERT_TRUE(sk && rig);
    viewport->setMeshOpacity(0.3f);
    viewport->setViewPreset(ViewPreset::Front);
    QCoreApplication::processEvents();
    // The connection node nearest (on screen) to a joint's centre.
    double best = 1e9;
    QPoint at;
    for (int n = 0; n < sk->refined.nodeCount(); ++n) {
        if (sk->refined.types[n] != NodeType::Connection)
            continue;
        const QPointF p = viewport->project(glm::vec3(sk->refined.positions(n, 0), sk->refined.positions(n, 1),
                                                      sk->refined.positions(n, 2)));
        for (int j = 0; j < rig->skeleton.jointCount(); ++j) {
            const Vec3 b = rig->skeleton.bindPositions.row(j);
            const QPointF q = viewport->project(glm::vec3(float(b.x()), float(b.y()), float(b.z())));
            if (const double d = std::hypot(p.x() - q.x(), p.y() - q.y()); d < best) {
                best = d;
                at = p.toPoint();
            }
        }
    }
    ASSERT_LT(best, 3.0) << "no joint sits on a connection node";
    const QImage with = frame();
    viewport->setSkeletonVisible(false);
    const QImage without = frame();
    viewport->setSkeletonVisible(true);
    const double dpr = with.devicePixelRatio();
    const QRgb a = with.pixel(int(at.x() * dpr), int(at.y() * dpr)), b = without.pixel(int(at.x() * dpr), int(at.y() * dpr));
    const int diff = std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) + std::abs(qBlue(a) - qBlue(b));
    EXPECT_GT(diff, 30) << "the joint sphere hides the connection node";
    viewport->setMeshOpacity(1.0f);
}

// Item 5: the Skeleton toggle hides the skeletons, their labels and the gizmo.
TEST_F(FirstUserView, LabelsAndTheGizmoHideWithTheSkeleton)
{
    window->setPoseMode(true);
    viewport->setSelectedJoint(*window->document()->project().rig()->skeleton.find("LeftForeArm"));
    ASSERT_TRUE(viewport->gizmo().has_value());
    auto count = [](const std::vector<ViewportLabel>& labels) {
        int n = 0;
        for (const ViewportLabel& l : labels)
            n += l.skeleton;
        return n;
    };
    EXPECT_EQ(count(viewport->shownLabels()), 5); // the five labelled end nodes
    auto* skeleton = window->findChild<QAction*>("actionSkeleton");
    ASSERT_NE(skeleton, nullptr);
    skeleton->setChecked(false);
    EXPECT_EQ(count(viewport->shownLabels()), 0);
    EXPECT_FALSE(viewport->gizmo().has_value());
    EXPECT_FALSE(viewport->renderOptions().rig);
    EXPECT_FALSE(viewport->renderOptions().skeleton);
    skeleton->setChecked(true);
    EXPECT_EQ(count(viewport->shownLabels()), 5);
    EXPECT_TRUE(viewport->gizmo().has_value());
    viewport->setSelectedJoint(-1);
    window->setPoseMode(false);
}

// Item 1: during a clip the camera follows the character; Frame All frames it where it is.
TEST_F(FirstUserView, TheCameraFollowsThePlayingCharacter)
{
    const QString walk = "/usr/share/assimp/models/BVH/01_01.bvh";
    if (!QFile::exists(walk))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    window->document()->loadClip(walk);
    window->document()->waitForIdle();
    QCoreApplication::processEvents();
    ASSERT_TRUE(window->document()->project().clip());
    EXPECT_TRUE(window->followCharacter()); // on by default
    TimelinePanel* t = window->timeline();
    // Not in Pose mode: playing (or scrubbing) shows the clip anyway.
    window->setPoseMode(false);
    t->setTime(0.0);
    EXPECT_TRUE(window->poseMode());
    const glm::vec3 target0 = viewport->camera().target;
    const Vec3 root0 = window->document()->pose().rootTranslation;
    t->setTime(t->duration() * 0.6);
    QCoreApplication::processEvents();
    const Vec3 root1 = window->document()->pose().rootTranslation;
    const double height = window->document()->project().character()->stats.bounds.size().y();
    ASSERT_GT((root1 - root0).norm(), 0.2 * height) << "the clip should move the character";
    const glm::vec3 moved = viewport->camera().target - target0;
    const Vec3 d = root1 - root0;
    EXPECT_NEAR(moved.x, d.x(), 1e-3 * height);
    EXPECT_NEAR(moved.z, d.z(), 1e-3 * height);

    // Frame All: the character's posed root is near the view's centre.
    viewport->frameAll();
    const auto& rig = window->document()->project().rig();
    const Vec3 hips = Vec3(rig->skeleton.bindPositions.row(0)) + root1;
    const QPointF p = viewport->project(glm::vec3(float(hips.x()), float(hips.y()), float(hips.z())));
    EXPECT_LT(std::abs(p.x() - viewport->width() / 2.0), 0.15 * viewport->width());

    // Follow off: the camera stays.
    window->findChild<QAction*>("actionFollowCharacter")->setChecked(false);
    const glm::vec3 still = viewport->camera().target;
    t->setTime(0.0);
    EXPECT_EQ(viewport->camera().target, still);
    window->findChild<QAction*>("actionFollowCharacter")->setChecked(true);
    window->document()->clearClip();
    window->setPoseMode(false);
}

} // namespace
} // namespace rig::ui
