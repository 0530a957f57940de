#include "ui/viewport/renderer.h"

#include <glm/gtc/type_ptr.hpp>

#include <QDebug>

#include <cstddef>

namespace rig::ui {
namespace {

std::unique_ptr<QOpenGLShaderProgram> buildProgram(const QString& name, QString* error)
{
    auto program = std::make_unique<QOpenGLShaderProgram>();
    const bool ok = program->addShaderFromSourceFile(QOpenGLShader::Vertex, ":/shaders/" + name + ".vert") &&
                    program->addShaderFromSourceFile(QOpenGLShader::Fragment, ":/shaders/" + name + ".frag") &&
                    program->link();
    if (!ok) {
        const QString log = QStringLiteral("shader '%1' failed to build: %2").arg(name, program->log());
        qWarning().noquote() << log; // never swallowed
        if (error)
            *error = log;
        return nullptr;
    }
    return program;
}

void setMatrix(QOpenGLShaderProgram& p, const char* name, const glm::mat4& m)
{
    p.setUniformValue(name, QMatrix4x4(glm::value_ptr(m)).transposed());
}

} // namespace

Renderer::Renderer() = default;
Renderer::~Renderer() = default; // release() must have run with a current context

bool Renderer::initialize(QString* error)
{
    if (!initializeOpenGLFunctions()) {
        if (error)
            *error = QStringLiteral("OpenGL 3.3 core is not available");
        return false;
    }
    m_meshProgram = buildProgram("mesh", error);
    m_lineProgram = buildProgram("lines", error);
    if (!m_meshProgram || !m_lineProgram)
        return false;
    m_meshVao.create();
    m_gridVao.create();
    m_initialized = true;
    return true;
}

void Renderer::setMesh(const MeshDrawData& data)
{
    if (!m_initialized)
        return;
    m_meshVao.bind();
    if (!m_meshVbo.isCreated())
        m_meshVbo.create();
    if (!m_meshIbo.isCreated())
        m_meshIbo.create();
    m_meshVbo.bind();
    m_meshVbo.allocate(data.vertices.data(), static_cast<int>(data.vertices.size() * sizeof(MeshVertex)));
    m_meshIbo.bind();
    m_meshIbo.allocate(data.indices.data(), static_cast<int>(data.indices.size() * sizeof(unsigned)));
    const GLsizei stride = sizeof(MeshVertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, normal)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, color)));
    m_meshVao.release();
    m_indexCount = static_cast<int>(data.indices.size());
    const float size = glm::length(data.boundsMax - data.boundsMin);
    uploadGrid(niceGridCell(size));
}

void Renderer::clearMesh() { m_indexCount = 0; }

void Renderer::uploadGrid(float cell)
{
    if (cell == m_gridCell && m_gridVbo.isCreated())
        return;
    const std::vector<LineVertex> lines = makeGridLines(cell, 20);
    m_gridVao.bind();
    if (!m_gridVbo.isCreated())
        m_gridVbo.create();
    m_gridVbo.bind();
    m_gridVbo.allocate(lines.data(), static_cast<int>(lines.size() * sizeof(LineVertex)));
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                          reinterpret_cast<void*>(offsetof(LineVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                          reinterpret_cast<void*>(offsetof(LineVertex, color)));
    m_gridVao.release();
    m_gridVertices = static_cast<int>(lines.size());
    m_gridCell = cell;
}

void Renderer::render(const OrbitCamera& camera, int w, int h, const RenderOptions& options)
{
    glViewport(0, 0, w, h);
    glClearColor(0.23f, 0.24f, 0.26f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (!m_initialized)
        return;
    if (!m_gridVbo.isCreated())
        uploadGrid(0.25f);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE); // two-sided
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    const float aspect = h > 0 ? float(w) / float(h) : 1.0f;
    const glm::mat4 view = camera.view();
    const glm::mat4 proj = camera.projection(aspect);

    if (m_indexCount > 0) {
        m_meshProgram->bind();
        setMatrix(*m_meshProgram, "uView", view);
        setMatrix(*m_meshProgram, "uProjection", proj);
        m_meshProgram->setUniformValue("uFlat", false);
        m_meshProgram->setUniformValue("uAlpha", 1.0f);
        m_meshVao.bind();
        glDrawElements(GL_TRIANGLES, m_indexCount, GL_UNSIGNED_INT, nullptr);
        if (options.wireframe) {
            m_meshProgram->setUniformValue("uFlat", true);
            m_meshProgram->setUniformValue("uFlatColor", QVector4D(0.1f, 0.1f, 0.12f, 0.45f));
            glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
            glEnable(GL_POLYGON_OFFSET_LINE);
            glPolygonOffset(-1.0f, -1.0f);
            glDrawElements(GL_TRIANGLES, m_indexCount, GL_UNSIGNED_INT, nullptr);
            glDisable(GL_POLYGON_OFFSET_LINE);
            glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        }
        m_meshVao.release();
        m_meshProgram->release();
    }
    if (options.grid && m_gridVertices > 0) {
        m_lineProgram->bind();
        setMatrix(*m_lineProgram, "uViewProjection", proj * view);
        m_lineProgram->setUniformValue("uAlpha", 0.8f);
        m_gridVao.bind();
        glDrawArrays(GL_LINES, 0, m_gridVertices);
        m_gridVao.release();
        m_lineProgram->release();
    }
}

void Renderer::release()
{
    m_meshVbo.destroy();
    m_meshIbo.destroy();
    m_gridVbo.destroy();
    m_meshVao.destroy();
    m_gridVao.destroy();
    m_meshProgram.reset();
    m_lineProgram.reset();
    m_initialized = false;
    m_indexCount = 0;
    m_gridVertices = 0;
    m_gridCell = 0.0f;
}

} // namespace rig::ui
