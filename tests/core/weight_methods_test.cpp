#include "core/skin/weight_methods.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/export/project_file.h"
#include "core/project/project_io.h"
#include "core/skin/rigid_pieces.h"
#include "core/skin/skinning.h"
#include "core/skin/weights_gaussian.h"
#include "core/skin/weights_heat.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"
#include "tests/support/expect_error.h"
#include "tests/support/meshes.h"
#include "tests/support/skeletons.h"
#include "tests/support/test_methods.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace rig {
namespace {

using test::expectError;

Skeleton groundTruth(const Humanoid& h) { return test::groundTruthSkeleton(h); }

TEST(WeightMethods, TheTableListsTheBuiltInMethodsFirstWithValidRows)
{
    const auto& table = weightMethods();
    ASSERT_GE(table.size(), 2u);
    EXPECT_EQ(table[0].id, "gaussian"); // the default of WeightOptions
    EXPECT_EQ(table[1].id, "heat");
    EXPECT_EQ(WeightOptions{}.method, table[0].id);
    std::set<std::string> ids;
    for (const WeightMethod& m : table) {
        EXPECT_TRUE(ids.insert(m.id).second) << m.id << " twice";
        EXPECT_FALSE(m.title.empty());
        EXPECT_TRUE(m.compute && m.typedOptions && m.valuesOf) << m.id;
        std::set<std::string> keys;
        for (const MethodParameter& p : m.parameters) {
            EXPECT_TRUE(keys.insert(p.key).second) << m.id << "." << p.key << " twice";
            EXPECT_GE(p.defaultValue, p.min) << m.id << "." << p.key;
            EXPECT_LE(p.defaultValue, p.max) << m.id << "." << p.key;
            if (!p.choices.empty()) {
                EXPECT_EQ(p.max, double(p.choices.size() - 1)) << m.id << "." << p.key;
            }
        }
        // Defaults pass the checks, and the typed round trip keeps every value.
        ParameterValues defaults;
        for (const MethodParameter& p : m.parameters)
            defaults[p.key] = p.defaultValue;
        EXPECT_NO_THROW(checkParameters(m.parameters, defaults, m.id));
        EXPECT_EQ(m.valuesOf(m.typedOptions(defaults)), defaults) << m.id;
    }
}

TEST(WeightMethods, TypedOptionsMatchTheStructDefaults)
{
    const WeightOptions o;
    const auto g = methodOptions<GaussianWeightOptions>(o, "gaussian");
    EXPECT_EQ(g.c, GaussianWeightOptions{}.c);
    EXPECT_EQ(g.hierarchyLevel, GaussianWeightOptions{}.hierarchyLevel);
    EXPECT_EQ(g.function, GaussianWeightOptions{}.function);
    const auto h = methodOptions<HeatWeightOptions>(o, "heat");
    EXPECT_EQ(h.heatConstant, HeatWeightOptions{}.heatConstant);
    EXPECT_EQ(h.separateLimbs, HeatWeightOptions{}.separateLimbs);
    WeightOptions edited;
    GaussianWeightOptions gg;
    gg.c = 0.4;
    gg.function = WeightFunction::Linear;
    setMethodOptions(edited, "gaussian", gg);
    EXPECT_EQ(methodOptions<GaussianWeightOptions>(edited, "gaussian").c, 0.4);
    EXPECT_EQ(methodOptions<GaussianWeightOptions>(edited, "gaussian").function, WeightFunction::Linear);
}

TEST(WeightMethods, BadValuesAndRegistrationsAreRefusedWithTheirNames)
{
    const WeightMethod& heat = findWeightMethod("heat");
    expectError<InvalidInput>([&] { checkParameters(heat.parameters, {{"heatConstant", -1.0}}, "heat"); },
                              "heat.heatConstant = -1 is out of range");
    expectError<InvalidInput>([&] { checkParameters(heat.parameters, {{"maxInfluences", 2.5}}, "heat"); },
                              "a whole number");
    expectError<InvalidInput>([&] { checkParameters(heat.parameters, {{"colour", 1.0}}, "heat"); },
                              "'heat' has no parameter 'colour'");
    expectError<InvalidInput>([&] { checkParameters(heat.parameters, {{"heatConstant", std::nan("")}}, "heat"); },
                              "out of range");
    expectError<InvalidInput>([] { findWeightMethod("bbw"); }, "weight method 'bbw' not understood; use gaussian");
    WeightMethod copy = heat;
    expectError<InvalidInput>([&] { registerWeightMethod(copy); }, "already exists");
    copy.id = "Bad Id";
    expectError<InvalidInput>([&] { registerWeightMethod(copy); }, "[a-z0-9_-]");
    copy.id = "no-compute";
    copy.compute = nullptr;
    expectError<InvalidInput>([&] { registerWeightMethod(copy); }, "no compute function");
    WeightOptions o;
    o.parameters["gaussian"]["c"] = 0.0;
    expectError<InvalidInput>([&] { checkWeightOptions(o); }, "gaussian.c = 0");
}

/// A method that exists only in the tests reaches computeSkinning and the
/// project file through the table, with no code of its own there.
TEST(WeightMethods, ATestOnlyMethodRunsAndRoundTripsThroughAProjectFile)
{
    test::registerTestMethods();
    EXPECT_NE(weightMethodIds().find(test::testMethodId), std::string::npos);
    const Humanoid h = generateHumanoid({.cellSize = 0.05});
    const Skeleton s = groundTruth(h);
    WeightOptions o;
    o.method = test::testMethodId;
    o.parameters[test::testMethodId]["reach"] = 1.25;
    const SkinningResult r = computeSkinning(h.mesh, s, nullptr, o);
    ASSERT_EQ(r.weights.vertexCount(), h.mesh.vertexCount());
    EXPECT_EQ(r.weights.maxInfluences, 1);
    EXPECT_TRUE((r.weights.weights.array() == 1.0).all());
    // Every bone that has a segment gets some vertices (a rigid binding, not a constant).
    std::set<int> used(r.weights.joints.data(), r.weights.joints.data() + r.weights.joints.size());
    EXPECT_GT(used.size(), 10u);

    // Through the project file on disk: method and parameter come back.
    ProjectFile pf;
    pf.meshPath = "default";
    pf.weights = weightSettings(o);
    const std::string path = (std::filesystem::temp_directory_path() / "rigsmith_test_method.rsproj").string();
    writeProjectFile(pf, path);
    const WeightOptions back = weightOptionsFrom(readProjectFile(path).weights);
    std::filesystem::remove(path);
    EXPECT_EQ(back.method, test::testMethodId);
    EXPECT_EQ(back.valuesOf(test::testMethodId).at("reach"), 1.25);
}

/// The weight settings exactly as the project files of the release before the
/// method table wrote them (every key, method "heat", non-default values)
/// restore the same options, and so the same weights.
TEST(WeightMethods, SettingsOfProjectsSavedBeforeTheTableRestoreIdentically)
{
    ProjectWeightSettings old;
    old.method = "heat";
    old.names = {{"segmentation.method", "3.2.1"}, {"gaussian.function", "smoothstep"}};
    old.numbers = {{"segmentation.hierarchyLevel", 2},     {"segmentation.maxNormalAngleDegrees", 80},
                   {"segmentation.mergeRegions", 0},       {"segmentation.rigidPartSize", 0.07},
                   {"gaussian.hierarchyLevel", 2},         {"gaussian.a", 1.1},
                   {"gaussian.b", 0.45},                   {"gaussian.c", 0.3},
                   {"gaussian.maxInfluences", 3},          {"gaussian.smoothingIterations", 4},
                   {"gaussian.minRelativeWeight", 0.02},   {"heat.heatConstant", 0.5},
                   {"heat.visibilityTolerance", 2.0},      {"heat.leafBoneLength", 0.4},
                   {"heat.minWeight", 0.001},              {"heat.maxInfluences", 3},
                   {"heat.minPartVertices", 6},            {"heat.smallPartSize", 0.02}};
    const WeightOptions o = weightOptionsFrom(old);
    EXPECT_EQ(o.method, "heat");
    EXPECT_EQ(o.segmentation.method, SegmentationMethod::NearestLink);
    EXPECT_EQ(o.segmentation.hierarchyLevel, 2);
    EXPECT_FALSE(o.segmentation.mergeRegions);
    const auto g = methodOptions<GaussianWeightOptions>(o, "gaussian");
    EXPECT_EQ(g.function, WeightFunction::Smoothstep);
    EXPECT_EQ(g.smoothingIterations, 4);
    EXPECT_EQ(g.minRelativeWeight, 0.02);
    const auto hh = methodOptions<HeatWeightOptions>(o, "heat");
    EXPECT_EQ(hh.heatConstant, 0.5);
    EXPECT_EQ(hh.maxInfluences, 3);
    EXPECT_EQ(hh.leafBoneLength, 0.4);

    // The weights of the restored options equal those of the typed options set by hand.
    const Humanoid h = generateHumanoid({.cellSize = 0.05});
    const Skeleton s = groundTruth(h);
    for (const std::string method : {"gaussian", "heat"}) {
        WeightOptions restored = o;
        restored.method = method;
        const SkinWeights a = computeSkinning(h.mesh, s, nullptr, restored).weights;
        const Segmentation seg = segmentMesh(h.mesh, s, nullptr, o.segmentation); // heat takes it too (separateLimbs)
        // Then the stage binds the pieces along one bone (rigid_pieces.h), whatever the method.
        const SkinWeights b =
            bindRigidPieces(method == "heat" ? boneHeatWeights(h.mesh, s, nullptr, hh, {}, &seg).weights
                                             : segmentationWeights(h.mesh, s, seg, g),
                            h.mesh, s.jointCount())
                .weights;
        EXPECT_EQ(a.joints, b.joints) << method;
        EXPECT_EQ(a.weights, b.weights) << method;
    }
}

// ---- Every method of the table (issue 15): properties any weights must have.

/// The built-in methods (a test-only method registered by another test is left out).
std::vector<std::string> builtInMethods()
{
    std::vector<std::string> ids;
    for (const WeightMethod& m : weightMethods())
        if (m.id != test::testMethodId)
            ids.push_back(m.id);
    return ids;
}

VoxelGrid solidOf(const Mesh& mesh)
{
    return fillInterior(voxelizeSurface(mesh, VoxelizeOptions{}), mesh).grid;
}

/// Rows non-negative, finite, summing to 1 within 1e-6, at most 4 influences;
/// returns the rows as a dense #V by #J matrix.
Eigen::MatrixXd expectValidRows(const SkinWeights& w, int vertices, int joints, const std::string& what)
{
    EXPECT_NO_THROW(validateSkinWeights(w, vertices, joints)) << what;
    EXPECT_LE(w.maxInfluences, 4) << what;
    const Eigen::MatrixXd D = denseWeights(w, joints);
    int bad = 0;
    for (int i = 0; i < vertices; ++i) {
        const bool ok = D.row(i).allFinite() && D.row(i).minCoeff() >= 0.0 && std::abs(D.row(i).sum() - 1.0) <= 1e-6 &&
                        (D.row(i).array() > 0.0).count() <= 4;
        if (!ok && ++bad <= 3)
            ADD_FAILURE() << what << ": vertex " << i << " row sums to " << D.row(i).sum() << ", min "
                          << D.row(i).minCoeff() << ", " << (D.row(i).array() > 0.0).count() << " influences";
    }
    EXPECT_EQ(bad, 0) << what;
    return D;
}

/// The generator's limb of a body part ("" for the trunk).
std::string limbOf(BodyPart p)
{
    switch (p) {
    case BodyPart::LeftUpperArm: case BodyPart::LeftForearm: case BodyPart::LeftHand: return "LeftArm";
    case BodyPart::RightUpperArm: case BodyPart::RightForearm: case BodyPart::RightHand: return "RightArm";
    case BodyPart::LeftThigh: case BodyPart::LeftShin: case BodyPart::LeftFoot: return "LeftLeg";
    case BodyPart::RightThigh: case BodyPart::RightShin: case BodyPart::RightFoot: return "RightLeg";
    default: return "";
    }
}

const std::map<std::string, std::vector<std::string>>& limbJointNames()
{
    static const std::map<std::string, std::vector<std::string>> m = {
        {"LeftArm", {"LeftArm", "LeftForeArm", "LeftHand"}},
        {"RightArm", {"RightArm", "RightForeArm", "RightHand"}},
        {"LeftLeg", {"LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase"}},
        {"RightLeg", {"RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"}},
    };
    return m;
}

std::string largestJoint(const Eigen::MatrixXd& D, const Skeleton& s, int i)
{
    Eigen::Index j = 0;
    D.row(i).maxCoeff(&j);
    return s.names[static_cast<size_t>(j)];
}

/// Every method on the generated character in every pose it is generated in:
/// valid rows on every vertex, and no vertex of one limb (the generator's own
/// body parts, not the method's segmentation) carries a weight of 0.05 or
/// more from a joint of another limb.
TEST(EveryWeightMethod, ValidRowsAndNoBleedingBetweenLimbsInEveryGeneratedPose)
{
    for (const HumanoidPose pose : {HumanoidPose::T, HumanoidPose::A, HumanoidPose::ArmsDown, HumanoidPose::KneesBent,
                                    HumanoidPose::Sitting, HumanoidPose::Reach, HumanoidPose::Twist}) {
        const Humanoid h = generateHumanoid({.pose = pose, .cellSize = 0.025});
        const Skeleton s = groundTruth(h);
        const VoxelGrid solid = solidOf(h.mesh);
        for (const std::string& id : builtInMethods()) {
            const std::string what = id + " on " + std::string(humanoidPoseName(pose));
            WeightOptions o;
            o.method = id;
            const SkinningResult r = computeSkinning(h.mesh, s, &solid, o);
            const Eigen::MatrixXd D = expectValidRows(r.weights, h.mesh.vertexCount(), s.jointCount(), what);
            int bleeding = 0;
            for (int i = 0; i < h.mesh.vertexCount(); ++i) {
                const std::string limb = limbOf(static_cast<BodyPart>(h.vertexPart[static_cast<size_t>(i)]));
                if (limb.empty())
                    continue;
                for (const auto& [other, joints] : limbJointNames()) {
                    if (other == limb)
                        continue;
                    for (const std::string& j : joints)
                        if (D(i, *s.find(j)) >= 0.05 && ++bleeding <= 3)
                            ADD_FAILURE() << what << ": " << limb << " vertex " << i << " has weight " << D(i, *s.find(j))
                                          << " from " << j << " (largest on " << largestJoint(D, s, i) << ")";
                }
            }
            EXPECT_EQ(bleeding, 0) << what;
            EXPECT_EQ(r.diagnostics.bleedingVertices, 0) << what;
        }
    }
}

/// The character cut open at the neck (the head an open, separate part) with
/// two separate eyeballs: every method weights every vertex, and the eyes and
/// the top of the head follow the head and the neck.
TEST(EveryWeightMethod, SeparateEyeballsAndAnOpenNeckAreWeighted)
{
    const Humanoid h = generateHumanoid({.cellSize = 0.025});
    const Skeleton s = groundTruth(h);
    Mesh cut = h.mesh;
    std::vector<Eigen::Vector3i> kept;
    const double neckY = 0.5 * (h.joints(jointIndex(HumanoidJoint::Neck), 1) + h.joints(jointIndex(HumanoidJoint::Head), 1));
    for (Eigen::Index f = 0; f < cut.F.rows(); ++f) {
        const double y = (cut.V(cut.F(f, 0), 1) + cut.V(cut.F(f, 1), 1) + cut.V(cut.F(f, 2), 1)) / 3.0;
        if (std::abs(y - neckY) > 0.012)
            kept.emplace_back(cut.F.row(f).transpose());
    }
    ASSERT_LT(static_cast<Eigen::Index>(kept.size()), cut.F.rows());
    cut.F.resize(static_cast<Eigen::Index>(kept.size()), 3);
    for (size_t f = 0; f < kept.size(); ++f)
        cut.F.row(static_cast<Eigen::Index>(f)) = kept[f].transpose();
    const Vec3 head = h.joints.row(jointIndex(HumanoidJoint::Head)).transpose();
    const Mesh eyeL = test::capsuleMesh(head + Vec3(0.03, 0.1, 0.07), head + Vec3(0.031, 0.1, 0.07), 0.012, 12, 4, 1);
    const Mesh eyeR = test::capsuleMesh(head + Vec3(-0.03, 0.1, 0.07), head + Vec3(-0.031, 0.1, 0.07), 0.012, 12, 4, 1);
    const Mesh all = test::concat({cut, eyeL, eyeR});
    const VoxelGrid solid = solidOf(all);
    const int headJoint = *s.find("Head"), neckJoint = *s.find("Neck");
    const double top = head.y() + 0.1;
    for (const std::string& id : builtInMethods()) {
        WeightOptions o;
        o.method = id;
        const SkinningResult r = computeSkinning(all, s, &solid, o);
        const Eigen::MatrixXd D = expectValidRows(r.weights, all.vertexCount(), s.jointCount(), id);
        int astray = 0;
        for (int i = 0; i < all.vertexCount(); ++i) {
            const bool eye = i >= cut.vertexCount();
            if (!eye && all.V(i, 1) < top)
                continue;
            const double w = D(i, headJoint) + D(i, neckJoint);
            if (w < 0.95 && ++astray <= 3)
                ADD_FAILURE() << id << ": " << (eye ? "eye" : "head") << " vertex " << i << " has only " << w
                              << " on the head and the neck";
        }
        EXPECT_EQ(astray, 0) << id;
    }
}

/// Bad input: each method gives valid weights (no NaN, no silent zero row) or
/// refuses with a message naming the problem.
TEST(EveryWeightMethod, BadInputGetsWeightsOrAClearMessage)
{
    const Mesh body = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1, 0), 0.12, 16, 6, 24);
    const Skeleton chain = test::chainSkeleton({Vec3(0, 0.1, 0), Vec3(0, 0.5, 0), Vec3(0, 0.9, 0)});
    // A single sheet (no volume) beside the body: a separate part of two triangles.
    Mesh sheet;
    sheet.V.resize(4, 3);
    sheet.V << 0.3, 0.4, 0.0, 0.5, 0.4, 0.0, 0.5, 0.6, 0.0, 0.3, 0.6, 0.0;
    sheet.F.resize(2, 3);
    sheet.F << 0, 1, 2, 0, 2, 3;
    struct Case {
        std::string name;
        Mesh mesh;
        Skeleton skeleton;
    };
    const std::vector<Case> cases = {
        {"a body and a single sheet", test::concat({body, sheet}), chain},
        {"a single sheet alone", sheet, chain},
        {"a one-joint skeleton", body, test::chainSkeleton({Vec3(0, 0.5, 0)})},
        {"a bone outside the mesh", body, test::chainSkeleton({Vec3(0, 0.1, 0), Vec3(0, 0.9, 0), Vec3(2, 2, 2), Vec3(3, 3, 3)})},
        // Far away (a broken file): the distance from it is 1e5 voxels and more.
        {"a bone far outside the mesh", body,
         test::chainSkeleton({Vec3(0, 0.1, 0), Vec3(0, 0.9, 0), Vec3(3e3, 3e3, 3e3), Vec3(4e3, 4e3, 4e3)})},
    };
    for (const Case& c : cases)
        for (const std::string& id : builtInMethods()) {
            const std::string what = id + " on " + c.name;
            WeightOptions o;
            o.method = id;
            try {
                const VoxelGrid solid = solidOf(c.mesh);
                const SkinningResult r = computeSkinning(c.mesh, c.skeleton, &solid, o);
                expectValidRows(r.weights, c.mesh.vertexCount(), c.skeleton.jointCount(), what);
            } catch (const InvalidInput& e) {
                // A refusal must say what is wrong (more than a function name).
                const std::string m = e.what();
                EXPECT_GT(m.size(), 30u) << what << ": " << m;
                std::cout << "[ refused  ] " << what << ": " << m << '\n';
            }
        }
}

} // namespace
} // namespace rig
