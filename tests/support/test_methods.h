#pragma once
/// @file test_methods.h
/// A weight method and a deformer that exist only in the tests, registered
/// through the tables (core/skin/weight_methods.h, core/deform/deformers.h)
/// to show that a new method reaches every front end without code of its
/// own: the CLI help and `--method`, the project file, the Weights panel,
/// the viewport's toolbar and its CPU-drawn path, `rigsmith bench skinning`.
///
///  - weight method "test-rigid": every vertex bound with weight 1 to the
///    nearest bone (the segment from a joint to its parent), one parameter
///    "reach" (unused by the computation; it shows parameter round trips);
///  - deformer "test-rigid": every vertex follows its most-weighted joint
///    rigidly (no GPU program: drawn from its CPU output).

namespace rig::test {

inline constexpr const char* testMethodId = "test-rigid";
inline constexpr const char* testDeformerId = "test-rigid";

/// Registers both (once per process; later calls do nothing).
void registerTestMethods();

} // namespace rig::test
