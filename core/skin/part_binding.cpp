#include "core/skin/part_binding.h"

#include "core/common/error.h"

#include <map>

namespace rig {
namespace {

void checkBinding(const PartBinding& b, const Skeleton& skeleton, size_t partCount)
{
    const std::string what = "bind part '" + (b.partName.empty() ? std::to_string(b.part) : b.partName) + "'";
    if (b.part < 0 || static_cast<size_t>(b.part) >= partCount)
        throw InvalidInput(what + ": the character has " + std::to_string(partCount) +
                           " parts (index " + std::to_string(b.part) + "); pick a part from the parts list");
    if (!skeleton.find(b.joint))
        throw InvalidInput(what + ": the rig has no joint '" + b.joint + "'; pick one of the rig's joints");
}

/// Calls `apply(v, joint)` for every vertex of every bound part, after checking
/// the binding; a vertex outside [0, vertexCount) is named.
template <class Apply>
void forEachBoundVertex(const Skeleton& skeleton, const std::vector<std::vector<int>>& partVertices,
                        std::span<const PartBinding> bindings, int vertexCount, Apply apply)
{
    for (const PartBinding& b : bindings) {
        checkBinding(b, skeleton, partVertices.size());
        const int joint = *skeleton.find(b.joint);
        for (const int v : partVertices[static_cast<size_t>(b.part)]) {
            if (v < 0 || v >= vertexCount)
                throw InvalidInput("bind part '" + b.partName + "': vertex " + std::to_string(v) +
                                   " is outside the mesh (" + std::to_string(vertexCount) + " vertices)");
            apply(v, joint);
        }
    }
}

} // namespace

SkinWeights bindPartsRigidly(SkinWeights w, const Skeleton& skeleton,
                             const std::vector<std::vector<int>>& partVertices,
                             std::span<const PartBinding> bindings)
{
    forEachBoundVertex(skeleton, partVertices, bindings, w.vertexCount(), [&w](int v, int joint) {
        w.joints.row(v).setZero();
        w.weights.row(v).setZero();
        w.joints(v, 0) = joint;
        w.weights(v, 0) = 1.0f;
    });
    return w;
}

Segmentation segmentPartsRigidly(Segmentation seg, const Skeleton& skeleton,
                                 const std::vector<std::vector<int>>& partVertices,
                                 std::span<const PartBinding> bindings)
{
    forEachBoundVertex(skeleton, partVertices, bindings, seg.vertexCount(), [&seg](int v, int joint) {
        seg.bone[static_cast<size_t>(v)] = joint;
        seg.delta[static_cast<size_t>(v)] = joint == 0 ? 0.0 : 1.0;
    });
    return seg;
}

std::vector<PartWeights> partWeights(const SkinWeights& w, const Skeleton& skeleton,
                                     const std::vector<std::vector<int>>& partVertices,
                                     const std::vector<std::string>& names, std::span<const PartBinding> bindings)
{
    std::vector<PartWeights> rows;
    for (size_t k = 0; k < partVertices.size(); ++k) {
        PartWeights r;
        r.name = k < names.size() ? names[k] : "part " + std::to_string(k + 1);
        r.vertices = static_cast<int>(partVertices[k].size());
        for (const PartBinding& b : bindings)
            if (b.part == static_cast<int>(k))
                r.boundTo = b.joint;
        std::map<int, double> mass;
        int influences = 0;
        for (const int v : partVertices[k])
            for (int s = 0; s < w.maxInfluences; ++s)
                if (w.weights(v, s) > 0.0f) {
                    mass[w.joints(v, s)] += w.weights(v, s);
                    ++influences;
                }
        double total = 0, best = -1;
        int dominant = -1;
        for (const auto& [joint, m] : mass) {
            total += m;
            if (m > best) {
                best = m;
                dominant = joint;
            }
        }
        if (dominant >= 0) {
            r.dominantJoint = skeleton.names[static_cast<size_t>(dominant)];
            r.dominantShare = best / total;
            r.rigid = true;
            for (const int v : partVertices[k])
                r.rigid = r.rigid && w.joints(v, 0) == dominant && w.weights(v, 0) >= 0.999f;
        }
        r.meanInfluences = r.vertices ? static_cast<double>(influences) / r.vertices : 0.0;
        rows.push_back(std::move(r));
    }
    return rows;
}

} // namespace rig
