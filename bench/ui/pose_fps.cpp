// Frame rate of the real app while the artist drags a joint's rotate gizmo:
// the figure issue 6 asks for (>= 30 fps dragging a joint of the default
// character with any deformer, under Xvfb + llvmpipe).
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/bench/ui/pose_fps [--frames N] [--size WxH] [--joint NAME]
//                                                                  [--xray on|off] [--file SPEC | --cell-size C]
//                                                                  [--deformers ID,...] [--paints on] [--shot PNG]
//
// --file: the character to open (a file or a default spec; default: "default",
// 22k vertices); --cell-size C: the generated character polygonized at cell
// size C metres, written as PLY and opened as a file (0.0083: ~100k vertices,
// issue 20 item 5). Each deformer is dragged twice: first as in the app, for
// the frame rate; then with a glFinish after each part of paintGL, for the
// split of a frame (Viewport::FrameTimes: uploads, CPU deformers, draw,
// overlay; from paintGL's return to the swap, Qt composing the window; the
// mouse event's own handling). The glFinishes serialize what the rasterizer
// would overlap, so that second pass's frames are slower.
//
// The whole main window (docks, document, viewport) opens the default
// character and runs its stages (skeleton, rig, weights) as the app does, goes
// to pose mode, clicks the joint (LeftForeArm by default) and drags its Z ring
// back and forth, one mouse move per presented frame, under LBS, DQS and the
// twist-corrected deformer in turn. The frame time is measured from one
// frameSwapped to the next (as bench/ui/orbit_fps does).

#include "core/character/humanoid.h"
#include "core/export/mesh_write.h"
#include "core/rig/pose.h"
#include "core/project/rig_project.h"
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/render_offscreen.h"
#include "ui/viewport/gizmo.h"
#include "ui/viewport/viewport.h"

#include <QAction>
#include <QApplication>
#include <QEventLoop>
#include <QUndoStack>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <numbers>
#include <string>
#include <vector>

using namespace rig;
using namespace rig::ui;

namespace {
/// Counts paint events per widget class while a drag runs (--paints): any
/// widget repainted besides the viewport makes Qt recompose the window's
/// raster image at that frame.
class PaintCounter : public QObject {
public:
    std::map<std::string, int> counts;
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() == QEvent::Paint)
            ++counts[o->metaObject()->className()];
        return false;
    }
};
} // namespace

int main(int argc, char** argv)
{
    int frames = 120, w = 1400, h = 900;
    std::string jointName = "LeftForeArm";
    const char* xray = nullptr; // "on" / "off": the X-Ray toggle (default: as the app leaves it)
    std::string file = "default";
    double cellSize = 0.0;
    std::string only; // --deformers ID,...: those only (default: every deformer of the table)
    bool paints = false;
    std::string shot; // --shot PNG: the screen as the X server shows it, at the first drag's last frame
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--frames"))
            frames = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--size"))
            std::sscanf(argv[++i], "%dx%d", &w, &h);
        else if (!std::strcmp(argv[i], "--joint"))
            jointName = argv[++i];
        else if (!std::strcmp(argv[i], "--xray"))
            xray = argv[++i];
        else if (!std::strcmp(argv[i], "--file"))
            file = argv[++i];
        else if (!std::strcmp(argv[i], "--cell-size"))
            cellSize = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--deformers"))
            only = std::string(",") + argv[++i] + ",";
        else if (!std::strcmp(argv[i], "--paints"))
            paints = !std::strcmp(argv[++i], "on");
        else if (!std::strcmp(argv[i], "--shot"))
            shot = argv[++i];
    }
    QSurfaceFormat::setDefaultFormat(viewportFormat());
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    useViewportSamples();
    // Throw-away settings and autosaves; no modal prompts.
    QTemporaryDir scratch;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, scratch.path());
    qputenv("RIGSMITH_NO_PROMPTS", "1");
    qputenv("RIGSMITH_AUTOSAVE_DIR", scratch.path().toUtf8());

    MainWindow window(MainWindow::ViewportKind::OpenGL);
    window.resize(w, h);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) {
        std::fprintf(stderr, "pose_fps: the window was not exposed (is there a display? use xvfb-run)\n");
        return 1;
    }
    if (cellSize > 0.0) {
        file = scratch.filePath("generated.ply").toStdString();
        writeMesh(file, generateHumanoid({.cellSize = cellSize}).mesh);
    }
    window.openFile(QString::fromStdString(file));
    window.document()->waitForIdle();
    QCoreApplication::processEvents();
    Document* doc = window.document();
    Viewport* viewport = window.viewport();
    if (!doc->project().rig() || !viewport->hasSkinning()) {
        std::fprintf(stderr, "pose_fps: %s has no rig or weights after its stages\n", file.c_str());
        return 1;
    }
    const Skeleton& skeleton = doc->project().rig()->skeleton;
    const std::optional<int> joint = skeleton.find(jointName);
    if (!joint) {
        std::fprintf(stderr, "pose_fps: the rig has no joint '%s'\n", jointName.c_str());
        return 1;
    }
    window.setPoseMode(true);
    bool xrayOn = false;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == "X-Ray") {
            if (xray)
                a->setChecked(!std::strcmp(xray, "on"));
            xrayOn = a->isChecked();
        }
    viewport->frameAll();
    QCoreApplication::processEvents();
    const PosedSkeleton rest = forwardKinematics(skeleton, doc->pose());
    const glm::vec3 at(rest.positions(*joint, 0), rest.positions(*joint, 1), rest.positions(*joint, 2));
    QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, viewport->project(at).toPoint());
    const std::optional<RotateGizmo> g = viewport->gizmo();
    if (viewport->selectedJoint() != *joint || !g) {
        std::fprintf(stderr, "pose_fps: clicking the joint did not select it\n");
        return 1;
    }
    // A point that picks the Z ring alone, and the ring's on-screen tangent there.
    auto toScreen = [&](const glm::vec3& p) {
        const QPointF s = viewport->project(p);
        return glm::vec2(float(s.x()), float(s.y()));
    };
    glm::vec2 grab{0.0f}, tangent{0.0f};
    for (int i = 0; i < RotateGizmo::segments && glm::length(tangent) == 0.0f; ++i) {
        const float t = 2.0f * std::numbers::pi_v<float> * float(i) / float(RotateGizmo::segments);
        const glm::vec3 p = g->center + g->radius * (std::cos(t) * g->axes[0] + std::sin(t) * g->axes[1]);
        const glm::vec3 q = g->center + g->radius * (std::cos(t + 0.05f) * g->axes[0] + std::sin(t + 0.05f) * g->axes[1]);
        const glm::vec2 sp = toScreen(p), sq = toScreen(q);
        if (pickGizmoRing(*g, toScreen, sp) == 2 && glm::length(sq - sp) > 0.5f) {
            grab = sp;
            tangent = glm::normalize(sq - sp);
        }
    }
    if (glm::length(tangent) == 0.0f) {
        std::fprintf(stderr, "pose_fps: no point picks the Z ring alone\n");
        return 1;
    }
    QOpenGLContext* ctx = viewport->context();
    std::printf("GL: %s; window %dx%d, viewport %dx%d; joint %s; %d vertices; x-ray %s\n",
                [&] {
                    viewport->makeCurrent();
                    const char* r = reinterpret_cast<const char*>(ctx->functions()->glGetString(GL_RENDERER));
                    std::string s = r ? r : "?";
                    viewport->doneCurrent();
                    return s;
                }()
                    .c_str(),
                w, h, viewport->width(), viewport->height(), jointName.c_str(),
                doc->project().character()->imported.mesh.vertexCount(), xrayOn ? "on" : "off");

    // One drag: `frames` presented frames, one mouse move each. With `parts`,
    // each part of paintGL ends in a glFinish (the breakdown); without, the
    // frames run as in the app (the frame rate).
    struct Drag {
        std::vector<double> ms, events, composition;
        std::vector<Viewport::FrameTimes> parts;
    };
    PaintCounter counter;
    auto drag = [&](bool parts) {
        const QPoint start(int(std::lround(grab.x)), int(std::lround(grab.y)));
        QPoint mouse = start;
        auto send = [&](QEvent::Type type, Qt::MouseButton button, Qt::MouseButtons buttons) {
            QMouseEvent e(type, mouse, viewport->mapToGlobal(mouse), button, buttons, Qt::NoModifier);
            QCoreApplication::sendEvent(viewport, &e);
        };
        Drag out;
        viewport->setMeasureFrames(parts);
        QElapsedTimer timer;
        int frame = 0;
        double eventsMs = 0.0;
        QEventLoop loop;
        const QMetaObject::Connection c = QObject::connect(viewport, &QOpenGLWidget::frameSwapped, viewport, [&] {
            viewport->makeCurrent();
            ctx->functions()->glFinish();
            const auto swapped = std::chrono::steady_clock::now();
            if (frame > 5) { // warm-up frames excluded
                const Viewport::FrameTimes& t = viewport->lastFrameTimes();
                out.ms.push_back(double(timer.nsecsElapsed()) * 1e-6);
                out.parts.push_back(t);
                out.events.push_back(eventsMs);
                out.composition.push_back(std::chrono::duration<double, std::milli>(swapped - t.ended).count());
            }
            timer.start();
            if (++frame > frames + 5) {
                if (!shot.empty() && !parts) { // what Qt composed on the screen, not a re-render
                    QGuiApplication::primaryScreen()->grabWindow(0).save(QString::fromStdString(shot));
                    shot.clear();
                }
                loop.quit();
                return;
            }
            // 3 pixels along the ring per frame, 30 frames out and 30 back (about ±25°).
            const int step = (frame / 30) % 2 ? -1 : 1;
            mouse += QPoint(int(std::lround(3.0f * step * tangent.x)), int(std::lround(3.0f * step * tangent.y)));
            send(QEvent::MouseMove, Qt::NoButton, Qt::LeftButton);
            eventsMs = double(timer.nsecsElapsed()) * 1e-6;
        });
        send(QEvent::MouseButtonPress, Qt::LeftButton, Qt::LeftButton);
        timer.start();
        viewport->update();
        loop.exec();
        QObject::disconnect(c);
        viewport->setMeasureFrames(false);
        send(QEvent::MouseButtonRelease, Qt::LeftButton, Qt::NoButton);
        doc->undoStack()->undo(); // back to the bind pose
        QCoreApplication::processEvents();
        return out;
    };
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    };

    for (const DeformerInfo& info : deformers()) {
        const std::string d = info.id;
        if (!only.empty() && only.find("," + d + ",") == std::string::npos)
            continue;
        doc->setDeformer(d);
        QCoreApplication::processEvents();
        if (paints)
            app.installEventFilter(&counter);
        const Drag rate = drag(false);
        app.removeEventFilter(&counter);
        for (const auto& [name, n] : counter.counts)
            std::printf("  paint events during the drag: %-28s %d\n", name.c_str(), n);
        counter.counts.clear();
        const Drag parts = drag(true);
        if (rate.ms.empty() || parts.ms.empty()) {
            std::fprintf(stderr, "pose_fps: no frames were drawn\n");
            return 1;
        }
        std::vector<double> sorted = rate.ms;
        std::sort(sorted.begin(), sorted.end());
        const double med = sorted[sorted.size() / 2], p90 = sorted[sorted.size() * 9 / 10];
        std::printf("%-22s frame time median %6.2f ms (%5.1f fps), p90 %6.2f ms (%5.1f fps), %zu frames\n",
                    info.title.c_str(), med, 1000.0 / med, p90, 1000.0 / p90, sorted.size());
        auto part = [&](auto get) {
            std::vector<double> v;
            for (const Viewport::FrameTimes& t : parts.parts)
                v.push_back(get(t));
            return median(v);
        };
        std::printf("%-22s   medians, frames timed part by part (each part ends in a glFinish): frame %.2f ms; "
                    "uploads %.2f, CPU deformer %.2f, draw %.2f, overlay %.2f ms; paintGL %.2f ms; "
                    "after paintGL until swapped (Qt composition) %.2f ms; mouse event %.2f ms\n",
                    "", median(parts.ms), part([](const auto& t) { return t.upload; }),
                    part([](const auto& t) { return t.cpuDeform; }), part([](const auto& t) { return t.draw; }),
                    part([](const auto& t) { return t.overlay; }), part([](const auto& t) { return t.total(); }),
                    median(parts.composition), median(parts.events));
    }
    return 0;
}
