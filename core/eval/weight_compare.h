#pragma once
/// @file weight_compare.h
/// Compares computed skinning weights with reference weights (an artist's, as
/// stored in a rigged file: `ImportedSkeleton::W`) on the same skeleton:
///
///  - mean L1 difference per vertex, (1/#V) Σ_i Σ_j |w_ij − r_ij| ∈ [0, 2];
///  - skinning precision and recall over (vertex, joint) pairs, a joint
///    counting as influencing a vertex at weight >= `influenceThreshold`
///    (0.05, less 1e-6 for float round-off): precision = |W ∩ R| / |W|,
///    recall = |W ∩ R| / |R|;
///  - the mean and maximum distance between the two deformed meshes, in % of
///    the character's height, the extent of the rest mesh along `up` (+Y, the
///    frame import brings every file to; not the largest side of the box,
///    which for a wide arm span or a long tail understates the error),
///    deforming both with linear blend skinning (thesis eq. 4.3,
///    Σ_j w_ij · S_j · v_i) over the given frames, or, when there are none,
///    over `randomPoses` poses in which every joint turns by up to
///    ±`randomPoseDegrees` about a random axis of its bind frame (fixed seed:
///    the same poses on every run and platform).
///
/// Frames are given either as `Pose`s of the skeleton (forward kinematics:
/// one root, rotations and a root translation) or, to reproduce a file's
/// animation exactly, as the joints' skinning transforms S_j themselves
/// (`animationSkinning()`, core/import/animation_poses.h: every channel of every
/// root and joint, translations and scales included).
///
/// The reference keeps all its influences (no top-4 cut), so a file with more
/// than 4 influences per vertex is compared as the artist made it. Vertices
/// without any reference weight (unskinned props) are left out of every
/// figure and counted in `unweightedReference`.

#include "core/rig/pose.h"
#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/skin_weights.h"

#include <Eigen/SparseCore>

#include <cstdint>
#include <span>

namespace rig {

struct WeightCompareOptions {
    double influenceThreshold = 0.05; ///< A joint influences a vertex at this weight or more, (0, 1].
    int randomPoses = 20;             ///< Poses used when no frames are given, >= 1.
    double randomPoseDegrees = 45.0;  ///< Largest local rotation of a random pose, degrees, [0, 180].
    std::uint32_t seed = 1;           ///< Seed of the random poses.
    Vec3 up = Vec3::UnitY();          ///< The height is the rest mesh's extent along this axis (non-zero).
};

struct WeightComparison {
    double meanL1 = 0.0;              ///< Mean Σ_j |w_ij − r_ij| per compared vertex, in [0, 2].
    double precision = 1.0;           ///< Of the computed influences, the fraction the reference has (1 when none).
    double recall = 1.0;              ///< Of the reference influences, the fraction computed (1 when none).
    double meanDistancePercent = 0.0; ///< Mean vertex distance between the two LBS meshes, % of height.
    double maxDistancePercent = 0.0;  ///< Largest vertex distance over all poses, % of height.
    int poses = 0;                    ///< Number of poses deformed.
    bool randomPoses = false;         ///< True when random poses were used (no frames given).
    int comparedVertices = 0;         ///< Vertices with reference weights.
    int unweightedReference = 0;      ///< Vertices without reference weights (left out).
    int unweightedComputed = 0;       ///< Compared vertices whose computed row has no weight (sum < 0.5): a silent zero row.
};

/// Compares `weights` with the reference `reference` (#V by #J, rows summing to
/// 1 or empty) for `mesh` rigged with `skeleton`, over `frames` (poses of
/// `skeleton`; empty: random poses, see the file comment).
/// @throws rig::InvalidInput (naming `rig::compareWeights()`) when the sizes of
///         the mesh, weights, reference, skeleton and frames disagree, the
///         reference has negative or non-finite entries, or options are out of range.
WeightComparison compareWeights(const Mesh& mesh, const Skeleton& skeleton, const SkinWeights& weights,
                                const Eigen::SparseMatrix<double, Eigen::RowMajor>& reference,
                                std::span<const Pose> frames = {}, const WeightCompareOptions& options = {});

/// `compareWeights()` over frames given as skinning transforms: `frames[f][j]` is
/// S_j, the map of joint j from bind space to posed space in frame f (affine:
/// scale and shear of the file's channels are kept). Empty `frames`: random
/// poses of `skeleton`, as above.
/// @throws rig::InvalidInput as above, and when a frame does not have #J transforms.
WeightComparison compareWeightsAnimated(const Mesh& mesh, const Skeleton& skeleton, const SkinWeights& weights,
                                const Eigen::SparseMatrix<double, Eigen::RowMajor>& reference,
                                std::span<const std::vector<Eigen::Affine3d>> frames,
                                const WeightCompareOptions& options = {});

/// The height `compareWeights()` divides by: the extent of `V` (#V by 3) along
/// `up` (normalized inside); 0 for an empty `V`.
double heightAlong(const MatrixX3d& V, const Vec3& up);

/// The influence lists of a sparse #V by #J weight matrix keeping every
/// non-zero entry (k = the largest row count, at least 1); empty rows get a
/// weight 1 on joint 0.
/// @throws rig::InvalidInput for negative or non-finite entries.
SkinWeights skinWeightsFromReference(const Eigen::SparseMatrix<double, Eigen::RowMajor>& reference);

/// `count` random poses of `skeleton`: each joint turns by an angle uniform in
/// [−maxDegrees, maxDegrees] about a uniformly random axis; the root is not
/// translated. Deterministic for a seed (its own generator, no std::
/// distribution, so identical on every platform).
std::vector<Pose> randomPoses(const Skeleton& skeleton, int count, double maxDegrees, std::uint32_t seed);

} // namespace rig
