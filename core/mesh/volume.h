#pragma once
/// @file volume.h
/// Signed volume of a closed triangle mesh: the sum of the signed volumes of
/// the tetrahedra formed by each triangle and the origin, Σ v0·(v1 × v2) / 6
/// (the measure of thesis §4.4, "tetrahedra with negative areas", and of the
/// volume-correction work it cites). Positive for counter-clockwise faces seen
/// from outside; independent of the origin only when the mesh is closed.

#include "core/mesh/mesh.h"

namespace rig {

/// Signed volume enclosed by the triangles F over the vertices V (#V by 3,
/// #F by 3). 0 for no triangles. The tetrahedra are formed with the first
/// vertex instead of the origin: the same sum for a closed mesh, with less
/// cancellation far from the origin.
/// @throws rig::InvalidInput when a face index is outside [0, #V).
double signedVolume(const MatrixX3d& V, const MatrixX3i& F);

/// Signed volume of `mesh` (its V and F).
/// @throws rig::InvalidInput as above.
double signedVolume(const Mesh& mesh);

} // namespace rig
