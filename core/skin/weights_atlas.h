#pragma once
/// @file weights_atlas.h
/// Atlas-based skinning weights (seed 000: Lu, Hétroy, Gérot, Thibert,
/// "Atlas-Based Character Skinning with Automatic Mesh Decomposition", INRIA
/// RR-6406, 2008).
///
/// 1. Boundaries (§3.1). For every joint J with a parent (its upper bone)
///    except the branching joints of the trunk (the pelvis and the chest, more
///    than two incident bones on the symmetry axis), candidate planes P(J, n)
///    through J whose normal n lies in the plane Q of the upper bone and the
///    lower bone (the mean direction of J's children; for a leaf the upper
///    bone's, and then two perpendicular fans): `planeCandidates` normals from
///    `tiltDegrees` before the upper bone's direction to `tiltDegrees` past the
///    lower bone's. Each plane cuts the mesh in closed curves (the crossing
///    segments of the triangles with vertices on both sides, linked through
///    their shared edges); the curve around the joint is kept (the one whose
///    centre is nearest J, with J within its radius of that centre, and no
///    wider than J's upper and lower bones are long together: a section of
///    the limb, not of the trunk a shoulder's plane also cuts), and the plane
///    whose curve has the smallest perimeter is the boundary B_J (among
///    curves within 2% of the shortest, the one nearest the middle of the
///    fan, so that mirror-image joints choose mirror-image planes).
///    Joints whose planes never give a curve around them get no boundary.
/// 2. Regions (§3.2). Every vertex starts in the region of the bone that owns
///    it in the segmentation (the base joint of its link, thesis Ch. 3); near
///    each boundary (within its overlap, below, or within the curve's
///    diameter of J: a shell the curve does not reach) the vertices the segmentation
///    put on J's upper link or on a link out of J go to the side of the plane
///    they lie on (not those on the upper joint's other links: a plane through
///    one shoulder must not take the other shoulder's chest). (The
///    paper grows regions from faces until the boundary faces; growing from the
///    segmentation keeps separate shells and interpenetrating parts — the
///    devset players, the generated character's eyes — in the right region.)
///    Regions are connected, as the paper's grown regions are: a piece of a
///    region smaller than a tenth of its largest piece and touching other
///    regions (a vertex the segmentation put on a far link) joins the region
///    most of its neighbours are in.
/// 3. Overlaps (§3.3). The geodesic distance on the surface to each boundary
///    curve, g(p, B), by fast marching on the triangles (Kimmel & Sethian 1998,
///    the planar update of a triangle with two known corners; an edge update
///    where the characteristic leaves the triangle), from the crossing
///    triangles' corners (their distance to the curve's segment in that
///    triangle) and stopped at the overlap. A vertex belongs to the overlap of
///    B when g(p, B) < `overlap` · D(B), D(B) the curve's diameter (paper: half
///    the diameter, overlap 0.5).
/// 4. Weights (§4 eq. 1, §5). A vertex's related regions are its own (its
///    proto-region) and, for each boundary it is in the overlap of, the region
///    across it. With n related regions, ω_j = 2/(n(n−1)) Σ_{i≠j} β(d_{j,i}),
///    β(l) = −2l³ + 3l², d_{j,i} = (h + g)/(2h) when V_j is the proto-region
///    and B_{j,i} exists, 1 − that when V_i is, 0.5 when no boundary joins
///    V_i and V_j (h = overlap · D). Since β(l) + β(1 − l) = 1 the weights sum
///    to 1. At most `maxInfluences` are kept (smallest dropped, renormalized).
///
/// Known limit of eq. 1 as published: where a third region enters (n goes
/// from 2 to 3, near the pelvis) every pair term is divided by 3 instead of
/// 1 and the weights change by up to 1/6 between neighbouring vertices.

#include "core/mesh/mesh.h"
#include "core/rig/skeleton.h"
#include "core/skin/segmentation_data.h"
#include "core/skin/skin_weights.h"

#include <limits>
#include <utility>
#include <vector>

namespace rig {

struct AtlasWeightOptions {
    int planeCandidates = 15;  ///< Normals tried per joint (§3.1), >= 1.
    double tiltDegrees = 30.0; ///< How far the fan of normals reaches past the two bones' directions, [0, 90].
    double overlap = 0.5;      ///< Overlap half-width as a fraction of the boundary's diameter (§3.3: 0.5), (0, 4].
    int maxInfluences = 4;     ///< Kept per vertex (smallest dropped, renormalized), >= 1.
};

/// A boundary curve of §3.1: the cut at `joint` between the region of its
/// parent's bone (`upper`) and its own (`lower` = joint).
struct AtlasBoundary {
    int joint = -1;
    int upper = -1;
    Vec3 normal = Vec3::Zero(); ///< The chosen plane's normal (pointing to the lower side).
    double perimeter = 0.0;     ///< Length of the curve.
    double diameter = 0.0;      ///< Twice the largest distance of a curve point from the curve's centre.
};

struct AtlasWeightResult {
    SkinWeights weights;                   ///< #V rows, non-negative, summing to 1.
    std::vector<AtlasBoundary> boundaries; ///< One per cut joint, in joint order.
};

/// Atlas-based weights for `mesh` bound to `skeleton` (see the file comment).
/// @param seg the segmentation (`segmentMesh()`): each vertex's owning bone;
///   -1 entries go to the root's region.
/// @throws rig::InvalidInput for an empty mesh, non-finite vertices, a mesh
///   without triangles, triangles out of range, an invalid skeleton or one
///   joint only, a segmentation of the wrong size, or options out of range.
AtlasWeightResult atlasWeights(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg,
                               const AtlasWeightOptions& options = {});

/// Geodesic distance on the surface of `mesh` (its triangles) from the seeds
/// (vertex, initial distance), by fast marching (see step 3 of the file
/// comment); vertices farther than `maxDistance`, or not connected to a seed,
/// get +infinity.
/// @throws rig::InvalidInput for a seed out of range or with a negative or
///   non-finite distance.
std::vector<double> surfaceDistances(const Mesh& mesh, const std::vector<std::pair<int, double>>& seeds,
                                     double maxDistance = std::numeric_limits<double>::infinity());

} // namespace rig
