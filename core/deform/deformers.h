#pragma once
/// @file deformers.h
/// The table of deformers: the one place that lists them. The viewport, its
/// toolbar and keys (1, 2, 3, … in table order), the joint panel, the split
/// view, `rigsmith bench skinning` and the benches iterate it; none of them
/// names a deformer.
///
/// A row has a stable id, a title, whether it reads the segmentation, the GPU
/// program the viewport's vertex shader runs for it (`gpuProgram`, the value
/// of `uDeformer` in shaders/mesh.vert; -1 when it has none: the viewport then
/// draws the CPU output), and `bind`, which prepares a skin once (when the
/// weights or the segmentation change) into a `BoundDeformer` that deforms it
/// per frame.
///
/// Built in:
///  - `lbs`: linear blend skinning, thesis eq. 4.3 (lbs.h);
///  - `dqs`: dual-quaternion skinning, Kavan et al. 2008 (dqs.h);
///  - `twist`: the thesis's twist-corrected LBS, §4.4 eq. 4.4–4.9 (twist_lbs.h);
///  - `simplex`: the simplex-transformation deformer, no weights, Yan, Hu &
///    Martin 2006 (simplex_transform.h), CPU only;
///  - `rigid-blended`: rigid skinning with joints blended along rational
///    quadratic Bézier arcs, Vasilakis & Fudos (rigid_blended.h), CPU only.
///
/// Adding a deformer: its file pair (`core/deform/NAME.h/.cpp`), one row in
/// `builtInDeformers()` of deformers.cpp, its tests. A deformer without a
/// shader is drawn from its CPU output at once; a shader is an optimisation.

#include "core/deform/lbs.h"
#include "core/deform/skin_binding.h"
#include "core/mesh/mesh.h"
#include "core/rig/pose.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rig {

/// A skin prepared for one deformer: made once, deformed every frame.
class BoundDeformer {
public:
    virtual ~BoundDeformer() = default;
    /// Deforms the skin for `pose` into `out` (#V posed records, storage reused).
    /// @param unwrappedTwist per-joint twist angles unwrapped across frames
    ///        (`twistTransforms()`); empty: wrapped angles. Deformers that do
    ///        not twist ignore it.
    /// @throws rig::InvalidInput when the pose does not match the skeleton.
    virtual void deform(const Pose& pose, std::span<const double> unwrappedTwist, SkinnedMesh& out,
                        const SkinningOptions& options = {}) const = 0;
    /// The vertex count, and whether the output carries normals.
    virtual int vertexCount() const = 0;
    virtual bool hasNormals() const = 0;
};

/// What a deformer binds: the rest mesh (V, N, and F for deformers that
/// work on triangles), the weights, the segmentation and the skeleton.
struct DeformerInput {
    const Mesh& mesh;                 ///< V, F and N (N may be empty: no normals out).
    const SkinWeights& weights;       ///< #V rows for `skeleton`.
    const Segmentation* segmentation; ///< May be null for deformers that do not need it.
    const Skeleton& skeleton;
};

/// A row of the deformer table.
struct DeformerInfo {
    std::string id;                 ///< Stable: "lbs", "dqs", "twist".
    std::string title;              ///< "Twist-corrected LBS".
    std::string shortTitle;         ///< For a toolbar button: "Twist".
    std::string reference;          ///< The paper and equation it implements.
    bool needsSegmentation = false; ///< `bind` refuses a null segmentation.
    int gpuProgram = -1;            ///< `uDeformer` of shaders/mesh.vert; -1: drawn from the CPU output.
    /// Prepares the skin. @throws rig::InvalidInput for inconsistent input.
    std::function<std::unique_ptr<BoundDeformer>(const DeformerInput&)> bind;
    /// `bind` reads the weights. False for deformers driven by the mesh and the
    /// segmentation alone (simplex, rigid-blended): painting weights leaves
    /// their binding valid, so the viewport keeps it instead of binding again
    /// (a sparse factorization) after every dab.
    bool usesWeights = true;
};

/// Every deformer, built-in first (their order is the keys 1, 2, 3, …), then
/// those registered. Register before other threads read the table.
const std::vector<DeformerInfo>& deformers();

/// The deformer with id `id`.
/// @throws rig::InvalidInput "deformer 'x' not understood; use lbs, dqs, twist".
const DeformerInfo& findDeformer(std::string_view id);

/// The ids of every deformer joined by `separator`.
std::string deformerIds(std::string_view separator = ", ");

/// Adds a deformer to the table (tests, plug-ins).
/// @throws rig::InvalidInput when the id is empty or taken, or `bind` is missing.
void registerDeformer(DeformerInfo deformer);

/// Binds with `deformer` and deforms once: the one-off form (tests, tools).
/// @throws rig::InvalidInput as `bind` and `deform` do (`needsSegmentation`
///         without a segmentation names the deformer).
DeformedMesh deformOnce(const DeformerInfo& deformer, const DeformerInput& input, const Pose& pose,
                        std::span<const double> unwrappedTwist = {}, const SkinningOptions& options = {});

/// A deformer working on a `SkinBinding` (the three skinning kernels share
/// it): `kernel(binding, skeleton, pose, twist, out, options)` per frame.
class BindingDeformer : public BoundDeformer {
public:
    using Kernel = std::function<void(const SkinBinding&, const Skeleton&, const Pose&, std::span<const double>,
                                      SkinnedMesh&, const SkinningOptions&)>;
    BindingDeformer(SkinBinding binding, Skeleton skeleton, Kernel kernel)
        : m_binding(std::move(binding)), m_skeleton(std::move(skeleton)), m_kernel(std::move(kernel))
    {
    }
    void deform(const Pose& pose, std::span<const double> twist, SkinnedMesh& out,
                const SkinningOptions& options) const override
    {
        m_kernel(m_binding, m_skeleton, pose, twist, out, options);
    }
    int vertexCount() const override { return m_binding.vertexCount; }
    bool hasNormals() const override { return m_binding.hasNormals; }
    const SkinBinding& binding() const { return m_binding; }

private:
    SkinBinding m_binding;
    Skeleton m_skeleton;
    Kernel m_kernel;
};

} // namespace rig
