// The artist's asset through import and export (core/import/source_mesh.h,
// core/export/gltf_export.h): the export of a file read back by Assimp has the same
// meshes, vertices, attributes, materials and images as the file, and every
// vertex carries the weights of its welded twin; the Khronos validator finds
// nothing in it.
#include "core/export/gltf_export.h"

#include "core/common/error.h"
#include "core/eval/weight_compare.h"
#include "core/import/mesh_import.h"
#include "core/project/character_source.h"
#include "core/project/rig_project.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

namespace rig {
namespace {

namespace fs = std::filesystem;

const std::string models = RIGSMITH_ASSIMP_MODELS;
const std::string devset = rig::test::sourcePath("../shared/devset");

std::string tempPath(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / "rigsmith_source_export_test";
    fs::create_directories(dir);
    return (dir / name).string();
}

struct TestRig {
    Skeleton skeleton;
    SkinWeights weights;
};

/// The file's own skeleton and weights where it has them; else two joints
/// (feet and middle) with weights varying with height, so that every vertex
/// has its own blend and a wrong twin shows.
TestRig rigFor(const ImportedCharacter& c)
{
    TestRig r;
    if (c.skeleton) {
        r.skeleton = rigFromImportedSkeleton(*c.skeleton).skeleton;
        r.weights = skinWeightsFromReference(c.skeleton->W);
        return r;
    }
    Box3 box;
    for (int v = 0; v < c.mesh.vertexCount(); ++v)
        box.extend(c.mesh.V.row(v).transpose());
    const Vec3 lo = box.min, size = box.size();
    r.skeleton.names = {"root", "middle"};
    r.skeleton.parents = {-1, 0};
    r.skeleton.bindPositions.resize(2, 3);
    r.skeleton.bindPositions.row(0) = Vec3(lo.x() + size.x() / 2, lo.y(), lo.z() + size.z() / 2).transpose();
    r.skeleton.bindPositions.row(1) = Vec3(lo.x() + size.x() / 2, lo.y() + size.y() / 2, lo.z() + size.z() / 2).transpose();
    r.skeleton.bindOrientations = {Eigen::Quaterniond::Identity(), Eigen::Quaterniond::Identity()};
    const int n = c.mesh.vertexCount();
    r.weights.maxInfluences = 2;
    r.weights.joints.resize(n, 2);
    r.weights.weights.resize(n, 2);
    for (int v = 0; v < n; ++v) {
        const double t = std::clamp(0.1 + 0.8 * (c.mesh.V(v, 1) - lo.y()) / std::max(size.y(), 1e-12), 0.0, 1.0);
        const bool upper = t > 0.5;
        r.weights.joints.row(v) << (upper ? 1 : 0), (upper ? 0 : 1);
        r.weights.weights.row(v) << static_cast<float>(upper ? t : 1 - t), static_cast<float>(upper ? 1 - t : t);
    }
    return r;
}

/// Materials the source meshes use.
std::set<int> usedMaterials(const SourceAsset& s)
{
    std::set<int> out;
    for (const SourceMesh& m : s.meshes)
        out.insert(m.material);
    return out;
}

/// Exports `file` with its source meshes to `out` and checks the read-back against it.
void expectRoundTrip(const std::string& file, const std::string& out)
{
    const ImportedCharacter src = importCharacter(file);
    EXPECT_FALSE(src.source.empty());
    const TestRig rig = rigFor(src);
    const GltfExportReport report = exportGltf(out, src.source, rig.skeleton, rig.weights, {}, 0.0);
    EXPECT_TRUE(report.warnings.empty()) << report.warnings.front();
    const ImportedCharacter back = importCharacter(out);

    // Same meshes, vertices, positions, normals, UVs, in the same order.
    const SourceAsset& a = src.source;
    const SourceAsset& b = back.source;
    EXPECT_EQ(back.info.fileVertices, src.info.fileVertices);
    EXPECT_EQ(back.mesh.vertexCount(), src.mesh.vertexCount()); // the welded mesh too
    EXPECT_EQ(report.vertices, src.info.fileVertices);
    EXPECT_EQ(a.meshes.size(), b.meshes.size());
    if (a.meshes.size() != b.meshes.size())
        return;
    Box3 box;
    for (int v = 0; v < src.mesh.vertexCount(); ++v)
        box.extend(src.mesh.V.row(v).transpose());
    const double tol = 1e-6 * box.diagonal();
    // The pipeline's weights as the file holds them (limited to four, in float).
    const GltfSkinAttributes skin = gltfSkinAttributes(rig.weights, rig.skeleton.jointCount());
    ASSERT_TRUE(back.skeleton.has_value());
    std::vector<int> backJoint;
    for (const std::string& name : rig.skeleton.names) {
        const auto it = std::find(back.skeleton->names.begin(), back.skeleton->names.end(), name);
        backJoint.push_back(it == back.skeleton->names.end() ? -1 : static_cast<int>(it - back.skeleton->names.begin()));
    }
    double worstWeight = 0;
    for (size_t m = 0; m < a.meshes.size(); ++m) {
        const SourceMesh& x = a.meshes[m];
        const SourceMesh& y = b.meshes[m];
        SCOPED_TRACE(file + ", mesh " + x.name);
        ASSERT_EQ(x.vertexCount(), y.vertexCount());
        EXPECT_EQ(x.F, y.F);
        EXPECT_LE((x.V - y.V).cwiseAbs().maxCoeff(), tol);
        ASSERT_EQ(x.N.rows(), y.N.rows());
        if (x.N.rows() > 0) {
            EXPECT_LE((x.N - y.N).cwiseAbs().maxCoeff(), 1e-6);
        }
        ASSERT_EQ(x.uv.size(), y.uv.size());
        for (size_t k = 0; k < x.uv.size(); ++k) {
            const double scale = std::max(1.0, x.uv[k].cwiseAbs().maxCoeff());
            EXPECT_LE((x.uv[k] - y.uv[k]).cwiseAbs().maxCoeff(), 1e-6 * scale);
        }
        EXPECT_EQ(x.colors.size(), y.colors.size());
        EXPECT_EQ(x.tangents.rows(), y.tangents.rows());
        // Weights: each vertex has those of its welded twin.
        for (int v = 0; v < x.vertexCount(); ++v) {
            const auto twin = static_cast<size_t>(x.welded[static_cast<size_t>(v)]);
            const auto backRow = y.welded[static_cast<size_t>(v)];
            std::vector<double> ours(static_cast<size_t>(rig.skeleton.jointCount()), 0.0);
            for (int k = 0; k < 4; ++k)
                ours[skin.joints[twin][k]] += skin.weights[twin][k];
            for (int j = 0; j < rig.skeleton.jointCount(); ++j) {
                const double theirs = backJoint[j] < 0 ? 0.0 : back.skeleton->W.coeff(backRow, backJoint[j]);
                worstWeight = std::max(worstWeight, std::abs(theirs - ours[static_cast<size_t>(j)]));
            }
        }
        // Materials: same factors, same base-colour image, byte for byte.
        ASSERT_GE(x.material, 0);
        ASSERT_GE(y.material, 0);
        const SourceMaterial& mx = a.materials[static_cast<size_t>(x.material)];
        const SourceMaterial& my = b.materials[static_cast<size_t>(y.material)];
        EXPECT_EQ(mx.name, my.name);
        EXPECT_LE((mx.baseColor - my.baseColor).cwiseAbs().maxCoeff(), 1e-6);
        EXPECT_EQ(mx.alphaMode, my.alphaMode);
        EXPECT_EQ(mx.doubleSided, my.doubleSided);
        ASSERT_EQ(mx.baseColorTexture.texture >= 0, my.baseColorTexture.texture >= 0);
        if (mx.baseColorTexture.texture >= 0) {
            const SourceTexture& tx = a.textures[static_cast<size_t>(mx.baseColorTexture.texture)];
            const SourceTexture& ty = b.textures[static_cast<size_t>(my.baseColorTexture.texture)];
            EXPECT_FALSE(tx.bytes.empty());
            EXPECT_TRUE(tx.bytes == ty.bytes) << tx.name << " differs from " << ty.name;
            EXPECT_EQ(tx.mimeType, ty.mimeType);
        }
    }
    EXPECT_EQ(usedMaterials(a).size(), usedMaterials(b).size());
    EXPECT_EQ(report.materials, static_cast<int>(usedMaterials(a).size()));
    EXPECT_LT(worstWeight, 1e-6) << "a vertex's weights differ from its welded twin's";
    std::cout << file << ": " << a.meshes.size() << " meshes, " << src.info.fileVertices << " vertices ("
              << src.mesh.vertexCount() << " welded), " << report.materials << " materials, " << report.textures
              << " images, " << fs::file_size(out) << " bytes\n";
}

/// Runs the Khronos validator (tests/clients/validate_gltf.mjs); nullopt when node or the validator is missing.
std::optional<nlohmann::json> validate(const std::string& file)
{
    const std::string clients = rig::test::sourcePath("tests/clients");
    if (std::system("node --version > /dev/null 2>&1") != 0 ||
        !fs::exists(clients + "/node_modules/gltf-validator/package.json"))
        return std::nullopt;
    const std::string out = file + ".validator.json";
    fs::remove(out);
    std::string cmd = "node '";
    cmd.append(clients).append("/validate_gltf.mjs' '").append(file).append("' '").append(out).append("'");
    std::system(cmd.c_str()); // the counts are checked below, with the messages
    std::ifstream in(out);
    if (!in)
        return nlohmann::json{{"errors", -1}, {"warnings", -1}, {"messages", {"the validator wrote no report"}}};
    return nlohmann::json::parse(in);
}

void expectValid(const std::string& file)
{
    const auto r = validate(file);
    if (!r) {
        std::cout << "\n*** node or gltf-validator is not installed (scripts/deps.sh): " << file
                  << " was NOT validated ***\n";
        return;
    }
    EXPECT_EQ((*r)["errors"], 0) << file << "\n" << (*r)["messages"].dump(1);
    EXPECT_EQ((*r)["warnings"], 0) << file << "\n" << (*r)["messages"].dump(1);
}

bool validatorMissing()
{
    return std::system("node --version > /dev/null 2>&1") != 0 ||
           !fs::exists(rig::test::sourcePath("tests/clients/node_modules/gltf-validator/package.json"));
}

TEST(GltfSourceExport, MrFixitKeepsItsTwoTexturesAndItsSkeleton)
{
    const std::string file = models + "/IQM/mrfixit.iqm";
    if (!fs::exists(file))
        GTEST_SKIP() << file << " is absent (Debian package assimp-testmodels)";
    const ImportedCharacter c = importCharacter(file);
    int textured = 0;
    for (const SourceMaterial& m : c.source.materials)
        textured += m.baseColorTexture.texture >= 0 ? 1 : 0;
    EXPECT_EQ(textured, 2);
    EXPECT_TRUE(c.source.warnings.empty()) << c.source.warnings.front();
    expectRoundTrip(file, tempPath("mrfixit.glb"));
    expectValid(tempPath("mrfixit.glb"));
}

TEST(GltfSourceExport, SpiderKeepsItsMaterialsAndTextures)
{
    const std::string file = models + "/OBJ/spider.obj";
    if (!fs::exists(file))
        GTEST_SKIP() << file << " is absent (Debian package assimp-testmodels)";
    const ImportedCharacter c = importCharacter(file);
    EXPECT_GE(usedMaterials(c.source).size(), 4u);
    // The .mtl names its images with Windows paths (".\\SpiderTex.jpg"); each is found and read whole.
    for (const SourceTexture& t : c.source.textures)
        EXPECT_EQ(t.bytes.size(), fs::file_size(models + "/OBJ/" + t.name)) << t.name;
    expectRoundTrip(file, tempPath("spider.glb"));
    expectValid(tempPath("spider.glb"));
}

TEST(GltfSourceExport, TexturedGltfSampleRoundTripsAsGlbAndAsGltfWithImagesBeside)
{
    const std::string file = models + "/glTF2/BoxTextured-glTF/BoxTextured.gltf";
    if (!fs::exists(file))
        GTEST_SKIP() << file << " is absent (Debian package assimp-testmodels)";
    expectRoundTrip(file, tempPath("box_textured.glb"));
    expectValid(tempPath("box_textured.glb"));
    expectRoundTrip(file, tempPath("box_textured.gltf"));
    EXPECT_TRUE(fs::exists(tempPath("box_textured_CesiumLogoFlat.png")));
    expectValid(tempPath("box_textured.gltf"));
}

TEST(GltfSourceExport, EveryDevsetCharacterRoundTrips)
{
    if (!fs::exists(devset))
        GTEST_SKIP() << "the development set is absent (" << devset << "): the devset round trips did NOT run";
    int checked = 0;
    for (const auto& entry : fs::directory_iterator(devset)) {
        if (entry.path().extension() != ".glb")
            continue;
        const std::string name = entry.path().stem().string();
        expectRoundTrip(entry.path().string(), tempPath(name + ".glb"));
        expectValid(tempPath(name + ".glb"));
        ++checked;
    }
    EXPECT_GE(checked, 1);
}

TEST(GltfSourceExport, CesiumManKeepsTheFileVertexOrderAndItsEmbeddedTexture)
{
    const std::string file = devset + "/khr_cesium_man.glb";
    if (!fs::exists(file))
        GTEST_SKIP() << file << " is absent: this check did NOT run";
    const ImportedCharacter c = importCharacter(file);
    ASSERT_EQ(c.source.meshes.size(), 1u);
    EXPECT_EQ(c.source.meshes[0].vertexCount(), 3273); // the accessor count of the glb (README)
    EXPECT_EQ(c.mesh.vertexCount(), 2338);             // welded, as before
    ASSERT_EQ(c.source.meshes[0].uv.size(), 1u);
    ASSERT_EQ(c.source.textures.size(), 1u);
    EXPECT_TRUE(c.source.textures[0].embedded);
    EXPECT_EQ(c.source.textures[0].mimeType, "image/png");
}

TEST(GltfSourceExport, TheDefaultCharacterExportsItsWeldedMeshAndValidates)
{
    // The generated character has no source data: its welded mesh is written, as before.
    const LoadedCharacter c = loadCharacter("default");
    EXPECT_TRUE(c.imported.source.empty());
    const TestRig rig = rigFor(c.imported);
    const std::string out = tempPath("default.glb");
    const GltfExportReport report = exportCharacterGltf(out, c.imported, rig.skeleton, rig.weights, {});
    EXPECT_EQ(report.meshes, 1);
    const ImportedCharacter back = importCharacter(out);
    EXPECT_EQ(back.mesh.vertexCount(), c.imported.mesh.vertexCount());
    EXPECT_EQ(back.info.fileVertices, c.imported.mesh.vertexCount());
    if (validatorMissing())
        GTEST_SKIP() << "node or gltf-validator is not installed (scripts/deps.sh): NOT validated";
    expectValid(out);
}

// --- bad input ---------------------------------------------------------------

TEST(GltfSourceExport, AMissingTextureIsNamedAndTheExportGoesOnWithoutIt)
{
    const fs::path dir = fs::path(tempPath("missing_texture"));
    fs::create_directories(dir);
    std::ofstream(dir / "quad.mtl") << "newmtl painted\nKd 0.5 0.25 0.125\nmap_Kd gone.png\n";
    std::ofstream(dir / "quad.obj") << "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
                                       "usemtl painted\nf 1/1 2/2 3/3 4/4\n";
    const ImportedCharacter c = importCharacter((dir / "quad.obj").string());
    ASSERT_EQ(c.source.warnings.size(), 1u);
    EXPECT_NE(c.source.warnings[0].find("gone.png"), std::string::npos) << c.source.warnings[0];
    const TestRig rig = rigFor(c);
    const std::string out = (dir / "quad.glb").string();
    const GltfExportReport report = exportGltf(out, c.source, rig.skeleton, rig.weights, {}, 0.0);
    ASSERT_EQ(report.warnings.size(), 1u);
    EXPECT_NE(report.warnings[0].find("gone.png"), std::string::npos) << report.warnings[0];
    EXPECT_EQ(report.textures, 0);
    const ImportedCharacter back = importCharacter(out);
    ASSERT_EQ(back.source.meshes.size(), 1u);
    const SourceMaterial& m = back.source.materials[static_cast<size_t>(back.source.meshes[0].material)];
    EXPECT_LT(m.baseColorTexture.texture, 0);
    // The material keeps its colour (the diffuse map is gone, so the diffuse colour stays).
    EXPECT_NEAR(m.baseColor[0], 0.5, 1e-6);
    EXPECT_NEAR(m.baseColor[1], 0.25, 1e-6);
    expectValid(out);
}

TEST(GltfSourceExport, AnUnwritableFolderIsAClearErrorAndLeavesNoFile)
{
    const std::string file = models + "/glTF2/BoxTextured-glTF/BoxTextured.gltf";
    if (!fs::exists(file))
        GTEST_SKIP() << file << " is absent (Debian package assimp-testmodels)";
    const ImportedCharacter c = importCharacter(file);
    const TestRig rig = rigFor(c);
    try {
        exportGltf("/nonexistent/folder/box.gltf", c.source, rig.skeleton, rig.weights, {}, 0.0);
        FAIL() << "expected an IoError";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/folder/"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("no such folder"), std::string::npos) << e.what();
    }
    try {
        exportGltf("/dev/full", c.source, rig.skeleton, rig.weights, {}, 0.0);
        FAIL() << "expected an IoError";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("disk full"), std::string::npos) << e.what();
    }
    // A .gltf whose images cannot all be written leaves none of them behind.
    const fs::path dir = fs::path(tempPath("blocked"));
    fs::remove_all(dir);
    fs::create_directories(dir / "box.gltf"); // a folder where the .gltf should go
    EXPECT_THROW(exportGltf((dir / "box.gltf").string(), c.source, rig.skeleton, rig.weights, {}, 0.0), IoError);
    EXPECT_FALSE(fs::exists(dir / "box_CesiumLogoFlat.png"));
}

} // namespace
} // namespace rig
