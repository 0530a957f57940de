#pragma once
/// @file mesh_import.h
/// Import of character meshes with Assimp (the only place in the code base that
/// includes Assimp). Every format Assimp 5.2 reads is accepted.
///
/// What import does, in order (one function per step in mesh_import.cpp):
/// reads the file (triangulated, points and lines dropped, vertices as stored);
/// takes each mesh's file vertices (core/import/assimp_source.h: `fileVertices()`);
/// applies every node transform so that instanced meshes land where the file
/// puts them (a skinned mesh bound in its own coordinates, as DirectX .X files
/// bind, where its skeleton puts it); merges all meshes into one `Mesh` keeping
/// a part id per vertex; brings the model to +Y up; moves a model lying far
/// from the origin to it; welds coincident positions
/// (keeping the map from the file's vertices to the welded ones); takes the
/// file's normals or computes them; keeps each mesh as the file has it, with
/// its material and textures (`SourceAsset`, core/import/source_mesh.h) for the
/// export; keeps the file's skeleton, skin weights and the animations that move
/// the skeleton (sampled at their key times). A file whose 32-bit
/// coordinates lost precision far from the origin is read with a warning
/// (`ImportInfo::warnings`), or refused where its shape did not survive;
/// what cannot be the file's character (every vertex on a line, most
/// triangles without area) is refused with the cause.

#include "core/common/progress.h"
#include "core/import/source_mesh.h"
#include "core/mesh/mesh.h"

#include <Eigen/SparseCore>

#include <optional>
#include <string>
#include <vector>

namespace rig {

/// One of the file's animations (aiScene::mAnimations), sampled for the
/// imported skeleton.
///
/// Each channel animates the node of its name: its local transform becomes
/// T·R·S of its keys (positions and scalings interpolated linearly, rotations
/// by slerp, held constant before the first and after the last key); nodes
/// without a channel keep their own transform. A frame holds each joint's
/// animated node-to-world transform G_j (in the +Y-up frame, like
/// `bindGlobal`), so G_j · bindGlobal_j⁻¹ is joint j's skinning transform from
/// bind space to posed space (the animated node transform times the offset
/// matrix, as Assimp's users skin; a frame equal to the bind pose gives
/// G_j = bindGlobal_j). Frames are taken at the union of the key
/// times of the channels that move the skeleton (a channel on a joint's node or
/// on one of its ancestors), so keyed poses are reproduced exactly.
/// `animationPoses()` (core/import/animation_poses.h) turns frames into `Pose`s.
struct ImportedAnimation {
    std::string name;                    ///< The file's name for it; "animation N" (1-based) when it has none.
    double duration = 0.0;               ///< Seconds (ticks over ticks per second; 25 ticks per second when unsaid).
    std::vector<double> times;           ///< #F sample times in seconds, increasing.
    std::vector<std::vector<Eigen::Matrix4d>> global; ///< #F by #J animated joint-to-world transforms G_j.
    int animatedJoints = 0;              ///< Joints moved by a channel (on their node or an ancestor), >= 1.
    int channels = 0;                    ///< Channels in the file's animation.
    int mappedChannels = 0;              ///< Of those, channels on a joint's node.

    int frameCount() const { return static_cast<int>(times.size()); }
};

/// A skeleton and skin weights found in the imported file.
struct ImportedSkeleton {
    std::vector<std::string> names;         ///< #J joint (bone) names, unique.
    std::vector<int> parents;               ///< #J parent index, -1 for roots; parents[i] < i.
    std::vector<Eigen::Matrix4d> bindGlobal;///< #J joint-to-world transforms at bind time (in the +Y-up frame).
    Eigen::SparseMatrix<double, Eigen::RowMajor> W; ///< #V by #J skin weights of the welded vertices; rows sum to 1 where non-empty.
    std::vector<ImportedAnimation> animations; ///< The file's animations that move this skeleton, in file order.
};

/// How the file was read.
struct ImportInfo {
    std::string path;          ///< The file as given.
    std::string format;        ///< File extension, lower case, without the dot.
    std::string upAxis;        ///< The file's up axis as understood: "+Y", "+Z", "-Z", ...
    bool upAxisGuessed = false;///< True when the file did not say and the axis was guessed from the shape.
    int fileVertices = 0;      ///< Vertices in the file (after triangulation), before welding: Σ SourceMesh::vertexCount().
    int fileMeshes = 0;        ///< Meshes (with triangles) in the file.
    std::vector<int> weldMap;  ///< #fileVertices: welded vertex index of each file vertex, in file order.
    double metresPerUnit = 0.0;///< The file's unit in metres where it says (FBX's UnitScaleFactor; glTF: 1); 0 when unknown.
    /// Skinned meshes bound in their own coordinates (DirectX .X), placed where
    /// their skeleton puts them instead of by their frame's transform.
    int meshesPlacedBySkeleton = 0;
    /// Added to every position (mesh, source meshes, joints, animations) to
    /// bring a model that lay far from the origin to it (see
    /// `ImportOptions::recentreDistance`); zero when it was not moved.
    Vec3 recentred = Vec3::Zero();
    /// Triangles dropped because welding collapsed them (two corners at one position).
    int collapsedTriangles = 0;
    /// What the user should know about how the file was read: the model was
    /// moved to the origin; its 32-bit coordinates lost precision far from
    /// the origin (naming the distance, the step and the collapse). Each names the file.
    std::vector<std::string> warnings;
};

/// The result of importing a character file.
struct ImportedCharacter {
    Mesh mesh;                                ///< The welded mesh the pipeline works on.
    std::optional<ImportedSkeleton> skeleton;
    ImportInfo info;
    SourceAsset source;                       ///< The file's meshes, materials and textures as stored; empty for generated characters.
};

/// The parts of a character, as the GUI lists them: one per source mesh (with
/// the connected pieces of the welded surface it covers), or, without source
/// data, one per part of the welded mesh.
std::vector<CharacterPart> characterParts(const ImportedCharacter& character);

/// The welded vertices of each part of `characterParts()`, ascending: a source
/// mesh's vertices carried through its weld map (a welded vertex two meshes
/// share is in both), or the welded mesh's part labels without source data.
std::vector<std::vector<int>> partVertices(const ImportedCharacter& character);

struct ImportOptions {
    /// Files with more triangles than this are refused (absurd sizes).
    int maxTriangles = 5'000'000;
    /// Positions closer than this fraction of the bounding-box diagonal are welded.
    double weldTolerance = 1e-7;
    /// Guess the up axis from the shape when the file does not say (a standing
    /// character is tallest along up). When false, files without metadata are taken as +Y up.
    bool guessUpAxis = true;
    /// Animations with more distinct key times than this are sampled at this
    /// many evenly spaced times instead (bounds memory for baked animations).
    int maxAnimationFrames = 2000;
    /// A model whose bounding-box centre lies farther from the origin than
    /// this many times its diagonal is moved to the origin (its ground centre
    /// to (0, 0, 0)) and the move is reported (`ImportInfo::recentred`): far
    /// from the origin 32-bit coordinates (Assimp's, the GPU's) are coarse.
    /// 0: never move.
    double recentreDistance = 100.0;
    /// The file's coordinates are said to have lost precision when a mesh's
    /// 32-bit floats, at its largest coordinate, step by more than this
    /// fraction of the mesh's own extent (a 2-unit mesh 1e7 units away steps
    /// by 1 unit: half its size). Assimp reads every format into 32-bit
    /// floats (Debian's Assimp 5.2 is built without ASSIMP_DOUBLE_PRECISION),
    /// so the loss happened before Rigsmith sees the numbers: it is reported,
    /// not undone. Where the step exceeds the mesh's median edge, or the
    /// coarse coordinates cost a quarter of the triangles, the file is refused
    /// instead: its shape did not survive, and no rig of what is left would be right.
    double precisionFraction = 1e-4;
};

/// Imports a character file.
/// @throws rig::IoError when the file is missing, unreadable or not understood by Assimp.
/// @throws rig::InvalidInput when it has no triangles, NaN/inf coordinates or too many triangles;
///         when what the reader returned cannot be the file's character: its
///         32-bit coordinates far from the origin lost its shape (see
///         `precisionFraction`), every vertex lies on a line, or most
///         triangles have no area.
/// @throws rig::Cancelled when `progress` asks to stop.
/// Every message names the file.
ImportedCharacter importCharacter(const std::string& path, const ImportOptions& options = {},
                                  const Progress& progress = {});

/// The file extensions Assimp can read, lower case without dots ("obj", "fbx", ...).
std::vector<std::string> supportedExtensions();

} // namespace rig
