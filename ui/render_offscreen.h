#pragma once
/// @file render_offscreen.h
/// Renders a mesh to an image without a window (thumbnails, `rigsmith render`,
/// and how we look at results). Needs a QGuiApplication and an OpenGL 3.3 core
/// capable platform (a desktop session or `xvfb-run`).

#include "ui/viewport/orbit_camera.h"
#include "ui/viewport/renderer.h"

#include <QImage>
#include <QSize>
#include <QString>

namespace rig {
struct Mesh;
}

namespace rig::ui {

/// What to draw besides the mesh.
struct OffscreenOverlays {
    const SkeletonDrawData* skeleton = nullptr; ///< Curve-skeleton glyphs, or null.
    const std::vector<VoxelPoint>* voxels = nullptr; ///< Voxel points, or null.
    float voxelSize = 0.0f;
};

/// Renders `mesh` framed in the given view. Returns a null image and fills
/// `error` when no OpenGL 3.3 core context can be made or the shaders fail.
QImage renderOffscreen(const Mesh& mesh, QSize size, ViewPreset view, const RenderOptions& options,
                       QString* error, const OffscreenOverlays& overlays = {});

/// True when OpenGL is a software rasterizer (Mesa llvmpipe, softpipe, swrast),
/// where multisampling costs more than it is worth. Needs a QGuiApplication.
bool softwareRenderer();

/// Parses "front", "side", "top", "three-quarter".
std::optional<ViewPreset> parseViewPreset(const QString& name);

} // namespace rig::ui
