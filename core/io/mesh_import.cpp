#include "core/io/mesh_import.h"

#include "core/common/error.h"
#include "core/io/assimp_animation.h"
#include "core/mesh/mesh_queries.h"

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
    int firstVertex;
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

    installErrorCollector();
    t_assimpErrors.clear();
    Assimp::Importer importer;
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    importer.SetProgressHandler(new AssimpProgress(progress)); // the importer owns and deletes it
    const unsigned flags = aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_JoinIdenticalVertices |
                           aiProcess_ValidateDataStructure;
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

    ImportedCharacter result;
    ImportInfo& info = result.info;
    info.path = path;
    info.format = lowerExtension(path);

    // Refuse absurd sizes before allocating anything of our own.
    long long fileTriangles = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m)
        if (scene->mMeshes[m]->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)
            fileTriangles += scene->mMeshes[m]->mNumFaces;
    if (fileTriangles > options.maxTriangles)
        throw InvalidInput(quoted(path) + " has " + std::to_string(fileTriangles) + " triangles; at most " +
                           std::to_string(options.maxTriangles) + " are supported (decimate it first)");

    std::vector<std::pair<const aiNode*, Eigen::Matrix4d>> nodes;
    collectNodes(scene->mRootNode, Eigen::Matrix4d::Identity(), nodes);

    // Up axis: from the file's metadata where it has one (FBX), else the format's
    // convention (glTF and DirectX .X are +Y up, Assimp converts Collada to +Y),
    // else guessed below.
    int upAxis = 1, upSign = 1;
    bool known = info.format == "gltf" || info.format == "glb" || info.format == "dae" || info.format == "x";
    if (scene->mMetaData) {
        int32_t axis = 1, sign = 1;
        if (scene->mMetaData->Get("UpAxis", axis)) {
            scene->mMetaData->Get("UpAxisSign", sign);
            if (axis >= 0 && axis <= 2) {
                upAxis = axis;
                upSign = sign < 0 ? -1 : 1;
                known = true;
            }
        }
    }

    // Gather the triangles, with node transforms applied, in file order.
    std::vector<Instance> instances;
    int fileVertices = 0;
    for (const auto& [node, global] : nodes)
        for (unsigned k = 0; k < node->mNumMeshes; ++k) {
            const aiMesh* mesh = scene->mMeshes[node->mMeshes[k]];
            if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || mesh->mNumFaces == 0)
                continue;
            instances.push_back({mesh, global, fileVertices});
            fileVertices += static_cast<int>(mesh->mNumVertices);
        }
    if (instances.empty())
        throw InvalidInput(quoted(path) + " contains no triangles (only points, lines or nothing)");
    placeSkinnedMeshes(instances, nodes, info);
    info.fileVertices = fileVertices;
    info.fileMeshes = static_cast<int>(instances.size());

    MatrixX3d fileV(fileVertices, 3), fileN(fileVertices, 3);
    std::vector<char> hasNormal(static_cast<size_t>(fileVertices), 0);
    std::vector<int> filePart(static_cast<size_t>(fileVertices), 0);
    std::vector<Eigen::Vector3i> fileF;
    Mesh& mesh = result.mesh;
    for (size_t p = 0; p < instances.size(); ++p) {
        const auto& [am, global, first] = instances[p];
        std::string name = am->mName.length ? am->mName.C_Str() : "";
        if (name.empty())
            name = "part " + std::to_string(p + 1);
        mesh.partNames.push_back(name);
        const Eigen::Matrix3d normalMatrix = global.block<3, 3>(0, 0).inverse().transpose();
        for (unsigned v = 0; v < am->mNumVertices; ++v) {
            const aiVector3D& a = am->mVertices[v];
            if (!std::isfinite(a.x) || !std::isfinite(a.y) || !std::isfinite(a.z))
                throw InvalidInput(quoted(path) + ": vertex " + std::to_string(v) + " of mesh '" + name +
                                   "' has a NaN or infinite coordinate");
            const Eigen::Vector4d x = global * Eigen::Vector4d(a.x, a.y, a.z, 1.0);
            fileV.row(first + v) = x.head<3>().transpose();
            filePart[first + v] = static_cast<int>(p);
            if (am->mNormals) {
                const aiVector3D& n = am->mNormals[v];
                const Vec3 nn = normalMatrix * Vec3(n.x, n.y, n.z);
                if (nn.allFinite() && nn.norm() > 0) {
                    fileN.row(first + v) = nn.normalized().transpose();
                    hasNormal[first + v] = 1;
                }
            }
        }
        for (unsigned f = 0; f < am->mNumFaces; ++f) {
            const aiFace& face = am->mFaces[f];
            if (face.mNumIndices != 3)
                continue;
            fileF.push_back(Eigen::Vector3i(first + static_cast<int>(face.mIndices[0]),
                                            first + static_cast<int>(face.mIndices[1]),
                                            first + static_cast<int>(face.mIndices[2])));
        }
        progress.update("merge", 0.5 + 0.2 * double(p + 1) / double(instances.size()));
    }
    if (fileF.empty())
        throw InvalidInput(quoted(path) + " contains no triangles");
    if (!fileV.allFinite())
        throw InvalidInput(quoted(path) + ": a node transform produced NaN or infinite coordinates");

    // Up axis: guess from the shape when the file did not say. A standing
    // character is tallest along up; Z-up (CAD, 3ds Max, Blender's OBJ default
    // off) is the only common alternative, so only switch when Z clearly dominates.
    Box3 fileBox;
    for (Eigen::Index i = 0; i < fileV.rows(); ++i)
        fileBox.extend(fileV.row(i).transpose());
    if (!known) {
        info.upAxisGuessed = true;
        const Vec3 s = fileBox.size();
        if (options.guessUpAxis && s.z() > 1.2 * s.y() && s.z() >= s.x())
            upAxis = 2;
    }
    info.upAxis = axisName(upAxis, upSign);
    const Eigen::Matrix4d fix = upFix(upAxis, upSign);
    const bool needsFix = !fix.isIdentity();
    if (needsFix) {
        const Eigen::Matrix3d R = fix.block<3, 3>(0, 0);
        fileV = fileV * R.transpose();
        fileN = fileN * R.transpose();
    }

    // Weld coincident positions: quantize to the tolerance and hash.
    // The cell keys must fit a long long (a zero-size mesh far from the origin gave 1e19).
    const double tol = std::max({options.weldTolerance * fileBox.diagonal(), 1e-12,
                                 fileV.size() > 0 ? fileV.cwiseAbs().maxCoeff() / 0x1p62 : 0.0});
    struct KeyHash {
        size_t operator()(const std::array<long long, 3>& k) const
        {
            // Unsigned arithmetic wraps by definition (the signed products overflowed).
            using U = unsigned long long;
            return std::hash<U>()(U(k[0]) * 73856093ULL ^ U(k[1]) * 19349663ULL ^ U(k[2]) * 83492791ULL);
        }
    };
    std::unordered_map<std::array<long long, 3>, int, KeyHash> cells;
    cells.reserve(static_cast<size_t>(fileVertices) * 2);
    info.weldMap.resize(static_cast<size_t>(fileVertices));
    std::vector<int> representative;
    representative.reserve(static_cast<size_t>(fileVertices));
    for (int v = 0; v < fileVertices; ++v) {
        const std::array<long long, 3> key{std::llround(fileV(v, 0) / tol), std::llround(fileV(v, 1) / tol),
                                           std::llround(fileV(v, 2) / tol)};
        auto [it, inserted] = cells.try_emplace(key, static_cast<int>(representative.size()));
        if (inserted)
            representative.push_back(v);
        info.weldMap[v] = it->second;
    }
    const int nv = static_cast<int>(representative.size());
    mesh.V.resize(nv, 3);
    mesh.part.resize(static_cast<size_t>(nv));
    for (int i = 0; i < nv; ++i) {
        mesh.V.row(i) = fileV.row(representative[i]);
        mesh.part[i] = filePart[representative[i]];
    }
    mesh.F.resize(static_cast<Eigen::Index>(fileF.size()), 3);
    Eigen::Index nf = 0;
    for (const auto& f : fileF) {
        const Eigen::Vector3i w(info.weldMap[f[0]], info.weldMap[f[1]], info.weldMap[f[2]]);
        if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2])
            continue; // collapsed by welding
        mesh.F.row(nf++) = w.transpose();
    }
    mesh.F.conservativeResize(nf, 3);
    if (nf == 0)
        throw InvalidInput(quoted(path) + ": every triangle is degenerate (zero area after welding)");
    progress.update("weld", 0.8);

    // Normals: the file's, averaged over welded copies; computed where missing.
    mesh.N = vertexNormals(mesh.V, mesh.F);
    {
        MatrixX3d sum = MatrixX3d::Zero(nv, 3);
        for (int v = 0; v < fileVertices; ++v)
            if (hasNormal[v])
                sum.row(info.weldMap[v]) += fileN.row(v);
        for (int i = 0; i < nv; ++i) {
            const double len = sum.row(i).norm();
            if (len > 1e-9)
                mesh.N.row(i) = sum.row(i) / len;
        }
    }

    // Skeleton and weights, when the file has bones.
    struct BoneRef {
        const aiBone* bone;
        Eigen::Matrix4d meshGlobal;
    };
    std::map<std::string, BoneRef> bones; // name -> the first mesh's bone of that name
    for (const Instance& inst : instances)
        for (unsigned b = 0; b < inst.mesh->mNumBones; ++b)
            bones.try_emplace(inst.mesh->mBones[b]->mName.C_Str(), BoneRef{inst.mesh->mBones[b], inst.global});
    if (!bones.empty()) {
        ImportedSkeleton skel;
        std::unordered_map<const aiNode*, int> jointOfNode;
        std::vector<const aiNode*> jointNodes;
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
        std::unordered_map<std::string, int> jointIndex;
        for (size_t j = 0; j < skel.names.size(); ++j)
            jointIndex[skel.names[j]] = static_cast<int>(j);
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
                    triplets.emplace_back(info.weldMap[inst.firstVertex + static_cast<int>(vw.mVertexId)],
                                          it->second, vw.mWeight);
                }
            }
        if (!skel.names.empty()) {
            skel.W.resize(nv, static_cast<Eigen::Index>(skel.names.size()));
            skel.W.setFromTriplets(triplets.begin(), triplets.end());
            // Welded copies summed their weights: normalize each row back to 1.
            for (Eigen::Index r = 0; r < skel.W.outerSize(); ++r) {
                double s = 0;
                for (decltype(skel.W)::InnerIterator it(skel.W, r); it; ++it)
                    s += it.value();
                if (s > 0)
                    for (decltype(skel.W)::InnerIterator it(skel.W, r); it; ++it)
                        it.valueRef() /= s;
            }
            NodeTable table;
            flatten(scene->mRootNode, -1, table);
            std::unordered_map<const aiNode*, int> indexOfNode;
            for (size_t i = 0; i < table.nodes.size(); ++i)
                indexOfNode[table.nodes[i]] = static_cast<int>(i);
            std::vector<int> jointNode;
            for (const aiNode* node : jointNodes)
                jointNode.push_back(indexOfNode.at(node));
            skel.animations = sampleAnimations(scene, table, jointNode, fix, options.maxAnimationFrames);
            result.skeleton = std::move(skel);
        }
    }
    progress.update("import", 1.0);
    return result;
}

} // namespace rig
