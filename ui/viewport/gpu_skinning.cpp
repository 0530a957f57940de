#include "ui/viewport/gpu_skinning.h"

#include "ui/viewport/draw_data.h"

#include <QDebug>

#include <cstddef>

namespace rig::ui {

void setMeshVertexAttributes(QOpenGLFunctions_3_3_Core& gl)
{
    const GLsizei stride = sizeof(MeshVertex);
    gl.glEnableVertexAttribArray(0);
    gl.glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, position)));
    gl.glEnableVertexAttribArray(1);
    gl.glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, normal)));
    gl.glEnableVertexAttribArray(2);
    gl.glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(MeshVertex, color)));
}

void SkinBuffers::ensureFunctions()
{
    if (!m_functions)
        m_functions = initializeOpenGLFunctions();
}

void SkinBuffers::setVertices(QOpenGLVertexArrayObject& vao, const std::vector<SkinVertex>& vertices)
{
    ensureFunctions();
    vao.bind();
    if (vertices.empty()) {
        for (GLuint loc = 3; loc <= 6; ++loc)
            glDisableVertexAttribArray(loc);
        vao.release();
        m_vertexCount = 0;
        return;
    }
    if (!m_vbo.isCreated())
        m_vbo.create();
    m_vbo.bind();
    m_vbo.allocate(vertices.data(), static_cast<int>(vertices.size() * sizeof(SkinVertex)));
    const GLsizei stride = sizeof(SkinVertex);
    glEnableVertexAttribArray(3);
    glVertexAttribIPointer(3, 4, GL_INT, stride, reinterpret_cast<void*>(offsetof(SkinVertex, joints)));
    glEnableVertexAttribArray(4);
    glVertexAttribPointer(4, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(SkinVertex, weights)));
    glEnableVertexAttribArray(5);
    glVertexAttribIPointer(5, 1, GL_INT, stride, reinterpret_cast<void*>(offsetof(SkinVertex, segment)));
    glEnableVertexAttribArray(6);
    glVertexAttribPointer(6, 1, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(SkinVertex, delta)));
    vao.release();
    m_vbo.release();
    m_vertexCount = static_cast<int>(vertices.size());
}

void SkinBuffers::setPose(const std::vector<glm::vec4>& texels)
{
    ensureFunctions();
    if (texels.empty()) {
        m_texelCount = 0;
        return;
    }
    if (!m_tbo) {
        glGenBuffers(1, &m_tbo);
        glGenTextures(1, &m_texture);
    }
    glBindBuffer(GL_TEXTURE_BUFFER, m_tbo);
    if (static_cast<int>(texels.size()) == m_texelCount)
        glBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(texels.size() * sizeof(glm::vec4)), texels.data());
    else
        glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(texels.size() * sizeof(glm::vec4)), texels.data(), GL_DYNAMIC_DRAW);
    glBindTexture(GL_TEXTURE_BUFFER, m_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, m_tbo);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    m_texelCount = static_cast<int>(texels.size());
}

void SkinBuffers::bind(QOpenGLShaderProgram& program, int gpuProgram, int unit)
{
    ensureFunctions();
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glBindTexture(GL_TEXTURE_BUFFER, m_texture);
    glActiveTexture(GL_TEXTURE0);
    program.setUniformValue("uSkin", unit);
    program.setUniformValue("uDeformer", ready() ? gpuProgram : -1);
}

void SkinBuffers::release()
{
    m_vbo.destroy();
    if (m_tbo) {
        glDeleteBuffers(1, &m_tbo);
        glDeleteTextures(1, &m_texture);
        m_tbo = m_texture = 0;
    }
    m_vertexCount = m_texelCount = 0;
}

SkinningFeedback::~SkinningFeedback() = default; // release() must have run with a current context

bool SkinningFeedback::initialize(QString* error)
{
    if (!initializeOpenGLFunctions()) {
        if (error)
            *error = QStringLiteral("OpenGL 3.3 core is not available");
        return false;
    }
    m_program = std::make_unique<QOpenGLShaderProgram>();
    bool ok = m_program->addShaderFromSourceFile(QOpenGLShader::Vertex, ":/shaders/mesh.vert");
    if (ok) {
        const char* varyings[] = {"vWorldPosition", "vWorldNormal"};
        glTransformFeedbackVaryings(m_program->programId(), 2, varyings, GL_INTERLEAVED_ATTRIBS);
        ok = m_program->link();
    }
    if (!ok) {
        const QString log = QStringLiteral("skinning feedback program failed to build: %1").arg(m_program->log());
        qWarning().noquote() << log;
        if (error)
            *error = log;
        m_program.reset();
        return false;
    }
    m_vao.create();
    glGenBuffers(1, &m_feedback);
    return true;
}

void SkinningFeedback::setMesh(const MatrixX3d& V, const MatrixX3d& N, const std::vector<SkinVertex>& skin)
{
    std::vector<MeshVertex> rest(static_cast<size_t>(V.rows()));
    const bool hasN = N.rows() == V.rows();
    for (int i = 0; i < V.rows(); ++i) {
        MeshVertex& v = rest[static_cast<size_t>(i)];
        v.position = glm::vec3(V(i, 0), V(i, 1), V(i, 2));
        v.normal = hasN ? glm::vec3(N(i, 0), N(i, 1), N(i, 2)) : glm::vec3(0.0f, 1.0f, 0.0f);
        v.color = glm::vec3(1.0f);
    }
    m_vao.bind();
    if (!m_rest.isCreated())
        m_rest.create();
    m_rest.bind();
    m_rest.allocate(rest.data(), static_cast<int>(rest.size() * sizeof(MeshVertex)));
    setMeshVertexAttributes(*this);
    m_vao.release();
    m_rest.release();
    m_skin.setVertices(m_vao, skin);
    m_vertexCount = static_cast<int>(V.rows());
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, m_feedback);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, GLsizeiptr(size_t(m_vertexCount) * 6 * sizeof(float)), nullptr,
                 GL_DYNAMIC_READ);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
}

std::vector<float> SkinningFeedback::deform(int gpuProgram, bool readBack)
{
    std::vector<float> out;
    if (!m_program || m_vertexCount == 0)
        return out;
    m_program->bind();
    const QMatrix4x4 identity;
    m_program->setUniformValue("uView", identity);
    m_program->setUniformValue("uProjection", identity);
    m_program->setUniformValue("uClipPlane", QVector4D(0, 0, 0, 1));
    m_skin.bind(*m_program, gpuProgram);
    glEnable(GL_RASTERIZER_DISCARD);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, m_feedback);
    m_vao.bind();
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, m_vertexCount);
    glEndTransformFeedback();
    m_vao.release();
    glDisable(GL_RASTERIZER_DISCARD);
    if (readBack) {
        out.resize(size_t(m_vertexCount) * 6);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, m_feedback);
        glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, GLsizeiptr(out.size() * sizeof(float)), out.data());
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
    } else {
        glFinish();
    }
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    m_program->release();
    return out;
}

void SkinningFeedback::release()
{
    m_skin.release();
    m_rest.destroy();
    if (m_feedback) {
        glDeleteBuffers(1, &m_feedback);
        m_feedback = 0;
    }
    m_vao.destroy();
    m_program.reset();
    m_vertexCount = 0;
}

} // namespace rig::ui
