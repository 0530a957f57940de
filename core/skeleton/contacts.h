#pragma once
/// @file contacts.h
/// Where the solid joins two parts of the body that the surface keeps apart: a
/// hand resting on a thigh, an arm pressed to the side, two knees touching. The
/// voxels fill the contact, thinning draws a curve through it, and the curve
/// skeleton gets a loop that is not a tunnel of the character. The thesis's
/// refinement (§2.3) deletes loops; which edge it cuts decides where the limb
/// ends. Cut at the weakest edge (smallest radius) alone, a hand resting on a
/// thigh loses its hand: the wrist is the thinnest place of the loop, so the
/// arm ends at the wrist and the hand hangs off the thigh as a branch of the leg
/// (BCN_Epileptic at n = 155: the left wrist fitted 6.8 % of the height too
/// high, the forearm folding under the simplex deformer; bench/notes/real-characters.md,
/// stop 34). The surface itself tells where the contact is.
///
/// A node of the curve skeleton is a contact when the surface around its
/// maximal ball is two sheets: the surface within `ballScale`·r + h of it (r
/// its radius, h the voxel size) falls into two or more groups, each of at
/// least `minVertices` vertices, that the mesh's edges do not connect without
/// leaving the ball `reachScale`·r + 2h. Around a limb's section, a junction
/// or an end the surface near the ball is one band or cap; at a contact it is
/// the hand's palm and the thigh's skin, joined on the mesh only through the
/// whole arm and trunk. The surface is taken in patches (the vertices of one
/// cube of side 2h that the mesh's edges inside the cube connect; two sheets
/// touching in a cube are two patches), so that the test's work follows the
/// grid rather than the mesh's density: at n = 155 it adds 2-3 ms on the
/// devset's characters with loops, 13-15 ms on a 92k-vertex subdivided
/// BCN_Epileptic, nothing on a skeleton without loops.

#include "core/mesh/mesh.h"
#include "core/skeleton/curve_skeleton.h"

#include <vector>

namespace rig {

struct ContactOptions {
    double ballScale = 1.5;  ///< The surface near the node: within ballScale·r + h.
    double reachScale = 3.0; ///< Paths between its groups may not leave reachScale·r + 2h.
    int minVertices = 3;     ///< A group with fewer vertices is noise, not a sheet.
};

/// Per node of `skeleton` (built on a grid of `voxelSize` over `mesh`) 1 when
/// it is a contact, else 0. Only nodes on a loop are tested (elsewhere there
/// is nothing to cut); the others are 0.
/// @throws rig::InvalidInput for a non-positive voxel size or options.
std::vector<char> contactNodes(const CurveSkeleton& skeleton, const Mesh& mesh, double voxelSize,
                               const ContactOptions& options = {});

} // namespace rig
