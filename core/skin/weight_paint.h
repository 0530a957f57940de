#pragma once
/// @file weight_paint.h
/// Weight painting: brush dabs on the surface that edit the skin weights of
/// skin_weights.h interactively, as artists finish an automatic rig by hand
/// (issue 18).
///
/// A stroke is a sequence of dabs (`BrushDab`). A dab touches the vertices
/// within `radius` (world units) of its centre, found in a PointGrid, so its
/// cost is that of the vertices under the brush, not of the mesh. Each touched
/// vertex v at distance d gets the factor f = strength · falloff(d / radius):
///  - Add:      w_j ← min(1, w_j + f)                       (j: the painted joint)
///  - Subtract: w_j ← max(0, w_j − f)
///  - Set:      w_j ← w_j + f (value − w_j)
///  - Smooth:   w ← (1 − f) w + f · mean over v's edge neighbours of w, every joint
///              (a step of the uniform Laplacian, the umbrella operator, on the
///              weights; neighbours read before the dab: a Jacobi step)
/// after which the row is renormalized under the joint locks and cut to the
/// influence limit by `setLockedRow()` (locked_weights.h): the painted joint keeps
/// its new weight and the other unlocked joints share the rest in proportion.
/// When the painted joint loses weight and no other unlocked joint has any, the
/// loss goes to its nearest unlocked ancestor (else the dab leaves the row).
///
/// With mirror on, each dab then copies the rows it touched on its side onto
/// their twins on the other side (weight_mirror.h, `mirrorRows()`), joints
/// swapped for their twins, so that a stroke on one arm paints the other.
///
/// Positions may be those of a posed mesh (`setPositions()`): the brush then
/// finds the vertices the artist sees; smoothing uses the mesh's edges and the
/// mirror map the rest positions, so neither depends on the pose.

#include "core/common/types.h"
#include "core/mesh/mesh.h"
#include "core/mesh/point_grid.h"
#include "core/mesh/vertex_adjacency.h"
#include "core/rig/skeleton.h"
#include "core/skin/skin_weights.h"
#include "core/skin/locked_weights.h"
#include "core/skin/weight_mirror.h"

#include <vector>

namespace rig {

enum class PaintTool { Add, Subtract, Set, Smooth };

enum class BrushFalloff {
    Smooth,   ///< 3t² − 2t³ with t = 1 − d / radius (smoothstep): flat centre, soft edge.
    Linear,   ///< 1 − d / radius.
    Constant, ///< 1 inside the brush.
};

/// One dab of the brush.
struct BrushDab {
    Vec3 centre = Vec3::Zero();   ///< A point on the surface (the positions of `setPositions()`).
    double radius = 0.05;         ///< World units, > 0.
    double strength = 0.5;        ///< In [0, 1].
    BrushFalloff falloff = BrushFalloff::Smooth;
    PaintTool tool = PaintTool::Add;
    int joint = -1;               ///< The painted joint (all tools but Smooth), unlocked.
    double value = 1.0;           ///< Set's target weight, in [0, 1].
};

/// A gradient of one joint's weight along a segment: vertices within `radius` of
/// the segment start → end get, at the projection parameter t in [0, 1],
/// the target startValue + t (endValue − startValue), mixed in by `strength`
/// (as Set), then the row is renormalized as for a dab.
struct GradientFill {
    int joint = -1;
    Vec3 start = Vec3::Zero();
    Vec3 end = Vec3::Zero();
    double startValue = 1.0;      ///< In [0, 1].
    double endValue = 0.0;        ///< In [0, 1].
    double radius = 0.1;          ///< World units, > 0.
    double strength = 1.0;        ///< In [0, 1].
};

/// The gradient along the bone of `joint`: from the joint (weight 1) to its first
/// child (weight 0), or for a leaf from its parent (0) to it (1), over `radius`
/// around the bone.
/// @throws rig::InvalidInput for an unknown joint, a one-joint skeleton or a non-positive radius.
GradientFill boneGradient(const Skeleton& skeleton, int joint, double radius);

/// The painting state of one character: its weights, the spatial grid of the
/// positions the brush sees, the edges smoothing averages over, the locks and
/// the mirror maps. A class because the grid, the adjacency and the mirror map
/// are built once and reused by every dab.
class WeightPainter {
public:
    /// Expects `weights` valid for the mesh and skeleton (`validateSkinWeights()`).
    /// Builds the mirror maps from the mesh's positions (the bind pose).
    /// @throws rig::InvalidInput for an invalid skeleton, a non-finite vertex or invalid weights.
    WeightPainter(const Mesh& mesh, const Skeleton& skeleton, SkinWeights weights);

    /// Applies one dab; returns the vertices whose row it rewrote (the brush's,
    /// then the mirrored ones), each once.
    /// @throws rig::InvalidInput naming the problem: a non-finite centre, a radius
    /// not positive and finite, a strength or value outside [0, 1], an unknown or
    /// locked joint. Nothing changes then.
    std::vector<int> apply(const BrushDab& dab);

    /// Applies a gradient fill; returns the rewritten vertices as `apply()`.
    /// @throws rig::InvalidInput as `apply()`, also for a zero-length segment.
    std::vector<int> apply(const GradientFill& fill);

    /// Copies one side's weights onto the other, under the locks (`mirrorWeights()`).
    void mirrorAll(MirrorDirection direction);

    /// Brush positions (#V by 3), e.g. the posed mesh; rebuilds the grid.
    /// @throws rig::InvalidInput for a wrong row count or a non-finite vertex.
    void setPositions(const MatrixX3d& V);

    /// Locks or unlocks a joint. @throws rig::InvalidInput for an unknown joint.
    void setLocked(int joint, bool locked);
    bool isLocked(int joint) const { return m_locked[static_cast<size_t>(joint)] != 0; }

    /// Whether each dab also paints the other side.
    void setMirror(bool on) { m_mirror = on; }
    bool mirror() const { return m_mirror; }

    /// Replaces the weights (undo, a new weight method). @throws rig::InvalidInput when invalid.
    void setWeights(SkinWeights weights);
    const SkinWeights& weights() const { return m_weights; }

    const JointMirror& jointMirror() const { return m_jointMirror; }
    const VertexMirror& vertexMirrorMap() const { return m_vertexMirror; }

private:
    void checkJoint(int joint, const char* fn) const;
    std::vector<int> finish(std::vector<int> rewritten, int sourceSide);
    void setPaintedWeight(std::vector<WeightEntry>& row, int joint, double old, double target) const;

    const Skeleton m_skeleton;
    VertexAdjacency m_adjacency;
    PointGrid m_grid;
    SkinWeights m_weights;
    std::vector<char> m_locked;
    bool m_mirror = false;
    JointMirror m_jointMirror;
    VertexMirror m_vertexMirror;
    // Scratch reused between dabs.
    std::vector<int> m_inBrush;
    std::vector<std::vector<WeightEntry>> m_newRows;
};

} // namespace rig
