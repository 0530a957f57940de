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
///  - up is one of the four signed axes left, the one with the highest
///    score (issue 48: measured feature by feature on rignet-val's 270
///    artist-rigged characters in all 24 frames, bench/notes/orientation.md):
///    a weighted sum of, bottom minus top, the vertices within 0.3 % and 1 %
///    of the longest side of the end plane (ground contacts: soles, paws, a
///    base; a head's top is one point), the area facing the end within 25
///    degrees in the end 1 % over the whole surface (flat soles), the
///    surface's centroid above the middle; and how much less mirror-symmetric
///    the body is across up than across the front axis, and how much longer
///    along it. The weights are a multinomial logistic regression over the
///    four candidates of the 270 characters; the confidence is the
///    probability of the best (softmax, tempered so that no answer there at
///    0.9 or more is wrong: 100 % right from 0.8, 98.8 % of the humanoids'
///    and 94.3 % of the others' answers from 0.5). A body standing on no
///    ground (a fish, a bird in flight) scores low;
///  - front (with up known) is along the horizontal axis across which the
///    feet (the lowest 6 %) are not two blobs (else the less symmetric one),
///    with the sign the toes point to: the centroid of the lowest 6 % (feet)
///    lies ahead of the centroid of the slab at 15-30 % (shins); where the
///    shins lean more than 3 % of the height from the ankles (6-11 %: bent
///    knees), the forefoot (lowest 4 %) ahead of the ankle above it (4-8 %).
///    When the feet give no clear answer, the nose side of the head (the top
///    12 %: its centroid relative to the neck slab below it) decides.
/// Each decision carries a confidence in [0, 1] (up's: calibrated as above;
/// the front's: the margin of its test, scaled so that 1 is unambiguous, not
/// calibrated: 89 % right at 0.9 on rignet-val's humanoids); callers report it.

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
    double confidence = 0.0;        ///< In [0, 1]: the probability of `up` among the four candidates.
    std::string reason;             ///< One line: what decided it, and the next two candidates.
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
