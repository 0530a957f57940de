#include "core/skin/skinning.h"

#include "core/common/error.h"
#include "core/skin/bone_segments.h"
#include "core/skin/rigid_pieces.h"

#include <map>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

std::vector<FarReach> farReachingJoints(const SkinWeights& weights, const MatrixX3d& V, const Skeleton& skeleton,
                                        double size, int* reachedVertices, double fraction, double threshold)
{
    const std::vector<BoneSegment> bones = boneSegments(skeleton, 0.5);
    const int J = skeleton.jointCount();
    std::vector<FarReach> byJoint(static_cast<size_t>(J));
    std::vector<std::map<int, int>> around(static_cast<size_t>(J));
    int reached = 0;
    for (int i = 0; i < weights.vertexCount(); ++i) {
        int main = 0;
        for (int s = 1; s < weights.maxInfluences; ++s)
            if (weights.weights(i, s) > weights.weights(i, main))
                main = s;
        const int m = weights.joints(i, main);
        const Vec3 p = V.row(i).transpose();
        const double own = distanceToBone(p, bones, m);
        bool far = false;
        for (int s = 0; s < weights.maxInfluences; ++s) {
            const int k = weights.joints(i, s);
            if (k == m || weights.weights(i, s) < threshold)
                continue;
            const double excess = distanceToBone(p, bones, k) - own;
            if (!(excess > fraction * size))
                continue;
            FarReach& f = byJoint[static_cast<size_t>(k)];
            f.joint = k;
            ++f.vertices;
            f.farthest = std::max(f.farthest, excess);
            ++around[static_cast<size_t>(k)][m];
            far = true;
        }
        reached += far ? 1 : 0;
    }
    std::vector<FarReach> out;
    for (int k = 0; k < J; ++k) {
        FarReach& f = byJoint[static_cast<size_t>(k)];
        if (f.vertices == 0)
            continue;
        std::vector<std::pair<int, int>> a; // (-count, joint)
        for (const auto& [j, n] : around[static_cast<size_t>(k)])
            a.emplace_back(-n, j);
        std::sort(a.begin(), a.end());
        for (size_t q = 0; q < a.size() && q < 3; ++q)
            f.around.push_back(a[q].second);
        out.push_back(std::move(f));
    }
    std::stable_sort(out.begin(), out.end(), [](const FarReach& a, const FarReach& b) { return a.vertices > b.vertices; });
    if (reachedVertices)
        *reachedVertices = reached;
    return out;
}

std::vector<int> bonesWithoutVertices(const SkinWeights& weights, int jointCount, double threshold)
{
    std::vector<char> moved(static_cast<size_t>(jointCount), 0);
    for (int i = 0; i < weights.vertexCount(); ++i)
        for (int s = 0; s < weights.maxInfluences; ++s)
            if (weights.weights(i, s) >= threshold)
                moved[static_cast<size_t>(weights.joints(i, s))] = 1;
    std::vector<int> out;
    for (int j = 0; j < jointCount; ++j)
        if (!moved[static_cast<size_t>(j)])
            out.push_back(j);
    return out;
}

namespace {

/// "a, b and c" of the joints' names (at most `most`, then "and N more").
std::string jointList(const Skeleton& s, const std::vector<int>& joints, size_t most = 8)
{
    std::string out;
    const size_t shown = std::min(joints.size(), most);
    for (size_t k = 0; k < shown; ++k) {
        if (k > 0)
            out += k + 1 == shown && joints.size() <= most ? " and " : ", ";
        out += s.names[static_cast<size_t>(joints[k])];
    }
    if (joints.size() > most)
        out += " and " + std::to_string(joints.size() - most) + " more";
    return out;
}

/// "81 vertices", and where a piece lies when other rigid pieces share its
/// part's name ("piece 2 of 3 of the part, around (0.035, 0.669, -0.053)"):
/// BCN_Epileptic's two eyeballs, both of part 'Head' and 81 vertices, gave
/// the same line twice.
std::string rigidPieceText(const RigidPart& p, const std::vector<RigidPart>& all, const Mesh& mesh)
{
    std::string text = std::to_string(p.vertexCount) + " vertices";
    int pieces = 0, index = 0;
    for (const RigidPart& q : all)
        if (q.name == p.name) {
            ++pieces;
            index += q.part <= p.part ? 1 : 0;
        }
    if (pieces < 2 || p.vertices.empty())
        return text;
    Vec3 centre = Vec3::Zero();
    for (int i : p.vertices)
        centre += mesh.V.row(i).transpose();
    centre /= static_cast<double>(p.vertices.size());
    const double size = (mesh.V.colwise().maxCoeff() - mesh.V.colwise().minCoeff()).maxCoeff();
    for (int k = 0; k < 3; ++k) // no "-5e-08" for the midline
        if (std::abs(centre[k]) < 1e-4 * size)
            centre[k] = 0.0;
    char where[160];
    std::snprintf(where, sizeof where, ", piece %d of %d of the part, around (%.3g, %.3g, %.3g)", index, pieces,
                  centre.x(), centre.y(), centre.z());
    return text + where;
}

} // namespace

SkinningResult computeSkinning(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                               const WeightOptions& options, const Progress& progress,
                               const std::vector<bool>& deforming)
{
    checkWeightOptions(options);
    if (!deforming.empty() && deforming.size() != static_cast<size_t>(skeleton.jointCount()))
        throw InvalidInput("rig::computeSkinning(): the deforming joints name " + std::to_string(deforming.size()) +
                           " joints; the skeleton has " + std::to_string(skeleton.jointCount()));
    SkinningResult r;
    StageClock clock(r.timings);
    r.segmentation = segmentMesh(mesh, skeleton, solid, options.segmentation, progress);
    clock.lap("segment");
    WeightDiagnostics& d = r.diagnostics;
    const WeightMethod& method = findWeightMethod(options.method);
    WeightMethodResult w =
        method.compute(WeightMethodInput{mesh, skeleton, solid, r.segmentation, progress, deforming},
                       options.valuesOf(method.id));
    r.weights = std::move(w.weights);
    d.unreachedVertices = w.unreachedVertices;
    d.rigidParts = std::move(w.rigidParts);
    validateSkinWeights(r.weights, mesh.vertexCount(), skeleton.jointCount());
    // Separate pieces along one bone move with it alone (rigid_pieces.h).
    RigidPiecesResult pieces = bindRigidPieces(std::move(r.weights), mesh, skeleton.jointCount());
    r.weights = std::move(pieces.weights);
    d.rigidParts.insert(d.rigidParts.end(), std::make_move_iterator(pieces.parts.begin()),
                        std::make_move_iterator(pieces.parts.end()));
    clock.lap("weights");
    d.bleedingVertices = countBleedingVertices(r.weights, skeleton);
    if (mesh.vertexCount() > 0) {
        const Vec3 extent = (mesh.V.colwise().maxCoeff() - mesh.V.colwise().minCoeff()).transpose();
        d.farReach = farReachingJoints(r.weights, mesh.V, skeleton, extent.maxCoeff(), &d.farReachingVertices);
    }
    d.bonesWithoutVertices = bonesWithoutVertices(r.weights, skeleton.jointCount());
    if (!deforming.empty()) // joints that may get no weight are not news (a tag, an IK goal)
        std::erase_if(d.bonesWithoutVertices, [&](int j) { return !deforming[static_cast<size_t>(j)]; });

    if (d.unreachedVertices > 0)
        d.messages.push_back(std::to_string(d.unreachedVertices) + " vertices were reached by no bone and are bound "
                             "to their nearest joint; check for loose geometry or a joint outside the mesh");
    for (const RigidPart& p : d.rigidParts)
        d.messages.push_back("part '" + p.name + "' (" + rigidPieceText(p, d.rigidParts, mesh) +
                             ") is bound rigidly to " + skeleton.names[static_cast<size_t>(p.bone)] + ": " + p.reason);
    if (d.bleedingVertices > 0)
        d.messages.push_back(std::to_string(d.bleedingVertices) + " vertices carry weight (>= " +
                             std::to_string(WeightDiagnostics::bleedThreshold).substr(0, 4) +
                             ") from two different limbs; paint them or adjust the joints");
    for (const FarReach& f : d.farReach) {
        std::ostringstream s;
        s << skeleton.names[static_cast<size_t>(f.joint)] << " weights " << f.vertices
          << (f.vertices == 1 ? " vertex" : " vertices") << " far from its bone (more than "
          << static_cast<int>(std::lround(100.0 * WeightDiagnostics::farReachFraction))
          << "% of the character's size beyond their own bone, around " << jointList(skeleton, f.around)
          << "): they will be dragged by " << skeleton.names[static_cast<size_t>(f.joint)]
          << "; paint them or adjust the joints";
        d.messages.push_back(s.str());
    }
    if (!d.bonesWithoutVertices.empty()) {
        const size_t n = d.bonesWithoutVertices.size();
        d.messages.push_back(std::to_string(n) + (n == 1 ? " bone moves" : " bones move") + " no vertex (no weight of " +
                             std::to_string(WeightDiagnostics::bleedThreshold).substr(0, 4) + " or more): " +
                             jointList(skeleton, d.bonesWithoutVertices) + "; turning " + (n == 1 ? "it" : "them") +
                             " changes nothing (expected for end or attachment joints; otherwise move the joint into "
                             "the mesh or paint its weights)");
    }
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
