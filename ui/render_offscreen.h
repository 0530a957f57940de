#pragma once
/// @file render_offscreen.h
/// Renders a mesh to an image without a window (thumbnails, `rigsmith render`,
/// and how we look at results). Needs a QGuiApplication and an OpenGL 3.3 core
/// capable platform (a desktop session or `xvfb-run`).

#include "ui/viewport/orbit_camera.h"
#include "ui/viewport/renderer.h"

#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QSize>
#include <QString>
#include <QSurfaceFormat>

namespace rig {
struct Mesh;
}

namespace rig::ui {

/// An OpenGL 3.3 core context (24-bit depth) made current on an offscreen
/// surface: rendering without a window (`renderOffscreen()`, the UI benches,
/// the GL tests). Needs a QGuiApplication.
class OffscreenGl {
public:
    OffscreenGl();
    OffscreenGl(const OffscreenGl&) = delete;
    OffscreenGl& operator=(const OffscreenGl&) = delete;
    ~OffscreenGl();

    /// False when no such context could be made current; `error()` says why.
    bool ok() const { return m_error.isEmpty(); }
    const QString& error() const { return m_error; }
    QOpenGLContext& context() { return m_context; }

private:
    QOpenGLContext m_context;
    QOffscreenSurface m_surface;
    QString m_error;
};

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

/// The viewport's surface format: OpenGL 3.3 core, 24-bit depth, `samples`
/// multisamples. Set it as the default before the QApplication is made (the
/// widgets share contexts), then call `useViewportSamples()`.
QSurfaceFormat viewportFormat(int samples = 0);

/// Once the QApplication exists: the default format gets `samples`
/// multisamples, or when negative 4 on a GPU and none on a software
/// rasterizer (where multisampling would halve the frame rate).
void useViewportSamples(int samples = -1);

/// Parses "front", "side", "top", "three-quarter".
std::optional<ViewPreset> parseViewPreset(const QString& name);

} // namespace rig::ui
