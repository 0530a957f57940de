#pragma once
/// @file mesh_import.h
/// Import of character meshes with Assimp (the only place in the code base that
/// includes Assimp). Every format Assimp 5.2 reads is accepted.
///
/// What import does, in order: reads the file (triangulated, points and lines
/// dropped); applies every node transform so that instanced meshes land where
/// the file puts them; merges all meshes into one `Mesh` keeping a part id per
/// vertex; welds coincident positions (keeping the map from the file's vertices
/// to the welded ones, for export); takes the file's normals or computes them;
/// brings the model to +Y up; keeps the file's skeleton and skin weights.

#include "core/common/progress.h"
#include "core/mesh/mesh.h"

#include <Eigen/SparseCore>

#include <optional>
#include <string>
#include <vector>

namespace rig {

/// A skeleton and skin weights found in the imported file.
struct ImportedSkeleton {
    std::vector<std::string> names;         ///< #J joint (bone) names, unique.
    std::vector<int> parents;               ///< #J parent index, -1 for roots; parents[i] < i.
    std::vector<Eigen::Matrix4d> bindGlobal;///< #J joint-to-world transforms at bind time (in the +Y-up frame).
    Eigen::SparseMatrix<double, Eigen::RowMajor> W; ///< #V by #J skin weights of the welded vertices; rows sum to 1 where non-empty.
};

/// How the file was read.
struct ImportInfo {
    std::string path;          ///< The file as given.
    std::string format;        ///< File extension, lower case, without the dot.
    std::string upAxis;        ///< The file's up axis as understood: "+Y", "+Z", "-Z", ...
    bool upAxisGuessed = false;///< True when the file did not say and the axis was guessed from the shape.
    int fileVertices = 0;      ///< Vertices in the file (after triangulation), before welding.
    int fileMeshes = 0;        ///< Meshes (with triangles) in the file.
    std::vector<int> weldMap;  ///< #fileVertices: welded vertex index of each file vertex, in file order.
};

/// The result of importing a character file.
struct ImportedCharacter {
    Mesh mesh;
    std::optional<ImportedSkeleton> skeleton;
    ImportInfo info;
};

struct ImportOptions {
    /// Files with more triangles than this are refused (absurd sizes).
    int maxTriangles = 5'000'000;
    /// Positions closer than this fraction of the bounding-box diagonal are welded.
    double weldTolerance = 1e-7;
    /// Guess the up axis from the shape when the file does not say (a standing
    /// character is tallest along up). When false, files without metadata are taken as +Y up.
    bool guessUpAxis = true;
};

/// Imports a character file.
/// @throws rig::IoError when the file is missing, unreadable or not understood by Assimp.
/// @throws rig::InvalidInput when it has no triangles, NaN/inf coordinates or too many triangles.
/// @throws rig::Cancelled when `progress` asks to stop.
/// Every message names the file.
ImportedCharacter importCharacter(const std::string& path, const ImportOptions& options = {},
                                  const Progress& progress = {});

/// The file extensions Assimp can read, lower case without dots ("obj", "fbx", ...).
std::vector<std::string> supportedExtensions();

} // namespace rig
