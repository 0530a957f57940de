#pragma once
/// @file renderer.h
/// Draws the scene with OpenGL 3.3 core: the shaded mesh (two-sided, or
/// translucent "x-ray" so the skeleton shows through), an optional wireframe
/// overlay, the ground grid, the curve-skeleton glyphs and links, and the
/// voxels as points, with an optional clipping plane that opens the model.
/// Used by the interactive viewport and by the offscreen `rigsmith render`.
/// Every GL object is created and destroyed with a current context
/// (`initialize()` / `release()`).

#include "ui/viewport/draw_data.h"
#include "ui/viewport/gpu_skinning.h"
#include "ui/viewport/orbit_camera.h"
#include "ui/viewport/overlay_data.h"

#include <QOpenGLBuffer>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>
#include <QOpenGLTexture>
#include <QOpenGLVertexArrayObject>
#include <QString>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rig::ui {

struct RenderOptions {
    bool wireframe = false;    ///< Overlay the triangle edges.
    bool grid = true;          ///< Ground grid on y = 0 with the X and Z axes.
    bool skeleton = true;      ///< The curve-skeleton glyphs and links, when set.
    bool rig = true;           ///< The fitted animation skeleton (in front of everything), when set.
    bool voxels = false;       ///< The voxels of the solid, when set.
    float meshOpacity = 1.0f;  ///< < 1: translucent mesh drawn over the overlays.
    bool clip = false;         ///< Cut the mesh and voxels by `clipPlane`.
    glm::vec4 clipPlane{0.0f, 0.0f, -1.0f, 0.0f}; ///< Keeps points p with dot(plane, (p, 1)) >= 0.
    /// The camera is moving: draw the coarse stand-in of a dense mesh, if any.
    bool interactive = false;
    /// Draw a skinned mesh deformed by its pose (false: its rest shape).
    bool skinning = true;
    /// The deformer of a skinned mesh (an id of core/deform/deformers.h): on
    /// the GPU when it has a program (`setSkin()`), else its CPU output
    /// (`setCpuDeformed()`).
    std::string deformer = "lbs";
    /// Split view: the right half of the mesh drawn with `splitDeformer`.
    bool split = false;
    std::string splitDeformer = "dqs";
    /// Shade a textured mesh (the file's own, `makeSourceDrawData()`) with its
    /// base-colour images; off: its base colours only.
    bool textures = true;
};

/// True for the GL_RENDERER string of a software rasterizer (Mesa llvmpipe,
/// softpipe, swrast).
bool isSoftwareRasterizer(const std::string& glRenderer);

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
    /// Meshes above `interactiveTriangles` also get a coarse stand-in drawn
    /// while the camera moves or a joint is dragged (`RenderOptions::interactive`),
    /// of `standInTriangles()`.
    void setMesh(const MeshDrawData& data);
    static constexpr int interactiveTriangles = 60000;
    /// The stand-in's size: `interactiveTriangles`, halved on a software
    /// rasterizer (llvmpipe), whose cost goes with the triangle count, not the
    /// pixels, on a dense mesh (bench/notes/deformers.md, stop 33: 60k -> 30k saved
    /// 3-4 ms of a 100k-vertex character's drag frame).
    int standInTriangles() const { return m_softwareRasterizer ? interactiveTriangles / 2 : interactiveTriangles; }
    /// Whether the context renders on the CPU (llvmpipe, softpipe, swrast).
    bool softwareRasterizer() const { return m_softwareRasterizer; }
    bool hasInteractiveMesh() const { return m_meshLod.count > 0; }
    /// Triangles of the character in the last `render()` (the stand-in's while
    /// it is drawn; 0 when no character was drawn).
    int lastCharacterTriangles() const { return m_lastCharacterTriangles; }
    void clearMesh();
    /// Per-vertex influences of the current mesh (#V, skin_data.h), empty to
    /// draw it unskinned. The stand-in of a dense mesh gets each of its
    /// vertices' influences from `MeshDrawData::sourceVertex`, so it is drawn
    /// posed too (by the deformers with a shader) while the camera moves or a
    /// joint is dragged (issue 20, item 5).
    void setSkin(const std::vector<SkinVertex>& vertices);
    /// Joint texels of the current pose (`makeSkinTexels()`).
    void setSkinPose(const std::vector<glm::vec4>& texels);
    /// The current mesh as deformer `id` posed it on the CPU (#V records in
    /// the mesh's vertex order): what is drawn for a deformer without a GPU
    /// program. Empty `vertices` drops it.
    void setCpuDeformed(const std::string& id, const std::vector<MeshVertex>& vertices);
    /// Whether a CPU-deformed mesh of deformer `id` is uploaded.
    bool hasCpuDeformed(const std::string& id) const;
    bool skinned() const { return m_skin.ready(); }
    /// The rotate gizmo's lines, drawn in front of everything (empty hides it).
    void setGizmo(const std::vector<LineVertex>& lines);
    /// The loaded clip's own skeleton beside the character (empty hides it).
    void setClipSkeleton(const std::vector<LineVertex>& lines);
    int meshTriangles() const { return m_mesh.count / 3; }
    /// Uploads the skeleton glyphs and links (empty data clears them).
    void setSkeleton(const SkeletonDrawData& data);
    /// Uploads the fitted rig's joints and bones (empty data clears them).
    void setRig(const RigDrawData& data);
    /// Uploads voxel points of the given edge length (empty clears them).
    void setVoxels(const std::vector<VoxelPoint>& points, float voxelSize);
    /// Draws one frame into the bound framebuffer of size w x h (device pixels).
    void render(const OrbitCamera& camera, int w, int h, const RenderOptions& options);
    /// Destroys the GL objects. Needs the context current.
    void release();
    /// Base-colour images of the current mesh that are uploaded (for tests).
    int textureCount() const { return static_cast<int>(m_textures.size()); }

private:
    /// One vertex array with its buffers and element count.
    struct GpuArray {
        QOpenGLVertexArrayObject vao;
        QOpenGLBuffer vbo{QOpenGLBuffer::VertexBuffer};
        QOpenGLBuffer ibo{QOpenGLBuffer::IndexBuffer};
        int count = 0; ///< Indices, or vertices for non-indexed arrays.
    };
    void uploadMesh(GpuArray& a, const MeshDrawData& data);
    void uploadLines(GpuArray& a, const void* data, int count, int stride);
    void drawMesh(GpuArray& a, const glm::mat4& view, const glm::mat4& proj, float alpha, bool cull);
    /// The voxels as points sized by the voxel (`h`: the viewport's height in pixels).
    void drawVoxels(const glm::mat4& view, const glm::mat4& proj, const RenderOptions& o, int h);
    /// What is drawn in front of everything: the rig (see-through joints over
    /// a `translucent` mesh's skeleton), the clip's skeleton, the gizmo.
    void drawInFront(const glm::mat4& view, const glm::mat4& proj, const RenderOptions& o, bool translucent);
    /// The character mesh, skinned when it has influences, split in two halves
    /// (left `deformer`, right `splitDeformer`) when asked.
    void drawCharacter(GpuArray& a, const glm::mat4& view, const glm::mat4& proj, float alpha, bool cull,
                       const RenderOptions& o, int w, int h);
    /// The character (or its stand-in `a`) with deformer `id`: the GPU program,
    /// or the CPU-deformed mesh, or the rest shape when `skin` is false.
    void drawDeformed(GpuArray& a, const std::string& id, bool skin, const glm::mat4& view, const glm::mat4& proj,
                      float alpha, bool cull);
    /// The array holding deformer `id`'s CPU output, or null.
    GpuArray* cpuDeformed(const std::string& id);
    void uploadGrid(float cell);
    void destroy(GpuArray& a);

    /// The current mesh's UVs, material ranges and base-colour textures (textured meshes only).
    void uploadTextures(const MeshDrawData& data);
    void releaseTextures();
    QOpenGLBuffer m_uv{QOpenGLBuffer::VertexBuffer};
    std::vector<MeshDrawRange> m_ranges;
    std::vector<std::unique_ptr<QOpenGLTexture>> m_textures;
    bool m_drawTextures = false; ///< For the next drawMesh() of m_mesh.

    bool m_initialized = false;
    std::unique_ptr<QOpenGLShaderProgram> m_meshProgram, m_lineProgram, m_pointProgram;
    GpuArray m_mesh, m_meshLod, m_grid, m_glyphs, m_links, m_voxels, m_rigJoints, m_rigBones, m_gizmo, m_clipBones;
    SkinBuffers m_skin;
    SkinBuffers m_skinLod;               ///< The stand-in's influences (its VBO only: the pose is m_skin's).
    std::vector<unsigned> m_lodSource;   ///< MeshDrawData::sourceVertex of the stand-in.
    std::vector<SkinVertex> m_skinVertices; ///< The full mesh's influences, for a rebuilt stand-in.
    int m_lastCharacterTriangles = 0;
    void uploadLodSkin();
    std::vector<unsigned> m_meshIndices; ///< Of the current mesh, for the CPU-deformed arrays.
    int m_meshVertices = 0;
    std::map<std::string, std::unique_ptr<GpuArray>> m_cpuMeshes;
    /// Skinning uniforms for the next drawMesh(): the deformer, or none (-1).
    int m_drawDeformer = -1;
    bool m_cullBackFaces = false;
    bool m_softwareRasterizer = false;
    float m_gridCell = 0.0f;
    float m_voxelSize = 0.0f;
};

} // namespace rig::ui
