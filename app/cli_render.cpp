// `rigsmith render`: the one command that needs Qt and OpenGL. It lives in the
// window executable (rigsmith-gui); the Qt-free `rigsmith` forwards to it.
#include "app/cli_common.h"

#include "core/common/error.h"
#include "core/common/timing.h"
#include "core/mesh/mesh_queries.h"
#include "core/project/character_source.h"
#include "core/project/pipeline.h"
#include "core/project/rig_project.h"
#include "ui/render_offscreen.h"

#include <QGuiApplication>

#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <tuple>

namespace rig::app {

int cmdRender(int argc, char** argv, const std::vector<std::string>& raw)
{
    const Args a = parse(raw, {"--report", "--out", "--size", "--view", "--resolution", "--clip", "--up", "--facing"},
                         {"--wireframe", "--skeleton", "--voxels", "--xray"}, "render");
    const std::string file = needFile(a, "render");
    const auto out = a.value("--out");
    if (!out)
        throw Error("rigsmith render: --out shot.png is required");
    int w = 1280, h = 720;
    if (auto size = a.value("--size")) {
        char x = 0;
        std::istringstream ss(*size);
        if (!(ss >> w >> x >> h) || (x != 'x' && x != 'X') || w < 16 || h < 16 || w > 8192 || h > 8192)
            throw Error("rigsmith render: --size must be WxH between 16x16 and 8192x8192, got '" + *size + "'");
    }
    const auto view = ui::parseViewPreset(QString::fromStdString(a.value("--view").value_or("three-quarter")));
    if (!view)
        throw Error("rigsmith render: --view must be front, side, top or three-quarter");
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
        throw Error("rigsmith render: no display; run it under xvfb-run (xvfb-run -a rigsmith render ...)");

    ui::RenderOptions options;
    options.wireframe = a.flag("--wireframe");
    std::optional<double> clip;
    if (const auto c = a.value("--clip")) {
        double t = -1;
        std::istringstream ss(*c);
        if (!(ss >> t) || t < 0 || t > 1)
            throw Error("rigsmith render: --clip takes a position from 0 (front) to 1 (back), got '" + *c + "'");
        clip = t;
    }
    const bool needSkeleton = a.flag("--skeleton") || a.flag("--voxels");
    RigProject project;
    StageTimings stages;
    const OrientationOptions orientation = parseOrientationArgs(a, "render");
    if (needSkeleton) {
        std::tie(project, stages) = runSkeletonStage(file, parseResolution(a, "render"), orientation);
    } else {
        project = projectFor(file, parseResolution(a, "render"), orientation);
        stages = runStages(project, Stage::Load, Stage::Load);
        printLoadWarnings(project);
    }
    StageClock clock(stages);
    const Mesh& mesh = project.character()->imported.mesh;
    ui::SkeletonDrawData skeletonDraw;
    std::vector<ui::VoxelPoint> voxels;
    ui::OffscreenOverlays overlays;
    if (const auto& sk = project.curveSkeleton()) {
        options.skeleton = a.flag("--skeleton");
        skeletonDraw = ui::makeSkeletonDrawData(sk->refined, float(1.8 * sk->solid.voxelSize));
        overlays.skeleton = &skeletonDraw;
        if (a.flag("--voxels")) {
            options.voxels = true;
            voxels = ui::makeVoxelPoints(sk->solid, true);
            overlays.voxels = &voxels;
            overlays.voxelSize = float(sk->solid.voxelSize);
        }
    }
    if (a.flag("--xray"))
        options.meshOpacity = 0.3f;
    if (clip) {
        const Box3 box = boundingBox(mesh);
        options.clip = true;
        options.clipPlane = glm::vec4(0.0f, 0.0f, -1.0f, float(box.max.z() + *clip * (box.min.z() - box.max.z())));
    }
    QGuiApplication app(argc, argv);
    QString error;
    const QImage image = ui::renderOffscreen(mesh, QSize(w, h), *view, options, &error, overlays);
    if (image.isNull())
        throw Error("rigsmith render: " + error.toStdString());
    clock.lap("render");
    if (!image.save(QString::fromStdString(*out)))
        throw IoError("cannot write '" + *out + "': check the folder exists, is writable and the name ends in .png");
    clock.lap("save");
    std::cout << "wrote " << *out << " (" << w << "x" << h << ")\n";
    writeReport(a, "render", file, stages, {{"out", *out}, {"width", w}, {"height", h}});
    return 0;
}

} // namespace rig::app
