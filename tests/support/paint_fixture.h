#pragma once
/// @file paint_fixture.h
/// The default generated character (A-pose, default cell size: about 22k
/// vertices, symmetric across x = 0) with its ground-truth skeleton and smooth
/// weights of four influences, for the weight-painting tests and bench. Built
/// once per process.

#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/skin_weights.h"

namespace rig::test {

struct PaintCharacter {
    Mesh mesh;
    Skeleton skeleton;
    SkinWeights weights; ///< Inverse fourth power of the distance to each joint's bone, top 4.
};

/// The shared character (generated on first use).
const PaintCharacter& paintCharacter();

} // namespace rig::test
