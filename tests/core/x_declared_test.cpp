// The .X pre-scan (core/import/x_declared.h): the triangles its Mesh objects
// declare, in text and binary files, and no count where it cannot follow.
#include "core/import/x_declared.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace rig {
namespace {

const std::string kTemplate = "template Mesh {\n <3D82AB44-62DA-11cf-AB39-0020AF71E433>\n DWORD nVertices;\n"
                              " array Vector vertices[nVertices];\n DWORD nFaces;\n"
                              " array MeshFace faces[nFaces];\n [...]\n}\n";

// A quad (2 triangles) and a triangle: 3 declared triangles.
const std::string kQuadAndTriangle = "Mesh Quad { // a comment\n4;\n0.0;0.0;0.0;,\n1.0;0.0;0.0;,\n1.0;1.0;0.0;,\n"
                                     "0.0;1.0;0.0;;\n1;\n4;0,1,2,3;;\n"
                                     "MeshNormals { 1; 0.0;0.0;1.0;; 1; 4;0,0,0,0;; }\n}\n"
                                     "# another comment\nFrame F {\n Mesh {\n3;\n0;0;0;,1;0;0;,0;1;0;;\n1;\n3;0,1,2;;\n }\n}\n";

TEST(XDeclared, TextMeshObjectsAreSummedTheTemplateIsNot)
{
    EXPECT_EQ(xDeclaredTriangles("xof 0303txt 0032\n" + kTemplate + kQuadAndTriangle), 3);
    EXPECT_EQ(xDeclaredTriangles("xof 0303txt 0064\n" + kQuadAndTriangle), 3);
}

TEST(XDeclared, NoCountWhereTheWalkCannotFollow)
{
    EXPECT_EQ(xDeclaredTriangles("xof 0303txt 0032\n" + kTemplate), std::nullopt); // no Mesh object
    EXPECT_EQ(xDeclaredTriangles("xof 0303txt 0032\nMesh { 3; 0;0;0;, name;0;0;; 1; 3;0,1,2;; }"), std::nullopt);
    EXPECT_EQ(xDeclaredTriangles("xof 0303txt 0032\nMesh { 99999999; 0;0;0;; }"), std::nullopt); // past the end
    EXPECT_EQ(xDeclaredTriangles("xof 0303tzip0032" + std::string(64, 'x')), std::nullopt); // compressed
    EXPECT_EQ(xDeclaredTriangles("solid x\nfacet normal 0 0 1\n"), std::nullopt);            // not a .X file
    EXPECT_EQ(xDeclaredTriangles(""), std::nullopt);
}

/// Binary .X tokens (16-bit ids, little-endian) for a Mesh of `corners`
/// faces, the counts in integer lists and the vertices in one float list.
std::string binaryMesh(const std::vector<int>& corners, std::uint32_t floatCountOverride = 0)
{
    std::string out = "xof 0303bin 0032";
    auto word = [&](std::uint16_t w) { out.append(reinterpret_cast<const char*>(&w), 2); };
    auto dword = [&](std::uint32_t d) { out.append(reinterpret_cast<const char*>(&d), 4); };
    auto name = [&](const std::string& s) { word(1), dword(static_cast<std::uint32_t>(s.size())), out += s; };
    name("Mesh");
    name("Body");
    word(10); // {
    const int vertices = 8;
    word(6), dword(1), dword(vertices);
    word(7), dword(floatCountOverride ? floatCountOverride : 3 * vertices);
    for (int i = 0; i < 3 * vertices; ++i) {
        const float f = float(i);
        out.append(reinterpret_cast<const char*>(&f), 4);
    }
    std::vector<std::uint32_t> faces{static_cast<std::uint32_t>(corners.size())};
    for (int k : corners) {
        faces.push_back(static_cast<std::uint32_t>(k));
        for (int i = 0; i < k; ++i)
            faces.push_back(static_cast<std::uint32_t>(i));
    }
    word(6), dword(static_cast<std::uint32_t>(faces.size()));
    for (std::uint32_t f : faces)
        dword(f);
    word(11); // }
    return out;
}

TEST(XDeclared, BinaryListsAreFollowed)
{
    EXPECT_EQ(xDeclaredTriangles(binaryMesh({3, 4, 5})), 1 + 2 + 3);
    EXPECT_EQ(xDeclaredTriangles(binaryMesh({3, 4, 5}, 1u << 30)), std::nullopt); // a list past the file's end
    std::string unknown = binaryMesh({3});
    unknown.insert(16, "\x63\x00", 2); // token 99 does not exist
    EXPECT_EQ(xDeclaredTriangles(unknown), std::nullopt);
}

TEST(XDeclared, AssimpTestModelsWhereInstalled)
{
    const std::filesystem::path dir = "/usr/share/assimp/models/X";
    if (!std::filesystem::exists(dir / "test_cube_binary.x"))
        GTEST_SKIP() << "Debian's assimp-testmodels are not installed";
    auto read = [&](const char* name) {
        std::ifstream in(dir / name, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    EXPECT_EQ(xDeclaredTriangles(read("test_cube_binary.x")), 12);
    EXPECT_EQ(xDeclaredTriangles(read("test_cube_text.x")), 12);
    EXPECT_EQ(xDeclaredTriangles(read("fromtruespace_bin32.x")), 6656);
    EXPECT_EQ(xDeclaredTriangles(read("test_cube_compressed.x")), std::nullopt);
}

} // namespace
} // namespace rig
