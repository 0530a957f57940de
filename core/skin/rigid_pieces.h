#pragma once
/// @file rigid_pieces.h
/// Separate pieces that move with one bone (issue 42, "rigid parts stay
/// rigid"). Game characters are often built of separate connected pieces: a
/// helmet, armour plates, shoes, the boxes of a blocky figure. A weight method
/// that blends by distance or diffuses over the surface lets the neighbouring
/// bones pull at such a piece, which then bends or stretches where its artist
/// meant it to stay rigid (on rignet-val 64 % of the pieces other than the
/// body are bound to a single joint by their artists).
///
/// After the method: every connected piece of the mesh whose weights give one
/// joint at least `minShare` of the piece's total weight lies along that
/// joint's bone and is bound to it alone (weight 1). A piece across a joint
/// splits its weight between the two bones and keeps the method's weights.
/// The body (a piece of at least half the vertices) always keeps them, even
/// on a skeleton of one bone. Measured with the Gaussian weights on
/// rignet-val (270 characters, 4,007 pieces besides each one's largest), the
/// largest left out: binding at a share of 0.5 / 0.6 / 0.7 / 0.8 moved L1
/// 0.596 to 0.568 / 0.566 / 0.572 / 0.581 and F1 72.8 to 73.8 / 74.0 / 73.8 /
/// 73.5; binding every such piece (share 0) lost recall (87.5 to 73.3 %): an
/// arm modelled apart spans the elbow. The largest piece included at 0.6
/// unless it holds half the vertices (a blocky figure's torso, a head bigger
/// than the body): L1 0.556, F1 74.5 (bench/notes/weights.md).

#include "core/mesh/mesh.h"
#include "core/skin/skin_weights.h"

#include <vector>

namespace rig {

struct RigidPieceOptions {
    bool enabled = true;  ///< Off: the method's weights as they are.
    double minShare = 0.6; ///< Of the piece's total weight on its dominant joint, in (0, 1].
};

struct RigidPiecesResult {
    SkinWeights weights;          ///< The weights with the bound pieces at weight 1 on their joint.
    std::vector<RigidPart> parts; ///< The pieces bound (reason "lies along one bone (N % of its weight)").
};

/// Binds the pieces of `mesh` that lie along one bone (see the file comment).
/// Expects `weights` valid for `mesh` (the same vertices).
/// @throws rig::InvalidInput for a share outside (0, 1].
RigidPiecesResult bindRigidPieces(SkinWeights weights, const Mesh& mesh, int jointCount,
                                  const RigidPieceOptions& options = {});

} // namespace rig
