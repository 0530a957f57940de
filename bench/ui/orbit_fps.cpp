// Orbit frame rate of the real viewport: the figure issue 2 asks for
// (>= 30 fps orbiting a 200k-triangle mesh at 1280x720 under Xvfb + llvmpipe).
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/bench/ui/orbit_fps [--triangles N] [--frames N] [--size WxH]
//
// Each frame rotates the camera by 2 degrees, repaints synchronously and waits
// for the GPU (glFinish), so the time is what an orbiting user sees.

#include "core/character/humanoid.h"
#include "ui/viewport/viewport.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
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
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSamples(std::getenv("RIGSMITH_SAMPLES") ? std::atoi(std::getenv("RIGSMITH_SAMPLES")) : 4);
    QSurfaceFormat::setDefaultFormat(format);
    QApplication app(argc, argv);

    // The humanoid's triangle count grows as 1 / cellSize^2 (about 44.5k at the default cell).
    rig::HumanoidOptions options;
    const double defaultCell = 1.75 / 100.0;
    options.cellSize = defaultCell * std::sqrt(44500.0 / std::max(targetTriangles, 1000));
    auto humanoid = std::make_shared<rig::Humanoid>(rig::generateHumanoid(options));
    std::shared_ptr<const rig::Mesh> mesh(humanoid, &humanoid->mesh);

    rig::ui::Viewport viewport;
    viewport.resize(w, h);
    viewport.show();
    if (!QTest::qWaitForWindowExposed(&viewport)) {
        std::fprintf(stderr, "orbit_fps: the window was not exposed (is there a display? use xvfb-run)\n");
        return 1;
    }
    viewport.setMesh(mesh);
    viewport.repaint(); // upload
    QOpenGLContext* ctx = viewport.context();
    if (!ctx) {
        std::fprintf(stderr, "orbit_fps: no OpenGL context\n");
        return 1;
    }
    // Let the event loop drive painting, as for a user dragging the mouse:
    // every frame rotates by 2 degrees and schedules the next one. The frame
    // time is measured from one paintGL to the next (frameSwapped).
    std::vector<double> ms, composeMs;
    QElapsedTimer timer, composeTimer;
    int frame = 0;
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
            QApplication::quit();
            return;
        }
        viewport.camera().orbit(2.0f / 0.01f * 3.14159265f / 180.0f, 0.0f);
        viewport.update();
    });
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
    std::printf("mesh: %d triangles, %d vertices; viewport %dx%d; %zu frames\n", mesh->triangleCount(),
                mesh->vertexCount(), w, h, ms.size());
    viewport.makeCurrent();
    std::printf("GL: %s, %d samples\n", reinterpret_cast<const char*>(ctx->functions()->glGetString(GL_RENDERER)),
                ctx->format().samples());
    viewport.doneCurrent();
    std::printf("frame time median %.2f ms (%.1f fps), p90 %.2f ms (%.1f fps)\n", median, 1000.0 / median, p90,
                1000.0 / p90);
    return 0;
}
