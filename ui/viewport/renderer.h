#pragma once
/// @file renderer.h
/// Draws the scene with OpenGL 3.3 core: the shaded mesh (two-sided), an
/// optional wireframe overlay and the ground grid. Used by the interactive
/// viewport and by the offscreen `rigsmith render`. Every GL object is created
/// and destroyed with a current context (`initialize()` / `release()`).

#include "ui/viewport/draw_data.h"
#include "ui/viewport/orbit_camera.h"

#include <QOpenGLBuffer>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QString>

#include <memory>

namespace rig::ui {

struct RenderOptions {
    bool wireframe = false; ///< Overlay the triangle edges.
    bool grid = true;       ///< Ground grid on y = 0 with the X and Z axes.
};

class Renderer : protected QOpenGLFunctions_3_3_Core {
public:
    Renderer();
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    /// Compiles the shaders from `:/shaders/`. Needs a current 3.3 core context.
    /// Returns false and fills `error` (with the program log) on failure.
    bool initialize(QString* error);
    bool initialized() const { return m_initialized; }
    /// Uploads a mesh (replacing the previous one). Needs a current context.
    void setMesh(const MeshDrawData& data);
    void clearMesh();
    int meshTriangles() const { return m_indexCount / 3; }
    /// Draws one frame into the bound framebuffer of size w x h (device pixels).
    void render(const OrbitCamera& camera, int w, int h, const RenderOptions& options);
    /// Destroys the GL objects. Needs the context current.
    void release();

private:
    void uploadGrid(float cell);

    bool m_initialized = false;
    std::unique_ptr<QOpenGLShaderProgram> m_meshProgram, m_lineProgram;
    QOpenGLVertexArrayObject m_meshVao, m_gridVao;
    QOpenGLBuffer m_meshVbo{QOpenGLBuffer::VertexBuffer}, m_meshIbo{QOpenGLBuffer::IndexBuffer};
    QOpenGLBuffer m_gridVbo{QOpenGLBuffer::VertexBuffer};
    int m_indexCount = 0;
    int m_gridVertices = 0;
    float m_gridCell = 0.0f;
};

} // namespace rig::ui
