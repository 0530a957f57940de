#pragma once
/// @file weight_mirror.h
/// Left/right symmetry of a character for weight painting: the symmetry plane,
/// which joint mirrors which, which vertex mirrors which, and copying the
/// weights of one side onto the other ("Mirror weights L→R / R→L").
///
/// Rigsmith's characters stand +Y up and face +Z (core/mesh/mesh.h), so their
/// left lies on +X and the symmetry plane is x = offset. Joints pair by name
/// first (the side word of `jointNameWords()`: "LeftArm"/"RightArm",
/// "Bip01 L UpperArm", "upperarm_l", "hand.L", "LShoulder"), then the joints a
/// name leaves unpaired pair by position (mutually nearest across the plane).
/// A vertex's twin is the vertex nearest to its reflection (PointGrid), so the
/// map works on meshes whose two sides are not vertex-for-vertex symmetric.

#include "core/common/types.h"
#include "core/mesh/point_grid.h"
#include "core/rig/skeleton.h"
#include "core/skin/skin_weights.h"

#include <optional>
#include <string>
#include <vector>

namespace rig {

/// The plane x = offset.
struct SymmetryPlane {
    double offset = 0.0;
    double signedDistance(const Vec3& p) const { return p.x() - offset; }
    Vec3 reflect(const Vec3& p) const { return Vec3(2.0 * offset - p.x(), p.y(), p.z()); }
};

/// Which joint mirrors which.
struct JointMirror {
    std::vector<int> twin;    ///< #J: the twin joint; the joint itself when it has none (spine, head).
    int namePairs = 0;        ///< Pairs found by name.
    int positionPairs = 0;    ///< Pairs found by position only.
    SymmetryPlane plane;      ///< Through the pairs' midpoints (mean x), else through the root.
};

/// The name of the other side's joint, swapping the first side word of
/// `jointNameWords()` ("left" ↔ "right", "l" ↔ "r", or a "left"/"right" prefix of
/// a word, as in "leftarm"); the result is the joined lower-case words
/// ("mixamorig:LeftArm" → "right arm"), to compare with the words of the other
/// joints. std::nullopt when the name has no side word.
std::optional<std::string> mirroredNameKey(const std::string& name);

/// The words of a name joined as `mirroredNameKey()` joins them ("left arm").
std::string nameKey(const std::string& name);

/// Pairs the joints of a skeleton.
/// - By name: a joint whose `mirroredNameKey()` is another joint's `nameKey()`.
/// - The plane: x = mean of the name pairs' midpoints, else the root's x.
/// - By position: among joints still unpaired farther than 0.5% of the skeleton's extent
///   from the plane, mutually nearest reflections closer than 5% of the extent.
/// @throws rig::InvalidInput as `validateSkeleton()`.
JointMirror mirrorJoints(const Skeleton& skeleton);

/// Which vertex mirrors which.
struct VertexMirror {
    std::vector<int> twin;          ///< #V: the vertex nearest to the reflection of each vertex.
    std::vector<signed char> side;  ///< #V: +1 left (x above the plane), −1 right, 0 on the plane (within tolerance).
    double maxDistance = 0.0;       ///< Largest distance between a reflected vertex and its twin (0 for a symmetric mesh).
    /// The inverse: vertices whose twin is v are preimage[preStart[v]] ... preimage[preStart[v + 1] − 1].
    std::vector<int> preStart;
    std::vector<int> preimage;
};

/// The vertex mirror of V (#V by 3) across `plane`. A vertex within
/// `planeTolerance` of the plane is on it (side 0); tolerance < 0 means
/// 1e-5 of the bounding-box diagonal.
/// @throws rig::InvalidInput for a non-finite vertex or plane offset.
VertexMirror vertexMirror(const MatrixX3d& V, const SymmetryPlane& plane, double planeTolerance = -1.0);

enum class MirrorDirection {
    LeftToRight, ///< The left side's weights (x above the plane) are copied onto the right.
    RightToLeft, ///< The right side's weights are copied onto the left.
};

/// Copies one side's weights onto the other: every vertex u of the target side
/// whose twin t lies on the source side or on the plane gets t's influences with each joint
/// replaced by its twin, under the locks of `setLockedRow()` (locked joints of u
/// keep their weights). Vertices on the plane, and target vertices whose twin is
/// on the target side too (a mesh far from symmetric), keep their weights.
/// Expects w valid for the mirror's #V and the twins' #J; `locked` empty or #J flags.
/// @throws rig::InvalidInput when the sizes disagree.
SkinWeights mirrorWeights(const SkinWeights& w, const VertexMirror& mirror, const std::vector<int>& jointTwins,
                          MirrorDirection direction, const std::vector<char>& locked = {});

/// Copies, for every vertex of `sources` on side `sourceSide` (+1 or −1), its
/// current influences onto the vertices of the other side whose twin it is
/// (`VertexMirror::preimage`), as `mirrorWeights()` does, in place (a stroke on
/// one side painting the other). Other vertices of `sources` are skipped.
/// Appends the vertices it rewrote to `changed`.
void mirrorRows(SkinWeights& w, const VertexMirror& mirror, const std::vector<int>& jointTwins,
                const std::vector<int>& sources, int sourceSide, const std::vector<char>& locked,
                std::vector<int>& changed);

} // namespace rig
