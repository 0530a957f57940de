#pragma once
/// @file weights_geodesic_voxel.h
/// Geodesic voxel binding (Dionne & de Lasa, "Geodesic Voxel Binding for
/// Production Character Meshes", SCA 2013; seed 003): the weight of a joint at
/// a vertex falls off with the distance from the joint's bones to the vertex
/// measured *through the solid voxels* of the mesh, so a thigh vertex is far
/// from the other thigh even when they touch in space, and holes, non-manifold
/// edges, intersecting and separate parts do not matter (only the voxels do).
///
/// Steps:
///  1. A solid voxelization of the mesh at its own resolution
///     (`resolution` voxels on the longest axis): `voxelizeSurface()` then
///     `fillInterior()` with the robust inside test (core/voxel). A solid of
///     more than `maxSolidVoxels` voxels (a bulky character: a round body
///     fills its box) is voxelized again, coarser, to fit in that budget: the
///     sweeps cost about k + 1 times the solid's voxels (and memory per joint
///     and voxel), and at a fixed 128 voxels on the longest axis rignet-val's
///     solids reach 918k voxels at a few hundred vertices, while a human of
///     any vertex count fills 24k (bench/notes/weights.md, issue 46).
///  2. Bones rasterized into the grid. A joint owns its child links (as in
///     weights_heat.h); a leaf joint a continuation of its parent link by
///     `leafBoneLength`. The solid voxels its bones cross are the seeds (at the
///     distance of their centre to the bone). A joint whose bones cross no
///     solid voxel (a bone outside the mesh) is seeded at the solid voxels
///     nearest its bones, at their Euclidean distance.
///  3. One sweep per joint (paper Alg. 1: a shortest-path search over the
///     26-neighbourhood of the non-exterior voxels with Euclidean step
///     lengths). The plain 26-neighbour metric overestimates oblique
///     distances by up to 8 %; each voxel therefore also keeps the point its
///     path last turned at (an "anchor": the bone, or a voxel), and a
///     neighbour takes the straight line from that anchor; the line is checked
///     to stay in the solid (sampled every half voxel) when the voxel is
///     expanded, else the voxel falls back to its best expanded neighbour
///     (Lazy Theta*, Nash, Koenig & Tovey 2010). This makes the distances
///     Euclidean wherever the solid is locally straight. The line-of-sight
///     test skips the samples within a sample's clearance (its chessboard
///     distance to the outside, less one voxel): the same answer in a few
///     samples across a thick solid.
///  4. The distance of vertex i to joint j is, as in the paper,
///       d_j^i = (d_{voxel} + |p_vertex − p_voxel|) / D
///     with the vertex's voxel (the nearest solid voxel when its own is empty)
///     and D the longest extent of the mesh's bounding box (our choice of the
///     normalization the paper leaves to the implementation), and the weight
///       ω_j^i = ( 1 / ((1 − α) d_j^i + α (d_j^i)²) )^λ      (paper, eq. 7)
///     with α = `alpha` the falloff bias and λ = `falloff` the exponent.
///  5. With `separateLimbs`, weights of joints of another limb than the
///     vertex's largest weight's are dropped. Each vertex keeps its
///     `maxInfluences` largest weights with a
///     continuous limit (the (k+1)-th largest normalized weight is subtracted
///     from the kept ones, so a weight reaches 0 exactly when it leaves the
///     top k), then the row is normalized (skin_weights.h).
///
/// Parts. A connected part of the mesh whose voxels no bone's sweep reaches
/// (a prop or an eyeball floating apart from the body in the voxel grid) is
/// bound rigidly to the joint whose bones pass nearest to it, and reported in
/// `GeodesicVoxelResult::rigidParts`. Parts the sweeps reach (clothing over
/// the body, eyes in their sockets: the fill makes enclosed cavities solid)
/// keep their geodesic weights, so a jacket shell still bends with the arm.
///
/// Early termination. Only a vertex's k + 1 nearest joints enter its weights
/// (step 5). All joints' searches advance together in one queue, nearest
/// first; every solid voxel keeps the k + 1 smallest distances of the joints
/// expanded there so far, and a joint that reaches a voxel farther than that
/// does not expand it: by the triangle inequality the joint is then beyond
/// k + 1 others at every voxel its path would continue to. So each voxel is
/// expanded for about its k + 1 nearest joints (`expandedVoxels`), whatever
/// the number of joints (bench/notes/weights.md, issues 15 and 46: searched
/// one joint after another, the first k + 1 joints covered the whole solid
/// and the generated character cost 11 times its solid; now about 5). A
/// joint's distance beyond its expanded voxels is the tentative one of its
/// search, or +infinity. Without early termination the joints are searched
/// one by one, in parallel.
///
/// Complexity: voxelization O(#F · voxels per triangle); a Dijkstra search
/// over about (k + 1) S (joint, voxel) pairs of the S solid voxels with a
/// bucket queue (Dial 1969; buckets of 1/8 voxel: O(S + L/w) for paths up to
/// L long, no log S) plus the line-of-sight test of each expanded voxel;
/// memory 9 bytes per (joint, solid voxel); O(#V · #J) for the weights.

#include "core/common/progress.h"
#include "core/common/types.h"
#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"
#include "core/voxel/voxel_grid.h"

#include <cstdint>
#include <vector>

namespace rig {

struct GeodesicVoxelOptions {
    /// Voxels along the longest axis of the mesh's bounding box (the paper
    /// and Maya use 256; 128 keeps one core under a second on a 22k-vertex
    /// character, see bench/notes/weights.md). [16, 1024].
    int resolution = 128;
    /// Largest solid, in voxels: a solid at `resolution` with more is
    /// voxelized again at the finest coarser resolution that holds no more
    /// (step 1). 100,000 leaves 189 of the 270 rignet-val characters and the
    /// generated humanoid at `resolution` and bounds the others' sweeps; over
    /// the 270, F1 74.3 → 74.2 and mean deformation error 1.069 → 1.074 % of
    /// the longest side (40,000: 73.9, 1.118 %; bench/notes/weights.md,
    /// issue 46). 0: no budget. [0, 1e9].
    int maxSolidVoxels = 100000;
    /// λ: the falloff exponent of eq. 7 (the paper's figure: 2). Larger: each
    /// vertex follows its nearest bone more rigidly. 12 measured best on the
    /// devset with leaf bones to the skin (bench/notes/weights.md, stop 31: mean
    /// deformation error over the five characters 0.460 % of height at 4,
    /// 0.365 at 8, 0.344 at 12, 0.340 at 16; the worst max, 8.5 / 11.6 / 12.8
    /// / 13.2 %, grows with it and stays within the 15 % the default method is
    /// held to; re_female's mean is lowest at 12). (0, 16].
    double falloff = 12.0;
    /// α: the falloff bias of eq. 7 between the distance (0) and its square (1). [0, 1].
    double alpha = 0.2;
    /// k: influences kept per vertex (continuous limit, see the file comment). [1, 8].
    int maxInfluences = 4;
    /// Length of a leaf joint's bone, as a fraction of its parent link. [0, 2].
    double leafBoneLength = 0.5;
    /// Lengthen each leaf bone that ends a chain (a head, a fingertip, a toe:
    /// its parent's only child) to the skin nearest to it: to the 90th
    /// percentile of how far the vertices whose nearest bone it is (Euclidean,
    /// all bones) reach along it. A head joint at the base of the skull, a
    /// leaf whose bone is half of a short neck link, otherwise shares the
    /// whole head with the neck's bone (equally near through the solid above
    /// the joint): Cesium Man's head. Measured by the skin, not by the solid,
    /// so a fingertip resting on a thigh does not run into it. Leaves among
    /// siblings (a weapon or prop tag beside the fingers, a face's joints)
    /// mark points, not the ends of limbs, and keep `leafBoneLength`.
    bool leafBonesToSkin = true;
    /// Drop, at each vertex whose largest weight is on a limb (limbs.h: a leg,
    /// an arm, the head), the weights of joints of other limbs before the top-k
    /// limit: through the solid the other thigh's bone is close to an inner
    /// thigh across the pelvis (on the generated character 14-28 leg vertices
    /// per pose took 5-11% from the other thigh). As bone heat's option of
    /// the same name (without its rule for trunk vertices, which cost 0.03%
    /// of height on re_male and was not needed here); off: the paper's
    /// weights as they are. Costs 0.02-0.10% of height mean deformation
    /// error on the devset players and Cesium Man, where the artists blend
    /// the neck and the shoulders (bench/notes/weights.md, issue 15).
    bool separateLimbs = true;
    /// Worker threads (the leaf bones' reach; the sweeps without early
    /// termination); 0 = hardware concurrency.
    int threads = 0;
    /// Early termination of the sweeps (see the file comment); off: every
    /// joint's search covers the whole solid (the reference the tests compare with).
    bool earlyTermination = true;
    /// #J joints that may get weight (empty: all); the others have no bones
    /// and no sweep (`boneSegments()` of bone_segments.h). Not a method
    /// parameter: the skinning stage passes the user's --deform-joints.
    std::vector<bool> deforming{};
};

struct GeodesicVoxelResult {
    SkinWeights weights;               ///< #V influence lists over the skeleton's #J joints.
    std::vector<RigidPart> rigidParts; ///< Parts no sweep reached, bound rigidly (see the file comment).
    int unreachedVertices = 0;         ///< Vertices of those parts.
    VoxelGrid solid;                   ///< The solid the distances were measured in.
    /// (joint, solid voxel) pairs the sweeps expanded, over all joints: the
    /// cost of step 3. With early termination about (k + 1) × the solid's voxels.
    std::int64_t expandedVoxels = 0;
};

/// One segment source of `voxelGeodesicDistances()`.
struct VoxelSegment {
    Vec3 a = Vec3::Zero();
    Vec3 b = Vec3::Zero(); ///< b == a: a point.
};

/// Geodesic distances (world units) through the solid voxels of `solid` from
/// the union of `sources` to the centre of every voxel: step 3 of the file
/// comment. Returns `solid.voxelCount()` values, +infinity for empty voxels
/// and solid voxels no path reaches.
/// @throws rig::InvalidInput for an empty grid, no source, or a non-finite source.
std::vector<float> voxelGeodesicDistances(const VoxelGrid& solid, const std::vector<VoxelSegment>& sources);

/// Computes geodesic voxel binding weights of `mesh` for `skeleton` (see the
/// file comment). With `segmentation` (the skinning stage's) and
/// `separateLimbs`, a vertex the segmentation puts on a limb keeps only the
/// weights of that limb and the trunk.
/// Expects: a mesh with triangles and finite vertices; a valid skeleton.
/// @throws rig::InvalidInput (naming `rig::geodesicVoxelWeights()`) for an
///         empty mesh, non-finite vertices, out-of-range indices, an invalid
///         skeleton or options out of range.
/// @throws rig::Cancelled when `progress` asks to stop.
/// Progress: steps "geodesic voxel: voxelize" and "geodesic voxel: distances".
GeodesicVoxelResult geodesicVoxelWeights(const Mesh& mesh, const Skeleton& skeleton,
                                         const GeodesicVoxelOptions& options = {}, const Progress& progress = {},
                                         const Segmentation* segmentation = nullptr);

} // namespace rig
