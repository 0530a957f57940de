#include "core/skin/rigid_pieces.h"

#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace rig {
namespace {

/// Each piece's vertices, by component.
std::vector<std::vector<int>> piecesOf(const Mesh& mesh)
{
    int count = 0;
    const std::vector<int> component = vertexComponents(mesh.vertexCount(), mesh.F, count);
    std::vector<std::vector<int>> pieces(static_cast<size_t>(count));
    for (int v = 0; v < mesh.vertexCount(); ++v)
        pieces[static_cast<size_t>(component[static_cast<size_t>(v)])].push_back(v);
    return pieces;
}

/// The joint with the largest total weight over `vertices`, and its share.
std::pair<int, double> dominantJoint(const SkinWeights& w, const std::vector<int>& vertices, int jointCount)
{
    std::vector<double> total(static_cast<size_t>(jointCount), 0.0);
    double sum = 0.0;
    for (int v : vertices)
        for (int k = 0; k < w.maxInfluences; ++k) {
            total[static_cast<size_t>(w.joints(v, k))] += w.weights(v, k);
            sum += w.weights(v, k);
        }
    const auto best = std::max_element(total.begin(), total.end());
    return {static_cast<int>(best - total.begin()), sum > 0.0 ? *best / sum : 0.0};
}

} // namespace

RigidPiecesResult bindRigidPieces(SkinWeights weights, const Mesh& mesh, int jointCount,
                                  const RigidPieceOptions& options)
{
    if (!(options.minShare > 0.0 && options.minShare <= 1.0))
        throw InvalidInput("rig::bindRigidPieces(): the share must be in (0, 1], got " +
                           std::to_string(options.minShare));
    RigidPiecesResult r;
    const std::vector<std::vector<int>> pieces = options.enabled && jointCount > 0 ? piecesOf(mesh)
                                                                                    : std::vector<std::vector<int>>{};
    // The body: a piece of at least half the vertices keeps the method's weights.
    size_t body = pieces.size();
    for (size_t c = 0; c < pieces.size(); ++c)
        if (2 * static_cast<int>(pieces[c].size()) >= mesh.vertexCount())
            body = c;
    for (size_t c = 0; c < pieces.size(); ++c) {
        if (c == body || pieces[c].empty())
            continue;
        const auto [joint, share] = dominantJoint(weights, pieces[c], jointCount);
        if (share < options.minShare || share >= 1.0 - 1e-6) // already rigid: nothing to say
            continue;
        for (int v : pieces[c]) {
            weights.joints.row(v).setZero();
            weights.weights.row(v).setZero();
            weights.joints(v, 0) = joint;
            weights.weights(v, 0) = 1.0f;
        }
        RigidPart part;
        part.part = static_cast<int>(c);
        part.name = pieceName(mesh, pieces[c], static_cast<int>(c));
        part.bone = joint;
        part.vertexCount = static_cast<int>(pieces[c].size());
        part.reason = "lies along one bone (" + std::to_string(static_cast<int>(std::lround(100.0 * share))) +
                      "% of its weight)";
        part.vertices = pieces[c];
        r.parts.push_back(std::move(part));
    }
    r.weights = std::move(weights);
    return r;
}

} // namespace rig
