#pragma once
/// @file bar_experiment.h
/// The bar experiment of thesis §4.4 (volume preservation, Table 4.2) as a
/// reusable function, plus the two figures that go with it: the candy-wrapper
/// collapse under a 180° twist, and the continuity of a 0°→720° twist sweep.
///
/// The bar: 2 × 8 × 2 (volume 32), x, z ∈ [−1, 1], y ∈ [0, 8], meshed with
/// `ringsPerUnit` rings per unit of length and `sideSubdivisions` vertices per
/// side of the square section, capped by triangle fans (closed, outward).
/// Five joints j0…j4 at y = 0, 2, 4, 6, 8 with identity bind frames (local +Y
/// along the bar), a chain j0 → j4.
///
/// Weights (the same for every method), `BarWeights::Gaussian` by default: the thesis's Gaussian distribution
/// function (eq. 4.1, a = 1.3, b = 0.5, c = 0.25) of the δ of each link
/// (eq. 3.1): joint k (k = 0…3) receives f(δ_k), δ_k = (y − y_k)/2 the
/// unclamped δ of its link [y_k, y_k+1]; the end joint j4 none; normalized
/// (eq. 4.2) and limited to 4 influences. Blends are centred on the joints:
/// 50/50 at a joint, 88/12 mid-link. `BarWeights::Linear`: joint k − 1 → k
/// blended linearly over y_k ± blendHalfWidth, rigid in between (narrower
/// blends lose less volume in bends). Segmentation: `segmentationFromNearestLink()`.
///
/// Rotations are Euler channels per joint in degrees, Maya's default xyz
/// rotate order (local R = Rz·Ry·Rx), accumulated over the six steps of
/// §4.4: 180° Y on j1, 200° Y on j2, 120° Y on j3, 90° X on j1, 60° Z on j2,
/// 80° Z on j3. The twist-corrected method gets the unwrapped twist (the
/// channel about the link axis) so 200° stays 200°.

#include "core/deform/deformers.h"
#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <map>
#include <string>
#include <vector>

namespace rig {

/// The weight functions the experiment can use (the same for every method).
enum class BarWeights {
    Gaussian, ///< Thesis eq. 4.1 of the δ of each link (a = 1.3, b = 0.5, c = 0.25), normalized.
    Linear,   ///< Linear blend between neighbouring joints over ± `blendHalfWidth` around each joint.
};

struct BarOptions {
    int ringsPerUnit = 16;    ///< Rings per unit length (129 rings for 8 units).
    int sideSubdivisions = 8; ///< Vertices per side of the square section (32 around).
    BarWeights weights = BarWeights::Gaussian; ///< The thesis's distribution function by default.
    double blendHalfWidth = 0.5; ///< For `Linear`: half the blend zone around a joint (links are 2 long).
};

/// The bar, its skeleton, weights and segmentation.
struct BarRig {
    Mesh mesh;
    Skeleton skeleton;
    SkinWeights weights;
    Segmentation segmentation;
};

/// Builds the bar. @throws rig::InvalidInput for options < 1.
BarRig makeBar(const BarOptions& options = {});

/// Deforms the bar with per-joint Euler channels (#J by 3, degrees, xyz
/// order) with `deformer` (a row of core/deform/deformers.h). With `wrapped`
/// false the Y channel is passed as the unwrapped twist; with `wrapped` true
/// the deformer gets the twist re-extracted from the quaternions (±180°).
/// @throws rig::InvalidInput when `eulerDegrees` is not 5 by 3.
DeformedMesh deformBar(const BarRig& bar, const MatrixX3d& eulerDegrees, const DeformerInfo& deformer,
                       bool wrapped = false, const SkinningOptions& options = {});

/// One row of Table 4.2: volume error e = (V0 − V)·100/V0 in percent
/// (positive = volume lost) after the step, per method, with the thesis's values.
struct BarVolumeStep {
    std::string rotation;                 ///< e.g. "180 Y j1".
    std::map<std::string, double> error;  ///< By deformer id, every deformer of the table.
    std::map<std::string, double> thesis; ///< Table 4.2: "dqs", "lbs", "twist" (the thesis's P. Method).
};

struct BarVolumeTable {
    double restVolume = 0.0; ///< Volume of the bar mesh at rest (32).
    std::vector<BarVolumeStep> steps; ///< The six cumulative steps.
};

/// Runs the six cumulative rotations and measures the volumes.
BarVolumeTable barVolumeExperiment(const BarOptions& options = {});

/// Candy wrapper: joint j2 (the middle) twisted about its link axis; for each
/// ring of the bar the RMS distance of its vertices from the axis, relative to
/// rest; the smallest over the rings (1 = no collapse, 0 = collapsed to a line).
struct CandyWrapper {
    double twistDegrees = 0.0;
    std::map<std::string, double> smallestRadius; ///< By deformer id.
};

CandyWrapper barCandyWrapper(double twistDegrees = 180.0, const BarOptions& options = {});

/// Continuity of one method over a twist sweep of j2: the largest vertex
/// displacement between consecutive steps, divided by the displacement a
/// rigid rotation by one step gives the outermost vertex (radius √2).
/// ≈ 1 for a smooth method; a jump shows as a large ratio.
struct ContinuitySeries {
    double maxRatio = 0.0;  ///< Largest step ratio over the sweep.
    double atDegrees = 0.0; ///< The twist angle reached by the step where it occurs.
};

struct TwistContinuity {
    double stepDegrees = 0.0, maxDegrees = 0.0;
    std::map<std::string, ContinuitySeries> series;  ///< By deformer id, unwrapped twist angles.
    std::map<std::string, ContinuitySeries> wrapped; ///< By deformer id, wrapped angles (`deformBar`).
};

/// Sweeps the twist of j2 from 0 to `maxDegrees` in `stepDegrees` steps.
/// @throws rig::InvalidInput when stepDegrees <= 0 or maxDegrees < stepDegrees.
TwistContinuity barTwistContinuity(double maxDegrees = 720.0, double stepDegrees = 1.0,
                                   const BarOptions& options = {});

} // namespace rig
