#include "core/export/gltf_export.h"

#include "core/common/atomic_write.h"
#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>


#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <limits>
#include <numeric>
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

} // namespace


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

namespace {

/// Checks what both exports need: a valid skeleton, weights for `weldedVertices`, usable clips.
void checkRigInput(const std::string& path, int weldedVertices, const Skeleton& skeleton, const SkinWeights& weights,
                   std::span<const GltfClip> clips, const GltfExportOptions& options)
{
    validateSkeleton(skeleton);
    const int nj = skeleton.jointCount();
    if (weights.vertexCount() != weldedVertices)
        throw InvalidInput(std::string(fn) + ": " + std::to_string(weights.vertexCount()) +
                           " weight rows for a mesh of " + std::to_string(weldedVertices) +
                           " vertices (recompute the weights); nothing written to " + path);
    if (!(options.scale > 0 && std::isfinite(options.scale)))
        throw InvalidInput(std::string(fn) + ": the scale must be a positive number, got " + std::to_string(options.scale));
    for (const GltfClip& clip : clips) {
        const auto& frames = clip.frames;
        if (!frames.empty() && !(clip.frameTime > 0 && std::isfinite(clip.frameTime)))
            throw InvalidInput(std::string(fn) + ": the frame time must be a positive number of seconds, got " +
                               std::to_string(clip.frameTime));
        for (size_t f = 0; f < frames.size(); ++f)
            if (static_cast<int>(frames[f].localRotations.size()) != nj || !frames[f].rootTranslation.allFinite())
                throw InvalidInput(std::string(fn) + ": frame " + std::to_string(f) + " has " +
                                   std::to_string(frames[f].localRotations.size()) + " rotations for " +
                                   std::to_string(nj) + " joints (retarget the clip onto this skeleton first)");
        const int last = options.lastFrame < 0 ? static_cast<int>(frames.size()) - 1
                                               : std::min(options.lastFrame, static_cast<int>(frames.size()) - 1);
        if (!frames.empty() && (options.firstFrame < 0 || options.firstFrame > last))
            throw InvalidInput(std::string(fn) + ": frames " + std::to_string(options.firstFrame) + " to " +
                               std::to_string(options.lastFrame) + " are outside clip '" + clip.name + "' (" +
                               std::to_string(frames.size()) + " frames, numbered from 0)");
    }
}

std::vector<float> floats(const Eigen::MatrixXd& M)
{
    std::vector<float> out(static_cast<size_t>(M.size()));
    for (Eigen::Index r = 0; r < M.rows(); ++r)
        for (Eigen::Index c = 0; c < M.cols(); ++c)
            out[static_cast<size_t>(r * M.cols() + c)] = static_cast<float>(M(r, c));
    return out;
}

/// Unit normals in float (glTF requires unit length); `fallback` where a row is zero.
std::vector<float> unitNormals(const MatrixX3d& N)
{
    std::vector<float> out(static_cast<size_t>(N.rows()) * 3);
    for (Eigen::Index v = 0; v < N.rows(); ++v) {
        Vec3 n = N.row(v).transpose();
        const double len = n.norm();
        n = len > 1e-12 && std::isfinite(len) ? Vec3(n / len) : Vec3::UnitY();
        for (int c = 0; c < 3; ++c)
            out[static_cast<size_t>(v) * 3 + c] = static_cast<float>(n[c]);
    }
    return out;
}

/// POSITION, NORMAL (when given), JOINTS_0 and WEIGHTS_0 (of each vertex's
/// welded twin `welded[v]`) and the indices of one primitive.
tinygltf::Primitive skinnedPrimitive(tinygltf::Model& m, const MatrixX3d& V, double scale, const MatrixX3d* N,
                                     const MatrixX3i& F, const GltfSkinAttributes& skin, const std::vector<int>& welded)
{
    const auto nv = static_cast<size_t>(V.rows());
    const std::vector<float> P = floats(scale * V);
    auto [pmin, pmax] = bounds(P, 3);
    tinygltf::Primitive prim;
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    prim.attributes["POSITION"] = addAccessor(m, P, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, nv,
                                              TINYGLTF_TARGET_ARRAY_BUFFER, pmin, pmax);
    if (N)
        prim.attributes["NORMAL"] = addAccessor(m, unitNormals(*N), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3,
                                                nv, TINYGLTF_TARGET_ARRAY_BUFFER);
    std::vector<std::uint16_t> J(nv * 4);
    std::vector<float> W(nv * 4);
    for (size_t v = 0; v < nv; ++v) {
        const auto w = static_cast<size_t>(welded[v]);
        for (size_t c = 0; c < 4; ++c) {
            J[v * 4 + c] = skin.joints[w][c];
            W[v * 4 + c] = skin.weights[w][c];
        }
    }
    prim.attributes["JOINTS_0"] =
        addAccessor(m, J, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4, nv, TINYGLTF_TARGET_ARRAY_BUFFER);
    prim.attributes["WEIGHTS_0"] =
        addAccessor(m, W, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, nv, TINYGLTF_TARGET_ARRAY_BUFFER);
    std::vector<std::uint32_t> I(static_cast<size_t>(F.rows()) * 3);
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int c = 0; c < 3; ++c)
            I[static_cast<size_t>(f) * 3 + c] = static_cast<std::uint32_t>(F(f, c));
    prim.indices = addAccessor(m, I, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, I.size(),
                               TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    return prim;
}

/// `wanted`, or wanted_2, wanted_3... if `taken` has it; then taken.
std::string uniqueName(const std::string& wanted, std::set<std::string>& taken)
{
    std::string name = wanted;
    for (int i = 2; taken.count(name); ++i)
        name = wanted + "_" + std::to_string(i);
    taken.insert(name);
    return name;
}

/// Joint nodes 0..J-1 in the skeleton's order (parents[i] < i) with their bind
/// TRS, and the skin (inverse bind matrices [B_i | b_i]⁻¹, column-major).
/// Returns the bind rotations B_p⁻¹·B_i.
std::vector<Eigen::Quaterniond> addSkeleton(tinygltf::Model& m, const Skeleton& skeleton, const std::string& skinName)
{
    const int nj = skeleton.jointCount();
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
    gs.name = skinName;
    gs.skeleton = 0;
    for (int j = 0; j < nj; ++j)
        gs.joints.push_back(j);
    gs.inverseBindMatrices =
        addAccessor(m, ibm, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, static_cast<size_t>(nj), 0);
    m.skins.push_back(gs);
    return bindRot;
}

/// A clip as one animation: one shared time input, one rotation sampler per
/// joint, the root's translation (scaled like the skeleton `skeleton`, which
/// is already scaled by `options.scale`).
void addAnimation(tinygltf::Model& m, const Skeleton& skeleton, const std::vector<Eigen::Quaterniond>& bindRot,
                  const GltfClip& clip, const GltfExportOptions& options)
{
    const int nj = skeleton.jointCount();
    const size_t first = static_cast<size_t>(options.firstFrame);
    const size_t last = options.lastFrame < 0 ? clip.frames.size() - 1
                                              : std::min(static_cast<size_t>(options.lastFrame), clip.frames.size() - 1);
    const std::span<const Pose> frames = clip.frames.subspan(first, last - first + 1);
    const size_t nf = frames.size();
    std::vector<float> times(nf);
    for (size_t f = 0; f < nf; ++f)
        times[f] = static_cast<float>(static_cast<double>(f) * clip.frameTime);
    auto [tmin, tmax] = bounds(times, 1);
    const int input = addAccessor(m, times, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, nf, 0, tmin, tmax);
    tinygltf::Animation anim;
    anim.name = clip.name.empty() ? "clip" : clip.name;
    auto channel = [&](std::vector<float> values, int type, int node, const char* path) {
        tinygltf::AnimationSampler sampler;
        sampler.input = input;
        sampler.output = addAccessor(m, values, TINYGLTF_COMPONENT_TYPE_FLOAT, type, nf, 0);
        sampler.interpolation = "LINEAR";
        anim.samplers.push_back(sampler);
        tinygltf::AnimationChannel ch;
        ch.sampler = static_cast<int>(anim.samplers.size()) - 1;
        ch.target_node = node;
        ch.target_path = path;
        anim.channels.push_back(ch);
    };
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
        channel(std::move(q), TINYGLTF_TYPE_VEC4, j, "rotation");
    }
    if (options.rootTranslation) {
        std::vector<float> t(nf * 3);
        for (size_t f = 0; f < nf; ++f) {
            const Vec3 x = skeleton.bindPositions.row(0).transpose() + options.scale * frames[f].rootTranslation;
            for (int c = 0; c < 3; ++c)
                t[f * 3 + static_cast<size_t>(c)] = static_cast<float>(x[c]);
        }
        channel(std::move(t), TINYGLTF_TYPE_VEC3, 0, "translation");
    }
    m.animations.push_back(anim);
}

bool isTextGltf(const std::string& path)
{
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".gltf";
}

/// Serializes `m` (a .glb, or a .gltf with its buffer embedded) and writes it
/// and `images` (name, bytes: the external images of a .gltf, beside it)
/// atomically; on failure nothing new is left behind.
void writeModel(const tinygltf::Model& m, const std::string& path,
                const std::vector<std::pair<std::string, const std::vector<std::uint8_t>*>>& images)
{
    std::ostringstream bytes(std::ios::binary);
    tinygltf::TinyGLTF writer;
    const bool binary = !isTextGltf(path);
    if (!writer.WriteGltfSceneToStream(&m, bytes, !binary, binary))
        throw IoError(path + ": cannot write the glTF file (tinygltf could not serialize the model)");
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    std::vector<std::string> written;
    try {
        for (const auto& [name, data] : images) {
            const std::string file = (dir / name).string();
            writeFileAtomically(file, std::string_view(reinterpret_cast<const char*>(data->data()), data->size()),
                                "the image of the glTF file");
            written.push_back(file);
        }
        writeFileAtomically(path, bytes.str(), "the glTF file");
    } catch (...) {
        for (const std::string& file : written)
            std::filesystem::remove(file);
        throw;
    }
}

tinygltf::Model newModel()
{
    tinygltf::Model m;
    m.asset.version = "2.0";
    m.asset.generator = "Rigsmith";
    m.buffers.resize(1);
    return m;
}

/// The images and textures of the materials the export writes: each usable
/// texture once; those without bytes or not PNG/JPEG are left out with a warning.
class TextureWriter {
public:
    TextureWriter(tinygltf::Model& m, const SourceAsset& s, const std::string& path, GltfExportReport& report)
        : m_model(m), m_source(s), m_path(path), m_report(report), m_index(s.textures.size(), -2)
    {
    }

    /// The glTF texture of source texture `t`, or -1 when it cannot be written.
    int textureOf(int t, const std::string& material)
    {
        if (t < 0 || t >= static_cast<int>(m_source.textures.size()))
            return -1;
        int& index = m_index[static_cast<size_t>(t)];
        if (index != -2)
            return index;
        index = -1;
        const SourceTexture& tex = m_source.textures[static_cast<size_t>(t)];
        if (tex.bytes.empty()) {
            m_report.warnings.push_back("texture '" + tex.name + "' of material '" + material +
                                        "' was missing or unreadable on import: exported without it");
            return index;
        }
        if (tex.mimeType != "image/png" && tex.mimeType != "image/jpeg") {
            m_report.warnings.push_back("texture '" + tex.name + "' of material '" + material + "' is " +
                                        (tex.mimeType.empty() ? std::string("of unknown type") : tex.mimeType) +
                                        "; glTF holds PNG and JPEG only: exported without it");
            return index;
        }
        tinygltf::Image image;
        image.name = std::filesystem::path(tex.name).stem().string();
        image.mimeType = tex.mimeType;
        if (isTextGltf(m_path)) {
            std::set<std::string> taken;
            for (const auto& e : external)
                taken.insert(e.first);
            const std::string ext = tex.mimeType == "image/png" ? ".png" : ".jpg";
            const std::string stem = std::filesystem::path(m_path).stem().string();
            const std::string wanted = stem + "_" + (tex.embedded ? "image" + std::to_string(t) : image.name);
            std::string file = wanted + ext;
            for (int i = 2; taken.count(file); ++i)
                file = wanted + "_" + std::to_string(i) + ext;
            image.uri = file;
            image.mimeType.clear(); // with a uri, the mime type is the file's
            external.emplace_back(file, &tex.bytes);
        } else {
            image.bufferView = addView(m_model, tex.bytes.data(), tex.bytes.size(), 0);
        }
        m_model.images.push_back(image);
        tinygltf::Texture gt;
        gt.source = static_cast<int>(m_model.images.size()) - 1;
        m_model.textures.push_back(gt);
        index = static_cast<int>(m_model.textures.size()) - 1;
        ++m_report.textures;
        return index;
    }

    std::vector<std::pair<std::string, const std::vector<std::uint8_t>*>> external; ///< Images of a .gltf.

private:
    tinygltf::Model& m_model;
    const SourceAsset& m_source;
    std::string m_path;
    GltfExportReport& m_report;
    std::vector<int> m_index; ///< Per source texture: glTF texture, -1 none, -2 not yet asked.
};

/// Material `k` of the source in glTF's terms; texture references whose UV
/// set some mesh using the material lacks (`uvSets`, the fewest) are dropped.
tinygltf::Material gltfMaterial(const SourceMaterial& s, int uvSets, TextureWriter& textures, GltfExportReport& report)
{
    tinygltf::Material g;
    g.name = s.name;
    auto ref = [&](const SourceTextureRef& r, const char* what) -> std::pair<int, int> {
        if (r.texture < 0)
            return {-1, 0};
        if (r.uvSet >= uvSets) {
            report.warnings.push_back(std::string(what) + " texture of material '" + s.name + "' uses UV set " +
                                      std::to_string(r.uvSet) + ", which a mesh lacks: exported without it");
            return {-1, 0};
        }
        return {textures.textureOf(r.texture, s.name), r.uvSet};
    };
    g.pbrMetallicRoughness.baseColorFactor = {s.baseColor[0], s.baseColor[1], s.baseColor[2], s.baseColor[3]};
    g.pbrMetallicRoughness.metallicFactor = s.metallic;
    g.pbrMetallicRoughness.roughnessFactor = s.roughness;
    if (const auto [t, uv] = ref(s.baseColorTexture, "base colour"); t >= 0) {
        g.pbrMetallicRoughness.baseColorTexture.index = t;
        g.pbrMetallicRoughness.baseColorTexture.texCoord = uv;
    }
    if (const auto [t, uv] = ref(s.metallicRoughnessTexture, "metallic-roughness"); t >= 0) {
        g.pbrMetallicRoughness.metallicRoughnessTexture.index = t;
        g.pbrMetallicRoughness.metallicRoughnessTexture.texCoord = uv;
    }
    if (const auto [t, uv] = ref(s.normalTexture, "normal"); t >= 0) {
        g.normalTexture.index = t;
        g.normalTexture.texCoord = uv;
        g.normalTexture.scale = s.normalTexture.scale;
    }
    if (const auto [t, uv] = ref(s.occlusionTexture, "occlusion"); t >= 0) {
        g.occlusionTexture.index = t;
        g.occlusionTexture.texCoord = uv;
        g.occlusionTexture.strength = std::clamp(s.occlusionTexture.scale, 0.0, 1.0);
    }
    if (const auto [t, uv] = ref(s.emissiveTexture, "emissive"); t >= 0) {
        g.emissiveTexture.index = t;
        g.emissiveTexture.texCoord = uv;
    }
    g.emissiveFactor = {s.emissive[0], s.emissive[1], s.emissive[2]};
    g.alphaMode = s.alphaMode == SourceAlphaMode::Mask ? "MASK" : s.alphaMode == SourceAlphaMode::Blend ? "BLEND" : "OPAQUE";
    if (s.alphaMode == SourceAlphaMode::Mask)
        g.alphaCutoff = s.alphaCutoff;
    g.doubleSided = s.doubleSided;
    return g;
}

/// One primitive of a source mesh: its vertices in file order with every
/// attribute, and the skin of each vertex's welded twin.
tinygltf::Primitive sourcePrimitive(tinygltf::Model& m, const SourceMesh& s, const GltfSkinAttributes& skin,
                                    const GltfExportOptions& options)
{
    const auto nv = static_cast<size_t>(s.vertexCount());
    const bool normals = options.normals && s.N.rows() == s.V.rows();
    tinygltf::Primitive prim = skinnedPrimitive(m, s.V, options.scale, normals ? &s.N : nullptr, s.F, skin, s.welded);
    for (size_t k = 0; k < s.uv.size(); ++k) {
        Eigen::MatrixX2d uv = s.uv[k];
        uv.col(1) = (1.0 - uv.col(1).array()).matrix(); // glTF's v runs down the image
        prim.attributes["TEXCOORD_" + std::to_string(k)] =
            addAccessor(m, floats(uv), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2, nv, TINYGLTF_TARGET_ARRAY_BUFFER);
    }
    for (size_t k = 0; k < s.colors.size(); ++k)
        prim.attributes["COLOR_" + std::to_string(k)] = addAccessor(
            m, floats(s.colors[k]), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, nv, TINYGLTF_TARGET_ARRAY_BUFFER);
    if (normals && s.tangents.rows() == s.V.rows())
        prim.attributes["TANGENT"] = addAccessor(m, floats(s.tangents), TINYGLTF_COMPONENT_TYPE_FLOAT,
                                                 TINYGLTF_TYPE_VEC4, nv, TINYGLTF_TARGET_ARRAY_BUFFER);
    return prim;
}

/// The skeleton as written: bind positions scaled.
Skeleton scaled(const Skeleton& skeleton, double scale)
{
    Skeleton k = skeleton;
    k.bindPositions *= scale;
    return k;
}

/// Puts every root of `scene` under one "origin" node translated to
/// `options.origin` (scaled), when it is not zero.
void placeOrigin(tinygltf::Model& m, tinygltf::Scene& scene, std::set<std::string>& names,
                 const GltfExportOptions& options)
{
    if (options.origin.isZero())
        return;
    tinygltf::Node origin;
    origin.name = uniqueName("origin", names);
    const Vec3 t = options.scale * options.origin;
    origin.translation = {t.x(), t.y(), t.z()};
    origin.children = scene.nodes;
    m.nodes.push_back(origin);
    scene.nodes = {static_cast<int>(m.nodes.size()) - 1};
}

GltfExportReport writeWelded(const std::string& path, const Mesh& mesh, const Skeleton& skeleton,
                             const SkinWeights& weights, std::span<const GltfClip> clips, const GltfExportOptions& options)
{
    const int nv = mesh.vertexCount();
    if (nv == 0 || mesh.triangleCount() == 0)
        throw InvalidInput(std::string(fn) + ": the mesh has no triangles; nothing to export to " + path);
    checkRigInput(path, nv, skeleton, weights, clips, options);
    if ((mesh.F.array() < 0).any() || (mesh.F.array() >= nv).any())
        throw InvalidInput(std::string(fn) + ": a triangle refers to a vertex outside the mesh");
    if (!mesh.V.allFinite())
        throw InvalidInput(std::string(fn) + ": the mesh has NaN or infinite coordinates");
    const GltfSkinAttributes skin = gltfSkinAttributes(weights, skeleton.jointCount(), options.maxInfluences);

    tinygltf::Model m = newModel();
    std::vector<int> identity(static_cast<size_t>(nv));
    std::iota(identity.begin(), identity.end(), 0);
    const MatrixX3d N = options.normals ? (mesh.N.rows() == nv ? mesh.N : vertexNormals(mesh.V, mesh.F)) : MatrixX3d();
    tinygltf::Primitive prim =
        skinnedPrimitive(m, mesh.V, options.scale, options.normals ? &N : nullptr, mesh.F, skin, identity);

    std::set<std::string> names(skeleton.names.begin(), skeleton.names.end());
    const std::string meshName = uniqueName(options.meshName.empty() ? "character" : options.meshName, names);
    tinygltf::Mesh gm;
    gm.name = meshName;
    gm.primitives.push_back(prim);
    m.meshes.push_back(gm);

    const Skeleton k = scaled(skeleton, options.scale);
    const auto bindRot = addSkeleton(m, k, meshName + "_skin");
    tinygltf::Node meshNode;
    meshNode.name = meshName;
    meshNode.mesh = 0;
    meshNode.skin = 0;
    m.nodes.push_back(meshNode);
    for (const GltfClip& clip : clips)
        if (!clip.frames.empty())
            addAnimation(m, k, bindRot, clip, options);

    tinygltf::Scene scene;
    scene.name = meshName;
    scene.nodes = {0, k.jointCount()}; // the joint hierarchy and the mesh node
    placeOrigin(m, scene, names, options);
    m.scenes.push_back(scene);
    m.defaultScene = 0;
    writeModel(m, path, {});
    GltfExportReport report;
    report.meshes = 1;
    report.vertices = nv;
    return report;
}

GltfExportReport writeSource(const std::string& path, const SourceAsset& source, const Skeleton& skeleton,
                             const SkinWeights& weights, std::span<const GltfClip> clips, const GltfExportOptions& options)
{
    if (source.meshes.empty())
        throw InvalidInput(std::string(fn) + ": the character has no source meshes; nothing to export to " + path);
    const int nv = weights.vertexCount();
    checkRigInput(path, nv, skeleton, weights, clips, options);
    for (const SourceMesh& s : source.meshes) {
        const auto n = s.V.rows();
        if (static_cast<Eigen::Index>(s.welded.size()) != n || (s.N.rows() != 0 && s.N.rows() != n) ||
            (s.F.size() > 0 && ((s.F.array() < 0).any() || (s.F.array() >= n).any())) || !s.V.allFinite())
            throw InvalidInput(std::string(fn) + ": source mesh '" + s.name + "' is inconsistent (sizes or indices)");
        for (const int w : s.welded)
            if (w < 0 || w >= nv)
                throw InvalidInput(std::string(fn) + ": source mesh '" + s.name + "' maps a vertex to welded vertex " +
                                   std::to_string(w) + " of " + std::to_string(nv) + " (recompute the weights)");
    }
    const GltfSkinAttributes skin = gltfSkinAttributes(weights, skeleton.jointCount(), options.maxInfluences);
    GltfExportReport report;
    tinygltf::Model m = newModel();

    // Materials the meshes use, in file order, with their textures.
    TextureWriter textures(m, source, path, report);
    std::vector<int> materialOf(source.materials.size(), -1);
    for (size_t k = 0; k < source.materials.size(); ++k) {
        int uvSets = std::numeric_limits<int>::max();
        for (const SourceMesh& s : source.meshes)
            if (s.material == static_cast<int>(k))
                uvSets = std::min(uvSets, static_cast<int>(s.uv.size()));
        if (uvSets == std::numeric_limits<int>::max())
            continue; // unused
        m.materials.push_back(gltfMaterial(source.materials[k], uvSets, textures, report));
        materialOf[k] = static_cast<int>(m.materials.size()) - 1;
    }
    report.materials = static_cast<int>(m.materials.size());

    // Joints first (nodes 0..J-1), then one mesh and node per file node, a primitive per source mesh.
    const Skeleton k = scaled(skeleton, options.scale);
    const auto bindRot = addSkeleton(m, k, "skin");
    std::set<std::string> names(skeleton.names.begin(), skeleton.names.end());
    tinygltf::Scene scene;
    scene.nodes = {0};
    std::vector<int> meshOfNode;
    for (const SourceMesh& s : source.meshes) {
        tinygltf::Primitive prim = sourcePrimitive(m, s, skin, options);
        if (s.material >= 0 && s.material < static_cast<int>(materialOf.size()))
            prim.material = materialOf[static_cast<size_t>(s.material)];
        report.vertices += s.vertexCount();
        const auto same = std::find(meshOfNode.begin(), meshOfNode.end(), s.node);
        if (s.node >= 0 && same != meshOfNode.end()) { // another material of the same file mesh
            m.meshes[static_cast<size_t>(same - meshOfNode.begin())].primitives.push_back(prim);
            continue;
        }
        tinygltf::Mesh gm;
        gm.name = s.name;
        gm.primitives.push_back(prim);
        m.meshes.push_back(gm);
        meshOfNode.push_back(s.node);
        tinygltf::Node node; // no transform: the mesh is in bind space (clients ignore a skinned node's own)
        node.name = uniqueName(s.nodeName.empty() ? s.name : s.nodeName, names);
        node.mesh = static_cast<int>(m.meshes.size()) - 1;
        node.skin = 0;
        m.nodes.push_back(node);
        scene.nodes.push_back(static_cast<int>(m.nodes.size()) - 1);
    }
    report.meshes = static_cast<int>(m.meshes.size());
    for (const GltfClip& clip : clips)
        if (!clip.frames.empty())
            addAnimation(m, k, bindRot, clip, options);
    scene.name = options.meshName;
    placeOrigin(m, scene, names, options);
    m.scenes.push_back(scene);
    m.defaultScene = 0;
    writeModel(m, path, textures.external);
    return report;
}

std::vector<GltfClip> oneClip(std::span<const Pose> frames, double frameTime, const GltfExportOptions& options)
{
    if (frames.empty())
        return {};
    return {GltfClip{options.animationName, frames, frameTime}};
}

} // namespace

GltfExportReport exportGltf(const std::string& path, const Mesh& mesh, const Skeleton& skeleton,
                            const SkinWeights& weights, std::span<const Pose> frames, double frameTime,
                            const GltfExportOptions& options)
{
    return writeWelded(path, mesh, skeleton, weights, oneClip(frames, frameTime, options), options);
}

GltfExportReport exportGltf(const std::string& path, const SourceAsset& source, const Skeleton& skeleton,
                            const SkinWeights& weights, std::span<const Pose> frames, double frameTime,
                            const GltfExportOptions& options)
{
    return writeSource(path, source, skeleton, weights, oneClip(frames, frameTime, options), options);
}

GltfExportReport exportCharacterGltf(const std::string& path, const ImportedCharacter& character,
                                     const Skeleton& skeleton, const SkinWeights& weights,
                                     std::span<const GltfClip> clips, const GltfExportOptions& options)
{
    GltfExportOptions placed = options;
    placed.origin -= character.info.recentred;
    if (character.source.empty())
        return writeWelded(path, character.mesh, skeleton, weights, clips, placed);
    return writeSource(path, character.source, skeleton, weights, clips, placed);
}

} // namespace rig
