#pragma once
/// @file weights_heat.h
/// Bone-heat skinning weights (Baran & Popović 2007, "Automatic Rigging and
/// Animation of 3D Characters", the Pinocchio method; seed 003 "Equation de la
/// chaleur"): the weight of bone j is the equilibrium temperature of the mesh
/// surface when bone j is held at 1 and every other bone at 0,
///
///   −Δ w_j + H w_j = H p_j                                   (seed 003)
///
/// with Δ the cotangent Laplacian of the surface (core/mesh/laplacian.h),
/// H diagonal with H_ii = c / d_i² (d_i the distance from vertex i to the
/// nearest bone *visible* from it, 0 when no bone is visible), and p_ij = 1
/// when bone j is that nearest visible bone (shared evenly among bones within
/// 0.01 % of the same distance, as Pinocchio does). Multiplying by the vertex
/// areas A (Δ = A⁻¹ L) gives the symmetric positive definite system
///
///   (−L + A H) w_j = A H p_j,
///
/// factorized once per connected part with Eigen's SimplicialLDLT and solved
/// for all bones heating the part at once (one forward and one backward
/// substitution over a #part-vertices by #bones block). Because Σ_j p_j = 1 wherever H_ii > 0, the weights of a part sum
/// to 1 without normalization; tiny values are clamped, then each vertex keeps
/// its `maxInfluences` largest weights, renormalized (skin_weights.h).
///
/// Bones. A bone is owned by the joint whose transform moves it: link
/// (parents[c], c) belongs to joint parents[c] (the thesis's "main joint, the
/// base of a segment", Alg. 4.2.1), so a joint with several children (hips,
/// chest) owns all their links. A leaf joint (head, hand, toe of a skeleton
/// without end sites) owns a segment continuing its parent link beyond it by
/// `leafBoneLength` of that link: the vertices past the joint are nearer to
/// it than to the parent link, so the head follows the Head joint. With
/// `leafBonesToSkin` a leaf that ends a chain reaches on to the skin nearest
/// to it (bone_segments.h): a head joint at the base of the skull on a short
/// neck link otherwise heats the head from a 2.6 cm stub (Cesium Man; mean
/// deformation error 0.232 -> 0.186 % of height, re_male 0.439 -> 0.375,
/// re_female 0.419 -> 0.374, bench/notes/weights.md, stop 31).
///
/// Visibility. A bone is visible from vertex i when the segment from the
/// vertex to the bone's nearest point stays inside the voxel solid (thesis
/// §2.1, `CurveSkeletonResult::solid`): it is sampled every half voxel and
/// every sample farther than `visibilityTolerance` voxels from the vertex must
/// fall in a Surface or Interior voxel. Pinocchio tests the same segment
/// against the triangles; the voxel test is cheaper and tolerates holes the
/// fill bridged. Without a solid (nullptr) every bone counts as visible.
///
/// Disconnected parts. Each connected component of the triangles (an eyeball,
/// teeth, a prop, a hair card) is its own system. A part with no visible bone
/// (the Laplacian alone is singular), with fewer than `minPartVertices`
/// vertices or no area (nothing to solve), or smaller than `smallPartSize` of
/// the mesh height (eyes, teeth: they should move rigidly) is bound rigidly to
/// one bone (the one most of its vertices see as nearest, else the one nearest
/// its centroid) and reported in `HeatWeightsResult::rigidParts` - Blender
/// warns once and leaves such parts unweighted; we bind and report them.
/// Vertices of solved parts whose heat is (numerically) zero for every bone
/// are bound to their nearest bone and counted in `unreachedVertices`.
///
/// One departure from Pinocchio, on by default (`separateLimbs`): weights that
/// diffused from one limb into another are dropped (see the option).
///
/// Complexity: O(#V · #J) distances, visibility marches of O(d / voxel) steps,
/// one sparse factorization per part (minimum-degree order; it dominates on
/// large meshes, its cost growing faster than #V) and two passes over its factor
/// updating #J values per entry.

#include "core/common/progress.h"
#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"
#include "core/voxel/voxel_grid.h"

#include <string>
#include <vector>

namespace rig {

struct HeatWeightOptions {
    /// The heat constant c of H_ii = c / d_i². Pinocchio uses 1.0 (its
    /// attachment code; the slides of seed 003 quote 0.22 for the paper's
    /// scaled meshes). Larger c makes weights follow the nearest bone more
    /// rigidly, smaller c smooths them. > 0.
    double heatConstant = 1.0;
    /// Samples of a vertex-to-bone segment nearer than this many voxels to the
    /// vertex are not tested (the vertex's own surface voxel and its
    /// neighbours; a vertex can lie just outside the voxels of its triangle).
    double visibilityTolerance = 1.5;
    /// Length of the bone of a leaf joint, as a fraction of its parent link.
    /// Only H's magnitude depends on it (see the file comment). >= 0.
    double leafBoneLength = 0.5;
    /// Lengthen the bone of a leaf that ends a chain (head, fingertip, toe) to
    /// the skin nearest to it (`leafBonesToSkin()` of bone_segments.h).
    bool leafBonesToSkin = true;
    /// Weights below this are set to 0 before the influences are limited. [0, 0.5).
    double minWeight = 1e-4;
    /// Drop, at each vertex whose largest weight is on a limb (limbs.h: a leg,
    /// an arm, the head), the weights of joints of other limbs: the heat that
    /// diffused across the crotch or the armpit (Pinocchio keeps it, and a left
    /// inner thigh then follows the right leg by a few percent). A vertex whose
    /// largest weight is on the trunk keeps the weights of one limb only, the
    /// one with the largest weight there (the generated character sitting:
    /// 40 right-buttock vertices took 5.6% from the left thigh). The dropped
    /// weights are small where the surfaces meet, so the cut is a crease of a
    /// few percent. Given the segmentation (`boneHeatWeights()`), a vertex it
    /// puts on a limb is also heated only by the bones of that limb and the
    /// trunk: BCN_Epileptic's left hand rests on its thigh, whose skin had the
    /// fingers as its nearest visible bones and followed the hand (61 % of
    /// the height at worst, now 9.4 %). Off: the plain solution.
    bool separateLimbs = true;
    /// k: influences kept per vertex (the largest, renormalized). >= 1.
    int maxInfluences = 4;
    /// Parts (connected components) with fewer vertices are bound rigidly. >= 1.
    int minPartVertices = 4;
    /// Parts whose bounding-box diagonal is below this fraction of the mesh's
    /// height (its bounding box along +Y) are bound rigidly (eyes, teeth);
    /// 0 disables the rule. [0, 1).
    double smallPartSize = 0.03;
    /// Worker threads of the visibility search (the factorization and the
    /// substitutions run on the calling thread); 0 = hardware concurrency.
    int threads = 0;
    /// #J joints that may get weight (empty: all); the others have no bones
    /// (`boneSegments()` of bone_segments.h). Not a method parameter:
    /// the skinning stage passes the user's --deform-joints.
    std::vector<bool> deforming{};
};

struct HeatWeightsResult {
    SkinWeights weights;              ///< #V influence lists over the skeleton's #J joints.
    std::vector<RigidPart> rigidParts;///< Parts bound rigidly (see the file comment), in component order.
    /// Vertices of solved parts that no heat reached (bound to their nearest bone).
    int unreachedVertices = 0;
};

/// Computes bone-heat weights of `mesh` for `skeleton` (see the file comment).
/// @param solid the filled voxel solid of the mesh (`CurveSkeletonResult::solid`)
///        for the visibility test, or nullptr (every bone visible).
/// Expects: a mesh with triangles and finite vertices; a valid skeleton.
/// @throws rig::InvalidInput (naming `rig::boneHeatWeights()`) for an empty
///         mesh, non-finite vertices, out-of-range triangle indices, an invalid
///         skeleton, an empty solid grid, or options out of range.
/// @throws rig::Cancelled when `progress` asks to stop.
/// Progress: steps "heat: visibility" and "heat: solve", each from 0 to 1.
/// @param segmentation the skinning stage's (may be null): see `separateLimbs`.
HeatWeightsResult boneHeatWeights(const Mesh& mesh, const Skeleton& skeleton, const VoxelGrid* solid,
                                  const HeatWeightOptions& options = {}, const Progress& progress = {},
                                  const Segmentation* segmentation = nullptr);

} // namespace rig
