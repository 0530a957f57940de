#include "ui/viewport/draw_data.h"
#include "ui/viewport/overlay_data.h"

#include "core/rig/skeleton.h"

#include "core/character/humanoid.h"

#include <gtest/gtest.h>

namespace rig::ui {
namespace {

TEST(DrawData, MeshDrawDataKeepsEveryTriangleAndFindsClosedMeshes)
{
    const Humanoid h = generateHumanoid();
    const MeshDrawData d = makeMeshDrawData(h.mesh);
    EXPECT_EQ(d.indices.size(), size_t(h.mesh.triangleCount()) * 3);
    EXPECT_EQ(d.vertices.size(), size_t(h.mesh.vertexCount()));
    EXPECT_TRUE(d.closedOutward);
    Mesh open = h.mesh;
    open.F.conservativeResize(open.F.rows() - 1, 3);
    EXPECT_FALSE(makeMeshDrawData(open).closedOutward); // a hole: drawn two-sided
}

// Finger joints a few millimetres apart keep their spheres apart (a hand's
// joints were one white blob hiding its fingers); long bones keep `scale`.
TEST(DrawData, JointSpheresShrinkToShortBones)
{
    Skeleton k;
    k.names = {"Root", "Wrist", "Finger1", "Finger2"};
    k.parents = {-1, 0, 1, 2};
    k.bindPositions.resize(4, 3);
    k.bindPositions << 0, 0, 0, 0, 1, 0, 0, 1.03, 0, 0, 1.05, 0;
    k.bindOrientations.assign(4, Eigen::Quaterniond::Identity());
    const float scale = 0.02f;
    const RigDrawData d = makeRigDrawData(k, scale);
    ASSERT_EQ(d.centers.size(), 4u);
    const size_t perSphere = d.joints.vertices.size() / 4;
    auto radius = [&](size_t j) { return glm::length(d.joints.vertices[j * perSphere].position - d.centers[j]); };
    EXPECT_NEAR(radius(0), scale, 1e-6f); // a 1 m bone
    for (size_t j = 1; j < 3; ++j)
        EXPECT_LT(radius(j) + radius(j + 1), glm::length(d.centers[j + 1] - d.centers[j])) << k.names[j];
    EXPECT_GE(radius(3), 0.25f * scale - 1e-6f); // still visible
}

// Issue 39: the joints a fit warning concerns stand out in the viewport
// (before, only the first was selected; the others looked like any joint).
TEST(DrawData, WarnedJointsAreDrawnInTheWarningColour)
{
    Skeleton k;
    k.names = {"Hips", "Spine", "Head"};
    k.parents = {-1, 0, 1};
    k.bindPositions.resize(3, 3);
    k.bindPositions << 0, 1, 0, 0, 1.3, 0, 0, 1.7, 0;
    k.bindOrientations.assign(3, Eigen::Quaterniond::Identity());
    const RigDrawData plain = makeRigDrawData(k, 0.02f);
    const RigDrawData warned = makeRigDrawData(k, 0.02f, /*selected*/ 0, -1, {0, 1});
    const size_t perSphere = plain.joints.vertices.size() / 3;
    auto color = [&](const RigDrawData& d, size_t j) { return d.joints.vertices[j * perSphere].color; };
    EXPECT_EQ(color(warned, 2), color(plain, 2));               // not warned
    EXPECT_NE(color(warned, 1), color(plain, 1));               // warned
    EXPECT_EQ(color(warned, 0), color(makeRigDrawData(k, 0.02f, 0), 0)); // the selection wins
    EXPECT_GT(glm::length(warned.joints.vertices[perSphere].position - warned.centers[1]),
              glm::length(plain.joints.vertices[perSphere].position - plain.centers[1]));
}

TEST(DrawData, InteractiveStandInIsSmallAndCoversTheSameShape)
{
    HumanoidOptions o;
    o.cellSize = 0.008; // about 200k triangles
    const MeshDrawData dense = makeMeshDrawData(generateHumanoid(o).mesh);
    ASSERT_GT(dense.indices.size() / 3, 150000u);
    const MeshDrawData coarse = simplifyForInteraction(dense, 60000);
    const size_t tris = coarse.indices.size() / 3;
    EXPECT_LE(tris, 69000u);
    EXPECT_GE(tris, 20000u);
    for (size_t i = 0; i < tris; ++i) {
        const unsigned a = coarse.indices[3 * i], b = coarse.indices[3 * i + 1], c = coarse.indices[3 * i + 2];
        ASSERT_TRUE(a != b && b != c && a != c);
        ASSERT_LT(std::max({a, b, c}), coarse.vertices.size());
    }
    // Every stand-in vertex lies within the dense mesh's bounds (means of its vertices).
    for (const MeshVertex& v : coarse.vertices) {
        EXPECT_TRUE(glm::all(glm::greaterThanEqual(v.position, dense.boundsMin - 1e-5f)));
        EXPECT_TRUE(glm::all(glm::lessThanEqual(v.position, dense.boundsMax + 1e-5f)));
    }
    // Each stand-in vertex is skinned as a vertex of its own cluster: a full
    // mesh vertex within a few cells of it (issue 20: the posed stand-in).
    ASSERT_EQ(coarse.sourceVertex.size(), coarse.vertices.size());
    const float diagonal = glm::length(dense.boundsMax - dense.boundsMin);
    float farthest = 0.0f;
    for (size_t i = 0; i < coarse.vertices.size(); ++i) {
        ASSERT_LT(coarse.sourceVertex[i], dense.vertices.size());
        farthest = std::max(farthest, glm::length(dense.vertices[coarse.sourceVertex[i]].position - coarse.vertices[i].position));
    }
    EXPECT_LT(farthest, 0.02f * diagonal);
    EXPECT_TRUE(dense.sourceVertex.empty());
    // A small mesh is returned as it is.
    EXPECT_EQ(simplifyForInteraction(coarse, 1000000).indices, coarse.indices);
}

// Issue 19 item 6: HUMAN.blend's two file meshes are the halves of one
// surface; tinting them apart drew the body in two tones down its middle.
// Parts joined by a triangle share a tint; a separate piece keeps its own.
TEST(DrawData, PartsOfOneSurfaceShareATintAndSeparatePiecesDiffer)
{
    Mesh m;
    m.V.resize(7, 3);
    m.V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 5, 0, 0, 6, 0, 0, 5, 1, 0;
    m.F.resize(3, 3);
    m.F << 0, 1, 2, 1, 3, 2, 4, 5, 6; // vertices 0-1 (part 0) and 2-3 (part 1) share triangles; 4-6 apart
    m.part = {0, 0, 1, 1, 2, 2, 2};
    m.partNames = {"left half", "right half", "eye"};
    EXPECT_EQ(partGroups(m), (std::vector<int>{0, 0, 1}));
    const MeshDrawData d = makeMeshDrawData(m);
    EXPECT_EQ(d.vertices[0].color, d.vertices[3].color); // one surface, one tone
    EXPECT_NE(d.vertices[0].color, d.vertices[4].color); // the separate piece reads apart
}

} // namespace
} // namespace rig::ui
