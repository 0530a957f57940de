#pragma once
/// @file gpu_skinning.h
/// GPU skinning resources for shaders/mesh.vert (the deformers of
/// core/deform in the vertex shader; data layout in skin_data.h):
///  - `SkinBuffers`: the per-vertex influences as vertex attributes
///    (locations 3–6, attached to a mesh's vertex array) and the per-pose
///    joint texels in a texture buffer (`samplerBuffer uSkin`);
///  - `SkinningFeedback`: runs the same vertex shader with transform feedback
///    and reads the deformed positions and normals back (the GPU-vs-CPU test
///    and the deformation benchmark).
/// Every GL object is created and destroyed with a current 3.3 core context.

#include "ui/viewport/skin_data.h"

#include <QOpenGLBuffer>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QString>

#include <memory>
#include <vector>

namespace rig::ui {

/// Points vertex attributes 0–2 (position, normal, colour) of the bound vertex
/// array at the `MeshVertex` records (draw_data.h) of the bound array buffer:
/// the layout shaders/mesh.vert reads, shared by the renderer and the feedback.
void setMeshVertexAttributes(QOpenGLFunctions_3_3_Core& gl);

class SkinBuffers : protected QOpenGLFunctions_3_3_Core {
public:
    SkinBuffers() = default;
    SkinBuffers(const SkinBuffers&) = delete;
    SkinBuffers& operator=(const SkinBuffers&) = delete;

    /// Uploads #V influences and attaches them to `vao` (locations 3–6).
    /// Empty `vertices` detaches them. Needs a current context.
    void setVertices(QOpenGLVertexArrayObject& vao, const std::vector<SkinVertex>& vertices);
    /// Uploads the joint texels of a pose (`makeSkinTexels()`).
    void setPose(const std::vector<glm::vec4>& texels);
    /// Influences and a pose are both present.
    bool ready() const { return m_vertexCount > 0 && m_texelCount > 0; }
    int vertexCount() const { return m_vertexCount; }
    /// Binds the texture buffer to `unit` and sets `uSkin` and `uDeformer` on a
    /// bound program; `gpuProgram` is the deformer's `DeformerInfo::gpuProgram`.
    void bind(QOpenGLShaderProgram& program, int gpuProgram, int unit = 0);
    void release();

private:
    bool m_functions = false;
    void ensureFunctions();
    QOpenGLBuffer m_vbo{QOpenGLBuffer::VertexBuffer};
    GLuint m_tbo = 0, m_texture = 0;
    int m_vertexCount = 0;
    int m_texelCount = 0;
};

class SkinningFeedback : protected QOpenGLFunctions_3_3_Core {
public:
    SkinningFeedback() = default;
    ~SkinningFeedback();
    SkinningFeedback(const SkinningFeedback&) = delete;
    SkinningFeedback& operator=(const SkinningFeedback&) = delete;

    /// Builds :/shaders/mesh.vert alone with transform-feedback outputs.
    /// Returns false and fills `error` (with the program log) on failure.
    bool initialize(QString* error);
    /// Rest positions and normals (#V by 3 each) and their influences.
    void setMesh(const MatrixX3d& V, const MatrixX3d& N, const std::vector<SkinVertex>& skin);
    void setPose(const std::vector<glm::vec4>& texels) { m_skin.setPose(texels); }
    /// Deforms every vertex on the GPU; returns #V · 6 floats (position, normal).
    /// With `readBack` false it only issues the work and waits for it (timing).
    /// `gpuProgram` is the deformer's `DeformerInfo::gpuProgram` (>= 0).
    std::vector<float> deform(int gpuProgram, bool readBack = true);
    void release();

private:
    std::unique_ptr<QOpenGLShaderProgram> m_program;
    QOpenGLVertexArrayObject m_vao;
    QOpenGLBuffer m_rest{QOpenGLBuffer::VertexBuffer};
    GLuint m_feedback = 0;
    SkinBuffers m_skin;
    int m_vertexCount = 0;
};

} // namespace rig::ui
