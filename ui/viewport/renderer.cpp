#include "ui/viewport/renderer.h"

#include <glm/gtc/type_ptr.hpp>

#include <QDebug>
#include <QImage>

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

QVector4D toQt(const glm::vec4& v) { return QVector4D(v.x, v.y, v.z, v.w); }

} // namespace

Renderer::Renderer() = default;
Renderer::~Renderer() = default; // release() must have run with a current context

bool isSoftwareRasterizer(const std::string& glRenderer)
{
    const QString name = QString::fromStdString(glRenderer).toLower();
    return name.contains("llvmpipe") || name.contains("softpipe") || name.contains("swrast");
}

bool Renderer::initialize(QString* error)
{
    if (!initializeOpenGLFunctions()) {
        if (error)
            *error = QStringLiteral("OpenGL 3.3 core is not available");
        return false;
    }
    m_meshProgram = buildProgram("mesh", error);
    m_lineProgram = buildProgram("lines", error);
    m_pointProgram = buildProgram("points", error);
    if (!m_meshProgram || !m_lineProgram || !m_pointProgram)
        return false;
    // The base-colour image on unit 2, away from the skin's buffer texture on unit 0:
    // two sampler types on one unit make every draw fail (GL_INVALID_OPERATION).
    m_meshProgram->bind();
    m_meshProgram->setUniformValue("uBaseColor", 2);
    m_meshProgram->release();
    const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    m_softwareRasterizer = isSoftwareRasterizer(name ? name : "");
    for (GpuArray* a : {&m_mesh, &m_meshLod, &m_grid, &m_glyphs, &m_links, &m_voxels, &m_rigJoints, &m_rigBones, &m_gizmo, &m_clipBones})
        a->vao.create();
    m_initialized = true;
    return true;
}

void Renderer::uploadMesh(GpuArray& a, const MeshDrawData& data)
{
    a.vao.bind();
    if (!a.vbo.isCreated())
        a.vbo.create();
    if (!a.ibo.isCreated())
        a.ibo.create();
    a.vbo.bind();
    a.vbo.allocate(data.vertices.data(), static_cast<int>(data.vertices.size() * sizeof(MeshVertex)));
    a.ibo.bind();
    a.ibo.allocate(data.indices.data(), static_cast<int>(data.indices.size() * sizeof(unsigned)));
    setMeshVertexAttributes(*this);
    a.vao.release();
    a.count = static_cast<int>(data.indices.size());
}

/// Position + colour arrays (LineVertex and VoxelPoint share the layout).
void Renderer::uploadLines(GpuArray& a, const void* data, int count, int stride)
{
    a.vao.bind();
    if (!a.vbo.isCreated())
        a.vbo.create();
    a.vbo.bind();
    a.vbo.allocate(data, count * stride);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(sizeof(glm::vec3)));
    a.vao.release();
    a.count = count;
}

void Renderer::releaseTextures()
{
    m_textures.clear(); // QOpenGLTexture destroys its GL object (the context is current)
    m_ranges.clear();
}

void Renderer::uploadTextures(const MeshDrawData& data)
{
    releaseTextures();
    m_mesh.vao.bind();
    if (data.uv.size() != data.vertices.size() || data.ranges.empty()) {
        glDisableVertexAttribArray(7);
        m_mesh.vao.release();
        return;
    }
    if (!m_uv.isCreated())
        m_uv.create();
    m_uv.bind();
    m_uv.allocate(data.uv.data(), static_cast<int>(data.uv.size() * sizeof(glm::vec2)));
    glEnableVertexAttribArray(7);
    glVertexAttribPointer(7, 2, GL_FLOAT, GL_FALSE, sizeof(glm::vec2), nullptr);
    m_mesh.vao.release();
    m_ranges = data.ranges;
    for (const std::vector<std::uint8_t>* bytes : data.images) {
        // UVs have v up (OpenGL's convention); QImage's first row is the image's top.
        const QImage image = QImage::fromData(bytes->data(), static_cast<int>(bytes->size()));
        if (image.isNull()) {
            qWarning().noquote() << "a base-colour image could not be decoded; drawn without it";
            m_textures.push_back(nullptr);
            continue;
        }
        auto texture = std::make_unique<QOpenGLTexture>(image.convertToFormat(QImage::Format_RGBA8888).mirrored());
        texture->setMinificationFilter(QOpenGLTexture::LinearMipMapLinear);
        texture->setMagnificationFilter(QOpenGLTexture::Linear);
        texture->setWrapMode(QOpenGLTexture::Repeat);
        m_textures.push_back(std::move(texture));
    }
}

void Renderer::setMesh(const MeshDrawData& data)
{
    if (!m_initialized)
        return;
    uploadMesh(m_mesh, data);
    uploadTextures(data);
    m_meshIndices = data.indices;
    m_meshVertices = static_cast<int>(data.vertices.size());
    for (auto& [id, a] : m_cpuMeshes)
        a->count = 0; // deformed copies of the previous mesh
    if (m_skin.vertexCount() != static_cast<int>(data.vertices.size()))
        setSkin({}); // influences of another mesh
    m_cullBackFaces = data.closedOutward;
    m_lodSource.clear();
    if (int(data.indices.size() / 3) > interactiveTriangles) {
        const MeshDrawData lod = simplifyForInteraction(data, standInTriangles());
        uploadMesh(m_meshLod, lod);
        m_lodSource = lod.sourceVertex;
    } else
        m_meshLod.count = 0;
    uploadLodSkin(); // the kept influences onto the new stand-in (none after setSkin({}))
    uploadGrid(niceGridCell(glm::length(data.boundsMax - data.boundsMin)));
}

void Renderer::clearMesh()
{
    m_mesh.count = 0;
    setSkin({});
}

void Renderer::setSkin(const std::vector<SkinVertex>& vertices)
{
    if (!m_initialized)
        return;
    m_skin.setVertices(m_mesh.vao, vertices);
    m_skinVertices = vertices;
    uploadLodSkin();
}

void Renderer::uploadLodSkin()
{
    std::vector<SkinVertex> lod;
    // Influences of the mesh drawn only (a stale skin leaves the stand-in unskinned, as the mesh).
    if (m_meshLod.count > 0 && !m_lodSource.empty() && static_cast<int>(m_skinVertices.size()) == m_meshVertices) {
        lod.reserve(m_lodSource.size());
        for (const unsigned v : m_lodSource)
            lod.push_back(m_skinVertices[v]);
    }
    m_skinLod.setVertices(m_meshLod.vao, lod);
}

void Renderer::setSkinPose(const std::vector<glm::vec4>& texels)
{
    if (!m_initialized)
        return;
    m_skin.setPose(texels);
}

void Renderer::setCpuDeformed(const std::string& id, const std::vector<MeshVertex>& vertices)
{
    if (!m_initialized)
        return;
    std::unique_ptr<GpuArray>& a = m_cpuMeshes[id];
    if (!a) {
        a = std::make_unique<GpuArray>();
        a->vao.create();
    }
    if (vertices.empty() || static_cast<int>(vertices.size()) != m_meshVertices || m_mesh.count == 0) {
        a->count = 0;
        return;
    }
    if (a->count != m_mesh.count) { // a new array, or the mesh changed: indices and layout once
        MeshDrawData d;
        d.vertices = vertices;
        d.indices = m_meshIndices;
        uploadMesh(*a, d);
        return;
    }
    a->vbo.bind();
    a->vbo.write(0, vertices.data(), static_cast<int>(vertices.size() * sizeof(MeshVertex)));
    a->vbo.release();
}

bool Renderer::hasCpuDeformed(const std::string& id) const
{
    const auto it = m_cpuMeshes.find(id);
    return it != m_cpuMeshes.end() && it->second->count > 0;
}

Renderer::GpuArray* Renderer::cpuDeformed(const std::string& id)
{
    const auto it = m_cpuMeshes.find(id);
    return it != m_cpuMeshes.end() && it->second->count > 0 ? it->second.get() : nullptr;
}

void Renderer::setGizmo(const std::vector<LineVertex>& lines)
{
    if (!m_initialized)
        return;
    uploadLines(m_gizmo, lines.data(), static_cast<int>(lines.size()), sizeof(LineVertex));
}

void Renderer::setClipSkeleton(const std::vector<LineVertex>& lines)
{
    if (!m_initialized)
        return;
    uploadLines(m_clipBones, lines.data(), static_cast<int>(lines.size()), sizeof(LineVertex));
}

void Renderer::setSkeleton(const SkeletonDrawData& data)
{
    if (!m_initialized)
        return;
    uploadMesh(m_glyphs, data.glyphs);
    static_assert(sizeof(LineVertex) == 2 * sizeof(glm::vec3));
    uploadLines(m_links, data.links.data(), static_cast<int>(data.links.size()), sizeof(LineVertex));
}

void Renderer::setRig(const RigDrawData& data)
{
    if (!m_initialized)
        return;
    uploadMesh(m_rigJoints, data.joints);
    uploadLines(m_rigBones, data.bones.data(), static_cast<int>(data.bones.size()), sizeof(LineVertex));
}

void Renderer::setVoxels(const std::vector<VoxelPoint>& points, float voxelSize)
{
    if (!m_initialized)
        return;
    static_assert(sizeof(VoxelPoint) == 2 * sizeof(glm::vec3));
    uploadLines(m_voxels, points.data(), static_cast<int>(points.size()), sizeof(VoxelPoint));
    m_voxelSize = voxelSize;
}

void Renderer::uploadGrid(float cell)
{
    if (cell == m_gridCell && m_grid.count > 0)
        return;
    const std::vector<LineVertex> lines = makeGridLines(cell, 20);
    uploadLines(m_grid, lines.data(), static_cast<int>(lines.size()), sizeof(LineVertex));
    m_gridCell = cell;
}

void Renderer::drawMesh(GpuArray& a, const glm::mat4& view, const glm::mat4& proj, float alpha, bool cull)
{
    m_meshProgram->bind();
    setMatrix(*m_meshProgram, "uView", view);
    setMatrix(*m_meshProgram, "uProjection", proj);
    m_meshProgram->setUniformValue("uFlat", false);
    m_meshProgram->setUniformValue("uAlpha", alpha);
    if (m_drawDeformer >= 0 && m_skin.ready())
        m_skin.bind(*m_meshProgram, m_drawDeformer);
    else
        m_meshProgram->setUniformValue("uDeformer", -1);
    if (cull) {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
    }
    a.vao.bind();
    m_meshProgram->setUniformValue("uTextured", false);
    if (&a == &m_mesh && m_drawTextures && !m_ranges.empty()) {
        // The file's meshes: one draw per material, with its base-colour image (unit 2).
        for (const MeshDrawRange& r : m_ranges) {
            QOpenGLTexture* t = r.image >= 0 && r.image < static_cast<int>(m_textures.size())
                                    ? m_textures[static_cast<size_t>(r.image)].get()
                                    : nullptr;
            m_meshProgram->setUniformValue("uTextured", t != nullptr);
            if (t)
                t->bind(2);
            glDrawElements(GL_TRIANGLES, r.indexCount, GL_UNSIGNED_INT,
                           reinterpret_cast<void*>(static_cast<std::size_t>(r.firstIndex) * sizeof(unsigned)));
            if (t)
                t->release(2);
        }
        m_meshProgram->setUniformValue("uTextured", false);
    } else {
        glDrawElements(GL_TRIANGLES, a.count, GL_UNSIGNED_INT, nullptr);
    }
    a.vao.release();
    glDisable(GL_CULL_FACE);
}

namespace {

/// The GPU program of deformer `id`, -1 when it has none (or is unknown).
int gpuProgramOf(const std::string& id)
{
    for (const DeformerInfo& d : deformers())
        if (d.id == id)
            return d.gpuProgram;
    return -1;
}

} // namespace

void Renderer::drawDeformed(GpuArray& a, const std::string& id, bool skin, const glm::mat4& view,
                            const glm::mat4& proj, float alpha, bool cull)
{
    const int program = skin ? gpuProgramOf(id) : -1;
    GpuArray* cpu = skin && program < 0 ? cpuDeformed(id) : nullptr;
    m_drawDeformer = cpu ? -1 : program;
    drawMesh(cpu ? *cpu : a, view, proj, alpha, cull);
    m_drawDeformer = -1;
}

void Renderer::drawCharacter(GpuArray& a, const glm::mat4& view, const glm::mat4& proj, float alpha, bool cull,
                             const RenderOptions& o, int w, int h)
{
    const bool skin = (&a == &m_mesh || (&a == &m_meshLod && m_skinLod.vertexCount() > 0)) && m_skin.ready() && o.skinning;
    m_lastCharacterTriangles = a.count / 3;
    if (!skin || !o.split) {
        drawDeformed(a, o.deformer, skin, view, proj, alpha, cull);
        return;
    }
    // Split view: the same pose, one deformer per half of the view.
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, w / 2, h);
    drawDeformed(a, o.deformer, skin, view, proj, alpha, cull);
    glScissor(w / 2, 0, w - w / 2, h);
    drawDeformed(a, o.splitDeformer, skin, view, proj, alpha, cull);
    glDisable(GL_SCISSOR_TEST);
}

void Renderer::render(const OrbitCamera& camera, int w, int h, const RenderOptions& o)
{
    m_drawTextures = o.textures;
    m_lastCharacterTriangles = 0;
    // Reset what a QPainter overlay (labels) may have left set on the context.
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_STENCIL_TEST);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glViewport(0, 0, w, h);
    glClearColor(0.23f, 0.24f, 0.26f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (!m_initialized)
        return;
    if (m_grid.count == 0)
        uploadGrid(0.25f);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    const float aspect = h > 0 ? float(w) / float(h) : 1.0f;
    const glm::mat4 view = camera.view();
    const glm::mat4 proj = camera.projection(aspect);
    const bool translucent = o.meshOpacity < 0.999f;
    if (o.clip)
        glEnable(GL_CLIP_DISTANCE0);
    m_meshProgram->bind();
    m_meshProgram->setUniformValue("uClipPlane", toQt(o.clip ? o.clipPlane : glm::vec4(0, 0, 0, 1)));

    // Opaque mesh first. Closed outward meshes cull back faces (never visible
    // from outside; half the rasterizer work) unless clipped open.
    // While the camera moves, a dense mesh is drawn from its coarse stand-in.
    // Posed, the stand-in needs its influences and a deformer with a shader
    // (the CPU deformers draw their own full-detail output).
    const bool posed = m_skin.ready() && o.skinning;
    const bool lod = o.interactive && m_meshLod.count > 0 &&
                     (!posed || (m_skinLod.vertexCount() > 0 && gpuProgramOf(o.deformer) >= 0 &&
                                 (!o.split || gpuProgramOf(o.splitDeformer) >= 0)));
    GpuArray& mesh = lod ? m_meshLod : m_mesh;
    const bool cull = !lod && m_cullBackFaces && !o.clip;
    if (m_mesh.count > 0 && !translucent)
        drawCharacter(mesh, view, proj, 1.0f, cull, o, w, h);

    if (o.voxels && m_voxels.count > 0)
        drawVoxels(view, proj, o, h);
    glDisable(GL_CLIP_DISTANCE0); // the skeleton is never clipped

    if (o.skeleton && m_glyphs.count > 0) {
        m_meshProgram->bind();
        m_meshProgram->setUniformValue("uClipPlane", QVector4D(0, 0, 0, 1));
        drawMesh(m_glyphs, view, proj, 1.0f, true);
        m_lineProgram->bind();
        setMatrix(*m_lineProgram, "uViewProjection", proj * view);
        m_lineProgram->setUniformValue("uAlpha", 1.0f);
        m_links.vao.bind();
        glDrawArrays(GL_LINES, 0, m_links.count);
        m_links.vao.release();
    }

    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE); // keep the opaque alpha of the clear: the widget is composed over the window
    if (o.grid && m_grid.count > 0) {
        m_lineProgram->bind();
        setMatrix(*m_lineProgram, "uViewProjection", proj * view);
        m_lineProgram->setUniformValue("uAlpha", 0.8f);
        m_grid.vao.bind();
        glDrawArrays(GL_LINES, 0, m_grid.count);
        m_grid.vao.release();
    }
    if (o.clip)
        glEnable(GL_CLIP_DISTANCE0);
    m_meshProgram->bind();
    m_meshProgram->setUniformValue("uClipPlane", toQt(o.clip ? o.clipPlane : glm::vec4(0, 0, 0, 1)));
    if (m_mesh.count > 0 && translucent) {
        // X-ray: front faces only, no depth writes, so the overlays show through.
        glDepthMask(GL_FALSE);
        drawCharacter(mesh, view, proj, o.meshOpacity, cull, o, w, h);
        glDepthMask(GL_TRUE);
    }
    if (m_mesh.count > 0 && o.wireframe && !lod) {
        m_meshProgram->bind();
        m_meshProgram->setUniformValue("uFlat", true);
        m_meshProgram->setUniformValue("uFlatColor", QVector4D(0.1f, 0.1f, 0.12f, 0.45f));
        const bool skinned = m_skin.ready() && o.skinning;
        GpuArray* cpu = skinned && gpuProgramOf(o.deformer) < 0 ? cpuDeformed(o.deformer) : nullptr;
        if (skinned && !cpu)
            m_skin.bind(*m_meshProgram, gpuProgramOf(o.deformer));
        GpuArray& wire = cpu ? *cpu : m_mesh;
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        glEnable(GL_POLYGON_OFFSET_LINE);
        glPolygonOffset(-1.0f, -1.0f);
        wire.vao.bind();
        glDrawElements(GL_TRIANGLES, wire.count, GL_UNSIGNED_INT, nullptr);
        wire.vao.release();
        m_meshProgram->setUniformValue("uDeformer", -1);
        glDisable(GL_POLYGON_OFFSET_LINE);
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }
    glDisable(GL_CLIP_DISTANCE0);
    glDisable(GL_BLEND);

    drawInFront(view, proj, o, translucent);
    m_meshProgram->release();
}

void Renderer::drawVoxels(const glm::mat4& view, const glm::mat4& proj, const RenderOptions& o, int h)
{
    glEnable(GL_PROGRAM_POINT_SIZE);
    m_pointProgram->bind();
    setMatrix(*m_pointProgram, "uView", view);
    setMatrix(*m_pointProgram, "uProjection", proj);
    m_pointProgram->setUniformValue("uVoxelSize", m_voxelSize);
    m_pointProgram->setUniformValue("uViewportHeight", float(h));
    m_pointProgram->setUniformValue("uClipPlane", toQt(o.clip ? o.clipPlane : glm::vec4(0, 0, 0, 1)));
    m_voxels.vao.bind();
    glDrawArrays(GL_POINTS, 0, m_voxels.count);
    m_voxels.vao.release();
    glDisable(GL_PROGRAM_POINT_SIZE);
}

void Renderer::drawInFront(const glm::mat4& view, const glm::mat4& proj, const RenderOptions& o, bool translucent)
{
    // The animation skeleton in front of everything, like Blender's "In Front".
    if (o.rig && m_rigJoints.count > 0) {
        glClear(GL_DEPTH_BUFFER_BIT);
        m_lineProgram->bind();
        setMatrix(*m_lineProgram, "uViewProjection", proj * view);
        m_lineProgram->setUniformValue("uAlpha", 1.0f);
        glLineWidth(1.0f);
        m_rigBones.vao.bind();
        glDrawArrays(GL_LINES, 0, m_rigBones.count);
        m_rigBones.vao.release();
        m_meshProgram->bind();
        m_meshProgram->setUniformValue("uClipPlane", QVector4D(0, 0, 0, 1));
        // In x-ray the joint spheres are see-through: the curve skeleton's
        // connection nodes they sit on stay visible (issue 19 item 6).
        const bool seeThrough = translucent && o.skeleton && m_glyphs.count > 0;
        if (seeThrough) {
            glEnable(GL_BLEND);
            glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
        }
        drawMesh(m_rigJoints, view, proj, seeThrough ? 0.35f : 1.0f, true);
        glDisable(GL_BLEND);
    }
    if (m_clipBones.count > 0) {
        m_lineProgram->bind();
        setMatrix(*m_lineProgram, "uViewProjection", proj * view);
        m_lineProgram->setUniformValue("uAlpha", 1.0f);
        glLineWidth(2.0f);
        m_clipBones.vao.bind();
        glDrawArrays(GL_LINES, 0, m_clipBones.count);
        m_clipBones.vao.release();
        glLineWidth(1.0f);
    }
    if (m_gizmo.count > 0) {
        glClear(GL_DEPTH_BUFFER_BIT);
        glDisable(GL_DEPTH_TEST);
        m_lineProgram->bind();
        setMatrix(*m_lineProgram, "uViewProjection", proj * view);
        m_lineProgram->setUniformValue("uAlpha", 1.0f);
        m_gizmo.vao.bind();
        glDrawArrays(GL_LINES, 0, m_gizmo.count);
        m_gizmo.vao.release();
        glEnable(GL_DEPTH_TEST);
    }
}

void Renderer::destroy(GpuArray& a)
{
    a.vbo.destroy();
    a.ibo.destroy();
    a.vao.destroy();
    a.count = 0;
}

void Renderer::release()
{
    for (GpuArray* a : {&m_mesh, &m_meshLod, &m_grid, &m_glyphs, &m_links, &m_voxels, &m_rigJoints, &m_rigBones, &m_gizmo, &m_clipBones})
        destroy(*a);
    for (auto& [id, a] : m_cpuMeshes)
        destroy(*a);
    m_cpuMeshes.clear();
    m_skin.release();
    m_skinLod.release();
    m_skinVertices.clear();
    releaseTextures();
    if (m_uv.isCreated())
        m_uv.destroy();
    m_meshProgram.reset();
    m_lineProgram.reset();
    m_pointProgram.reset();
    m_initialized = false;
    m_gridCell = 0.0f;
}

} // namespace rig::ui
