#include "core/deform/deformers.h"

#include "core/common/error.h"
#include "core/deform/dqs.h"
#include "core/deform/twist_lbs.h"

namespace rig {
namespace {

/// The binding every skinning kernel reads (plus the twist data when asked).
SkinBinding bindFor(const DeformerInput& in, bool twist)
{
    SkinBinding b = bindSkin(in.mesh.V, in.mesh.N, in.weights, in.skeleton.jointCount());
    if (twist && !in.segmentation)
        throw InvalidInput("rig::bindTwist(): the twist-corrected deformer needs a segmentation; compute the "
                           "skinning stage first");
    if (twist)
        bindTwist(b, *in.segmentation, in.skeleton);
    return b;
}

DeformerInfo skinningRow(std::string id, std::string title, std::string shortTitle, std::string reference,
                         int gpuProgram, bool twist, BindingDeformer::Kernel kernel)
{
    DeformerInfo d{std::move(id), std::move(title), std::move(shortTitle), std::move(reference), twist, gpuProgram, {}};
    d.bind = [twist, kernel](const DeformerInput& in) -> std::unique_ptr<BoundDeformer> {
        return std::make_unique<BindingDeformer>(bindFor(in, twist), in.skeleton, kernel);
    };
    return d;
}

std::vector<DeformerInfo> builtInDeformers()
{
    std::vector<DeformerInfo> rows;
    rows.push_back(skinningRow(
        "lbs", "LBS", "LBS", "linear blend skinning, thesis eq. 4.3", 0, false,
        [](const SkinBinding& b, const Skeleton& s, const Pose& pose, std::span<const double>, SkinnedMesh& out,
           const SkinningOptions& o) { lbs(b, forwardKinematics(s, pose).skinning, out, o); }));
    rows.push_back(skinningRow(
        "dqs", "DQS", "DQS", "dual-quaternion skinning, Kavan et al. 2008", 1, false,
        [](const SkinBinding& b, const Skeleton& s, const Pose& pose, std::span<const double>, SkinnedMesh& out,
           const SkinningOptions& o) { dqs(b, forwardKinematics(s, pose).skinning, out, o); }));
    rows.push_back(skinningRow(
        "twist", "Twist-corrected LBS", "Twist", "thesis §4.4, eq. 4.4-4.9", 2, true,
        [](const SkinBinding& b, const Skeleton& s, const Pose& pose, std::span<const double> twist, SkinnedMesh& out,
           const SkinningOptions& o) {
            const PosedSkeleton posed = forwardKinematics(s, pose);
            twistLbs(b, twistTransforms(s, pose, posed, twist), out, o);
        }));
    return rows;
}

std::vector<DeformerInfo>& table()
{
    static std::vector<DeformerInfo> rows = builtInDeformers();
    return rows;
}

} // namespace

const std::vector<DeformerInfo>& deformers() { return table(); }

const DeformerInfo& findDeformer(std::string_view id)
{
    for (const DeformerInfo& d : table())
        if (d.id == id)
            return d;
    throw InvalidInput("deformer '" + std::string(id) + "' not understood; use " + deformerIds(", "));
}

std::string deformerIds(std::string_view separator)
{
    std::string s;
    for (const DeformerInfo& d : table())
        s += (s.empty() ? "" : std::string(separator)) + d.id;
    return s;
}

void registerDeformer(DeformerInfo deformer)
{
    if (deformer.id.empty() || !deformer.bind)
        throw InvalidInput("rig::registerDeformer(): a deformer needs an id and a bind function");
    for (const DeformerInfo& d : table())
        if (d.id == deformer.id)
            throw InvalidInput("rig::registerDeformer(): a deformer '" + deformer.id + "' already exists");
    table().push_back(std::move(deformer));
}

DeformedMesh deformOnce(const DeformerInfo& deformer, const DeformerInput& input, const Pose& pose,
                        std::span<const double> unwrappedTwist, const SkinningOptions& options)
{
    if (deformer.needsSegmentation && !input.segmentation)
        throw InvalidInput("rig::deformOnce(): the " + deformer.title +
                           " deformer needs a segmentation; compute the skinning stage first");
    const std::unique_ptr<BoundDeformer> bound = deformer.bind(input);
    SkinnedMesh posed;
    bound->deform(pose, unwrappedTwist, posed, options);
    DeformedMesh out;
    toDeformedMesh(posed, bound->hasNormals(), out);
    return out;
}

} // namespace rig
