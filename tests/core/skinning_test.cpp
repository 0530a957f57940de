#include "core/skin/skinning.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/rig/fit_template.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include "tests/support/meshes.h"

#include "tests/support/skeletons.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rig {
namespace {

using test::groundTruthSkeleton;

/// The filled solid of `m` at 64 voxels on its longest axis.
VoxelGrid solidOf(const Mesh& m)
{
    VoxelizeOptions v;
    v.resolution = 64;
    return fillInterior(voxelizeSurface(m, v), m).grid;
}

/// Bone heat on `m` (nearest-link segmentation), with its diagnostics.
SkinningResult heatSkinning(const Mesh& m, const Skeleton& s)
{
    const VoxelGrid solid = solidOf(m);
    WeightOptions o;
    o.method = "heat";
    o.segmentation.method = SegmentationMethod::NearestLink;
    return computeSkinning(m, s, &solid, o);
}

TEST(Skinning, InvalidInputsAreRejectedFirst)
{
    const Humanoid h = generateHumanoid({.cellSize = 0.04});
    const Skeleton s = groundTruthSkeleton(h);
    EXPECT_THROW(computeSkinning(Mesh{}, s, nullptr), InvalidInput);
    EXPECT_THROW(computeSkinning(h.mesh, Skeleton{}, nullptr), InvalidInput);
    WeightOptions los;
    los.segmentation.method = SegmentationMethod::LineOfSight;
    EXPECT_THROW(computeSkinning(h.mesh, s, nullptr, los), InvalidInput); // 3.2.2 needs the solid
    WeightOptions heat;
    heat.method = "heat";
    heat.parameters["heat"]["heatConstant"] = -1.0;
    EXPECT_THROW(computeSkinning(h.mesh, s, nullptr, heat), InvalidInput);
    EXPECT_THROW(findWeightMethod("Heat"), InvalidInput);
    EXPECT_THROW(findWeightMethod(""), InvalidInput);
    EXPECT_THROW(parseSegmentationMethod("3.2.3"), InvalidInput);
    EXPECT_THROW(jointLimbs(Skeleton{}), InvalidInput);
}

TEST(Skinning, NamesRoundTrip)
{
    for (const WeightMethod& m : weightMethods())
        EXPECT_EQ(findWeightMethod(m.id).id, m.id);
    EXPECT_EQ(findWeightMethod("gaussian").id, "gaussian");
    for (SegmentationMethod m :
         {SegmentationMethod::NearestLink, SegmentationMethod::LineOfSight, SegmentationMethod::RegionGrow})
        EXPECT_EQ(parseSegmentationMethod(segmentationMethodName(m)), m);
    EXPECT_EQ(segmentationMethodName(SegmentationMethod::RegionGrow), "3.2.4");
    EXPECT_EQ(WeightOptions{}.method, "gaussian");
}

TEST(Skinning, LimbsOfAHumanoid)
{
    const Humanoid h = generateHumanoid({.cellSize = 0.05});
    const Skeleton s = groundTruthSkeleton(h);
    const std::vector<int> limb = jointLimbs(s);
    const auto at = [&](const char* name) { return limb[static_cast<size_t>(*s.find(name))]; };
    const auto id = [&](const char* name) { return *s.find(name); };
    EXPECT_EQ(at("Hips"), -1);
    EXPECT_EQ(at("Spine"), -1);
    EXPECT_EQ(at("Spine1"), -1);
    EXPECT_EQ(at("LeftUpLeg"), id("LeftUpLeg"));
    EXPECT_EQ(at("LeftToeBase"), id("LeftUpLeg"));
    EXPECT_EQ(at("RightFoot"), id("RightUpLeg"));
    EXPECT_EQ(at("Head"), id("Neck"));
    EXPECT_EQ(at("LeftHand"), id("LeftShoulder"));
    EXPECT_EQ(at("RightForeArm"), id("RightShoulder"));
    // A plain chain has no limbs at all.
    Skeleton bar;
    bar.names = {"a", "b", "c"};
    bar.parents = {-1, 0, 1};
    bar.bindPositions = MatrixX3d::Zero(3, 3);
    bar.bindPositions.col(0) << 0, 1, 2;
    bar.bindOrientations.assign(3, Eigen::Quaterniond::Identity());
    EXPECT_EQ(jointLimbs(bar), (std::vector<int>{-1, -1, -1}));
}

TEST(Skinning, BleedingCountsOnlyWeightsFromTwoLimbs)
{
    const Humanoid h = generateHumanoid({.cellSize = 0.05});
    const Skeleton s = groundTruthSkeleton(h);
    SkinWeights w;
    w.maxInfluences = 4;
    w.joints.setZero(5, 4);
    w.weights.setZero(5, 4);
    const auto set = [&](int v, std::vector<std::pair<const char*, float>> e) {
        for (size_t k = 0; k < e.size(); ++k) {
            w.joints(v, static_cast<Eigen::Index>(k)) = *s.find(e[k].first);
            w.weights(v, static_cast<Eigen::Index>(k)) = e[k].second;
        }
    };
    set(0, {{"LeftUpLeg", 0.9f}, {"RightUpLeg", 0.1f}});  // leg to leg: bleeds
    set(1, {{"LeftUpLeg", 0.5f}, {"Hips", 0.5f}});        // trunk to leg: fine
    set(2, {{"LeftForeArm", 0.97f}, {"LeftUpLeg", 0.03f}}); // under the threshold
    set(3, {{"LeftHand", 0.6f}, {"RightLeg", 0.4f}});     // arm and shin: bleeds
    set(4, {{"Hips", 0.6f}, {"LeftUpLeg", 0.2f}, {"RightUpLeg", 0.2f}}); // the pelvis into both legs: fine
    EXPECT_EQ(countBleedingVertices(w, s), 2);
    EXPECT_EQ(countBleedingVertices(w, s, 0.01), 3);
}

TEST(Skinning, BothMethodsOnTheDefaultCharacter)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .cellSize = 0.03});
    const Skeleton s = groundTruthSkeleton(h);
    VoxelizeOptions v;
    v.resolution = 80;
    const VoxelGrid solid = fillInterior(voxelizeSurface(h.mesh, v), h.mesh).grid;
    for (const std::string m : {"gaussian", "heat"}) {
        WeightOptions o;
        o.method = m;
        const SkinningResult r = computeSkinning(h.mesh, s, &solid, o);
        SCOPED_TRACE(m);
        EXPECT_NO_THROW(validateSegmentation(r.segmentation, h.mesh.vertexCount(), s.jointCount()));
        EXPECT_NO_THROW(validateSkinWeights(r.weights, h.mesh.vertexCount(), s.jointCount()));
        EXPECT_LE(r.weights.maxInfluences, 4);
        EXPECT_EQ(r.diagnostics.unreachedVertices, 0);
        EXPECT_TRUE(r.diagnostics.rigidParts.empty());
        // The ground-truth rig on the generated body: (almost) no vertex is
        // dragged by two limbs, and each finding is explained in a message.
        EXPECT_LT(r.diagnostics.bleedingVertices, h.mesh.vertexCount() / 200) << r.diagnostics.bleedingVertices;
        EXPECT_EQ(r.diagnostics.bleedingVertices, countBleedingVertices(r.weights, s));
        EXPECT_EQ(r.diagnostics.messages.empty(), r.diagnostics.bleedingVertices == 0);
    }
}

TEST(Skinning, RigidPartsAreReportedInTheMessages)
{
    Mesh m = test::concat({test::capsuleMesh(Vec3(0, 0, 0), Vec3(2, 0, 0), 0.2, 12, 4, 12),
                           test::capsuleMesh(Vec3(1, 1, 0), Vec3(1, 1.01, 0), 0.2, 12, 4, 1)});
    m.partNames = {"bar", "floating ball"};
    const SkinningResult r = heatSkinning(m, test::chainSkeleton({Vec3(0.1, 0, 0), Vec3(1.9, 0, 0)}, true));
    ASSERT_EQ(r.diagnostics.rigidParts.size(), 1u);
    EXPECT_EQ(r.diagnostics.rigidParts[0].name, "floating ball");
    ASSERT_FALSE(r.diagnostics.messages.empty());
    EXPECT_NE(r.diagnostics.messages[0].find("floating ball"), std::string::npos) << r.diagnostics.messages[0];
}

// An IK goal parented to the root and placed at the far end of the limb (a
// UE or Mixamo foot IK bone) is no bone of the skin: the link from the root
// to it ran through the whole limb, so the skin there took the root's weight
// (the goal's own, moved to its ancestor the root afterwards, as well).
// With the joints that deform given, bones exist only between them.
TEST(Skinning, AJointThatDoesNotDeformHasNoBoneInTheMethods)
{
    const Mesh bar = test::capsuleMesh(Vec3(0, 0, 0), Vec3(3, 0, 0), 0.25, 16, 6, 30);
    // root, a, b along the bar; the goal (3) a child of the root, at the bar's end.
    const Skeleton s = test::treeSkeleton({-1, 0, 1, 0}, {Vec3(0.2, 0, 0), Vec3(1.5, 0, 0), Vec3(2.8, 0, 0), Vec3(2.9, 0, 0)});
    const VoxelGrid solid = solidOf(bar);
    const std::vector<bool> deforming = {true, true, true, false};
    for (const char* method : {"heat", "geodesic-voxel"}) {
        SCOPED_TRACE(method);
        WeightOptions o;
        o.method = method;
        const auto rootAndGoalAtTheEnd = [&](const SkinWeights& w) {
            double most = 0.0;
            for (int i = 0; i < bar.vertexCount(); ++i)
                if (bar.V(i, 0) > 2.3) {
                    double x = 0.0;
                    for (int k = 0; k < w.maxInfluences; ++k)
                        if (w.joints(i, k) == 0 || w.joints(i, k) == 3)
                            x += w.weights(i, k);
                    most = std::max(most, x);
                }
            return most;
        };
        const SkinWeights all = computeSkinning(bar, s, &solid, o).weights;
        const SkinWeights only = computeSkinning(bar, s, &solid, o, {}, deforming).weights;
        EXPECT_GT(rootAndGoalAtTheEnd(all), 0.2); // the failure the mask removes
        // The goal moves no vertex, as it should: not a finding of the weights report.
        const SkinningResult masked = computeSkinning(bar, s, &solid, o, {}, deforming);
        EXPECT_TRUE(std::find(masked.diagnostics.bonesWithoutVertices.begin(),
                              masked.diagnostics.bonesWithoutVertices.end(),
                              3) == masked.diagnostics.bonesWithoutVertices.end());
        EXPECT_LT(rootAndGoalAtTheEnd(only), 0.02);
        for (int i = 0; i < bar.vertexCount(); ++i)
            for (int k = 0; k < only.maxInfluences; ++k)
                EXPECT_FALSE(only.joints(i, k) == 3 && only.weights(i, k) > 0.0f) << "vertex " << i;
    }
    EXPECT_THROW(computeSkinning(bar, s, &solid, {}, {}, std::vector<bool>{true, true}), InvalidInput);
}

// Two rigid pieces of one part (BCN_Epileptic's eyeballs, both of 'Head' and
// 81 vertices) gave the same line twice: each now says which piece and where.
TEST(Skinning, RigidPiecesOfOnePartAreToldApart)
{
    Mesh m = test::concat({test::capsuleMesh(Vec3(0, 0, 0), Vec3(2, 0, 0), 0.2, 12, 4, 12),
                           test::capsuleMesh(Vec3(0.5, 1, 0), Vec3(0.5, 1.01, 0), 0.2, 12, 4, 1),
                           test::capsuleMesh(Vec3(1.5, 1, 0), Vec3(1.5, 1.01, 0), 0.2, 12, 4, 1)});
    for (size_t i = 0; i < m.part.size(); ++i)
        m.part[i] = m.V(static_cast<Eigen::Index>(i), 1) > 0.5 ? 1 : 0;
    m.partNames = {"bar", "ball"};
    const SkinningResult r = heatSkinning(m, test::chainSkeleton({Vec3(0.1, 0, 0), Vec3(1.9, 0, 0)}, true));
    ASSERT_EQ(r.diagnostics.rigidParts.size(), 2u);
    std::vector<std::string> lines;
    for (const std::string& line : r.diagnostics.messages)
        if (line.find("is bound rigidly") != std::string::npos)
            lines.push_back(line);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_NE(lines[0], lines[1]);
    EXPECT_NE(lines[0].find("piece 1 of 2 of the part, around (0.5, 1, 0)"), std::string::npos) << lines[0];
    EXPECT_NE(lines[1].find("piece 2 of 2 of the part, around (1.5, 1, 0)"), std::string::npos) << lines[1];
}

} // namespace
} // namespace rig

namespace rig {
namespace {

/// Far reach (skinning.h): weight of a joint whose bones lie far beyond the
/// vertex's own bone (the hips reaching a knee or a shoulder) is reported;
/// weight across one joint (hips into the top of the thigh) is not.
TEST(Skinning, FarReachingWeightIsFoundAndNamed)
{
    const Humanoid h = generateHumanoid({.cellSize = 0.05});
    const Skeleton s = groundTruthSkeleton(h);
    const auto at = [&](const char* name) { return Vec3(s.bindPositions.row(*s.find(name)).transpose()); };
    MatrixX3d V(5, 3);
    V.row(0) = at("LeftLeg").transpose();     // the knee
    V.row(1) = at("LeftUpLeg").transpose();   // the hip joint
    V.row(2) = at("LeftArm").transpose();     // the shoulder
    V.row(3) = at("LeftForeArm").transpose(); // the elbow
    V.row(4) = at("RightLeg").transpose();    // the other knee
    SkinWeights w;
    w.maxInfluences = 2;
    w.joints.setZero(5, 2);
    w.weights.setZero(5, 2);
    const auto set = [&](int v, const char* a, float wa, const char* b, float wb) {
        w.joints(v, 0) = *s.find(a);
        w.weights(v, 0) = wa;
        w.joints(v, 1) = *s.find(b);
        w.weights(v, 1) = wb;
    };
    set(0, "LeftLeg", 0.7f, "Hips", 0.3f);        // far: the hips at the knee
    set(1, "LeftUpLeg", 0.6f, "Hips", 0.4f);      // near: across the hip joint
    set(2, "LeftArm", 0.8f, "Hips", 0.2f);        // far: the hips at the shoulder
    set(3, "LeftForeArm", 0.6f, "LeftArm", 0.4f); // near: across the elbow
    set(4, "RightLeg", 0.98f, "Hips", 0.02f);     // under the threshold
    const double height = h.mesh.V.col(1).maxCoeff() - h.mesh.V.col(1).minCoeff();
    int reached = -1;
    const std::vector<FarReach> far = farReachingJoints(w, V, s, height, &reached);
    ASSERT_EQ(far.size(), 1u);
    EXPECT_EQ(far[0].joint, *s.find("Hips"));
    EXPECT_EQ(far[0].vertices, 2);
    EXPECT_EQ(reached, 2);
    EXPECT_GT(far[0].farthest, WeightDiagnostics::farReachFraction * height);
    ASSERT_EQ(far[0].around.size(), 2u);
    EXPECT_TRUE((far[0].around[0] == *s.find("LeftLeg") && far[0].around[1] == *s.find("LeftArm")) ||
                (far[0].around[1] == *s.find("LeftLeg") && far[0].around[0] == *s.find("LeftArm")));
}

/// A joint that no vertex follows is named in the report (before, the report
/// said nothing: "No problems found" with a shoulder moving no vertex).
TEST(Skinning, BonesThatMoveNoVertexAreNamedInTheMessages)
{
    // A bar along x with a chain a-b-c inside it and an attachment joint
    // "prop" far outside the mesh, below c.
    const Mesh m = test::capsuleMesh(Vec3(0, 0, 0), Vec3(3, 0, 0), 0.25, 16, 4, 24);
    Skeleton s;
    s.names = {"a", "b", "c", "prop"};
    s.parents = {-1, 0, 1, 2};
    s.bindPositions.resize(4, 3);
    s.bindPositions << 0.1, 0, 0, 1.5, 0, 0, 2.9, 0, 0, 2.9, -3, 0;
    s.bindOrientations.assign(4, Eigen::Quaterniond::Identity());
    orientBones(s);
    VoxelizeOptions v;
    v.resolution = 64;
    const VoxelGrid solid = fillInterior(voxelizeSurface(m, v), m).grid;
    for (const std::string method : {"gaussian", "heat"}) {
        SCOPED_TRACE(method);
        WeightOptions o;
        o.method = method;
        o.segmentation.method = SegmentationMethod::NearestLink;
        const SkinningResult r = computeSkinning(m, s, &solid, o);
        EXPECT_EQ(r.diagnostics.bonesWithoutVertices, bonesWithoutVertices(r.weights, s.jointCount()));
        ASSERT_FALSE(r.diagnostics.bonesWithoutVertices.empty());
        EXPECT_EQ(r.diagnostics.bonesWithoutVertices.back(), 3); // "prop"
        bool named = false;
        for (const std::string& line : r.diagnostics.messages)
            named = named || (line.find("prop") != std::string::npos && line.find("no vertex") != std::string::npos);
        EXPECT_TRUE(named) << ::testing::PrintToString(r.diagnostics.messages);
    }
}

/// bonesWithoutVertices() counts a joint once any vertex carries the threshold.
TEST(Skinning, BonesWithoutVerticesUsesTheThreshold)
{
    SkinWeights w;
    w.maxInfluences = 2;
    w.joints.resize(2, 2);
    w.weights.resize(2, 2);
    w.joints << 0, 1, 0, 2;
    w.weights << 0.97f, 0.03f, 0.9f, 0.1f;
    EXPECT_EQ(bonesWithoutVertices(w, 4), (std::vector<int>{1, 3}));
    EXPECT_EQ(bonesWithoutVertices(w, 4, 0.01), (std::vector<int>{3}));
}

} // namespace
} // namespace rig
