#include "ui/render_offscreen.h"

#include "core/mesh/mesh.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>

namespace rig::ui {

std::optional<ViewPreset> parseViewPreset(const QString& name)
{
    if (name == "front")
        return ViewPreset::Front;
    if (name == "side")
        return ViewPreset::Side;
    if (name == "top")
        return ViewPreset::Top;
    if (name == "three-quarter")
        return ViewPreset::ThreeQuarter;
    return std::nullopt;
}

QSurfaceFormat viewportFormat(int samples)
{
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSamples(samples);
    return format;
}

void useViewportSamples(int samples)
{
    QSurfaceFormat::setDefaultFormat(viewportFormat(samples >= 0 ? samples : (softwareRenderer() ? 0 : 4)));
}

OffscreenGl::OffscreenGl()
{
    m_context.setFormat(viewportFormat());
    if (!m_context.create()) {
        m_error = QStringLiteral("cannot create an OpenGL 3.3 core context (run under a desktop session or xvfb-run)");
        return;
    }
    m_surface.setFormat(m_context.format());
    m_surface.create();
    if (!m_context.makeCurrent(&m_surface))
        m_error = QStringLiteral("cannot make the OpenGL context current");
}

OffscreenGl::~OffscreenGl()
{
    if (ok())
        m_context.doneCurrent();
}

bool softwareRenderer()
{
    static const bool software = [] { // asked once: a context costs milliseconds
        QOpenGLContext context;
        QOffscreenSurface surface;
        surface.create();
        if (!context.create() || !context.makeCurrent(&surface))
            return true; // no GL at all: the cheapest settings
        const auto* renderer = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
        const bool result = isSoftwareRasterizer(renderer ? renderer : "");
        context.doneCurrent();
        return result;
    }();
    return software;
}

QImage renderOffscreen(const Mesh& mesh, QSize size, ViewPreset view, const RenderOptions& options, QString* error,
                       const OffscreenOverlays& overlays)
{
    OffscreenGl gl;
    if (!gl.ok()) {
        if (error)
            *error = gl.error();
        return {};
    }
    QImage image;
    {
        QOpenGLFramebufferObjectFormat fboFormat;
        fboFormat.setAttachment(QOpenGLFramebufferObject::Depth);
        fboFormat.setSamples(4);
        QOpenGLFramebufferObject fbo(size, fboFormat);
        fbo.bind();
        Renderer renderer;
        if (renderer.initialize(error)) {
            const MeshDrawData data = makeMeshDrawData(mesh);
            renderer.setMesh(data);
            if (overlays.skeleton)
                renderer.setSkeleton(*overlays.skeleton);
            if (overlays.voxels)
                renderer.setVoxels(*overlays.voxels, overlays.voxelSize);
            OrbitCamera camera;
            camera.setPreset(view);
            camera.frame(data.boundsMin, data.boundsMax, float(size.width()) / float(size.height()));
            renderer.render(camera, size.width(), size.height(), options);
            image = fbo.toImage();
        }
        renderer.release();
        fbo.release();
    }
    return image;
}

} // namespace rig::ui
