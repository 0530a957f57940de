#pragma once
/// @file gltf_export.h
/// Export of a rigged, skinned and optionally animated character as glTF 2.0
/// binary (`.glb`, or `.gltf` with its images beside it), written with
/// tinygltf (the only file that includes it), following docs/conventions.md
/// ("glTF 2.0 skins"):
///  - the mesh is written in skeleton (bind, world) space and its node has no
///    transform: clients ignore the skinned mesh node's own transform;
///  - one node per joint, in the skeleton's hierarchy, with the local TRS of the
///    bind pose: rotation B_p⁻¹·B_i and translation B_p⁻¹·(b_i − b_p) (the
///    root: B_0 and b_0), B the bind orientations and b the bind positions of
///    core/rig/skeleton.h; joint names are the skeleton's (unique);
///  - `inverseBindMatrices`: the inverse of each joint's bind transform [B_i | b_i];
///  - `JOINTS_0` (VEC4 unsigned short) and `WEIGHTS_0` (VEC4 float) with at most
///    four influences per vertex, limited continuously and normalized in float
///    (`gltfSkinAttributes()`); `NORMAL` when the mesh has normals;
///  - the clip as one animation: per joint a LINEAR rotation channel, plus the
///    root's translation, keyed at the clip's frame times (k · frameTime).
///
/// A character imported from a file is written as the file has it
/// (`SourceAsset`, core/import/source_mesh.h): one glTF mesh per file mesh (a
/// primitive per material) with the file's vertex order and every attribute
/// (NORMAL, TEXCOORD_n with v flipped to glTF's downward v, COLOR_n, TANGENT),
/// its materials (metallic-roughness factors and textures, alpha mode,
/// double-sided) and images (PNG/JPEG, in the .glb's buffer or as files beside
/// a .gltf), and mesh and node names. The skin of each vertex is that of its
/// welded twin (SourceMesh::welded), so welded copies (the two sides of a UV
/// seam) carry identical weights. The welded mesh itself is written only for
/// characters without source data (the generated one).
///
/// A `rig::Pose` local rotation R_i is relative to the joint's bind frame
/// (core/rig/pose.h: O_i = O_p · (B_p⁻¹·B_i) · R_i), so the glTF node-local
/// rotation is bindLocal_i · R_i with bindLocal_i = B_p⁻¹·B_i, and the root's
/// translation is b_0 + t. Skinning the written file in any client
/// (jointMatrix_i = global_i · inverseBind_i, thesis eq. 4.3) therefore gives
/// exactly `lbs()` of core/deform/lbs.h with the limited weights.

#include "core/import/mesh_import.h"
#include "core/import/source_mesh.h"
#include "core/mesh/mesh.h"
#include "core/rig/pose.h"
#include "core/rig/skeleton.h"
#include "core/skin/skin_weights.h"

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace rig {

struct GltfExportOptions {
    /// Influences per vertex in JOINTS_0/WEIGHTS_0, 1 to 4 (glTF's single set).
    int maxInfluences = 4;
    /// Write the NORMAL attribute (computed from the triangles when the mesh has none).
    bool normals = true;
    /// Name of the animation (when frames are given).
    std::string animationName = "clip";
    /// Name of the mesh and of its node (made unique against the joint names).
    std::string meshName = "character";
    /// Key the root's translation (the clip's locomotion); off: rotations only.
    bool rootTranslation = true;
    /// The frames written of each clip: [firstFrame, lastFrame], clamped to the
    /// clip (lastFrame < 0: to its end); times start at 0 at firstFrame.
    int firstFrame = 0;
    int lastFrame = -1;
    /// Multiplies every length written (positions, bind positions, root
    /// motion): 1 keeps the source's units; ImportInfo::metresPerUnit converts to metres.
    double scale = 1.0;
    /// Where the character's frame lies in the written file, in the source's
    /// units (before `scale`): when non-zero, one node named "origin" with
    /// this translation holds every other root, so the positions stay small
    /// (precise in glTF's 32-bit floats) and the offset is a JSON double
    /// (issue 47: a character 10^7 units away). `exportCharacterGltf()` adds
    /// the character's own (minus ImportInfo::recentred): the file puts it back
    /// where its source had it.
    Vec3 origin = Vec3::Zero();
};

/// One animation of an export: a clip on the export's skeleton.
struct GltfClip {
    std::string name;             ///< The animation's name ("clip" when empty).
    std::span<const Pose> frames; ///< Each with #J local rotations.
    double frameTime = 1.0 / 30.0;///< Seconds per frame, > 0.
};

/// The skin attributes as written: #V rows of four joints and four weights.
struct GltfSkinAttributes {
    std::vector<std::array<std::uint16_t, 4>> joints; ///< #V joint indices; 0 in unused slots; no joint twice.
    std::vector<std::array<float, 4>> weights;        ///< #V weights >= 0, decreasing, summing to 1 in float.
};

/// Limits and normalizes influence lists for glTF. Per vertex: weights of the
/// same joint are merged; the kept count is k = maxInfluences; if more than k
/// joints have positive weight, the (k+1)-th largest weight w_{k+1} is
/// subtracted from the k largest ones (so an influence fades to 0 before it is
/// dropped: the limit is continuous in the weights, unlike a hard cut, which
/// creases the surface where the 4th and 5th swap), the rest are dropped, and
/// the kept ones are renormalized. Then the weights are rounded to float and the
/// float residual 1 − Σ is put on the largest weight, so that every row sums to
/// 1 within one float ulp (well inside glTF's 2e-7).
/// Expects 1 <= maxInfluences <= 4; weights finite and non-negative, each row
/// with a positive weight; joint indices in [0, jointCount); jointCount <= 65536.
/// @throws rig::InvalidInput naming `rig::gltfSkinAttributes()` and the first offending vertex.
GltfSkinAttributes gltfSkinAttributes(const SkinWeights& weights, int jointCount, int maxInfluences = 4);

/// What an export wrote, and what it had to leave out.
struct GltfExportReport {
    int meshes = 0;                    ///< glTF meshes written.
    int vertices = 0;                  ///< Vertices written (all meshes).
    int materials = 0;                 ///< Materials written.
    int textures = 0;                  ///< Images written.
    std::vector<std::string> warnings; ///< Textures left out (missing, unreadable, not PNG/JPEG), naming each.
};

/// Writes `path` (.glb, or .gltf: JSON with the buffer embedded) atomically:
/// the bytes go to a temporary file in the same folder, which is flushed,
/// synced and renamed over `path`, so a crash or a full disk never leaves a
/// half-written file (or destroys the previous one). A `path` that exists and
/// is not a regular file (a device, a pipe) is written directly, since a
/// rename cannot replace it.
/// @param mesh the character in skeleton space (#V vertices, #F triangles).
/// @param skeleton the rig (valid: `validateSkeleton()`).
/// @param weights #V influence lists into `skeleton`'s joints.
/// @param frames the clip on `skeleton` (each with #J local rotations), or empty for no animation.
/// @param frameTime seconds per frame, > 0 when frames are given.
/// @throws rig::InvalidInput (naming `rig::exportGltf()`) for inconsistent
///         sizes, an invalid skeleton or weights, or a bad frame time;
///         rig::IoError naming the file when it cannot be written (missing or
///         read-only folder, disk full).
GltfExportReport exportGltf(const std::string& path, const Mesh& mesh, const Skeleton& skeleton,
                            const SkinWeights& weights, std::span<const Pose> frames, double frameTime,
                            const GltfExportOptions& options = {});

/// Writes the file's own meshes, materials and textures (`source`, see the
/// file comment), skinned by `weights` on the welded mesh through each source
/// vertex's welded twin. A texture that cannot be written (no bytes: missing
/// on import; not PNG or JPEG) is left out, named in the report's warnings;
/// its material keeps its factors. A .gltf gets its images as files beside
/// it (named after it); on failure none of them is left behind.
/// @param weights #V influence lists, #V the welded mesh's vertex count
///        (every SourceMesh::welded index < #V).
/// @throws as the other `exportGltf()`, and rig::InvalidInput when `source`
///         has no meshes or a source mesh is inconsistent.
GltfExportReport exportGltf(const std::string& path, const SourceAsset& source, const Skeleton& skeleton,
                            const SkinWeights& weights, std::span<const Pose> frames, double frameTime,
                            const GltfExportOptions& options = {});

/// The export of a loaded character: its source meshes when it has them, else
/// its (welded) mesh, with any number of clips, each its own animation (none:
/// the bind pose only). `options.animationName` is not used (clips have names).
/// A character moved to the origin on import is put back (`options.origin`).
/// @throws as `exportGltf()`; rig::InvalidInput when a clip is empty after the frame range.
GltfExportReport exportCharacterGltf(const std::string& path, const ImportedCharacter& character,
                                     const Skeleton& skeleton, const SkinWeights& weights,
                                     std::span<const GltfClip> clips, const GltfExportOptions& options = {});

/// What Assimp (the importer behind core/import/mesh_import.h) sees of the
/// animations of a file: for verifying an export with an independent reader.
struct ImportedAnimationInfo {
    std::string name;
    double durationSeconds = 0.0; ///< Duration in seconds (Assimp's ticks / ticks per second).
    int channels = 0;             ///< Animated nodes.
    int maxKeys = 0;              ///< Most keys of any channel (rotation, position or scale).
};

/// Reads the animations of any file Assimp understands.
/// @throws rig::IoError naming the file when Assimp cannot read it.
std::vector<ImportedAnimationInfo> readAnimationInfo(const std::string& path);

} // namespace rig
