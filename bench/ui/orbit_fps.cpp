// Orbit frame rate of the real viewport: the figure issue 2 asks for
// (>= 30 fps orbiting a 200k-triangle mesh at 1280x720 under Xvfb + llvmpipe).
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/bench/ui/orbit_fps [--triangles N] [--frames N] [--size WxH]
//
// It drags the mouse like a user and measures the time between presented
// frames. RIGSMITH_FULL_DETAIL=1 keeps the full mesh while orbiting (by default
// the viewport draws a coarse stand-in of meshes above 60k triangles while the
// camera moves, and the full mesh as soon as it stops).

#include "core/character/humanoid.h"
#include "ui/render_offscreen.h"
#include "ui/viewport/viewport.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QMouseEvent>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

int main(int argc, char** argv)
{
    int targetTriangles = 200000, frames = 240, w = 1280, h = 720;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--triangles"))
            targetTriangles = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--frames"))
            frames = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--size"))
            std::sscanf(argv[++i], "%dx%d", &w, &h);
    }
    QSurfaceFormat::setDefaultFormat(rig::ui::viewportFormat());
    QApplication app(argc, argv);
    // As the app does: no multisampling on software rasterizers (RIGSMITH_SAMPLES overrides).
    rig::ui::useViewportSamples(std::getenv("RIGSMITH_SAMPLES") ? std::atoi(std::getenv("RIGSMITH_SAMPLES")) : -1);

    // The humanoid's triangle count grows as 1 / cellSize^2 (about 44.5k at the default cell).
    rig::HumanoidOptions options;
    const double defaultCell = 1.75 / 100.0;
    options.cellSize = defaultCell * std::sqrt(44500.0 / std::max(targetTriangles, 1000));
    auto character = std::make_shared<rig::LoadedCharacter>();
    character->imported.mesh = rig::generateHumanoid(options).mesh;
    rig::ui::ViewState state;
    state.project.setCharacter(character);

    rig::ui::Viewport viewport;
    viewport.resize(w, h);
    viewport.show();
    if (!QTest::qWaitForWindowExposed(&viewport)) {
        std::fprintf(stderr, "orbit_fps: the window was not exposed (is there a display? use xvfb-run)\n");
        return 1;
    }
    viewport.showState(state);
    viewport.repaint(); // upload
    QOpenGLContext* ctx = viewport.context();
    if (!ctx) {
        std::fprintf(stderr, "orbit_fps: no OpenGL context\n");
        return 1;
    }
    // Drive the viewport as a user does: press the left button and drag, one
    // mouse move of 4 pixels (about 2.3 degrees) per frame; each move schedules
    // the next paint. The frame time is measured from one frameSwapped to the next.
    const bool fullDetail = std::getenv("RIGSMITH_FULL_DETAIL") != nullptr;
    viewport.setSimplifyWhileMoving(!fullDetail);
    std::vector<double> ms, composeMs;
    QElapsedTimer timer, composeTimer;
    int frame = 0;
    QPoint mouse(w / 2, h / 2);
    auto send = [&](QEvent::Type type, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent e(type, mouse, viewport.mapToGlobal(mouse), button, buttons, Qt::NoModifier);
        QCoreApplication::sendEvent(&viewport, &e);
    };
    QObject::connect(&viewport, &QOpenGLWidget::aboutToCompose, &viewport, [&] { composeTimer.start(); });
    QObject::connect(&viewport, &QOpenGLWidget::frameSwapped, &viewport, [&] {
        viewport.makeCurrent();
        ctx->functions()->glFinish();
        if (frame > 10) { // warm-up frames excluded
            ms.push_back(double(timer.nsecsElapsed()) * 1e-6);
            composeMs.push_back(double(composeTimer.nsecsElapsed()) * 1e-6);
        }
        timer.start();
        if (++frame > frames + 10) {
            send(QEvent::MouseButtonRelease, Qt::LeftButton, Qt::NoButton);
            QApplication::quit();
            return;
        }
        mouse.rx() += (frame / 60) % 2 ? -4 : 4; // back and forth
        send(QEvent::MouseMove, Qt::NoButton, Qt::LeftButton);
    });
    send(QEvent::MouseButtonPress, Qt::LeftButton, Qt::LeftButton);
    timer.start();
    viewport.update();
    QApplication::exec();
    if (ms.empty()) {
        std::fprintf(stderr, "orbit_fps: no frames were drawn\n");
        return 1;
    }
    std::sort(ms.begin(), ms.end());
    std::sort(composeMs.begin(), composeMs.end());
    std::printf("composition (aboutToCompose to frameSwapped) median %.2f ms\n", composeMs[composeMs.size() / 2]);
    const double median = ms[ms.size() / 2], p90 = ms[ms.size() * 9 / 10];
    std::printf("mesh: %d triangles, %d vertices; viewport %dx%d; %zu frames; %s\n", character->imported.mesh.triangleCount(),
                character->imported.mesh.vertexCount(), w, h, ms.size(),
                fullDetail ? "full detail while orbiting" : "coarse stand-in while orbiting (the default)");
    viewport.makeCurrent();
    std::printf("GL: %s, %d samples\n", reinterpret_cast<const char*>(ctx->functions()->glGetString(GL_RENDERER)),
                ctx->format().samples());
    viewport.doneCurrent();
    std::printf("frame time median %.2f ms (%.1f fps), p90 %.2f ms (%.1f fps)\n", median, 1000.0 / median, p90,
                1000.0 / p90);
    return 0;
}
