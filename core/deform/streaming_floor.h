#pragma once
/// @file streaming_floor.h
/// The memory floor of the deformers (issue 20, item 4): the simplest loop
/// that reads and writes the same bytes per vertex as a deformer, with one
/// multiply-add per value so nothing is elided. A deformer within a small
/// factor of its floor is bound by memory traffic, not arithmetic.
///
/// Bytes per vertex with 4 influences (the bound arrays of skin_binding.h):
///  - `Lbs`: the rest record (32: position | normal), joint offsets (16) and
///    weights (16) read; the output record (32) written: 96;
///  - `Dqs`: the same plus the dual-quaternion table offsets (16): 112;
///  - `Twist`: the rest record and weights as LBS, the link (4), δ (4), the
///    two arm records (64) and the twist table offsets (16) read (a segmented
///    vertex blends dual quaternions, not the joint matrices), the output
///    written: 168.
/// The joint tables themselves (a few kB) stay in cache and are not read.

#include "core/deform/skin_binding.h"

namespace rig {

enum class StreamingLayout { Lbs, Dqs, Twist };

/// Streams `binding`'s arrays of `layout` into `out` (resized to the vertex
/// count) on `threads` threads of the deformers' pool (0 = hardware
/// concurrency). The values written mean nothing.
/// @throws rig::InvalidInput when the binding lacks the layout's arrays
/// (`Twist` needs `bindTwist()`).
void streamingFloor(const SkinBinding& binding, StreamingLayout layout, SkinnedMesh& out, int threads = 1);

} // namespace rig
