#pragma once
/// @file skinning_timing.h
/// The deformers' speed measurement (issue 6, performance): ns per vertex of
/// every deformer of the table (core/deform/deformers.h: LBS, DQS, the
/// twist-corrected LBS, …) on a synthetic limb-like mesh, positions + normals,
/// 4 influences. Shared by
/// bench/skinning_bench.cpp (Google Benchmark) and `rigsmith bench skinning`.
///
/// The scene: a tube of radius 0.5 (rings of 100 vertices) around a 16-joint
/// chain along +Y, joints 1 apart; the thesis's Gaussian weights (eq. 4.1,
/// a = 1.3, b = 0.5, c = 0.25) on the δ of each link, 4 influences kept;
/// segmentation by nearest link; every joint bent 0.2 rad about X and twisted
/// 0.5 rad about its link. The per-frame work (forward kinematics, transform
/// conversion, `twistTransforms()`) is inside the timed loop.

#include "core/common/types.h"
#include "core/rig/pose.h"
#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <string>
#include <vector>

namespace rig {

struct SkinningScene {
    MatrixX3d V, N; ///< Rest positions and unit normals.
    MatrixX3i F;    ///< The tube's triangles (open at its ends), counter-clockwise from outside.
    Skeleton skeleton;
    SkinWeights weights;
    Segmentation segmentation;
    Pose pose;
};

/// The tube with `vertices` rounded to whole rings of 100 (at least 2 rings).
/// @throws rig::InvalidInput when vertices < 200.
SkinningScene makeSkinningScene(int vertices = 100000);

struct SkinningTimingOptions {
    int vertices = 100000; ///< Mesh size (rounded to rings of 100).
    int threads = 1;       ///< Worker threads of the deformers (0 = hardware concurrency).
    int repetitions = 5;   ///< Timed repetitions; the median is reported.
    double minSeconds = 0.05; ///< Each repetition loops over frames for at least this long.
};

/// Median ns per vertex of one deformer (wall clock, one frame = deform
/// once), and the same in process CPU time (all threads' CPU time per vertex:
/// on a loaded machine the wall clock also counts the time other processes ran).
struct DeformerTiming {
    std::string id;     ///< The deformer's id in the table.
    std::string title;
    double wall = 0.0;  ///< ns per vertex, wall clock.
    double cpu = 0.0;   ///< ns per vertex, process CPU time.
    double bindSeconds = 0.0; ///< Binding the skin once (not per frame).
};

struct SkinningTimings {
    int vertices = 0;
    int threads = 0;
    std::vector<DeformerTiming> deformers; ///< In table order.
    /// The memory floors (core/deform/streaming_floor.h) for the bytes of
    /// "lbs", "dqs" and "twist" (ids), on the same threads.
    std::vector<DeformerTiming> floors;
};

/// Times every deformer of the table on `makeSkinningScene(options.vertices)`.
/// @throws rig::InvalidInput for vertices < 200, threads < 0 or repetitions < 1.
SkinningTimings timeSkinning(const SkinningTimingOptions& options = {});

} // namespace rig
