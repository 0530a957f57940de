#include "core/import/mesh_import.h"

#include "core/common/error.h"
#include "core/import/assimp_animation.h"
#include "core/common/dedup.h"
#include "core/import/assimp_source.h"
#include "core/import/guarded_import.h" // kRaiseTriangleLimit
#include "core/mesh/mesh_queries.h"

#include <Eigen/Eigenvalues>

#include <assimp/DefaultLogger.hpp>
#include <assimp/Importer.hpp>
#include <assimp/LogStream.hpp>
#include <assimp/ProgressHandler.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace rig {
namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

std::string lowerExtension(const std::string& path)
{
    std::string ext = std::filesystem::path(path).extension().string();
    if (!ext.empty() && ext[0] == '.')
        ext.erase(0, 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

/// Forwards Assimp's read progress (0..50 %) and lets the user cancel the read.
class AssimpProgress : public Assimp::ProgressHandler {
public:
    explicit AssimpProgress(const Progress& p) : m_progress(p) {}
    bool Update(float percentage) override
    {
        if (m_progress.report && percentage >= 0.0f)
            m_progress.report("read", 0.5 * std::clamp(percentage, 0.0f, 1.0f));
        return !m_progress.cancelled(); // false aborts the read
    }

private:
    const Progress& m_progress;
};

/// Assimp repairs some damage silently and only logs it as an error. We collect
/// the errors logged on this thread during a read so that damaged geometry is
/// refused with Assimp's own words instead of loading a silently altered mesh.
thread_local std::vector<std::string> t_assimpErrors;

class ErrorCollector : public Assimp::LogStream {
public:
    void write(const char* message) override
    {
        std::string m = message ? message : "";
        while (!m.empty() && (m.back() == '\n' || m.back() == '\r'))
            m.pop_back();
        if (auto pos = m.find("T0: "); pos != std::string::npos) // strip Assimp's "Error, T0: " prefix
            m.erase(0, pos + 4);
        else if (auto p2 = m.find(": "); p2 != std::string::npos && m.rfind("Error", 0) == 0)
            m.erase(0, p2 + 2);
        t_assimpErrors.push_back(m);
    }
};

void installErrorCollector()
{
    static std::once_flag once;
    std::call_once(once, [] {
        Assimp::DefaultLogger::create(nullptr, Assimp::Logger::NORMAL, 0);
        Assimp::DefaultLogger::get()->attachStream(new ErrorCollector, Assimp::Logger::Err);
    });
}

/// Errors Assimp logged about the geometry itself (faces, indices, vertices):
/// the file is damaged even if Assimp produced a scene.
std::optional<std::string> geometryDamage(const std::vector<std::string>& errors)
{
    for (const std::string& e : errors) {
        std::string lower = e;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (lower.find("bone") != std::string::npos)
            continue; // a bad bone weight is dropped; the geometry is intact
        for (const char* word : {"face", "index", "indices", "vertex", "vertices"})
            if (lower.find(word) != std::string::npos)
                return e;
    }
    return std::nullopt;
}

/// Text formats whose header declares element counts (OFF, PLY): refuse counts
/// the file cannot possibly hold before Assimp tries to allocate for them (a
/// header claiming 10^13 vertices otherwise keeps Assimp busy for a long time).
void checkDeclaredCounts(const std::string& path, const std::string& ext, std::uintmax_t fileSize)
{
    std::ifstream in(path, std::ios::binary);
    auto refuse = [&](const std::string& what, double n) {
        std::ostringstream msg;
        msg << "cannot read '" << path << "': the header declares " << std::llround(std::min(n, 9.2e18)) << " "
            << what << " but the file has only " << fileSize << " bytes (truncated or corrupt)";
        throw IoError(msg.str());
    };
    if (ext == "off") {
        std::string magic;
        in >> magic;
        if (magic.find("OFF") == std::string::npos)
            return;
        double nv = 0, nf = 0;
        if (in >> nv >> nf) {
            if (nv * 6 > double(fileSize))
                refuse("vertices", nv);
            if (nf * 6 > double(fileSize))
                refuse("faces", nf);
        }
    } else if (ext == "ply") {
        std::string line;
        for (int i = 0; i < 200 && std::getline(in, line); ++i) {
            if (line.rfind("end_header", 0) == 0)
                break;
            std::istringstream ls(line);
            std::string kw, name;
            double n = 0;
            if (ls >> kw >> name >> n && kw == "element" && n * 3 > double(fileSize))
                refuse(name + " elements", n);
        }
    }
}

/// Global transform of every node, by node pointer.
void collectNodes(const aiNode* node, const Eigen::Matrix4d& parentGlobal,
                  std::vector<std::pair<const aiNode*, Eigen::Matrix4d>>& out)
{
    const Eigen::Matrix4d global = parentGlobal * toEigen(node->mTransformation);
    out.emplace_back(node, global);
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        collectNodes(node->mChildren[i], global, out);
}

/// Rotation taking the file's up axis to +Y (right-handed, keeps the facing sensible).
Eigen::Matrix4d upFix(int axis, int sign)
{
    Eigen::Matrix4d R = Eigen::Matrix4d::Identity();
    if (axis == 2) { // Z up: rotate -90 degrees about X so +Z goes to +Y (and +Y to -Z).
        R.block<3, 3>(0, 0) << 1, 0, 0, 0, 0, 1, 0, -1, 0;
    } else if (axis == 0) { // X up: rotate +90 degrees about Z so +X goes to +Y.
        R.block<3, 3>(0, 0) << 0, -1, 0, 1, 0, 0, 0, 0, 1;
    }
    if (sign < 0) { // flip about the horizontal X axis (180 degrees)
        Eigen::Matrix4d F = Eigen::Matrix4d::Identity();
        F(1, 1) = -1;
        F(2, 2) = -1;
        R = F * R;
    }
    return R;
}

std::string axisName(int axis, int sign) { return std::string(sign < 0 ? "-" : "+") + "XYZ"[axis]; }

/// A mesh of the file as a node places it.
struct Instance {
    const aiMesh* mesh;
    Eigen::Matrix4d global; ///< Mesh-to-world transform.
    int node;               ///< Index of the placing node in the depth-first node list.
    int firstVertex = 0;    ///< Its first file vertex in the merged list.
    std::vector<int> vertexOfSource; ///< #v file vertices: aiMesh vertex of each (see fileVertices()).
    std::vector<int> sourceOfVertex; ///< Per aiMesh vertex: its file vertex.
};

/// Where a skinned mesh goes. Its offset matrices say in which space the mesh
/// was bound: most files (FBX, glTF, Collada, MD5) bind the mesh as its node
/// places it, so that at bind node-to-world · offset = the mesh's global
/// transform; DirectX .X files bind the mesh's own coordinates and ignore the
/// mesh frame's transform (node-to-world · offset = identity), as Direct3D
/// and Assimp's viewer skin them. Such a mesh is placed where its skeleton
/// puts it at bind (the identity) rather than by its frame, or its skinned
/// parts would sit away from their bones (a head beside its neck). The two
/// are told apart at the file's own node transforms (the bind pose unless the
/// file was saved posed), by which of the two the bones agree with better.
void placeSkinnedMeshes(std::vector<Instance>& instances,
                        const std::vector<std::pair<const aiNode*, Eigen::Matrix4d>>& nodes, ImportInfo& info)
{
    std::unordered_map<std::string, const Eigen::Matrix4d*> restOfName;
    for (const auto& [node, global] : nodes)
        restOfName.try_emplace(node->mName.C_Str(), &global); // depth-first: the first of a name wins
    for (Instance& inst : instances) {
        if (inst.mesh->mNumBones == 0 || inst.global.isIdentity(1e-12))
            continue;
        Box3 box;
        for (unsigned v = 0; v < inst.mesh->mNumVertices; ++v) {
            const aiVector3D& a = inst.mesh->mVertices[v];
            box.extend(Vec3(a.x, a.y, a.z));
        }
        const double size = std::max(box.diagonal(), 1e-300);
        auto distance = [size](const Eigen::Matrix4d& a, const Eigen::Matrix4d& b) {
            Eigen::Matrix<double, 3, 4> d = (a - b).topRows<3>();
            d.col(3) /= size;
            return std::isfinite(d.norm()) ? d.norm() : 1e300;
        };
        double byNode = 0.0, bySkeleton = 0.0;
        for (unsigned b = 0; b < inst.mesh->mNumBones; ++b) {
            const auto it = restOfName.find(inst.mesh->mBones[b]->mName.C_Str());
            if (it == restOfName.end())
                continue;
            const Eigen::Matrix4d q = *it->second * toEigen(inst.mesh->mBones[b]->mOffsetMatrix);
            byNode += distance(q, inst.global);
            bySkeleton += distance(q, Eigen::Matrix4d::Identity());
        }
        if (bySkeleton < byNode) {
            inst.global = Eigen::Matrix4d::Identity();
            ++info.meshesPlacedBySkeleton;
        }
    }
}

using NodeList = std::vector<std::pair<const aiNode*, Eigen::Matrix4d>>;

/// Refuses what is not a readable, non-empty file before Assimp sees it.
void checkReadable(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw IoError("cannot open " + quoted(path) + ": no such file");
    if (fs::is_directory(path, ec))
        throw IoError("cannot open " + quoted(path) + ": it is a folder, not a file");
    if (!std::ifstream(path, std::ios::binary).good())
        throw IoError("cannot open " + quoted(path) + ": permission denied or unreadable");
    if (fs::file_size(path, ec) == 0)
        throw IoError("cannot read " + quoted(path) + ": the file is empty");
    checkDeclaredCounts(path, lowerExtension(path), fs::file_size(path, ec));
}

/// Reads the scene: triangulated, points and lines dropped, vertices as the
/// file stores them (no JoinIdenticalVertices: fileVertices() and our weld do
/// that, keeping the file's vertex order for the export).
const aiScene* readScene(Assimp::Importer& importer, const std::string& path, const Progress& progress)
{
    installErrorCollector();
    t_assimpErrors.clear();
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    importer.SetProgressHandler(new AssimpProgress(progress)); // the importer owns and deletes it
    const unsigned flags = aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_ValidateDataStructure;
    const aiScene* scene = importer.ReadFile(path, flags);
    progress.checkCancelled();
    if (!scene) {
        std::string why = importer.GetErrorString();
        if (why.empty())
            why = "unknown error";
        if (why.find("No meshes remaining") != std::string::npos || why.find("contains no faces") != std::string::npos)
            throw InvalidInput(quoted(path) + " contains no triangles (only points, lines or nothing)");
        throw IoError("cannot read " + quoted(path) + ": " + why);
    }
    if (auto damage = geometryDamage(t_assimpErrors))
        throw IoError("cannot read " + quoted(path) + ": the file is damaged (" + *damage + ")");
    if (!scene->mRootNode)
        throw IoError("cannot read " + quoted(path) + ": the file has no scene graph");
    return scene;
}

/// Refuses absurd sizes before allocating anything of our own.
void checkTriangleCount(const aiScene* scene, const std::string& path, const ImportOptions& options)
{
    long long fileTriangles = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m)
        if (scene->mMeshes[m]->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)
            fileTriangles += scene->mMeshes[m]->mNumFaces;
    if (fileTriangles > options.maxTriangles)
        throw InvalidInput(quoted(path) + " has " + std::to_string(fileTriangles) + " triangles; at most " +
                           std::to_string(options.maxTriangles) + " are read (" + kRaiseTriangleLimit + ")");
}

/// The up axis the file declares: its metadata where it has one (FBX), else
/// the format's convention (glTF and DirectX .X are +Y up, Assimp converts
/// Collada to +Y); `known` false when neither says.
struct UpAxis {
    int axis = 1;
    int sign = 1;
    bool known = false;
};

UpAxis declaredUpAxis(const aiScene* scene, const std::string& format)
{
    UpAxis up;
    up.known = format == "gltf" || format == "glb" || format == "dae" || format == "x";
    int32_t axis = 1, sign = 1;
    if (scene->mMetaData && scene->mMetaData->Get("UpAxis", axis)) {
        scene->mMetaData->Get("UpAxisSign", sign);
        if (axis >= 0 && axis <= 2) {
            up.axis = axis;
            up.sign = sign < 0 ? -1 : 1;
            up.known = true;
        }
    }
    return up;
}

/// The file's unit in metres: FBX's UnitScaleFactor (centimetres per unit), glTF's metre; 0 when unsaid.
double declaredUnit(const aiScene* scene, const std::string& format)
{
    if (format == "gltf" || format == "glb")
        return 1.0;
    if (scene->mMetaData) {
        double d = 0;
        float f = 0;
        if (scene->mMetaData->Get("UnitScaleFactor", d) && d > 0 && std::isfinite(d))
            return d / 100.0;
        if (scene->mMetaData->Get("UnitScaleFactor", f) && f > 0 && std::isfinite(f))
            return static_cast<double>(f) / 100.0;
    }
    return 0.0;
}

/// The meshes with triangles, as their nodes place them, in file order, with
/// their file vertices (fileVertices()) numbered one after the other.
std::vector<Instance> meshInstances(const aiScene* scene, const NodeList& nodes, const std::string& path,
                                    ImportInfo& info)
{
    std::vector<Instance> instances;
    for (size_t n = 0; n < nodes.size(); ++n)
        for (unsigned k = 0; k < nodes[n].first->mNumMeshes; ++k) {
            const aiMesh* mesh = scene->mMeshes[nodes[n].first->mMeshes[k]];
            if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || mesh->mNumFaces == 0)
                continue;
            instances.push_back({mesh, nodes[n].second, static_cast<int>(n), 0, {}, {}});
        }
    if (instances.empty())
        throw InvalidInput(quoted(path) + " contains no triangles (only points, lines or nothing)");
    placeSkinnedMeshes(instances, nodes, info);
    int first = 0;
    for (Instance& inst : instances) {
        inst.firstVertex = first;
        inst.vertexOfSource = fileVertices(inst.mesh, inst.sourceOfVertex);
        first += static_cast<int>(inst.vertexOfSource.size());
    }
    info.fileVertices = first;
    info.fileMeshes = static_cast<int>(instances.size());
    return instances;
}

/// The file's vertices and triangles merged, node transforms applied.
struct FileGeometry {
    MatrixX3d V, N;                ///< #fileVertices positions and normals (where hasNormal).
    std::vector<char> hasNormal;   ///< #fileVertices.
    std::vector<int> part;         ///< #fileVertices: index of the instance.
    std::vector<Eigen::Vector3i> F;///< Triangles, into the file vertices.
    Box3 box;                      ///< Bounding box of V.
    /// The mesh whose stored (32-bit) coordinates are coarsest against its own
    /// extent: the step of a float at its largest coordinate over its diagonal.
    struct Precision {
        double ratio = 0.0, step = 0.0, magnitude = 0.0, extent = 0.0;
        std::string mesh;
    } precision;
};

/// The step between neighbouring 32-bit floats at `x` (Assimp stores every
/// coordinate as a float).
double floatStep(double x)
{
    const float f = static_cast<float>(std::min(std::abs(x), 3.0e38));
    return static_cast<double>(std::nextafter(f, std::numeric_limits<float>::infinity())) - static_cast<double>(f);
}

/// How coarse one mesh's stored coordinates are (see FileGeometry::Precision).
void notePrecision(const aiMesh* am, const std::vector<int>& vertexOfSource, const std::string& name,
                   FileGeometry::Precision& worst)
{
    Box3 local;
    double magnitude = 0.0;
    for (const int v : vertexOfSource) {
        const aiVector3D& a = am->mVertices[v];
        const Vec3 p(a.x, a.y, a.z);
        local.extend(p);
        magnitude = std::max(magnitude, p.cwiseAbs().maxCoeff());
    }
    const double extent = local.diagonal(), step = floatStep(magnitude);
    const double ratio = step / std::max(extent, std::numeric_limits<double>::min());
    if (vertexOfSource.empty() || ratio <= worst.ratio)
        return;
    worst = {ratio, step, magnitude, extent, name};
}

std::string instanceName(const Instance& inst, size_t p)
{
    const std::string name = inst.mesh->mName.length ? inst.mesh->mName.C_Str() : "";
    return name.empty() ? "part " + std::to_string(p + 1) : name;
}

FileGeometry mergeInstances(const std::vector<Instance>& instances, int fileVertices, const std::string& path,
                            Mesh& mesh, const Progress& progress)
{
    FileGeometry g;
    g.V.resize(fileVertices, 3);
    g.N.resize(fileVertices, 3);
    g.hasNormal.assign(static_cast<size_t>(fileVertices), 0);
    g.part.assign(static_cast<size_t>(fileVertices), 0);
    for (size_t p = 0; p < instances.size(); ++p) {
        const Instance& inst = instances[p];
        const aiMesh* am = inst.mesh;
        const std::string name = instanceName(inst, p);
        mesh.partNames.push_back(name);
        const Eigen::Matrix3d normalMatrix = inst.global.block<3, 3>(0, 0).inverse().transpose();
        for (size_t s = 0; s < inst.vertexOfSource.size(); ++s) {
            const int v = inst.vertexOfSource[s], row = inst.firstVertex + static_cast<int>(s);
            const aiVector3D& a = am->mVertices[v];
            if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(a.z))
                throw InvalidInput(quoted(path) + ": vertex " + std::to_string(v) + " of mesh '" + name +
                                   "' has a NaN or infinite coordinate");
            const Eigen::Vector4d x = inst.global * Eigen::Vector4d(a.x, a.y, a.z, 1.0);
            g.V.row(row) = x.head<3>().transpose();
            g.part[row] = static_cast<int>(p);
            if (am->mNormals) {
                const aiVector3D& n = am->mNormals[v];
                const Vec3 nn = normalMatrix * Vec3(n.x, n.y, n.z);
                if (nn.allFinite() && nn.norm() > 0) {
                    g.N.row(row) = nn.normalized().transpose();
                    g.hasNormal[row] = 1;
                }
            }
        }
        notePrecision(am, inst.vertexOfSource, name, g.precision);
        for (unsigned f = 0; f < am->mNumFaces; ++f) {
            const aiFace& face = am->mFaces[f];
            if (face.mNumIndices != 3)
                continue;
            auto corner = [&](int c) { return inst.firstVertex + inst.sourceOfVertex[face.mIndices[c]]; };
            g.F.push_back(Eigen::Vector3i(corner(0), corner(1), corner(2)));
        }
        progress.update("merge", 0.5 + 0.2 * double(p + 1) / double(instances.size()));
    }
    if (g.F.empty())
        throw InvalidInput(quoted(path) + " contains no triangles");
    if (!g.V.allFinite())
        throw InvalidInput(quoted(path) + ": a node transform produced NaN or infinite coordinates");
    for (Eigen::Index i = 0; i < g.V.rows(); ++i)
        g.box.extend(g.V.row(i).transpose());
    return g;
}

/// Brings the geometry to +Y up. When the file did not say, guesses from the
/// shape: a standing character is tallest along up; Z-up (CAD, 3ds Max,
/// Blender's OBJ default off) is the only common alternative, so only switch
/// when Z clearly dominates. Returns the rotation applied.
Eigen::Matrix4d orient(FileGeometry& g, UpAxis up, const ImportOptions& options, ImportInfo& info)
{
    if (!up.known) {
        info.upAxisGuessed = true;
        const Vec3 s = g.box.size();
        if (options.guessUpAxis && s.z() > 1.2 * s.y() && s.z() >= s.x())
            up.axis = 2;
    }
    info.upAxis = axisName(up.axis, up.sign);
    const Eigen::Matrix4d fix = upFix(up.axis, up.sign);
    if (!fix.isIdentity()) {
        const Eigen::Matrix3d R = fix.block<3, 3>(0, 0);
        g.V = g.V * R.transpose();
        g.N = g.N * R.transpose();
        g.box = Box3();
        for (Eigen::Index i = 0; i < g.V.rows(); ++i)
            g.box.extend(g.V.row(i).transpose());
    }
    return fix;
}

std::string number(double x)
{
    std::ostringstream out;
    out << std::setprecision(3) << x;
    return out.str();
}

/// Moves a model that lies far from the origin (its box centre farther than
/// `options.recentreDistance` diagonals away) so that its ground centre (the
/// box's bottom centre, +Y up) is at the origin; `fix` gets the move, so the
/// source meshes, joints and animations move with it. Far from the origin the
/// 32-bit floats of the viewport (and of Assimp, see `precisionWarnings`)
/// resolve the model coarsely; near it they do not.
void recentre(FileGeometry& g, const ImportOptions& options, const std::string& path, Eigen::Matrix4d& fix,
              ImportInfo& info)
{
    const double diagonal = g.box.diagonal();
    const Vec3 centre = g.box.center();
    if (!(options.recentreDistance > 0.0) || !(centre.norm() > options.recentreDistance * diagonal))
        return;
    const Vec3 move(-centre.x(), -g.box.min.y(), -centre.z());
    g.V.rowwise() += move.transpose();
    g.box.min += move;
    g.box.max += move;
    Eigen::Matrix4d translate = Eigen::Matrix4d::Identity();
    translate.block<3, 1>(0, 3) = move;
    fix = translate * fix;
    info.recentred = move;
    info.warnings.push_back(quoted(path) + ": the model lay " + number(centre.norm()) + " units from the origin, " +
                            number(centre.norm() / std::max(diagonal, 1e-300)) +
                            " times its size; it was moved to the origin by (" + number(move.x()) + ", " +
                            number(move.y()) + ", " + number(move.z()) + ") (a glTF export puts it back where the file has it)");
}

/// Where the file's 32-bit coordinates are coarse: "mesh 'M' is stored D units
/// from the origin, where the file's 32-bit coordinates step by S units, on a
/// mesh E units across".
std::string coarseText(const FileGeometry::Precision& p)
{
    return "mesh '" + p.mesh + "' is stored " + number(p.magnitude) +
           " units from the origin, where the file's 32-bit coordinates step by " + number(p.step) +
           " units, on a mesh " + number(p.extent) + " units across";
}

constexpr const char* kMoveNearOrigin = "Move the model near the origin in the modelling tool and export it again";

/// Warns when the file's coordinates lost precision before Rigsmith saw them:
/// Assimp reads every coordinate into a 32-bit float, which far from the
/// origin steps by whole units (at 1e7: 1 unit), so a small mesh placed there
/// in the file is snapped to that step. Nothing restores the lost digits; the
/// warning says where they went and how to keep them (move the model near the
/// origin before export). A mesh that lost triangles so was refused before
/// (`refuseImplausible()`); here the shape is coarse but whole, or welding
/// collapsed a few triangles near the origin.
void precisionWarnings(const FileGeometry& g, const ImportOptions& options, const std::string& path,
                       ImportInfo& info)
{
    const FileGeometry::Precision& p = g.precision;
    const auto triangles = static_cast<double>(g.F.size());
    const bool coarse = p.ratio > options.precisionFraction;
    const bool collapsed = info.collapsedTriangles > 0 && info.collapsedTriangles >= 0.01 * triangles;
    if (!coarse && !collapsed)
        return;
    std::string text = quoted(path) + ": ";
    if (coarse)
        text += coarseText(p) + ": its shape lost precision";
    else
        text += "welding collapsed triangles (two corners at one position)";
    if (info.collapsedTriangles > 0)
        text += std::string(coarse ? " (" : ": ") + std::to_string(info.collapsedTriangles) + " of " +
                std::to_string(g.F.size()) + " triangles collapsed" + (coarse ? ")" : "");
    if (coarse)
        text += std::string(". ") + kMoveNearOrigin;
    info.warnings.push_back(text);
}

/// Welds coincident positions (quantized to the tolerance and hashed) into
/// `mesh` and fills `info.weldMap`; triangles collapsed by welding are dropped.
void weld(const FileGeometry& g, const ImportOptions& options, const std::string& path, Mesh& mesh, ImportInfo& info)
{
    // The cell keys must fit a long long (a zero-size mesh far from the origin gave 1e19).
    const double tol = std::max({options.weldTolerance * g.box.diagonal(), 1e-12,
                                 g.V.size() > 0 ? g.V.cwiseAbs().maxCoeff() / 0x1p62 : 0.0});
    const auto fileVertices = static_cast<int>(g.V.rows());
    std::vector<std::array<long long, 3>> keys(static_cast<size_t>(fileVertices));
    for (int v = 0; v < fileVertices; ++v)
        keys[static_cast<size_t>(v)] = {std::llround(g.V(v, 0) / tol), std::llround(g.V(v, 1) / tol),
                                        std::llround(g.V(v, 2) / tol)};
    auto hash = [&](int v) {
        // Unsigned arithmetic wraps by definition (the signed products overflowed).
        using U = unsigned long long;
        const auto& k = keys[static_cast<size_t>(v)];
        return U(k[0]) * 73856093ULL ^ U(k[1]) * 19349663ULL ^ U(k[2]) * 83492791ULL;
    };
    auto same = [&](int a, int b) { return keys[static_cast<size_t>(a)] == keys[static_cast<size_t>(b)]; };
    std::vector<int> representative;
    info.weldMap = groupEqual(fileVertices, hash, same, representative);
    const int nv = static_cast<int>(representative.size());
    mesh.V.resize(nv, 3);
    mesh.part.resize(static_cast<size_t>(nv));
    for (int i = 0; i < nv; ++i) {
        mesh.V.row(i) = g.V.row(representative[i]);
        mesh.part[i] = g.part[representative[i]];
    }
    mesh.F.resize(static_cast<Eigen::Index>(g.F.size()), 3);
    Eigen::Index nf = 0;
    for (const auto& f : g.F) {
        const Eigen::Vector3i w(info.weldMap[f[0]], info.weldMap[f[1]], info.weldMap[f[2]]);
        if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2]) {
            ++info.collapsedTriangles; // collapsed by welding
            continue;
        }
        mesh.F.row(nf++) = w.transpose();
    }
    mesh.F.conservativeResize(nf, 3);
    if (nf == 0) {
        const FileGeometry::Precision& p = g.precision;
        throw InvalidInput(quoted(path) + ": every triangle is degenerate (zero area after welding)" +
                           (p.ratio > options.precisionFraction
                                ? "; " + coarseText(p) + ". " + kMoveNearOrigin
                                : std::string()));
    }
}

/// The welded triangles without area: corners on one line (twice the area at
/// most 1e-12 of the box diagonal squared).
long long zeroAreaTriangles(const Mesh& mesh, double diagonal)
{
    const double tiny = 1e-12 * diagonal * diagonal;
    long long n = 0;
    for (Eigen::Index f = 0; f < mesh.F.rows(); ++f) {
        const Vec3 a = mesh.V.row(mesh.F(f, 0)), b = mesh.V.row(mesh.F(f, 1)), c = mesh.V.row(mesh.F(f, 2));
        n += (b - a).cross(c - a).norm() <= tiny ? 1 : 0;
    }
    return n;
}

/// The median length of the file's triangle edges (as read: zero where the
/// 32-bit coordinates collapsed them).
double medianEdge(const FileGeometry& g)
{
    std::vector<double> lengths;
    lengths.reserve(3 * g.F.size());
    for (const Eigen::Vector3i& f : g.F)
        for (int k = 0; k < 3; ++k)
            lengths.push_back((g.V.row(f[k]) - g.V.row(f[(k + 1) % 3])).norm());
    const auto middle = lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2);
    std::nth_element(lengths.begin(), middle, lengths.end());
    return lengths.empty() ? 0.0 : *middle;
}

/// Whether every vertex lies on one straight line: the spread across the
/// principal axis is below 1e-6 of the spread along it (float noise on a line).
bool collinear(const MatrixX3d& V)
{
    const Eigen::RowVector3d mean = V.colwise().mean();
    const Eigen::Matrix3d covariance = (V.rowwise() - mean).transpose() * (V.rowwise() - mean);
    const Eigen::Vector3d spread = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(covariance).eigenvalues(); // ascending
    return spread(2) > 0.0 && std::sqrt(std::max(spread(1), 0.0)) <= 1e-6 * std::sqrt(spread(2));
}

/// Refuses a mesh that cannot be the character the file holds (issue 47): one
/// whose coarse 32-bit coordinates far from the origin step by more than its
/// median edge, or cost it a quarter of its triangles (collapsed and
/// flattened: rigging the remains gave a slab, with the up axis blamed; the
/// generated figure 1e7 away: steps of 1 unit on edges of 2 cm; a unit cube
/// there is exact and kept); one whose vertices all lie on a line (a curve
/// skeleton of it has two ends, and the fit said only that); one whose
/// triangles mostly have no area (a reader that returned garbage without failing).
void refuseImplausible(const FileGeometry& g, const Mesh& mesh, const ImportOptions& options, const std::string& path,
                       const ImportInfo& info)
{
    const auto triangles = static_cast<long long>(g.F.size());
    const long long flat = zeroAreaTriangles(mesh, g.box.diagonal()), lost = info.collapsedTriangles + flat;
    const std::string ofAll = std::to_string(lost) + " of " + std::to_string(triangles) + " triangles";
    const FileGeometry::Precision& p = g.precision;
    const double edge = p.ratio > options.precisionFraction ? medianEdge(g) : 0.0; // coarse only: 3 #F lengths
    if (p.ratio > options.precisionFraction && (p.step > edge || 4 * lost >= triangles))
        throw InvalidInput(quoted(path) + ": " + coarseText(p) + ", whose typical edge is " + number(edge) +
                           " units: its shape did not survive (" + ofAll + " lost their area, the rest is snapped "
                           "to that step). The file's reader (Assimp) holds coordinates as 32-bit floats, so the "
                           "lost digits cannot be restored here. " + kMoveNearOrigin);
    if (collinear(mesh.V))
        throw InvalidInput(quoted(path) + ": every vertex lies on one straight line (the mesh is collinear: its "
                                          "triangles have no area), so there is no surface or inside to rig. Check "
                                          "the export (a scale of zero on two axes?)");
    if (2 * lost > triangles)
        throw InvalidInput(quoted(path) + ": " + ofAll + " have no area (collinear or coincident corners): the file "
                                          "is damaged or was not read right. Open it in the modelling tool, remove "
                                          "degenerate faces (merge by distance) and export it again");
}

/// The file's normals averaged over welded copies; computed where it has none.
MatrixX3d weldedNormals(const FileGeometry& g, const std::vector<int>& weldMap, const Mesh& mesh)
{
    MatrixX3d N = vertexNormals(mesh.V, mesh.F);
    MatrixX3d sum = MatrixX3d::Zero(mesh.vertexCount(), 3);
    for (size_t v = 0; v < weldMap.size(); ++v)
        if (g.hasNormal[v])
            sum.row(weldMap[v]) += g.N.row(static_cast<Eigen::Index>(v));
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        const double len = sum.row(i).norm();
        if (len > 1e-9)
            N.row(i) = sum.row(i) / len;
    }
    return N;
}

/// Each instance as the file has it, in the welded mesh's frame (`fix` after
/// the node transform), with its map to the welded vertices.
std::vector<SourceMesh> sourceMeshes(const std::vector<Instance>& instances, const NodeList& nodes,
                                     const FileGeometry& g, const Eigen::Matrix4d& fix, const Mesh& mesh,
                                     const std::vector<int>& weldMap)
{
    std::vector<SourceMesh> out;
    out.reserve(instances.size());
    for (size_t p = 0; p < instances.size(); ++p) {
        const Instance& inst = instances[p];
        SourceMesh s;
        s.name = instanceName(inst, p);
        s.node = inst.node;
        s.nodeName = nodes[static_cast<size_t>(inst.node)].first->mName.C_Str();
        s.material = static_cast<int>(inst.mesh->mMaterialIndex);
        const auto n = static_cast<Eigen::Index>(inst.vertexOfSource.size());
        s.V = g.V.middleRows(inst.firstVertex, n);
        s.welded.assign(weldMap.begin() + inst.firstVertex, weldMap.begin() + inst.firstVertex + n);
        if (inst.mesh->mNormals) {
            s.N = g.N.middleRows(inst.firstVertex, n);
            for (Eigen::Index i = 0; i < n; ++i)
                if (!g.hasNormal[static_cast<size_t>(inst.firstVertex + i)]) // a zero normal: the welded one
                    s.N.row(i) = mesh.N.row(s.welded[static_cast<size_t>(i)]);
        }
        std::vector<Eigen::Vector3i> tris;
        for (unsigned f = 0; f < inst.mesh->mNumFaces; ++f) {
            const aiFace& face = inst.mesh->mFaces[f];
            if (face.mNumIndices == 3)
                tris.emplace_back(inst.sourceOfVertex[face.mIndices[0]], inst.sourceOfVertex[face.mIndices[1]],
                                  inst.sourceOfVertex[face.mIndices[2]]);
        }
        s.F.resize(static_cast<Eigen::Index>(tris.size()), 3);
        for (size_t f = 0; f < tris.size(); ++f)
            s.F.row(static_cast<Eigen::Index>(f)) = tris[f].transpose();
        const Eigen::Matrix3d linear = fix.block<3, 3>(0, 0) * inst.global.block<3, 3>(0, 0);
        readSourceAttributes(inst.mesh, inst.vertexOfSource, linear, s);
        out.push_back(std::move(s));
    }
    return out;
}

/// The joints: the nodes the meshes' bones name, in depth-first order
/// (parents first; duplicate names keep the first), with the bind transforms
/// their offset matrices give. `jointNodes` gets each joint's node.
ImportedSkeleton skeletonJoints(const NodeList& nodes, const std::vector<Instance>& instances,
                                const Eigen::Matrix4d& fix, std::vector<const aiNode*>& jointNodes)
{
    struct BoneRef {
        const aiBone* bone;
        Eigen::Matrix4d meshGlobal;
    };
    std::map<std::string, BoneRef> bones; // name -> the first mesh's bone of that name
    for (const Instance& inst : instances)
        for (unsigned b = 0; b < inst.mesh->mNumBones; ++b)
            bones.try_emplace(inst.mesh->mBones[b]->mName.C_Str(), BoneRef{inst.mesh->mBones[b], inst.global});
    ImportedSkeleton skel;
    std::unordered_map<const aiNode*, int> jointOfNode;
    for (const auto& [node, global] : nodes) { // depth-first: parents come first
        auto it = bones.find(node->mName.C_Str());
        if (it == bones.end() || jointOfNode.count(node))
            continue;
        int parent = -1;
        for (const aiNode* a = node->mParent; a; a = a->mParent)
            if (auto pj = jointOfNode.find(a); pj != jointOfNode.end()) {
                parent = pj->second;
                break;
            }
        const int j = static_cast<int>(skel.names.size());
        if (std::find(skel.names.begin(), skel.names.end(), it->first) != skel.names.end())
            continue; // duplicate node names: keep the first
        jointOfNode[node] = j;
        jointNodes.push_back(node);
        skel.names.push_back(it->first);
        skel.parents.push_back(parent);
        // offset = inverse(bindGlobal) * meshGlobal, so bindGlobal = meshGlobal * inverse(offset).
        const Eigen::Matrix4d bind = it->second.meshGlobal * toEigen(it->second.bone->mOffsetMatrix).inverse();
        skel.bindGlobal.push_back(fix * (bind.allFinite() ? bind : global));
    }
    return skel;
}

/// The bones' weights on the welded vertices (#weldedVertices by #J), each
/// file vertex counted once; welded copies' weights are summed and each row
/// normalized back to 1.
Eigen::SparseMatrix<double, Eigen::RowMajor> weldedWeights(const std::vector<Instance>& instances,
                                                           const std::vector<std::string>& names,
                                                           const std::vector<int>& weldMap, int weldedVertices)
{
    std::unordered_map<std::string, int> jointIndex;
    for (size_t j = 0; j < names.size(); ++j)
        jointIndex[names[j]] = static_cast<int>(j);
    std::vector<Eigen::Triplet<double>> triplets;
    for (const Instance& inst : instances)
        for (unsigned b = 0; b < inst.mesh->mNumBones; ++b) {
            const aiBone* bone = inst.mesh->mBones[b];
            auto it = jointIndex.find(bone->mName.C_Str());
            if (it == jointIndex.end())
                continue; // a bone whose node is missing from the hierarchy
            for (unsigned w = 0; w < bone->mNumWeights; ++w) {
                const aiVertexWeight& vw = bone->mWeights[w];
                if (vw.mVertexId >= inst.mesh->mNumVertices || !std::isfinite(vw.mWeight) || vw.mWeight <= 0)
                    continue;
                const int s = inst.sourceOfVertex[vw.mVertexId];
                if (inst.vertexOfSource[static_cast<size_t>(s)] != static_cast<int>(vw.mVertexId))
                    continue; // a joined copy: its file vertex is counted at the first copy
                triplets.emplace_back(weldMap[static_cast<size_t>(inst.firstVertex + s)], it->second, vw.mWeight);
            }
        }
    Eigen::SparseMatrix<double, Eigen::RowMajor> W(weldedVertices, static_cast<Eigen::Index>(names.size()));
    W.setFromTriplets(triplets.begin(), triplets.end());
    for (Eigen::Index r = 0; r < W.outerSize(); ++r) {
        double sum = 0;
        for (decltype(W)::InnerIterator it(W, r); it; ++it)
            sum += it.value();
        if (sum > 0)
            for (decltype(W)::InnerIterator it(W, r); it; ++it)
                it.valueRef() /= sum;
    }
    return W;
}

/// The file's skeleton, its skin weights on the welded vertices and the
/// animations that move it; none when the file has no bones.
std::optional<ImportedSkeleton> importSkeleton(const aiScene* scene, const NodeList& nodes,
                                               const std::vector<Instance>& instances,
                                               const std::vector<int>& weldMap, int weldedVertices,
                                               const Eigen::Matrix4d& fix, const ImportOptions& options)
{
    std::vector<const aiNode*> jointNodes;
    ImportedSkeleton skel = skeletonJoints(nodes, instances, fix, jointNodes);
    if (skel.names.empty())
        return std::nullopt;
    skel.W = weldedWeights(instances, skel.names, weldMap, weldedVertices);
    NodeTable table;
    flatten(scene->mRootNode, -1, table);
    std::unordered_map<const aiNode*, int> indexOfNode;
    for (size_t i = 0; i < table.nodes.size(); ++i)
        indexOfNode[table.nodes[i]] = static_cast<int>(i);
    std::vector<int> jointNode;
    for (const aiNode* node : jointNodes)
        jointNode.push_back(indexOfNode.at(node));
    skel.animations = sampleAnimations(scene, table, jointNode, fix, options.maxAnimationFrames);
    return skel;
}

} // namespace

std::vector<std::string> supportedExtensions()
{
    Assimp::Importer importer;
    std::string list;
    importer.GetExtensionList(list); // "*.3ds;*.obj;..."
    std::vector<std::string> out;
    size_t start = 0;
    while (start < list.size()) {
        size_t end = list.find(';', start);
        if (end == std::string::npos)
            end = list.size();
        std::string item = list.substr(start, end - start);
        if (item.rfind("*.", 0) == 0)
            item.erase(0, 2);
        if (!item.empty())
            out.push_back(item);
        start = end + 1;
    }
    return out;
}

ImportedCharacter importCharacter(const std::string& path, const ImportOptions& options, const Progress& progress)
{
    checkReadable(path);
    Assimp::Importer importer;
    const aiScene* scene = readScene(importer, path, progress);
    progress.update("merge", 0.5); // the reader is done: what follows is ours (bench/load_breakdown.cpp)
    checkTriangleCount(scene, path, options);

    ImportedCharacter result;
    ImportInfo& info = result.info;
    info.path = path;
    info.format = lowerExtension(path);
    info.metresPerUnit = declaredUnit(scene, info.format);
    NodeList nodes;
    collectNodes(scene->mRootNode, Eigen::Matrix4d::Identity(), nodes);
    const std::vector<Instance> instances = meshInstances(scene, nodes, path, info);

    FileGeometry geometry = mergeInstances(instances, info.fileVertices, path, result.mesh, progress);
    Eigen::Matrix4d fix = orient(geometry, declaredUpAxis(scene, info.format), options, info);
    recentre(geometry, options, path, fix, info);
    weld(geometry, options, path, result.mesh, info);
    refuseImplausible(geometry, result.mesh, options, path, info);
    precisionWarnings(geometry, options, path, info);
    progress.update("weld", 0.8);
    result.mesh.N = weldedNormals(geometry, info.weldMap, result.mesh);

    result.source.meshes = sourceMeshes(instances, nodes, geometry, fix, result.mesh, info.weldMap);
    readSourceMaterials(scene, path, result.source);
    result.skeleton = importSkeleton(scene, nodes, instances, info.weldMap, result.mesh.vertexCount(), fix, options);
    progress.update("import", 1.0);
    return result;
}

} // namespace rig
