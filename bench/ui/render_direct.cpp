// The renderer alone, without the widget's composition into the window: draws
// the humanoid at N triangles into a 1280x720 framebuffer object, orbiting 2
// degrees per frame, and reports the median frame time (with glFinish).
//
//   xvfb-run -a build/bench/ui/render_direct [TRIANGLES]
//
// Compare with orbit_fps (the same through the QOpenGLWidget) to see what the
// composition costs.

#include "core/character/humanoid.h"
#include "ui/render_offscreen.h"
#include "ui/viewport/renderer.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include <array>
#include <cstring>
#include <random>

int main(int argc, char** argv)
{
    QGuiApplication app(argc, argv);
    const int targetTriangles = argc > 1 ? std::max(1000, std::atoi(argv[1])) : 200000;
    rig::ui::OffscreenGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "render_direct: %s\n", gl.error().toUtf8().constData());
        return 1;
    }
    QOpenGLContext& context = gl.context();
    rig::HumanoidOptions options;
    options.cellSize = 1.75 / 100.0 * std::sqrt(44500.0 / targetTriangles);
    const rig::Humanoid humanoid = rig::generateHumanoid(options);
    QOpenGLFramebufferObjectFormat fboFormat;
    fboFormat.setAttachment(QOpenGLFramebufferObject::Depth);
    const int w = std::getenv("W") ? std::atoi(std::getenv("W")) : 1280, h = w * 9 / 16;
    QOpenGLFramebufferObject fbo(QSize(w, h), fboFormat);
    fbo.bind();
    rig::ui::Renderer renderer;
    QString error;
    if (!renderer.initialize(&error)) {
        std::fprintf(stderr, "render_direct: %s\n", qPrintable(error));
        return 1;
    }
    rig::ui::MeshDrawData data = rig::ui::makeMeshDrawData(humanoid.mesh);
    if (std::getenv("SHUFFLE")) { // experiment: triangle order
        std::vector<std::array<unsigned, 3>> t(data.indices.size() / 3);
        std::memcpy(t.data(), data.indices.data(), data.indices.size() * sizeof(unsigned));
        std::mt19937 rng(1);
        std::shuffle(t.begin(), t.end(), rng);
        std::memcpy(data.indices.data(), t.data(), data.indices.size() * sizeof(unsigned));
    }
    renderer.setMesh(data);
    rig::ui::OrbitCamera camera;
    camera.frame(data.boundsMin, data.boundsMax, 1280.0f / 720.0f);
    std::vector<double> ms;
    QElapsedTimer timer;
    for (int i = 0; i < 70; ++i) {
        timer.start();
        camera.orbit(3.5f, 0.0f); // 2 degrees
        renderer.render(camera, w, h, {});
        context.functions()->glFinish();
        if (i >= 10)
            ms.push_back(double(timer.nsecsElapsed()) * 1e-6);
    }
    if (const char* save = std::getenv("SAVE")) { // look at it: SAVE=shot.png [INTERACTIVE=1]
        rig::ui::RenderOptions o;
        o.interactive = std::getenv("INTERACTIVE") != nullptr;
        camera.setPreset(rig::ui::ViewPreset::ThreeQuarter);
        camera.frame(data.boundsMin, data.boundsMax, float(w) / float(h));
        renderer.render(camera, w, h, o);
        fbo.toImage().save(save);
    }
    renderer.release();
    std::sort(ms.begin(), ms.end());
    std::printf("%d triangles, %dx%d, renderer alone: median %.2f ms (%.1f fps)\n", humanoid.mesh.triangleCount(), w, h,
                ms[ms.size() / 2], 1000.0 / ms[ms.size() / 2]);
    return 0;
}
