// Deformation frame time on the GPU (shaders/mesh.vert) against the CPU
// reference (core/deform) per deformer, for the default character and a
// ~100k-vertex humanoid, while a joint is being rotated (a new pose every
// frame: forward kinematics, joint texels, upload, deform):
//  - "gpu deform": the vertex shader alone through transform feedback (glFinish);
//  - "gpu frame": a whole 1280x720 frame of the renderer with the skinned mesh;
//  - "cpu 1 thread" / "cpu all threads": lbs() / dqs() / twistLbs(), positions + normals.
// Medians over the frames.
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/bench/ui/skinning_fps
//
// Weights: each link's vertices follow its parent joint and blend 50/50 into
// the neighbouring joints at the link ends (nearest-link segmentation), 4 influences.

#include "core/character/humanoid.h"
#include "tests/support/link_weights.h"
#include "core/deform/twist_lbs.h"
#include "ui/viewport/gpu_skinning.h"
#include "ui/render_offscreen.h"
#include "ui/viewport/renderer.h"

#include <QElapsedTimer>

#include <cmath>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <thread>
#include <vector>

namespace {

using namespace rig;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// Median milliseconds of `frame(i)` over `n` frames after 3 warm-up frames.
double timeFrames(int n, const std::function<void(int)>& frame)
{
    std::vector<double> ms;
    QElapsedTimer t;
    for (int i = 0; i < n + 3; ++i) {
        t.start();
        frame(i);
        if (i >= 3)
            ms.push_back(double(t.nsecsElapsed()) * 1e-6);
    }
    return median(ms);
}

} // namespace

int main(int argc, char** argv)
{
    QGuiApplication app(argc, argv);
    ui::OffscreenGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "skinning_fps: %s\n", gl.error().toUtf8().constData());
        return 1;
    }
    QOpenGLContext& context = gl.context();
    const char* renderer = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
    std::printf("GL renderer: %s; %u hardware threads\n", renderer ? renderer : "?", std::thread::hardware_concurrency());
    QOpenGLFramebufferObjectFormat fboFormat;
    fboFormat.setAttachment(QOpenGLFramebufferObject::Depth);
    const int w = 1280, h = 720;
    QOpenGLFramebufferObject fbo(QSize(w, h), fboFormat);
    fbo.bind();

    std::printf("%-10s %8s %-22s %12s %12s %12s %12s\n", "mesh", "vertices", "deformer", "gpu deform", "gpu frame",
                "cpu 1 thr", "cpu all thr");
    for (const double cell : {0.0, 0.0085}) {
        HumanoidOptions ho;
        ho.cellSize = cell; // 0: the default character; 8.5 mm: ~100k vertices
        const Humanoid hum = generateHumanoid(ho);
        Skeleton s;
        s.names = hum.jointNames;
        s.parents = hum.jointParents;
        s.bindPositions = hum.joints;
        s.bindOrientations.assign(hum.jointNames.size(), Eigen::Quaterniond::Identity());
        const Segmentation seg = segmentationFromNearestLink(hum.mesh.V, s);
        const SkinWeights W = test::linkWeights(seg, s);
        const std::vector<ui::SkinVertex> skin = ui::makeSkinVertices(W, &seg);
        const int hand = *s.find("LeftHand"), elbow = *s.find("LeftForeArm");
        const Vec3 axis = twistAxis(s, hand);
        auto poseAt = [&](int i) {
            Pose p = identityPose(s);
            const double a = 0.05 * i;
            p.localRotations[size_t(hand)] = Eigen::AngleAxisd(2.0 * a, axis);
            p.localRotations[size_t(elbow)] = Eigen::AngleAxisd(a, Vec3::UnitZ());
            return p;
        };

        ui::SkinningFeedback feedback;
        QString error;
        if (!feedback.initialize(&error)) {
            std::fprintf(stderr, "skinning_fps: %s\n", qPrintable(error));
            return 1;
        }
        feedback.setMesh(hum.mesh.V, hum.mesh.N, skin);
        ui::Renderer r;
        if (!r.initialize(&error)) {
            std::fprintf(stderr, "skinning_fps: %s\n", qPrintable(error));
            return 1;
        }
        const ui::MeshDrawData data = ui::makeMeshDrawData(hum.mesh);
        r.setMesh(data);
        r.setSkin(skin);
        ui::OrbitCamera camera;
        camera.frame(data.boundsMin, data.boundsMax, float(w) / float(h));

        {
            // Baseline: the same frame with the mesh at rest (no skinning in the shader).
            ui::RenderOptions o;
            o.skinning = false;
            const double frame = timeFrames(30, [&](int) {
                r.render(camera, w, h, o);
                context.functions()->glFinish();
            });
            std::printf("%-10s %8d %-22s %12s %9.2f ms\n", cell == 0.0 ? "default" : "dense", hum.mesh.vertexCount(),
                        "(rest, not skinned)", "-", frame);
        }
        for (const DeformerInfo& d : deformers()) {
            const double gpu = d.gpuProgram < 0 ? std::nan("") : timeFrames(30, [&](int i) {
                feedback.setPose(ui::makeSkinTexels(s, poseAt(i)));
                feedback.deform(d.gpuProgram, false);
            });
            ui::RenderOptions o;
            o.deformer = d.id;
            const double frame = timeFrames(30, [&](int i) {
                r.setSkinPose(ui::makeSkinTexels(s, poseAt(i)));
                r.render(camera, w, h, o);
                context.functions()->glFinish();
            });
            SkinningOptions one;
            one.threads = 1;
            // Bound once, as on a weights change.
            const std::unique_ptr<BoundDeformer> bound = d.bind(DeformerInput{hum.mesh, W, &seg, s});
            SkinnedMesh out;
            const double cpu1 = timeFrames(10, [&](int i) { bound->deform(poseAt(i), {}, out, one); });
            const double cpuAll = timeFrames(10, [&](int i) { bound->deform(poseAt(i), {}, out, {}); });
            std::printf("%-10s %8d %-22s %9.2f ms %9.2f ms %9.2f ms %9.2f ms\n", cell == 0.0 ? "default" : "dense",
                        hum.mesh.vertexCount(), d.title.c_str(), gpu, frame, cpu1, cpuAll);
        }
        r.release();
        feedback.release();
    }
    return 0;
}
