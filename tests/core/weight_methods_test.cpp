#include "core/skin/weight_methods.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/io/project_file.h"
#include "core/project/project_io.h"
#include "core/skin/skinning.h"
#include "core/skin/weights_gaussian.h"
#include "core/skin/weights_heat.h"
#include "tests/support/expect_error.h"
#include "tests/support/skeletons.h"
#include "tests/support/test_methods.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
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
        const SkinWeights b = method == "heat"
                                  ? boneHeatWeights(h.mesh, s, nullptr, hh).weights
                                  : segmentationWeights(h.mesh, s, segmentMesh(h.mesh, s, nullptr, o.segmentation), g);
        EXPECT_EQ(a.joints, b.joints) << method;
        EXPECT_EQ(a.weights, b.weights) << method;
    }
}

} // namespace
} // namespace rig
