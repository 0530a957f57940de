#pragma once
/// @file overlay_data.h
/// What to draw for the curve-skeleton stage (plain C++ + GLM, no Qt, no GL):
/// the geometric skeleton as glyphs (thesis Fig. 2.5: end nodes as spheres,
/// flow nodes as small cubes, connection nodes as larger cubes) with its links
/// as lines, and the voxels of the solid as points.

#include "ui/viewport/draw_data.h"

namespace rig {
struct CurveSkeleton;
struct Skeleton;
struct VoxelGrid;
}

namespace rig::ui {

/// Glyph colours per node type, also used by the legend.
glm::vec3 nodeColor(int nodeType);

struct SkeletonDrawData {
    MeshDrawData glyphs;            ///< Triangles of all node glyphs, lit like the mesh.
    std::vector<LineVertex> links;  ///< Two points per skeleton edge.
    std::vector<glm::vec3> centers; ///< #N node centres (for picking).
    float pickRadius = 0.0f;        ///< Radius used for picking a node.
};

/// Glyphs sized by `scale` (world units; a good value is about one voxel):
/// end spheres of radius 1.0·scale, connection cubes of half-size 0.8·scale,
/// flow cubes of half-size 0.35·scale.
/// `endColors`, when not empty (#N), overrides the colour of end nodes (one
/// colour per label; alpha < 0.5 keeps the default).
/// `highlight` (a node index, or -1) is drawn larger and brighter (hover).
SkeletonDrawData makeSkeletonDrawData(const CurveSkeleton& skeleton, float scale,
                                      const std::vector<glm::vec4>& endColors = {}, int highlight = -1);

/// The fitted animation skeleton: a sphere per joint (the selected one larger
/// and brighter) and a line per bone, drawn in front of everything.
struct RigDrawData {
    MeshDrawData joints;
    std::vector<LineVertex> bones;
    std::vector<glm::vec3> centers; ///< #J joint positions (for picking).
    float pickRadius = 0.0f;
};
/// The fitted rig's joints as spheres of radius `scale` (1.3 times for the
/// selected or hovered joint) and its bones as lines. A joint whose shortest
/// bone (to its parent or a child) is shorter than 3.3 `scale` gets a sphere of
/// 0.3 of that bone, but not less than a quarter of `scale`, so the fingers
/// of a hand stay apart. `warnedJoints` (a fit warning concerns them) are
/// drawn in the warning colour, 1.15 times larger, unless selected or hovered.
RigDrawData makeRigDrawData(const Skeleton& skeleton, float scale, int selectedJoint = -1, int hoveredJoint = -1,
                            const std::vector<int>& warnedJoints = {});

/// One colour per limb label (Head, LeftHand, RightHand, LeftFoot, RightFoot).
glm::vec3 limbColor(int limb);

/// One point per solid voxel with its colour.
struct VoxelPoint {
    glm::vec3 position;
    glm::vec3 color;
};

/// Points for the surface voxels (light blue) and, when `interior` is true, the
/// interior voxels (amber).
std::vector<VoxelPoint> makeVoxelPoints(const VoxelGrid& grid, bool interior);

} // namespace rig::ui
