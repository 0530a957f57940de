#pragma once
/// @file orientation.h
/// Which way is up and which way a character faces, from its shape alone
/// (issue 14: files whose metadata is missing or wrong lie on their back).
///
/// Both are chosen among the six signed coordinate axes of the mesh (files
/// model characters axis-aligned; only the naming of the axes differs):
///  - left-right is the axis across which the shape is most mirror-symmetric:
///    the fraction of occupied cells of a coarse occupancy grid (24 cells
///    along the longest side; vertices and triangle centroids) whose mirror
///    image is occupied too, across the best plane between a quarter and
///    three quarters of the box (an arm reaching out moves the box's middle
///    off the body's midline). A body is symmetric left to right, not head
///    to foot;
///  - up is the longer of the two other axes (a standing body is taller than
///    deep), and its sign puts the feet down. The end the feet are at votes
///    by (a) flatness: the part of the area in its 5 % slab facing the end
///    within 25 degrees (soles on the ground are flat, a head's top is
///    round), (b) two blobs across left-right in that slab (two feet, one
///    head; gaps over 3 % of the height), weighing 0.25, and (c) a wider 10 %
///    slab, weighing 0.1 of the relative difference;
///  - front (with up known) is along the horizontal axis across which the
///    feet (the lowest 6 %) are not two blobs (else the less symmetric one),
///    with the sign the toes point to: the centroid of the lowest 6 % (feet)
///    lies ahead of the centroid of the slab at 15-30 % (shins); where the
///    shins lean more than 3 % of the height from the ankles (6-11 %: bent
///    knees), the forefoot (lowest 4 %) ahead of the ankle above it (4-8 %).
///    When the feet give no clear answer, the nose side of the head (the top
///    12 %: its centroid relative to the neck slab below it) decides.
/// Each decision carries a confidence in [0, 1] (the margin of its test over
/// the alternative, scaled so that 1 is unambiguous); callers report it.

#include "core/common/types.h"
#include "core/mesh/mesh.h"

#include <optional>
#include <string>
#include <string_view>

namespace rig {

/// One of the six signed axes, named "+x", "-x", "+y", "-y", "+z", "-z".
std::optional<Vec3> parseSignedAxis(std::string_view text);
/// The name of a signed axis (the nearest one for any direction).
std::string signedAxisName(const Vec3& axis);

struct UpGuess {
    Vec3 up = Vec3::UnitY();        ///< Detected up, a signed coordinate axis.
    Vec3 leftRight = Vec3::UnitX(); ///< The mirror axis (unsigned; its sign is arbitrary).
    double confidence = 0.0;        ///< In [0, 1].
    std::string reason;             ///< One line: what decided it.
};

struct FrontGuess {
    Vec3 front = Vec3::UnitZ(); ///< Detected facing direction, a signed coordinate axis orthogonal to up.
    double confidence = 0.0;    ///< In [0, 1].
    /// The soles are two blobs across one horizontal axis (left-right), not
    /// the other: a figure standing on two feet, not a box or a blob.
    bool twoFeet = false;
    std::string reason;         ///< One line: what decided it.
};

/// Detects up (see the file comment).
/// @throws rig::InvalidInput (naming `rig::detectUp()`) for a mesh without vertices.
UpGuess detectUp(const Mesh& mesh);

/// Detects the facing direction of a character standing along `up` (a signed
/// coordinate axis; see the file comment).
/// @throws rig::InvalidInput (naming `rig::detectFront()`) for a mesh without
///         vertices or an `up` that is not a coordinate axis.
FrontGuess detectFront(const Mesh& mesh, const Vec3& up);

/// The rotation taking `up` to +Y and `front` to +Z (both signed coordinate
/// axes, orthogonal): its rows are up × front, up, front.
/// @throws rig::InvalidInput when they are not orthogonal unit axes.
Eigen::Matrix3d frameRotation(const Vec3& up, const Vec3& front);

} // namespace rig
