#include "core/io/gltf_export.h"

#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rig {
namespace {

constexpr const char* fn = "rig::exportGltf()";

/// Appends raw bytes to the single buffer, 4-byte aligned, and returns a view on them.
int addView(tinygltf::Model& m, const void* data, size_t bytes, int target)
{
    auto& buf = m.buffers[0].data;
    while (buf.size() % 4 != 0)
        buf.push_back(0);
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = buf.size();
    view.byteLength = bytes;
    view.target = target;
    const auto* p = static_cast<const unsigned char*>(data);
    buf.insert(buf.end(), p, p + bytes);
    m.bufferViews.push_back(view);
    return static_cast<int>(m.bufferViews.size()) - 1;
}

template <typename T>
int addAccessor(tinygltf::Model& m, const std::vector<T>& values, int componentType, int type, size_t count,
                int target, std::vector<double> minValues = {}, std::vector<double> maxValues = {})
{
    tinygltf::Accessor a;
    a.bufferView = addView(m, values.data(), values.size() * sizeof(T), target);
    a.componentType = componentType;
    a.type = type;
    a.count = count;
    a.minValues = std::move(minValues);
    a.maxValues = std::move(maxValues);
    m.accessors.push_back(a);
    return static_cast<int>(m.accessors.size()) - 1;
}

/// Per-component min and max of `count` tuples of `dim` floats (required for POSITION and animation inputs).
std::pair<std::vector<double>, std::vector<double>> bounds(const std::vector<float>& v, int dim)
{
    std::vector<double> lo(static_cast<size_t>(dim), std::numeric_limits<double>::infinity());
    std::vector<double> hi(static_cast<size_t>(dim), -std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < v.size(); ++i) {
        const size_t c = i % static_cast<size_t>(dim);
        lo[c] = std::min(lo[c], static_cast<double>(v[i]));
        hi[c] = std::max(hi[c], static_cast<double>(v[i]));
    }
    return {lo, hi};
}

std::vector<double> quat(const Eigen::Quaterniond& q) { return {q.x(), q.y(), q.z(), q.w()}; }

/// The bind pose in the parent's frame: rotation B_p⁻¹·B_i, translation B_p⁻¹·(b_i − b_p).
std::pair<Eigen::Quaterniond, Vec3> bindLocal(const Skeleton& s, int j)
{
    const Eigen::Quaterniond& B = s.bindOrientations[static_cast<size_t>(j)];
    const Vec3 b = s.bindPositions.row(j).transpose();
    const int p = s.parents[static_cast<size_t>(j)];
    if (p < 0)
        return {B.normalized(), b};
    const Eigen::Quaterniond Bp = s.bindOrientations[static_cast<size_t>(p)];
    return {(Bp.conjugate() * B).normalized(), Bp.conjugate() * (b - s.bindPositions.row(p).transpose())};
}

std::string errnoText(int e)
{
    if (e == ENOSPC)
        return "disk full";
    if (e == ENOENT)
        return "no such folder";
    if (e == EACCES || e == EPERM || e == EROFS)
        return "permission denied: the folder is not writable";
    return std::strerror(e);
}

/// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
int writeAll(int fd, std::string_view bytes)
{
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        done += static_cast<size_t>(n);
    }
    return 0;
}

} // namespace

void writeFileAtomically(const std::string& path, std::string_view bytes, const std::string& what)
{
    const std::string prefix = path + ": cannot write " + what + " (";
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // A device or a pipe: there is nothing to replace atomically.
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            throw IoError(prefix + errnoText(errno) + ")");
        const int e = writeAll(fd, bytes);
        const int c = ::close(fd) == 0 ? 0 : errno;
        if (e != 0 || c != 0)
            throw IoError(prefix + errnoText(e != 0 ? e : c) + ")");
        return;
    }
    std::string tmp = path + ".tmp.XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        throw IoError(prefix + errnoText(errno) + ")");
    auto fail = [&](int e) {
        ::unlink(tmp.c_str());
        throw IoError(prefix + errnoText(e) + "; the previous file, if any, is unchanged)");
    };
    int e = writeAll(fd, bytes);
    if (e == 0 && ::fsync(fd) != 0)
        e = errno;
    // mkstemp creates 0600; give the file the usual permissions (umask applies).
    if (e == 0) {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd, 0666 & ~mask);
    }
    if (::close(fd) != 0 && e == 0)
        e = errno;
    if (e != 0)
        fail(e);
    if (::rename(tmp.c_str(), path.c_str()) != 0)
        fail(errno);
    // Make the rename durable too: sync the folder (best effort).
    const std::string dir = std::filesystem::path(path).parent_path().empty()
                                ? std::string(".")
                                : std::filesystem::path(path).parent_path().string();
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

GltfSkinAttributes gltfSkinAttributes(const SkinWeights& w, int jointCount, int maxInfluences)
{
    const std::string name = "rig::gltfSkinAttributes()";
    if (maxInfluences < 1 || maxInfluences > 4)
        throw InvalidInput(name + ": maxInfluences must be 1 to 4, got " + std::to_string(maxInfluences));
    if (jointCount < 1 || jointCount > 65536)
        throw InvalidInput(name + ": glTF's unsigned short joint indices need 1 to 65536 joints, got " +
                           std::to_string(jointCount));
    if (w.joints.rows() != w.weights.rows() || w.joints.cols() != w.weights.cols())
        throw InvalidInput(name + ": the joint and weight arrays of the skin weights differ in size");
    const auto n = static_cast<size_t>(w.joints.rows());
    GltfSkinAttributes out;
    out.joints.resize(n);
    out.weights.resize(n);
    std::vector<std::pair<double, int>> row; // (weight, joint)
    for (size_t v = 0; v < n; ++v) {
        const auto r = static_cast<Eigen::Index>(v);
        row.clear();
        for (Eigen::Index k = 0; k < w.joints.cols(); ++k) {
            const int j = w.joints(r, k);
            const double x = w.weights(r, k);
            if (!std::isfinite(x) || x < 0)
                throw InvalidInput(name + ": vertex " + std::to_string(v) + " has a negative or non-finite weight");
            if (x == 0)
                continue;
            if (j < 0 || j >= jointCount)
                throw InvalidInput(name + ": vertex " + std::to_string(v) + " refers to joint " + std::to_string(j) +
                                   " of " + std::to_string(jointCount));
            auto same = std::find_if(row.begin(), row.end(), [&](const auto& e) { return e.second == j; });
            if (same != row.end())
                same->first += x; // the same joint twice: one influence
            else
                row.emplace_back(x, j);
        }
        if (row.empty())
            throw InvalidInput(name + ": vertex " + std::to_string(v) + " has no influence (all weights are 0)");
        // Decreasing weight; ties: lower joint first (deterministic).
        std::sort(row.begin(), row.end(),
                  [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
        const size_t k = std::min(row.size(), static_cast<size_t>(maxInfluences));
        if (row.size() > k) {
            // Continuous limit: subtract the largest dropped weight from the kept ones.
            const double cut = row[k].first;
            double kept = 0;
            for (size_t i = 0; i < k; ++i)
                kept += row[i].first - cut;
            if (kept > 0)
                for (size_t i = 0; i < k; ++i)
                    row[i].first -= cut;
            // else: the k+1 largest are all equal; keep the first k as they are.
        }
        double sum = 0;
        for (size_t i = 0; i < k; ++i)
            sum += row[i].first;
        std::array<std::uint16_t, 4> J = {0, 0, 0, 0};
        std::array<float, 4> W = {0, 0, 0, 0};
        size_t used = 0;
        for (size_t i = 0; i < k; ++i) {
            const float x = static_cast<float>(row[i].first / sum);
            if (x <= 0)
                continue; // a weight that fades to 0 leaves its slot unused
            J[used] = static_cast<std::uint16_t>(row[i].second);
            W[used] = x;
            ++used;
        }
        // Put the float residual on the largest weight (slot 0), summing the others in double.
        double rest = 0;
        for (size_t i = 1; i < used; ++i)
            rest += W[i];
        W[0] = static_cast<float>(1.0 - rest);
        out.joints[v] = J;
        out.weights[v] = W;
    }
    return out;
}

void exportGltf(const std::string& path, const Mesh& mesh, const Skeleton& skeleton, const SkinWeights& weights,
                std::span<const Pose> frames, double frameTime, const GltfExportOptions& options)
{
    validateSkeleton(skeleton);
    const int nv = mesh.vertexCount();
    const int nj = skeleton.jointCount();
    if (nv == 0 || mesh.triangleCount() == 0)
        throw InvalidInput(std::string(fn) + ": the mesh has no triangles; nothing to export to " + path);
    if (weights.vertexCount() != nv)
        throw InvalidInput(std::string(fn) + ": " + std::to_string(weights.vertexCount()) +
                           " weight rows for a mesh of " + std::to_string(nv) + " vertices (recompute the weights)");
    if ((mesh.F.array() < 0).any() || (mesh.F.array() >= nv).any())
        throw InvalidInput(std::string(fn) + ": a triangle refers to a vertex outside the mesh");
    if (!mesh.V.allFinite())
        throw InvalidInput(std::string(fn) + ": the mesh has NaN or infinite coordinates");
    if (!frames.empty() && !(frameTime > 0 && std::isfinite(frameTime)))
        throw InvalidInput(std::string(fn) + ": the frame time must be a positive number of seconds, got " +
                           std::to_string(frameTime));
    for (size_t f = 0; f < frames.size(); ++f)
        if (static_cast<int>(frames[f].localRotations.size()) != nj || !frames[f].rootTranslation.allFinite())
            throw InvalidInput(std::string(fn) + ": frame " + std::to_string(f) + " has " +
                               std::to_string(frames[f].localRotations.size()) + " rotations for " +
                               std::to_string(nj) + " joints (retarget the clip onto this skeleton first)");
    const GltfSkinAttributes skin = gltfSkinAttributes(weights, nj, options.maxInfluences);

    tinygltf::Model m;
    m.asset.version = "2.0";
    m.asset.generator = "Rigsmith";
    m.buffers.resize(1);

    // Mesh: positions, normals, skin attributes, indices.
    std::vector<float> P(static_cast<size_t>(nv) * 3);
    for (int v = 0; v < nv; ++v)
        for (int c = 0; c < 3; ++c)
            P[static_cast<size_t>(v) * 3 + c] = static_cast<float>(mesh.V(v, c));
    auto [pmin, pmax] = bounds(P, 3);
    tinygltf::Primitive prim;
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    prim.attributes["POSITION"] = addAccessor(m, P, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3,
                                              static_cast<size_t>(nv), TINYGLTF_TARGET_ARRAY_BUFFER, pmin, pmax);
    if (options.normals) {
        const MatrixX3d N = mesh.N.rows() == nv ? mesh.N : vertexNormals(mesh.V, mesh.F);
        std::vector<float> Nf(static_cast<size_t>(nv) * 3);
        for (int v = 0; v < nv; ++v) {
            Vec3 n = N.row(v).transpose();
            const double len = n.norm();
            n = len > 1e-12 && std::isfinite(len) ? Vec3(n / len) : Vec3::UnitY(); // glTF: unit normals
            for (int c = 0; c < 3; ++c)
                Nf[static_cast<size_t>(v) * 3 + c] = static_cast<float>(n[c]);
        }
        prim.attributes["NORMAL"] = addAccessor(m, Nf, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3,
                                                static_cast<size_t>(nv), TINYGLTF_TARGET_ARRAY_BUFFER);
    }
    std::vector<std::uint16_t> J(static_cast<size_t>(nv) * 4);
    std::vector<float> W(static_cast<size_t>(nv) * 4);
    for (size_t v = 0; v < static_cast<size_t>(nv); ++v)
        for (size_t c = 0; c < 4; ++c) {
            J[v * 4 + c] = skin.joints[v][c];
            W[v * 4 + c] = skin.weights[v][c];
        }
    prim.attributes["JOINTS_0"] = addAccessor(m, J, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4,
                                              static_cast<size_t>(nv), TINYGLTF_TARGET_ARRAY_BUFFER);
    prim.attributes["WEIGHTS_0"] = addAccessor(m, W, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4,
                                               static_cast<size_t>(nv), TINYGLTF_TARGET_ARRAY_BUFFER);
    std::vector<std::uint32_t> I(static_cast<size_t>(mesh.triangleCount()) * 3);
    for (int f = 0; f < mesh.triangleCount(); ++f)
        for (int c = 0; c < 3; ++c)
            I[static_cast<size_t>(f) * 3 + c] = static_cast<std::uint32_t>(mesh.F(f, c));
    prim.indices = addAccessor(m, I, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, I.size(),
                               TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);

    std::set<std::string> names(skeleton.names.begin(), skeleton.names.end());
    std::string meshName = options.meshName.empty() ? "character" : options.meshName;
    for (int i = 2; names.count(meshName); ++i)
        meshName = options.meshName + "_" + std::to_string(i);
    tinygltf::Mesh gm;
    gm.name = meshName;
    gm.primitives.push_back(prim);
    m.meshes.push_back(gm);

    // Joint nodes 0..J-1 in the skeleton's order (parents[i] < i), then the mesh node.
    const auto children = childrenOf(skeleton);
    std::vector<Eigen::Quaterniond> bindRot(static_cast<size_t>(nj));
    for (int j = 0; j < nj; ++j) {
        const auto [q, t] = bindLocal(skeleton, j);
        bindRot[static_cast<size_t>(j)] = q;
        tinygltf::Node node;
        node.name = skeleton.names[static_cast<size_t>(j)];
        node.rotation = quat(q);
        node.translation = {t.x(), t.y(), t.z()};
        node.children = children[static_cast<size_t>(j)];
        m.nodes.push_back(node);
    }
    tinygltf::Node meshNode;
    meshNode.name = meshName;
    meshNode.mesh = 0;
    meshNode.skin = 0;
    m.nodes.push_back(meshNode);

    // Skin: inverse bind matrices [B_i | b_i]⁻¹, column-major.
    std::vector<float> ibm(static_cast<size_t>(nj) * 16);
    for (int j = 0; j < nj; ++j) {
        Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
        T.linear() = skeleton.bindOrientations[static_cast<size_t>(j)].normalized().toRotationMatrix();
        T.translation() = skeleton.bindPositions.row(j).transpose();
        const Eigen::Matrix4d inv = T.inverse().matrix();
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                ibm[static_cast<size_t>(j) * 16 + static_cast<size_t>(c) * 4 + r] =
                    static_cast<float>(c == 3 && r == 3 ? 1.0 : (r == 3 ? 0.0 : inv(r, c)));
    }
    tinygltf::Skin gs;
    gs.name = meshName + "_skin";
    gs.skeleton = 0;
    for (int j = 0; j < nj; ++j)
        gs.joints.push_back(j);
    gs.inverseBindMatrices =
        addAccessor(m, ibm, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, static_cast<size_t>(nj), 0);
    m.skins.push_back(gs);

    // Animation: one shared time input, one rotation sampler per joint, the root's translation.
    if (!frames.empty()) {
        const size_t nf = frames.size();
        std::vector<float> times(nf);
        for (size_t f = 0; f < nf; ++f)
            times[f] = static_cast<float>(static_cast<double>(f) * frameTime);
        auto [tmin, tmax] = bounds(times, 1);
        const int input = addAccessor(m, times, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, nf, 0, tmin, tmax);
        tinygltf::Animation anim;
        anim.name = options.animationName;
        for (int j = 0; j < nj; ++j) {
            std::vector<float> q(nf * 4);
            Eigen::Quaterniond prev = Eigen::Quaterniond::Identity();
            for (size_t f = 0; f < nf; ++f) {
                Eigen::Quaterniond r =
                    (bindRot[static_cast<size_t>(j)] * frames[f].localRotations[static_cast<size_t>(j)].normalized())
                        .normalized();
                if (f > 0 && r.dot(prev) < 0) // same hemisphere as the previous key: LINEAR takes the short way
                    r.coeffs() = -r.coeffs();
                prev = r;
                q[f * 4 + 0] = static_cast<float>(r.x());
                q[f * 4 + 1] = static_cast<float>(r.y());
                q[f * 4 + 2] = static_cast<float>(r.z());
                q[f * 4 + 3] = static_cast<float>(r.w());
            }
            tinygltf::AnimationSampler sampler;
            sampler.input = input;
            sampler.output = addAccessor(m, q, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, nf, 0);
            sampler.interpolation = "LINEAR";
            anim.samplers.push_back(sampler);
            tinygltf::AnimationChannel ch;
            ch.sampler = static_cast<int>(anim.samplers.size()) - 1;
            ch.target_node = j;
            ch.target_path = "rotation";
            anim.channels.push_back(ch);
        }
        if (options.rootTranslation) {
            std::vector<float> t(nf * 3);
            for (size_t f = 0; f < nf; ++f) {
                const Vec3 x = skeleton.bindPositions.row(0).transpose() + frames[f].rootTranslation;
                for (int c = 0; c < 3; ++c)
                    t[f * 3 + static_cast<size_t>(c)] = static_cast<float>(x[c]);
            }
            tinygltf::AnimationSampler sampler;
            sampler.input = input;
            sampler.output = addAccessor(m, t, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, nf, 0);
            sampler.interpolation = "LINEAR";
            anim.samplers.push_back(sampler);
            tinygltf::AnimationChannel ch;
            ch.sampler = static_cast<int>(anim.samplers.size()) - 1;
            ch.target_node = 0;
            ch.target_path = "translation";
            anim.channels.push_back(ch);
        }
        m.animations.push_back(anim);
    }

    tinygltf::Scene scene;
    scene.name = meshName;
    scene.nodes = {0, nj}; // the joint hierarchy and the mesh node
    m.scenes.push_back(scene);
    m.defaultScene = 0;

    std::ostringstream bytes(std::ios::binary);
    tinygltf::TinyGLTF writer;
    if (!writer.WriteGltfSceneToStream(&m, bytes, false, true))
        throw IoError(path + ": cannot write the glTF file (tinygltf could not serialize the model)");
    writeFileAtomically(path, bytes.str(), "the glTF file");
}

std::vector<ImportedAnimationInfo> readAnimationInfo(const std::string& path)
{
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path, 0);
    if (!scene)
        throw IoError(path + ": cannot read the file's animations (" + importer.GetErrorString() + ")");
    std::vector<ImportedAnimationInfo> out;
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
        const aiAnimation* an = scene->mAnimations[a];
        ImportedAnimationInfo info;
        info.name = an->mName.C_Str();
        const double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 1.0;
        info.durationSeconds = an->mDuration / tps;
        info.channels = static_cast<int>(an->mNumChannels);
        for (unsigned c = 0; c < an->mNumChannels; ++c) {
            const aiNodeAnim* ch = an->mChannels[c];
            info.maxKeys = std::max({info.maxKeys, static_cast<int>(ch->mNumRotationKeys),
                                     static_cast<int>(ch->mNumPositionKeys), static_cast<int>(ch->mNumScalingKeys)});
        }
        out.push_back(info);
    }
    return out;
}

} // namespace rig
