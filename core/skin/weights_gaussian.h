#pragma once
/// @file weights_gaussian.h
/// Segmentation-based skinning weights (thesis 001, §4.2–4.3, Alg. 4.2.1).
///
/// Each vertex's main influence joint m comes from the segmentation: the base
/// of its link, parents[c] for a vertex on link c (beyond the end of a leaf's
/// link the leaf c takes over through the distribution, see below). The
/// joints within `hierarchyLevel` levels of m get weights too (thesis: h = 1,
/// "the direct child and parent nodes", usually three influences): ancestors
/// of m up to h levels, and every child of m (Alg. 4.2.1 line 8, GetChlds)
/// with its descendants down to h levels below m. The link's own child c is
/// placed by the vertex's δ on its link; another child c' by the vertex's δ'
/// on the link m → c', so where links fan out of one joint (the chest into
/// the neck and the shoulders) both sides of their border agree, and a child
/// whose link leads away from the vertex (δ' ≈ 0, the other thigh) gets a
/// negligible weight, pruned below. A vertex the segmentation puts on a limb
/// (limbs.h: a leg, an arm, the head) takes no weight from the children of m
/// that head other limbs: a sibling link can lean towards the vertex's limb
/// (re_drone's upper arms rise 50° from the chest towards the head, and its
/// head took 0.13 of each upper arm; bench/notes/weights.md, stop 32), as bone heat
/// and geodesic voxel binding keep one limb's skin on that limb.
///
/// Distance function (thesis §4.3: δ): the vertex's δ on its link, eq. 3.1,
/// clamped to [0, 1] (unclamped above 1 beyond a leaf's end), carried along
/// the chain in link units: x = δ for m, x = δ + d for the ancestor d levels
/// up, x = δ − d for the joint d levels below m. So each joint's weight
/// peaks in the middle of its own link, and two joints meeting at a joint
/// agree from both sides of it.
///
/// Distribution function: the Gaussian of eq. 4.1, f(x) = a·exp(−(x − b)²/(2c²))
/// (thesis a = 1.3, b = 0.5, c = 0.25), or a linear or smoothstep tent of
/// half-width 4c around b; normalized per vertex (eq. 4.2); at most
/// `maxInfluences` kept, the smallest dropped and the rest renormalized
/// (`skinWeightsFromSparse()`).
///
/// Smoothing (our addition, not in the thesis): where two regions meet away
/// from a joint, and where the distribution is steep on a short link, the
/// weights can jump between neighbouring vertices. Over-relaxed Gauss-Seidel
/// sweeps average each vertex with its 1-ring, in the zone around the edges
/// whose ends differ by more than 0.05 in some weight, out to
/// `smoothingWidth` (2%) of the mesh's diagonal: g = width / mean edge
/// (not rounded), the zone g rings rounded (at least 1, at most
/// smoothingIterations/2), and g² sweeps (diffusion spreads a weight over
/// about √s edges in s sweeps; at most `smoothingIterations`), a fraction of
/// one sweep (its step scaled down) when the band is narrower than an edge.
/// A sweep visits the zone colour by colour of a greedy colouring of its
/// vertices in index order (no two neighbours share a colour: 4-6 colours),
/// so the vertices of one colour are independent and are split among the
/// threads, with the same weights on any number of them (multicolour SOR;
/// before stop 35 the sweep went in index order on one thread).
/// So the band has the same width in metres on a coarse and a dense mesh:
/// g = 0.8-1.4 on the devset's game characters (re_drone 0.66 of a sweep,
/// re_male 1.5 sweeps, Cesium Man 1.9), 4-5 rings and 16 sweeps on the
/// 22k-vertex generated one. (Before 2r² sweeps for r = round(g) rings: 2
/// sweeps on every game character, which smeared the coarsest, re_drone:
/// 2.7 influences per vertex where its artist uses 1.3, 0.90% of height mean
/// deformation error; now 2.1 and 0.7%, bench/notes/weights.md, issue 15.)
/// (Before, the band was up to 8 rings and 4% of the diagonal, rounded up,
/// with 16 sweeps whatever the mesh: on the devset's low-poly characters with
/// short links — fingers, twist joints — the zone covered most of the mesh,
/// the sweeps diffused every weight over it and the redirection below drained
/// it to the trunk: 3.4 influences of 0.05 or more per vertex where the
/// artists use 2.1, largest weight 0.55 where theirs is 0.79, head and
/// shoulders going to the chest, 1.2% of height mean deformation error on
/// re_male; bench/notes/weights.md, issue 15.)
/// A joint a vertex may not take (in another limb than its main joint, limbs.h)
/// hands its weight to its nearest ancestor the vertex may take (the hips
/// between the two thighs). So the rows keep summing
/// to 1, the jump becomes a ramp, and no weight crosses from one limb to
/// another (a left-thigh vertex never takes a right-leg joint).

#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

namespace rig {

/// The distribution function (thesis §4.3, "DtbF").
enum class WeightFunction {
    Gaussian,   ///< Thesis eq. 4.1: a·exp(−(x − b)²/(2c²)).
    Linear,     ///< Tent: a·max(0, 1 − |x − b|/(4c)).
    Smoothstep, ///< The tent through smoothstep t²(3 − 2t): flat at its peak and its feet.
};

struct GaussianWeightOptions {
    int hierarchyLevel = 1;                             ///< h of Alg. 4.2.1 (thesis: 1); 0 = rigid (main joint only).
    WeightFunction function = WeightFunction::Gaussian; ///< Thesis eq. 4.1.
    double a = 1.3;                                     ///< Peak height (thesis 1.3; cancels in eq. 4.2), > 0.
    double b = 0.5;                                     ///< Peak position along the link in δ units (thesis 0.5).
    double c = 0.25;                                    ///< Width (thesis 0.25), > 0.
    int maxInfluences = 4;                              ///< Kept per vertex (smallest dropped, renormalized), >= 1.
    /// Most sweeps of the smoothing (see the file comment); 0 = the thesis's
    /// weights as they are. Ignored for hierarchyLevel 0 (rigid). Default 16.
    int smoothingIterations = 16;
    /// Width of the smoothing band as a fraction of the mesh's bounding-box
    /// diagonal (see the file comment), [0, 1]. Default 0.02 (measured on the
    /// devset and the generated character, bench/notes/weights.md, issue 15).
    double smoothingWidth = 0.02;
    /// Weights below this fraction of the vertex's largest are dropped before
    /// the top-k limit (a Gaussian is never exactly 0; 1% is the usual prune
    /// threshold of animation packages). Default 0.01.
    double minRelativeWeight = 0.01;
    /// Threads of the smoothing sweeps (0: hardware concurrency). The weights
    /// do not depend on it (see the file comment). Not a method parameter.
    int threads = 0;
};

/// Weights of thesis Alg. 4.2.1 for `mesh` bound to `skeleton` with the
/// segmentation `seg` (see the file comment).
///
/// @param mesh #V vertices; F (for the smoothing) may be empty.
/// @param skeleton the rig the segmentation was made for (>= 2 joints).
/// @param seg #V links and δ (from `segmentMesh()`); -1 entries are not allowed
///   (run a segmentation that covers every vertex); bone 0 (the root's own
///   region) gives the root weight 1.
/// @returns #V rows of at most `maxInfluences` influences, non-negative,
///   summing to 1.
/// @throws rig::InvalidInput for an empty mesh, non-finite vertices, an invalid
///   skeleton, a segmentation of the wrong size or with -1 / out-of-range
///   entries, or bad options (a, c not positive and finite, hierarchyLevel or
///   smoothingIterations negative, maxInfluences < 1).
SkinWeights segmentationWeights(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg,
                                const GaussianWeightOptions& options = {});

} // namespace rig
