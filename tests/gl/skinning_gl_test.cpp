// GPU skinning (shaders/mesh.vert through transform feedback) against the CPU
// deformers of core/deform: LBS, DQS and twist-corrected LBS on posed meshes
// with twists, to 1e-4 of the bounding-box size.
#include "ui/viewport/gpu_skinning.h"

#include "core/character/humanoid.h"
#include "tests/support/link_weights.h"
#include "core/project/pipeline.h"
#include "core/project/rig_project.h"
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/render_offscreen.h"
#include "ui/panels/joint_panel.h"
#include "ui/viewport/viewport.h"
#include "core/eval/bar_experiment.h"
#include "core/deform/deformers.h"
#include "core/deform/twist_lbs.h"

#include "tests/support/qt/image_compare.h"
#include "tests/support/source_dir.h"

#include "tests/support/test_methods.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFile>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QPainter>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <numbers>

namespace rig::ui {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

class SkinningGlTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(gl.ok()) << gl.error().toStdString();
        QString error;
        ASSERT_TRUE(feedback.initialize(&error)) << error.toStdString();
    }
    void TearDown() override
    {
        feedback.release();
    }

    /// Max distance between the GPU and CPU positions, and max angle between normals.
    struct Difference {
        double position = 0.0;
        double normal = 0.0;
    };
    Difference compare(const DeformerInfo& d, const MatrixX3d& V, const MatrixX3d& N, const SkinWeights& W,
                       const Segmentation& seg, const Skeleton& s, const Pose& pose, std::span<const double> twist = {})
    {
        feedback.setMesh(V, N, makeSkinVertices(W, seg, s)); // as the viewport uploads them
        feedback.setPose(makeSkinTexels(s, pose, twist));
        const std::vector<float> gpu = feedback.deform(d.gpuProgram);
        Mesh mesh;
        mesh.V = V;
        mesh.N = N;
        const DeformedMesh cpu = deformOnce(d, DeformerInput{mesh, W, &seg, s}, pose, twist);
        EXPECT_EQ(gpu.size(), size_t(V.rows()) * 6);
        Difference diff;
        for (int i = 0; i < V.rows() && gpu.size() == size_t(V.rows()) * 6; ++i) {
            const Vec3 p(gpu[6 * i], gpu[6 * i + 1], gpu[6 * i + 2]);
            const Vec3 n(gpu[6 * i + 3], gpu[6 * i + 4], gpu[6 * i + 5]);
            diff.position = std::max(diff.position, (p - cpu.V.row(i).transpose()).norm());
            diff.normal = std::max(diff.normal, (n - cpu.N.row(i).transpose()).norm());
        }
        return diff;
    }

    OffscreenGl gl;
    SkinningFeedback feedback;
};

/// The deformers of the table that have a GPU program (the shader's `uDeformer`).
std::vector<DeformerInfo> gpuDeformers()
{
    std::vector<DeformerInfo> out;
    for (const DeformerInfo& d : deformers())
        if (d.gpuProgram >= 0)
            out.push_back(d);
    return out;
}

/// The bar of thesis §4.4 after its six cumulative rotations (twists of 180°,
/// 200° and 120°, then bends), the twist deformer with the unwrapped angles.
TEST_F(SkinningGlTest, BarMatchesCpuForAllDeformers)
{
    BarOptions options;
    options.ringsPerUnit = 4;
    const BarRig bar = makeBar(options);
    Pose pose = identityPose(bar.skeleton);
    // Euler xyz (R = Rz·Ry·Rx) per joint, as bar_experiment.h.
    const double euler[5][3] = {{0, 0, 0}, {90, 180, 0}, {0, 200, 60}, {0, 120, 80}, {0, 0, 0}};
    std::vector<double> twist(5, 0.0);
    for (int j = 0; j < 5; ++j) {
        pose.localRotations[size_t(j)] = Eigen::AngleAxisd(euler[j][2] * kDeg, Vec3::UnitZ()) *
                                         Eigen::AngleAxisd(euler[j][1] * kDeg, Vec3::UnitY()) *
                                         Eigen::AngleAxisd(euler[j][0] * kDeg, Vec3::UnitX());
    }
    // Unwrapped twists: the pose's wrapped twist moved by whole turns towards the Y channel.
    const std::vector<double> wrapped = twistAngles(bar.skeleton, pose);
    for (int j = 1; j < 5; ++j)
        twist[size_t(j)] = unwrapAngle(euler[j][1] * kDeg, wrapped[size_t(j)]);
    const double size = (bar.mesh.V.colwise().maxCoeff() - bar.mesh.V.colwise().minCoeff()).norm();
    for (const DeformerInfo& d : gpuDeformers()) {
        const Difference diff = compare(d, bar.mesh.V, bar.mesh.N, bar.weights, bar.segmentation, bar.skeleton, pose, twist);
        EXPECT_LT(diff.position, 1e-4 * size) << d.title;
        EXPECT_LT(diff.normal, 1e-3) << d.title;
    }
    // The deformers really differ here (a test that could not fail would not).
    feedback.setPose(makeSkinTexels(bar.skeleton, pose, twist));
    const std::vector<float> l = feedback.deform(findDeformer("lbs").gpuProgram), t = feedback.deform(findDeformer("twist").gpuProgram);
    double moved = 0.0;
    for (size_t i = 0; i < l.size(); i += 6)
        moved = std::max(moved, double(std::abs(l[i] - t[i]) + std::abs(l[i + 2] - t[i + 2])));
    EXPECT_GT(moved, 0.1);
}

/// HUMAN.blend with bone-heat weights under a forearm-joint twist: skin blended
/// between the arm and the body twists by δ·λ (core/deform/twist_lbs.h). The
/// viewport uploaded the links' δ, so the GPU twisted the waist beside the arm
/// where the CPU deformer (and the measure of issue 16) did not.
TEST_F(SkinningGlTest, BlendedSkinTwistsOnTheGpuAsOnTheCpu)
{
    const std::string path = RIGSMITH_ASSIMP_MODELS "/BLEND/HUMAN.blend";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << path << " is missing (assimp-testmodels)";
    RigProject p;
    p.setCharacterSpec(path);
    WeightOptions w;
    w.method = "heat";
    p.setWeightOptions(w);
    runStages(p, Stage::Load, Stage::Weights);
    const Skeleton& s = p.rig()->skeleton;
    const Mesh& mesh = p.character()->imported.mesh;
    const SkinWeights& W = p.skinning()->weights;
    const Segmentation& seg = p.skinning()->segmentation;
    const Segmentation twist = twistSegmentation(seg, W, s);
    int partial = 0;
    for (int v = 0; v < mesh.vertexCount(); ++v)
        partial += std::abs(twist.delta[size_t(v)] - seg.delta[size_t(v)]) > 1e-3;
    ASSERT_GT(partial, 0) << "no vertex with a partial twist: the test would not test the upload";
    Pose pose = identityPose(s);
    const int forearm = *s.find("LeftForeArm");
    pose.localRotations[size_t(forearm)] = Eigen::Quaterniond(Eigen::AngleAxisd(90 * kDeg, twistAxis(s, forearm)));
    const double size = (mesh.V.colwise().maxCoeff() - mesh.V.colwise().minCoeff()).norm();
    const Difference diff = compare(findDeformer("twist"), mesh.V, mesh.N, W, seg, s, pose);
    std::cout << partial << " vertices twist partially; GPU-CPU max position difference " << diff.position / size
              << " of the box diagonal\n";
    EXPECT_LT(diff.position, 1e-4 * size);
}

/// The default character with its ground-truth joints, a 180° forearm twist,
/// a bent elbow and a turned neck.
TEST_F(SkinningGlTest, DefaultCharacterMatchesCpuForAllDeformers)
{
    HumanoidOptions ho;
    ho.cellSize = 0.035; // coarse: a few thousand vertices
    const Humanoid h = generateHumanoid(ho);
    Skeleton s;
    s.names = h.jointNames;
    s.parents = h.jointParents;
    s.bindPositions = h.joints;
    s.bindOrientations.assign(h.jointNames.size(), Eigen::Quaterniond::Identity());
    const Segmentation seg = segmentationFromNearestLink(h.mesh.V, s);
    const SkinWeights W = test::linkWeights(seg, s);
    validateSkinWeights(W, h.mesh.vertexCount(), s.jointCount());

    Pose pose = identityPose(s);
    const int hand = *s.find("LeftHand"), forearm = *s.find("LeftForeArm"), neck = *s.find("Neck");
    const Vec3 axis = twistAxis(s, hand);
    pose.localRotations[size_t(hand)] = Eigen::Quaterniond(Eigen::AngleAxisd(170 * kDeg, axis));
    pose.localRotations[size_t(forearm)] = Eigen::Quaterniond(Eigen::AngleAxisd(60 * kDeg, Vec3::UnitZ()));
    pose.localRotations[size_t(neck)] = Eigen::Quaterniond(Eigen::AngleAxisd(40 * kDeg, Vec3::UnitY()));
    pose.rootTranslation = Vec3(0.1, -0.05, 0.2);
    const double size = (h.mesh.V.colwise().maxCoeff() - h.mesh.V.colwise().minCoeff()).norm();
    for (const DeformerInfo& d : gpuDeformers()) {
        const Difference diff = compare(d, h.mesh.V, h.mesh.N, W, seg, s, pose);
        std::cout << d.title << ": GPU-CPU max position difference " << diff.position / size
                  << " of the box diagonal, normals " << diff.normal << "\n";
        EXPECT_LT(diff.position, 1e-4 * size) << d.title;
        EXPECT_LT(diff.normal, 1e-3) << d.title;
    }
}

TEST_F(SkinningGlTest, IdentityPoseReturnsTheRestMesh)
{
    BarOptions options;
    options.ringsPerUnit = 2;
    const BarRig bar = makeBar(options);
    feedback.setMesh(bar.mesh.V, bar.mesh.N, makeSkinVertices(bar.weights, &bar.segmentation));
    feedback.setPose(makeSkinTexels(bar.skeleton, identityPose(bar.skeleton)));
    for (const DeformerInfo& d : gpuDeformers()) {
        const std::vector<float> out = feedback.deform(d.gpuProgram);
        ASSERT_EQ(out.size(), size_t(bar.mesh.vertexCount()) * 6);
        double err = 0.0;
        for (int i = 0; i < bar.mesh.vertexCount(); ++i)
            for (int c = 0; c < 3; ++c)
                err = std::max(err, std::abs(double(out[6 * i + c]) - bar.mesh.V(i, c)));
        EXPECT_LT(err, 1e-5) << d.title;
    }
}

/// Fraction of sampled pixels that differ between two frames.
double difference(const QImage& a, const QImage& b) { return test::imageDifference(a, b); }

/// The app posing the default character: weights from the nearest-link
/// segmentation (the same whatever the weights stage computes), Pose mode.
/// One window for the suite (loading and rigging take a few seconds); each
/// test starts from the bind pose, LBS, no split, framed.
class PosingGlTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        test::registerTestMethods(); // the 4th deformer: CPU only, drawn from its CPU output
        window = new MainWindow(MainWindow::ViewportKind::OpenGL);
        window->resize(1400, 900);
        window->show();
        if (!QTest::qWaitForWindowExposed(window))
            return;
        window->openFile("default");
        window->document()->waitForIdle();
        QCoreApplication::processEvents();
    }
    static void TearDownTestSuite()
    {
        delete window;
        window = nullptr;
    }
    void SetUp() override
    {
        ASSERT_TRUE(window && window->isVisible());
        viewport = window->viewport();
        doc = window->document();
        ASSERT_TRUE(doc->project().rig());
        doc->resetPose();
        doc->undoStack()->clear();
        doc->setDeformer("lbs");
        if (auto* split = window->findChild<QAction*>("actionSplitView"); split && split->isChecked())
            split->trigger();
        window->setPoseMode(false);
        viewport->setSelectedJoint(-1);
        viewport->frameAll();
        EXPECT_TRUE(viewport->hasSkinning()) << "the weights stage's result skins the viewport";
        const Skeleton& s = doc->project().rig()->skeleton;
        const Mesh& mesh = doc->project().character()->imported.mesh;
        auto seg = std::make_shared<Segmentation>(segmentationFromNearestLink(mesh.V, s));
        doc->previewWeights(test::linkWeights(*seg, s)); // the document's segmentation stays
        viewport->setMeshOpacity(1.0f);
        viewport->setSkeletonVisible(false);
        viewport->setGridVisible(false);
    }
    QImage frame()
    {
        QCoreApplication::processEvents();
        return viewport->grabFramebuffer();
    }
    QPoint screenOf(const glm::vec3& p) const { return viewport->project(p).toPoint(); }
    /// With RIGSMITH_SHOTS=DIR set, saves the window (not used for any assertion).
    void saveShot(const char* name)
    {
        if (const char* dir = std::getenv("RIGSMITH_SHOTS")) {
            QCoreApplication::processEvents();
            QImage shot = window->grab().toImage();
            QPainter painter(&shot);
            painter.drawImage(viewport->mapTo(window, QPoint(0, 0)), viewport->grabFramebuffer());
            painter.end();
            shot.save(QString("%1/%2.png").arg(dir, name));
        }
    }
    int joint(const char* name) const { return *doc->project().rig()->skeleton.find(name); }

    static MainWindow* window;
    Viewport* viewport = nullptr;
    Document* doc = nullptr;
};
MainWindow* PosingGlTest::window = nullptr;

TEST_F(PosingGlTest, TabAndDigitKeysSwitchModeAndDeformer)
{
    window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window)); // shortcuts go to the active window
    viewport->setFocus();
    QTest::keyClick(viewport, Qt::Key_Tab);
    EXPECT_TRUE(window->poseMode());
    EXPECT_EQ(viewport->mode(), InteractionMode::Pose);
    QTest::keyClick(viewport, Qt::Key_3);
    EXPECT_EQ(doc->deformer(), "twist");
    EXPECT_EQ(viewport->deformer(), "twist");
    QTest::keyClick(viewport, Qt::Key_2);
    EXPECT_EQ(viewport->deformer(), "dqs");
    QTest::keyClick(viewport, Qt::Key_Tab); // Tab cycles Rig, Pose, Paint (issue 18)
    EXPECT_EQ(viewport->mode(), InteractionMode::Paint);
    EXPECT_FALSE(window->poseMode());
    QTest::keyClick(viewport, Qt::Key_Tab);
    EXPECT_EQ(viewport->mode(), InteractionMode::Rig);
}

TEST_F(PosingGlTest, DraggingAGizmoRingRotatesTheJointAndDeformsTheMesh)
{
    window->setPoseMode(true);
    EXPECT_EQ(viewport->mode(), InteractionMode::Pose);
    const int elbow = joint("LeftForeArm");
    const PosedSkeleton rest = forwardKinematics(doc->project().rig()->skeleton, doc->pose());
    const QPoint at = screenOf(glm::vec3(rest.positions(elbow, 0), rest.positions(elbow, 1), rest.positions(elbow, 2)));
    QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, at);
    ASSERT_EQ(viewport->selectedJoint(), elbow);
    EXPECT_EQ(window->jointPanel()->selectedJoint(), elbow);
    const std::optional<RotateGizmo> g = viewport->gizmo();
    ASSERT_TRUE(g);
    const QImage before = frame();
    saveShot("pose_1_selected");

    // Grab the Z ring (the front axis: bends the forearm) where it is picked
    // alone, and drag along its on-screen tangent.
    auto toScreen = [this](const glm::vec3& w) {
        const QPointF p = viewport->project(w);
        return glm::vec2(float(p.x()), float(p.y()));
    };
    const int ring = 2;
    glm::vec2 grab{0.0f}, tangent{0.0f};
    for (int i = 0; i < RotateGizmo::segments && glm::length(tangent) == 0.0f; ++i) {
        const float t = 2.0f * std::numbers::pi_v<float> * float(i) / float(RotateGizmo::segments);
        const glm::vec3 a = g->axes[0], b = g->axes[1];
        const glm::vec3 p = g->center + g->radius * (std::cos(t) * a + std::sin(t) * b);
        const glm::vec3 q = g->center + g->radius * (std::cos(t + 0.05f) * a + std::sin(t + 0.05f) * b);
        const glm::vec2 sp = toScreen(p), sq = toScreen(q);
        if (pickGizmoRing(*g, toScreen, sp) == ring && glm::length(sq - sp) > 0.5f) {
            grab = sp;
            tangent = glm::normalize(sq - sp);
        }
    }
    ASSERT_GT(glm::length(tangent), 0.0f) << "no point picks the Z ring alone";
    const QPoint start(int(std::lround(grab.x)), int(std::lround(grab.y)));
    QMouseEvent press(QEvent::MouseButtonPress, start, viewport->mapToGlobal(start), Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &press);
    QPoint p = start;
    for (int i = 1; i <= 12; ++i) {
        p = start + QPoint(int(std::lround(5.0f * i * tangent.x)), int(std::lround(5.0f * i * tangent.y)));
        QMouseEvent move(QEvent::MouseMove, p, viewport->mapToGlobal(p), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &move);
    }
    EXPECT_EQ(doc->undoStack()->count(), 0) << "no undo step while dragging";
    QMouseEvent release(QEvent::MouseButtonRelease, p, viewport->mapToGlobal(p), Qt::LeftButton, Qt::NoButton,
                        Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &release);
    EXPECT_EQ(doc->undoStack()->count(), 1) << "one undo step per completed drag";
    const Eigen::Quaterniond r = doc->pose().localRotations[size_t(elbow)];
    EXPECT_GT(r.angularDistance(Eigen::Quaterniond::Identity()), 10.0 * kDeg);
    // About the joint's own Z axis only.
    const Eigen::AngleAxisd aa(r);
    EXPECT_NEAR(std::abs(aa.axis().z()), 1.0, 1e-6);
    const QImage after = frame();
    saveShot("pose_2_dragged");
    EXPECT_GT(difference(before, after), 0.002) << "the mesh moved";
    EXPECT_TRUE(viewport->glError().isEmpty()) << viewport->glError().toStdString();

    doc->undoStack()->undo();
    EXPECT_LT(doc->pose().localRotations[size_t(elbow)].angularDistance(Eigen::Quaterniond::Identity()), 1e-9);
    EXPECT_LT(difference(before, frame()), 0.002) << "undo restores the mesh";
}

/// A deformer without a GPU program (registered by the test through the
/// table) is listed in the toolbar and drawn from its CPU output: the
/// bent arm shows, not the rest shape.
TEST_F(PosingGlTest, ADeformerWithoutAShaderIsDrawnFromItsCpuOutput)
{
    QAction* action = nullptr;
    for (QAction* a : window->findChildren<QAction*>())
        if (a->objectName().startsWith("actionDeformer") && a->text() == "TestRigid")
            action = a;
    ASSERT_TRUE(action) << "a toolbar button for the test-only deformer";
    window->setPoseMode(true);
    action->trigger();
    EXPECT_EQ(doc->deformer(), test::testDeformerId);
    EXPECT_EQ(viewport->deformer(), test::testDeformerId);
    const QImage rest = frame();
    const int shoulder = joint("LeftArm");
    Pose p = doc->pose();
    p.localRotations[size_t(shoulder)] = Eigen::AngleAxisd(80 * kDeg, Vec3::UnitZ());
    ASSERT_TRUE(doc->commitPose(p, "Raise the arm"));
    const QImage rigid = frame();
    EXPECT_GT(difference(rest, rigid), 0.002) << "the CPU-deformed mesh is drawn, not the rest shape";
    doc->setDeformer("lbs");
    const QImage lbs = frame();
    EXPECT_GT(difference(rest, lbs), 0.002);
    // Rigid and LBS agree away from the joints: the same arm, not another pose.
    EXPECT_LT(difference(rigid, lbs), difference(rest, rigid));
}

/// The same 180° forearm twist under each deformer, close up on the arm: the
/// twist-corrected one differs from LBS (which collapses at the wrist).
TEST_F(PosingGlTest, ForearmTwistUnderEachDeformer)
{
    window->setPoseMode(true);
    const Skeleton& s = doc->project().rig()->skeleton;
    const int hand = joint("LeftHand"), forearm = joint("LeftForeArm");
    const Vec3 axis = s.bindOrientations[size_t(hand)].conjugate() * twistAxis(s, hand);
    Pose p = doc->pose();
    for (int deg = 10; deg <= 180; deg += 10) {
        p.localRotations[size_t(hand)] = Eigen::AngleAxisd(deg * kDeg, axis);
        doc->previewPose(p);
    }
    ASSERT_TRUE(doc->commitPose(p, "Twist the forearm"));
    EXPECT_NEAR(doc->poseTwist()[size_t(hand)], std::numbers::pi, 1e-6);
    // Close up on the forearm, from the front.
    const Vec3 a = s.bindPositions.row(forearm).transpose(), b = s.bindPositions.row(hand).transpose();
    const Vec3 m = 0.5 * (a + b);
    viewport->setViewPreset(ViewPreset::Front);
    viewport->camera().target = glm::vec3(float(m.x()), float(m.y()), float(m.z()));
    viewport->camera().distance = float(4.0 * (b - a).norm());
    std::vector<QImage> shots;
    for (auto [d, name] : {std::pair{"lbs", "twist180_lbs"}, std::pair{"dqs", "twist180_dqs"},
                           std::pair{"twist", "twist180_twist"}}) {
        doc->setDeformer(d);
        EXPECT_EQ(viewport->deformer(), d);
        shots.push_back(frame());
        saveShot(name);
    }
    EXPECT_GT(difference(shots[0], shots[2]), 0.002) << "twist-corrected differs from LBS";
    doc->setDeformer("lbs");
    window->findChild<QAction*>("actionSplitView")->trigger();
    const QImage split = frame();
    saveShot("twist180_split_lbs_twist");
    // Left half as LBS, right half as twist-corrected (below the band of the halves' titles,
    // beside the divider: issue 19 item 3).
    const int w = split.width(), h = split.height(), top = 48;
    EXPECT_LT(difference(split.copy(0, top, w / 2 - 2, h - top), shots[0].copy(0, top, w / 2 - 2, h - top)), 0.002);
    EXPECT_LT(difference(split.copy(w / 2 + 2, top, w / 2 - 2, h - top), shots[2].copy(w / 2 + 2, top, w / 2 - 2, h - top)),
              0.002);
}

// Issue 16's "done when": every deformer of the table on the same 120° elbow
// bend and the same 180° forearm twist of a devset character, in the window
// (screenshots with RIGSMITH_SHOTS). Each draws the arm moved, finite.
TEST(DeformersOnADevsetCharacterGl, EveryDeformerDrawsTheBentAndTwistedForearm)
{
    const QString file = QString::fromStdString(rig::test::sourcePath("../shared/devset/re_male.glb"));
    if (!QFile::exists(file))
        GTEST_SKIP() << file.toStdString() << " is missing (the devset lies beside the clone in CI only)";
    MainWindow window(MainWindow::ViewportKind::OpenGL);
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.openFile(file);
    window.document()->waitForIdle();
    QCoreApplication::processEvents();
    Document* doc = window.document();
    ASSERT_TRUE(doc->project().rig());
    Viewport* viewport = window.viewport();
    const Skeleton& s = doc->project().rig()->skeleton;
    const int forearm = *s.find("LeftForeArm"), arm = *s.find("LeftArm");
    window.setPoseMode(true);
    viewport->setSkeletonVisible(false);
    viewport->setMeshOpacity(1.0f);
    viewport->setSelectedJoint(arm);
    viewport->frameSelected();
    auto frame = [&] {
        QCoreApplication::processEvents();
        return viewport->grabFramebuffer();
    };
    const QImage rest = frame();
    const std::pair<const char*, Eigen::Quaterniond> poses[] = {
        {"bend120", Eigen::Quaterniond(Eigen::AngleAxisd(120 * kDeg, Vec3::UnitZ()))},
        {"twist180", Eigen::Quaterniond(Eigen::AngleAxisd(180 * kDeg, Vec3::UnitY()))}}; // +Y: along the bone (skeleton.h)
    for (const auto& [pose, rotation] : poses)
        for (const DeformerInfo& d : deformers()) {
            SCOPED_TRACE(std::string(pose) + " " + d.id);
            doc->setDeformer(d.id);
            doc->resetPose();
            ASSERT_TRUE(doc->setJointRotation(forearm, rotation));
            const QImage img = frame();
            EXPECT_GT(test::imageDifference(rest, img), 0.002) << "the forearm moved";
            const MatrixX3d& drawn = viewport->pickPositions();
            EXPECT_TRUE(drawn.allFinite());
            if (const char* dir = std::getenv("RIGSMITH_SHOTS"))
                img.save(QString("%1/deform_%2_%3.png").arg(dir, pose, QString::fromStdString(d.id)));
        }
    doc->resetPose();
    doc->setDeformer("lbs");
}

} // namespace
} // namespace rig::ui
