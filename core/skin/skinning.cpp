#include "core/skin/skinning.h"

#include "core/common/error.h"

#include <algorithm>
#include <sstream>
#include <string>

namespace rig {

int countBleedingVertices(const SkinWeights& weights, const Skeleton& skeleton, double threshold)
{
    const std::vector<int> limb = jointLimbs(skeleton);
    int count = 0;
    for (int i = 0; i < weights.vertexCount(); ++i) {
        int main = 0; // the most influential slot (the builders sort, but do not rely on it)
        for (int s = 1; s < weights.maxInfluences; ++s)
            if (weights.weights(i, s) > weights.weights(i, main))
                main = s;
        const int own = limb[static_cast<size_t>(weights.joints(i, main))];
        if (own < 0)
            continue; // a trunk vertex
        for (int s = 0; s < weights.maxInfluences; ++s) {
            const int l = limb[static_cast<size_t>(weights.joints(i, s))];
            if (weights.weights(i, s) >= threshold && l >= 0 && l != own) {
                ++count;
                break;
            }
        }
    }
    return count;
}

SkinningResult computeSkinning(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                               const WeightOptions& options, const Progress& progress)
{
    checkWeightOptions(options);
    SkinningResult r;
    StageClock clock(r.timings);
    r.segmentation = segmentMesh(mesh, skeleton, solid, options.segmentation, progress);
    clock.lap("segment");
    WeightDiagnostics& d = r.diagnostics;
    const WeightMethod& method = findWeightMethod(options.method);
    WeightMethodResult w =
        method.compute(WeightMethodInput{mesh, skeleton, solid, r.segmentation, progress}, options.valuesOf(method.id));
    r.weights = std::move(w.weights);
    d.unreachedVertices = w.unreachedVertices;
    d.rigidParts = std::move(w.rigidParts);
    validateSkinWeights(r.weights, mesh.vertexCount(), skeleton.jointCount());
    clock.lap("weights");
    d.bleedingVertices = countBleedingVertices(r.weights, skeleton);

    if (d.unreachedVertices > 0)
        d.messages.push_back(std::to_string(d.unreachedVertices) + " vertices were reached by no bone and are bound "
                             "to their nearest joint; check for loose geometry or a joint outside the mesh");
    for (const RigidPart& p : d.rigidParts) {
        std::ostringstream s;
        s << "part '" << p.name << "' (" << p.vertexCount << " vertices) is bound rigidly to "
          << skeleton.names[static_cast<size_t>(p.bone)] << ": " << p.reason;
        d.messages.push_back(s.str());
    }
    if (d.bleedingVertices > 0)
        d.messages.push_back(std::to_string(d.bleedingVertices) + " vertices carry weight (>= " +
                             std::to_string(WeightDiagnostics::bleedThreshold).substr(0, 4) +
                             ") from two different limbs; paint them or adjust the joints");
    clock.lap("diagnostics");
    return r;
}

SegmentationMethod parseSegmentationMethod(std::string_view name)
{
    if (name == "3.2.1")
        return SegmentationMethod::NearestLink;
    if (name == "3.2.2")
        return SegmentationMethod::LineOfSight;
    if (name == "3.2.4")
        return SegmentationMethod::RegionGrow;
    throw InvalidInput("segmentation method '" + std::string(name) +
                       "' not understood; use 3.2.1 (nearest link), 3.2.2 (line of sight) or 3.2.4 (region grow)");
}

std::string_view segmentationMethodName(SegmentationMethod method)
{
    switch (method) {
    case SegmentationMethod::NearestLink: return "3.2.1";
    case SegmentationMethod::LineOfSight: return "3.2.2";
    case SegmentationMethod::RegionGrow: return "3.2.4";
    }
    return "3.2.4";
}

} // namespace rig
