#include "core/import/assimp_source.h"

#include "core/common/dedup.h"

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>

namespace rig {
namespace {

namespace fs = std::filesystem;

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/// The image type from its first bytes (what glTF needs to know), else from the name.
std::string mimeTypeOf(const std::vector<std::uint8_t>& b, const std::string& name)
{
    if (b.size() >= 8 && b[0] == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G')
        return "image/png";
    if (b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
        return "image/jpeg";
    if (b.size() >= 12 && std::memcmp(b.data(), "RIFF", 4) == 0 && std::memcmp(b.data() + 8, "WEBP", 4) == 0)
        return "image/webp";
    const std::string ext = lower(fs::path(name).extension().string());
    if (ext == ".png")
        return "image/png";
    if (ext == ".jpg" || ext == ".jpeg")
        return "image/jpeg";
    if (ext.size() > 1)
        return "image/" + ext.substr(1); // tga, bmp, dds...: not a glTF image; the export says so
    return "";
}

std::vector<std::uint8_t> readBytes(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    if (!in)
        return {};
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Where an external image is: as written (relative to the model's folder),
/// else by its file name alone in the model's folder, ignoring case.
std::optional<fs::path> findImage(const std::string& written, const fs::path& modelDir)
{
    std::string rel = written;
    std::replace(rel.begin(), rel.end(), '\\', '/'); // Windows paths (".\\skin.jpg")
    if (rel.rfind("file://", 0) == 0)
        rel.erase(0, 7);
    std::error_code ec;
    const fs::path asWritten = fs::path(rel).is_absolute() ? fs::path(rel) : modelDir / rel;
    if (fs::is_regular_file(asWritten, ec))
        return asWritten;
    const std::string name = fs::path(rel).filename().string();
    if (name.empty())
        return std::nullopt;
    if (fs::is_regular_file(modelDir / name, ec))
        return modelDir / name;
    for (const auto& entry : fs::directory_iterator(modelDir, ec))
        if (entry.is_regular_file(ec) && lower(entry.path().filename().string()) == lower(name))
            return entry.path();
    return std::nullopt;
}

/// Reads images once each, by the name the file gives them.
class TextureTable {
public:
    TextureTable(const aiScene* scene, const std::string& modelPath, SourceAsset& out)
        : m_scene(scene), m_modelPath(modelPath), m_out(out)
    {
    }

    /// Index into m_out.textures of the image the material names `written`; -1 for none.
    int indexOf(const std::string& written, const std::string& materialName)
    {
        if (written.empty())
            return -1;
        if (auto it = m_known.find(written); it != m_known.end())
            return it->second;
        SourceTexture t;
        t.name = written;
        if (const aiTexture* e = m_scene->GetEmbeddedTexture(written.c_str())) {
            t.embedded = true;
            if (e->mHeight == 0) { // compressed (PNG, JPEG...): mWidth bytes
                const auto* p = reinterpret_cast<const std::uint8_t*>(e->pcData);
                t.bytes.assign(p, p + e->mWidth);
                t.mimeType = mimeTypeOf(t.bytes, std::string("x.") + e->achFormatHint);
            } else {
                m_out.warnings.push_back("texture '" + written + "' of material '" + materialName +
                                         "' is embedded as raw pixels, which the export cannot write as PNG or "
                                         "JPEG: left out");
            }
        } else {
            const fs::path dir = fs::path(m_modelPath).parent_path().empty() ? fs::path(".")
                                                                             : fs::path(m_modelPath).parent_path();
            if (const auto found = findImage(written, dir)) {
                t.bytes = readBytes(*found);
                if (t.bytes.empty())
                    m_out.warnings.push_back("texture '" + found->string() + "' of material '" + materialName +
                                             "' cannot be read (permission denied or empty): left out");
                t.name = found->filename().string();
                t.mimeType = mimeTypeOf(t.bytes, t.name);
            } else {
                m_out.warnings.push_back("texture '" + written + "' of material '" + materialName +
                                         "' not found (looked beside " + m_modelPath + "): left out");
            }
        }
        const int index = static_cast<int>(m_out.textures.size());
        m_out.textures.push_back(std::move(t));
        m_known[written] = index;
        return index;
    }

    /// True when texture `index` was read (has bytes).
    bool readable(int index) const
    {
        return index >= 0 && index < static_cast<int>(m_out.textures.size()) &&
               !m_out.textures[static_cast<size_t>(index)].bytes.empty();
    }

private:
    const aiScene* m_scene;
    std::string m_modelPath;
    SourceAsset& m_out;
    std::map<std::string, int> m_known;
};

SourceTextureRef textureRef(const aiMaterial* m, aiTextureType type, TextureTable& table, const std::string& name)
{
    SourceTextureRef ref;
    if (m->GetTextureCount(type) == 0)
        return ref;
    aiString path;
    unsigned uvIndex = 0;
    if (m->GetTexture(type, 0, &path, nullptr, &uvIndex) != AI_SUCCESS)
        return ref;
    ref.texture = table.indexOf(path.C_Str(), name);
    int src = 0;
    if (m->Get(AI_MATKEY_UVWSRC(type, 0), src) == AI_SUCCESS && src >= 0)
        ref.uvSet = src;
    else
        ref.uvSet = static_cast<int>(uvIndex);
    return ref;
}

double clamp01(double x) { return std::isfinite(x) ? std::clamp(x, 0.0, 1.0) : 0.0; }

SourceMaterial readMaterial(const aiMaterial* m, int index, TextureTable& table)
{
    SourceMaterial out;
    aiString name;
    out.name = m->Get(AI_MATKEY_NAME, name) == AI_SUCCESS && name.length ? name.C_Str()
                                                                         : "material " + std::to_string(index + 1);
    ai_real f = 0;
    const bool pbr = m->Get(AI_MATKEY_METALLIC_FACTOR, f) == AI_SUCCESS; // glTF and PBR FBX say it
    if (pbr) {
        out.metallic = clamp01(f);
        if (m->Get(AI_MATKEY_ROUGHNESS_FACTOR, f) == AI_SUCCESS)
            out.roughness = clamp01(f);
    }
    aiColor4D c;
    const bool hasBase = m->Get(AI_MATKEY_BASE_COLOR, c) == AI_SUCCESS;
    if (hasBase || m->Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS)
        out.baseColor = Eigen::Vector4d(clamp01(c.r), clamp01(c.g), clamp01(c.b), hasBase ? clamp01(c.a) : 1.0);
    if (!hasBase && m->Get(AI_MATKEY_OPACITY, f) == AI_SUCCESS && f < 1)
        out.baseColor[3] = clamp01(f);
    aiColor3D e;
    if (m->Get(AI_MATKEY_COLOR_EMISSIVE, e) == AI_SUCCESS)
        out.emissive = Eigen::Vector3d(clamp01(e.r), clamp01(e.g), clamp01(e.b));
    aiString mode;
    if (m->Get(AI_MATKEY_GLTF_ALPHAMODE, mode) == AI_SUCCESS) {
        const std::string s = mode.C_Str();
        out.alphaMode = s == "MASK" ? SourceAlphaMode::Mask : s == "BLEND" ? SourceAlphaMode::Blend : SourceAlphaMode::Opaque;
        if (m->Get(AI_MATKEY_GLTF_ALPHACUTOFF, f) == AI_SUCCESS && std::isfinite(f) && f >= 0)
            out.alphaCutoff = f;
    } else if (out.baseColor[3] < 1) {
        out.alphaMode = SourceAlphaMode::Blend;
    }
    int twoSided = 0;
    out.doubleSided = m->Get(AI_MATKEY_TWOSIDED, twoSided) == AI_SUCCESS && twoSided != 0;

    out.baseColorTexture = textureRef(m, aiTextureType_BASE_COLOR, table, out.name);
    if (out.baseColorTexture.texture < 0) {
        out.baseColorTexture = textureRef(m, aiTextureType_DIFFUSE, table, out.name);
        // A legacy diffuse map replaces the diffuse colour (as OBJ and IQM viewers
        // show it); glTF multiplies the two, so the factor becomes white. A map
        // that cannot be read leaves the colour as it is.
        if (table.readable(out.baseColorTexture.texture) && !hasBase)
            out.baseColor.head<3>().setOnes();
    }
    out.normalTexture = textureRef(m, aiTextureType_NORMALS, table, out.name);
    if (out.normalTexture.texture >= 0 && m->Get(AI_MATKEY_GLTF_TEXTURE_SCALE(aiTextureType_NORMALS, 0), f) == AI_SUCCESS)
        out.normalTexture.scale = f;
    out.emissiveTexture = textureRef(m, aiTextureType_EMISSIVE, table, out.name);
    if (table.readable(out.emissiveTexture.texture) && out.emissive.isZero())
        out.emissive.setOnes(); // a legacy emissive map without a factor
    if (pbr) { // Assimp's glTF reader puts these two here
        // AI_MATKEY_GLTF_PBRMETALLICROUGHNESS_METALLICROUGHNESS_TEXTURE is (aiTextureType_UNKNOWN, 0).
        out.metallicRoughnessTexture = textureRef(m, aiTextureType_UNKNOWN, table, out.name);
        out.occlusionTexture = textureRef(m, aiTextureType_LIGHTMAP, table, out.name);
        if (out.occlusionTexture.texture >= 0 &&
            m->Get(AI_MATKEY_GLTF_TEXTURE_STRENGTH(aiTextureType_LIGHTMAP, 0), f) == AI_SUCCESS)
            out.occlusionTexture.scale = f;
    }
    return out;
}


} // namespace

void readSourceMaterials(const aiScene* scene, const std::string& modelPath, SourceAsset& out)
{
    TextureTable table(scene, modelPath, out);
    for (unsigned i = 0; i < scene->mNumMaterials; ++i)
        out.materials.push_back(readMaterial(scene->mMaterials[i], static_cast<int>(i), table));
}

void readSourceAttributes(const aiMesh* mesh, const std::vector<int>& vertexOfSource, const Eigen::Matrix3d& linear,
                          SourceMesh& out)
{
    const auto n = static_cast<Eigen::Index>(vertexOfSource.size());
    for (unsigned s = 0; s < AI_MAX_NUMBER_OF_TEXTURECOORDS && mesh->mTextureCoords[s]; ++s) {
        Eigen::MatrixX2d uv(n, 2);
        for (Eigen::Index i = 0; i < n; ++i) {
            const aiVector3D& t = mesh->mTextureCoords[s][vertexOfSource[static_cast<size_t>(i)]];
            uv.row(i) << t.x, t.y;
        }
        out.uv.push_back(std::move(uv));
    }
    for (unsigned s = 0; s < AI_MAX_NUMBER_OF_COLOR_SETS && mesh->mColors[s]; ++s) {
        Eigen::MatrixX4d col(n, 4);
        for (Eigen::Index i = 0; i < n; ++i) {
            const aiColor4D& c = mesh->mColors[s][vertexOfSource[static_cast<size_t>(i)]];
            col.row(i) << clamp01(c.r), clamp01(c.g), clamp01(c.b), clamp01(c.a);
        }
        out.colors.push_back(std::move(col));
    }
    if (mesh->mTangents && mesh->mBitangents && out.N.rows() == n) {
        Eigen::MatrixX4d T(n, 4);
        bool usable = true;
        for (Eigen::Index i = 0; i < n && usable; ++i) {
            const int v = vertexOfSource[static_cast<size_t>(i)];
            const aiVector3D& t = mesh->mTangents[v];
            const aiVector3D& b = mesh->mBitangents[v];
            const Eigen::Vector3d tt = linear * Eigen::Vector3d(t.x, t.y, t.z);
            const Eigen::Vector3d bb = linear * Eigen::Vector3d(b.x, b.y, b.z);
            const Eigen::Vector3d nn = out.N.row(i).transpose();
            const double len = tt.norm();
            usable = std::isfinite(len) && len > 1e-12;
            if (usable)
                T.row(i) << (tt / len).transpose(), nn.cross(tt).dot(bb) < 0 ? -1.0 : 1.0;
        }
        if (usable) // a tangent frame with a zero tangent is no tangent frame: leave them out
            out.tangents = std::move(T);
    }
}

std::vector<int> fileVertices(const aiMesh* mesh, std::vector<int>& sourceOfVertex)
{
    const unsigned nv = mesh->mNumVertices;
    if (nv < 1.5 * mesh->mNumFaces || nv == 0) { // indexed: as stored
        std::vector<int> order(nv);
        std::iota(order.begin(), order.end(), 0);
        sourceOfVertex = order;
        return order;
    }
    std::vector<std::vector<std::pair<unsigned, float>>> bones(mesh->mNumBones ? nv : 0);
    for (unsigned b = 0; b < mesh->mNumBones; ++b)
        for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; ++w) {
            const aiVertexWeight& vw = mesh->mBones[b]->mWeights[w];
            if (vw.mVertexId < nv)
                bones[vw.mVertexId].emplace_back(b, vw.mWeight);
        }
    for (auto& b : bones)
        std::sort(b.begin(), b.end());
    // File vertices equal in every attribute the file stores (position, normal,
    // tangent frame, UVs, colours, bone weights) are one vertex: each attribute
    // array as (first byte, bytes per vertex).
    std::vector<std::pair<const unsigned char*, std::size_t>> arrays;
    auto add = [&](const void* array, std::size_t size) {
        if (array)
            arrays.emplace_back(static_cast<const unsigned char*>(array), size);
    };
    add(mesh->mVertices, sizeof(aiVector3D));
    add(mesh->mNormals, sizeof(aiVector3D));
    add(mesh->mTangents, sizeof(aiVector3D));
    add(mesh->mBitangents, sizeof(aiVector3D));
    for (unsigned s = 0; s < AI_MAX_NUMBER_OF_TEXTURECOORDS && mesh->mTextureCoords[s]; ++s)
        add(mesh->mTextureCoords[s], sizeof(aiVector3D));
    for (unsigned s = 0; s < AI_MAX_NUMBER_OF_COLOR_SETS && mesh->mColors[s]; ++s)
        add(mesh->mColors[s], sizeof(aiColor4D));
    auto hash = [&](int v) {
        // FNV-1a over 4-byte words (every attribute is a multiple of 4 bytes;
        // groupEqual() mixes the result): a quarter of the multiplications of
        // the byte-wise hash, which took 9 % of the importer on a 154k-vertex OBJ.
        std::uint64_t h = 1469598103934665603ULL;
        auto bytes = [&](const unsigned char* p, std::size_t n) {
            std::size_t i = 0;
            for (; i + 4 <= n; i += 4) {
                std::uint32_t w;
                std::memcpy(&w, p + i, 4);
                h = (h ^ w) * 1099511628211ULL;
            }
            for (; i < n; ++i)
                h = (h ^ p[i]) * 1099511628211ULL;
        };
        for (const auto& [base, size] : arrays)
            bytes(base + static_cast<std::size_t>(v) * size, size);
        if (!bones.empty())
            for (const auto& bw : bones[static_cast<size_t>(v)])
                bytes(reinterpret_cast<const unsigned char*>(&bw), sizeof(bw));
        return h;
    };
    auto same = [&](int a, int b) {
        for (const auto& [base, size] : arrays)
            if (std::memcmp(base + static_cast<std::size_t>(a) * size, base + static_cast<std::size_t>(b) * size, size) != 0)
                return false;
        return bones.empty() || bones[static_cast<size_t>(a)] == bones[static_cast<size_t>(b)];
    };
    std::vector<int> order;
    sourceOfVertex = groupEqual(static_cast<int>(nv), hash, same, order);
    return order;
}

} // namespace rig
