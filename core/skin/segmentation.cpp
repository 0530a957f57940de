#include "core/skin/segmentation.h"

#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/skin/segmentation_regions.h"
#include "core/skin/segmentation_rig.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace rig {
namespace {

using namespace segmenting;

const std::string kFn = "rig::segmentMesh(): ";

/// Thesis Alg. 3.2.1 for one vertex.
Assign nearestLinkAssign(const Rig& rig, const Vec3& p)
{
    int bestJoint = 0;
    double dJ = kInf;
    for (int j = 0; j < rig.s.jointCount(); ++j) {
        const double d = (p - rig.joint(j)).norm();
        if (d < dJ) {
            dJ = d;
            bestJoint = j;
        }
    }
    Assign bestLink;
    double dL = kInf;
    for (int c : rig.usable) {
        const LinkHit h = hitLink(rig.link(c), p);
        if (h.raw > 0.0 && h.raw < 1.0 && h.dist < dL) {
            dL = h.dist;
            bestLink = {c, h.delta};
        }
    }
    return bestLink.bone >= 0 && dL < dJ ? bestLink : rig.fromJoint(bestJoint, p);
}

/// Thesis Alg. 3.2.2 for one vertex, without the post-process: lists dL1/dL3
/// (joints with / without a solid line) and dL2/dL4 (links whose region holds
/// the vertex, with / without), sorted by distance; only the heads matter, so
/// each list is scanned in distance order until its first visible element.
Assign lineOfSightAssign(const Rig& rig, const Visibility& vis, const Vec3& p, std::vector<std::pair<double, int>>& tmp)
{
    // Joints.
    tmp.clear();
    for (int j = 0; j < rig.s.jointCount(); ++j)
        tmp.emplace_back((p - rig.joint(j)).norm(), j);
    std::sort(tmp.begin(), tmp.end());
    int visJoint = -1;
    double dVisJoint = kInf;
    for (const auto& [d, j] : tmp)
        if (vis.visible(p, rig.joint(j))) {
            visJoint = j;
            dVisJoint = d;
            break;
        }
    const int anyJoint = tmp.front().second;
    const double dAnyJoint = tmp.front().first;
    // Links.
    tmp.clear();
    for (int c : rig.usable) {
        const LinkHit h = hitLink(rig.link(c), p);
        if (h.raw > 0.0 && h.raw < 1.0)
            tmp.emplace_back(h.dist, c);
    }
    std::sort(tmp.begin(), tmp.end());
    Assign visLink, anyLink;
    double dVisLink = kInf, dAnyLink = kInf;
    if (!tmp.empty()) {
        anyLink = {tmp.front().second, hitLink(rig.link(tmp.front().second), p).delta};
        dAnyLink = tmp.front().first;
    }
    for (const auto& [d, c] : tmp) {
        const LinkHit h = hitLink(rig.link(c), p);
        if (vis.visible(p, h.nearest)) {
            visLink = {c, h.delta};
            dVisLink = d;
            break;
        }
    }
    if (visLink.bone >= 0)
        return visJoint >= 0 && dVisJoint <= dVisLink ? rig.fromJoint(visJoint, p) : visLink;
    if (visJoint >= 0)
        return rig.fromJoint(visJoint, p);
    // dL3 / dL4: nothing visible (a joint outside the mesh, a hollow part).
    return anyLink.bone >= 0 && dAnyLink < dAnyJoint ? anyLink : rig.fromJoint(anyJoint, p);
}

/// Thesis `PostProcAssg(Vtx, hLevel)`: the links up to `level` levels above and
/// below the assigned one; the vertex moves to the nearest when it is nearer.
Assign postProcess(const Rig& rig, const Vec3& p, Assign cur, int level)
{
    if (level <= 0 || cur.bone <= 0)
        return cur;
    double best = hitLink(rig.link(cur.bone), p).dist;
    Assign out = cur;
    auto consider = [&](int c) {
        if (c <= 0 || rig.link(c).degenerate())
            return;
        const LinkHit h = hitLink(rig.link(c), p);
        if (h.dist < best) {
            best = h.dist;
            out = {c, h.delta};
        }
    };
    int up = cur.bone;
    for (int l = 0; l < level && up > 0; ++l) {
        up = rig.s.parents[static_cast<size_t>(up)];
        consider(up);
    }
    std::vector<int> frontier{cur.bone}, next;
    for (int l = 0; l < level && !frontier.empty(); ++l) {
        next.clear();
        for (int c : frontier)
            for (int ch : rig.children[static_cast<size_t>(c)]) {
                consider(ch);
                next.push_back(ch);
            }
        std::swap(frontier, next);
    }
    return out;
}

void checkInput(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid, const SegmentationOptions& o)
{
    if (mesh.V.rows() == 0)
        throw InvalidInput(kFn + "the mesh has no vertices; import or generate a character first");
    if (!mesh.V.allFinite())
        throw InvalidInput(kFn + "the mesh has NaN or infinite vertex coordinates; repair the mesh");
    if (mesh.F.rows() > 0 && (mesh.F.minCoeff() < 0 || mesh.F.maxCoeff() >= mesh.V.rows()))
        throw InvalidInput(kFn + "a triangle refers to a vertex outside [0, " + std::to_string(mesh.V.rows()) + ")");
    validateSkeleton(skeleton);
    if (skeleton.jointCount() < 2)
        throw InvalidInput(kFn + "the skeleton has " + std::to_string(skeleton.jointCount()) +
                           " joint; segmentation needs at least one link (2 joints)");
    if (o.hierarchyLevel < 0)
        throw InvalidInput(kFn + "hierarchyLevel must be >= 0, got " + std::to_string(o.hierarchyLevel));
    if (!(o.maxNormalAngleDegrees >= 0.0 && o.maxNormalAngleDegrees <= 180.0))
        throw InvalidInput(kFn + "maxNormalAngleDegrees must lie in [0, 180], got " + std::to_string(o.maxNormalAngleDegrees));
    if (!(o.rigidPartSize >= 0.0 && o.rigidPartSize <= 1.0))
        throw InvalidInput(kFn + "rigidPartSize must lie in [0, 1], got " + std::to_string(o.rigidPartSize));
    if (!std::isfinite(o.maxCandidateDistanceRatio))
        throw InvalidInput(kFn + "maxCandidateDistanceRatio must be finite (0 or less turns it off), got " +
                           std::to_string(o.maxCandidateDistanceRatio));
    if (o.method == SegmentationMethod::LineOfSight && (solid == nullptr || solid->empty()))
        throw InvalidInput(kFn + "the line-of-sight method (thesis 3.2.2) needs the voxel solid of the mesh; "
                                 "extract the curve skeleton first or choose another method");
    if (solid != nullptr && !solid->empty() &&
        (static_cast<std::int64_t>(solid->states.size()) != solid->voxelCount() || !(solid->voxelSize > 0.0)))
        throw InvalidInput(kFn + "the voxel solid is inconsistent (states do not match dims, or voxel size <= 0)");
}

/// Alg. 3.2.1 (nearest link) or 3.2.2 (line of sight through the solid, then
/// the hLevel post-process) for every vertex, or for those of `only`:
/// independent vertices, in parallel.
void assignPerVertex(const Mesh& mesh, const Rig& rig, const Visibility& vis, const std::vector<int>* only,
                     bool lineOfSight, int level, int threads, Segmentation& seg)
{
    const std::ptrdiff_t count = only ? static_cast<std::ptrdiff_t>(only->size()) : mesh.vertexCount();
    parallelFor(count, threads, 2048, [&](std::ptrdiff_t begin, std::ptrdiff_t end) {
        std::vector<std::pair<double, int>> tmp;
        for (std::ptrdiff_t k = begin; k < end; ++k) {
            const int i = only ? (*only)[static_cast<size_t>(k)] : static_cast<int>(k);
            const Vec3 p = mesh.V.row(i).transpose();
            Assign a = lineOfSight ? lineOfSightAssign(rig, vis, p, tmp) : nearestLinkAssign(rig, p);
            if (lineOfSight)
                a = postProcess(rig, p, a, level);
            seg.bone[static_cast<size_t>(i)] = a.bone;
            seg.delta[static_cast<size_t>(i)] = a.delta;
        }
    });
}

} // namespace

Segmentation segmentMesh(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                         const SegmentationOptions& options, const Progress& progress)
{
    checkInput(mesh, skeleton, solid, options);
    const int n = mesh.vertexCount();
    const Rig rig(skeleton);
    const bool haveSolid = solid != nullptr && !solid->empty();
    static const VoxelGrid noSolid;
    const Visibility vis(haveSolid ? *solid : noSolid);
    Segmentation seg;
    seg.bone.assign(static_cast<size_t>(n), -1);
    seg.delta.assign(static_cast<size_t>(n), 0.0);
    progress.update("segment", 0.0);
    switch (options.method) {
    case SegmentationMethod::NearestLink:
        assignPerVertex(mesh, rig, vis, nullptr, false, 0, options.threads, seg);
        break;
    case SegmentationMethod::LineOfSight:
        assignPerVertex(mesh, rig, vis, nullptr, true, options.hierarchyLevel, options.threads, seg);
        break;
    case SegmentationMethod::RegionGrow:
        regionGrowSegmentation(mesh, rig, options, progress, [&](const std::vector<int>& unreached) {
            assignPerVertex(mesh, rig, vis, &unreached, haveSolid, 0, options.threads, seg);
        }, seg);
        break;
    }
    progress.update("segment", 1.0);
    return seg;
}

} // namespace rig
