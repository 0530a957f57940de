#include "core/project/pipeline.h"

#include "core/common/error.h"
#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace rig {
namespace {

using test::expectError;

const std::string kClip = std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/01_01.bvh";

TEST(Pipeline, StagesHaveOneOrderAndOneNameEach)
{
    const std::vector<Stage> order(allStages().begin(), allStages().end());
    ASSERT_EQ(order.size(), 6u);
    EXPECT_EQ(order.front(), Stage::Load);
    EXPECT_EQ(order.back(), Stage::Export);
    for (size_t i = 0; i < order.size(); ++i) {
        EXPECT_EQ(findStage(stageId(order[i])), order[i]);
        EXPECT_FALSE(stageTitle(order[i]).empty());
        if (i > 0) {
            EXPECT_LT(order[i - 1], order[i]);
        }
    }
    EXPECT_EQ(stageId(Stage::Weights), "weights");
    EXPECT_FALSE(findStage("voxelize"));
}

TEST(Pipeline, NothingRunsWithoutACharacterAndMissingInputsAreNamed)
{
    RigProject p;
    EXPECT_FALSE(nextStage(p));
    expectError<InvalidInput>([&] { runStage(p, Stage::Load); }, "nothing to load");
    expectError<InvalidInput>([&] { runStage(p, Stage::Weights); }, "the weights stage needs the rig stage's result");
    expectError<InvalidInput>([&] { runStage(p, Stage::Export); }, "export");
}

TEST(Pipeline, RunsTheMissingStagesInOrderAndEditsMakeTheLaterOnesStale)
{
    RigProject p;
    p.setCharacterSpec("default");
    EXPECT_EQ(nextStage(p), Stage::Load);
    const StageTimings t = runPipeline(p, Stage::Weights);
    ASSERT_TRUE(p.character() && p.curveSkeleton() && p.rig() && p.skinning());
    std::vector<std::string> names;
    for (const auto& s : t)
        names.push_back(s.name);
    for (const char* expected : {"load", "voxelize", "thin", "label", "fit", "segment", "weights"})
        EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
    EXPECT_FALSE(nextStage(p, Stage::Weights));
    EXPECT_FALSE(nextStage(p)); // no clip asked for: nothing to do

    // New weight options: only the weights are stale.
    const auto rig = p.rig();
    WeightOptions o = p.weightOptions();
    o.method = "heat";
    p.setWeightOptions(o);
    EXPECT_EQ(nextStage(p), Stage::Weights);
    runPipeline(p);
    EXPECT_EQ(p.rig(), rig);
    EXPECT_TRUE(p.skinning());

    if (!std::filesystem::exists(kClip))
        GTEST_SKIP() << kClip << " is missing (assimp-testmodels); the clip part is skipped";
    p.setClipPath(kClip);
    EXPECT_EQ(nextStage(p), Stage::Clip);
    runPipeline(p);
    ASSERT_TRUE(p.clip());
    EXPECT_EQ(p.clipRig(), p.rig());
    // A rig edit: weights and clip are stale, the clip keeps its path.
    const int elbow = *p.rig()->skeleton.find("LeftForeArm");
    p.setRig(p.labels(), std::make_shared<const FitResult>(
                             moveJoint(*p.rig(), elbow, p.rig()->skeleton.bindPositions.row(elbow).transpose(), false)));
    EXPECT_EQ(nextStage(p), Stage::Weights);
    EXPECT_EQ(p.clipPath(), kClip);
    runPipeline(p);
    EXPECT_FALSE(nextStage(p));
    EXPECT_EQ(p.clipRig(), p.rig());
}

TEST(Pipeline, RequestedLabelsAreFittedAndSurviveTheLoad)
{
    RigProject auto_;
    auto_.setCharacterSpec("default");
    runPipeline(auto_, Stage::Rig);
    EndNodeLabels swapped = auto_.labels();
    std::swap(swapped[Limb::LeftHand], swapped[Limb::RightHand]);
    RigProject p;
    p.setCharacterSpec("default");
    p.setLabels(swapped); // before anything is loaded, as the CLI's --ends does
    runPipeline(p, Stage::Rig);
    EXPECT_EQ(p.labels(), swapped);
}

// Issue 14, item 4: when the ends Rigsmith chose itself do not make a body,
// the message says what it found and what to do; before, it ended in the
// fit's "check that hands and feet are not swapped", blaming a user who had
// set no label. The same labels set by the user keep the fit's own advice.
TEST(Pipeline, AutomaticLabelsThatMakeNoBodyAreNotTheUsersFault)
{
    // A minigun: not a humanoid, yet its curve skeleton has five ends and
    // passes the humanoid check, so the labels chosen for it make no body.
    // (Until stop 35 this test used OBJ/regr_3429812.obj, which the
    // orientation detection now stands differently: the check refuses it.
    // Its up is given, +x, the frame the detection gave until issue 48: the
    // test is about labels, not about which end of a gun is up.)
    const std::string file = std::string(RIGSMITH_ASSIMP_MODELS) + "/MDL/MDL3 (3DGS A4)/minigun.MDL";
    if (!std::filesystem::exists(file))
        GTEST_SKIP() << "assimp-testmodels is not installed (" << file << ")";
    RigProject p;
    p.setCharacterSpec(file);
    p.setOrientation({.up = "+x", .facing = "auto"});
    std::string message;
    try {
        runPipeline(p, Stage::Rig);
    } catch (const InvalidInput& e) {
        message = e.what();
    }
    ASSERT_NE(message.find("chosen automatically ("), std::string::npos) << message;
    EXPECT_NE(message.find("do not make a head, two arms and two legs: the "), std::string::npos) << message;
    EXPECT_NE(message.find("The skeleton has 5 ends"), std::string::npos) << message;
    EXPECT_NE(message.find("--ends head=ID"), std::string::npos) << message;
    EXPECT_EQ(message.find("check"), std::string::npos) << message;
    EXPECT_EQ(message.find("assignRoot"), std::string::npos) << message;

    RigProject chosen;
    chosen.setCharacterSpec(file);
    chosen.setOrientation({.up = "+x", .facing = "auto"});
    runPipeline(chosen, Stage::Skeleton);
    chosen.setLabels(suggestLabels(chosen));
    message.clear();
    try {
        runPipeline(chosen, Stage::Rig);
    } catch (const InvalidInput& e) {
        message = e.what();
    }
    EXPECT_NE(message.find("check the labels"), std::string::npos) << message;
}

// Issue 43: the rig stage keeps the humanoid verdict in the project (the
// front ends read it instead of checking again), also when the labels it
// chose make no body; that failure carries the fit's own message for reports.
TEST(Pipeline, TheRigStageKeepsTheHumanoidVerdictAndTheFitsOwnReason)
{
    RigProject p;
    p.setCharacterSpec("default");
    runPipeline(p, Stage::Skeleton);
    EXPECT_FALSE(p.humanoidCheck());
    runPipeline(p, Stage::Rig);
    ASSERT_TRUE(p.humanoidCheck());
    EXPECT_TRUE(p.humanoidCheck()->looksHumanoid());
    const auto check = p.humanoidCheck();
    EXPECT_EQ(humanoidCheckOf(p), check) << "computed again";
    p.setCurveSkeleton(std::make_shared<const CurveSkeletonResult>(*p.curveSkeleton()));
    EXPECT_FALSE(p.humanoidCheck()) << "a verdict on another skeleton";

    const std::string file = std::string(RIGSMITH_ASSIMP_MODELS) + "/MDL/MDL3 (3DGS A4)/minigun.MDL";
    if (!std::filesystem::exists(file))
        GTEST_SKIP() << "assimp-testmodels is not installed (" << file << ")";
    RigProject gun;
    gun.setCharacterSpec(file);
    gun.setOrientation({.up = "+x", .facing = "auto"});
    try {
        runPipeline(gun, Stage::Rig);
        FAIL() << "a minigun got a humanoid rig";
    } catch (const AutoRigFailed& e) {
        EXPECT_NE(e.detail.find("chosen automatically"), std::string::npos) << e.detail;
        EXPECT_EQ(std::string(e.what()), e.verdict + e.detail);
        EXPECT_FALSE(e.reason.empty());
        EXPECT_EQ(e.detail.find(e.reason), std::string::npos) << "the reason is the fit's own message, unedited";
    }
    EXPECT_TRUE(gun.humanoidCheck()) << "the verdict is kept when the fit fails";
}

// Issue 43: a front end that saw a stage fail asks whether its inputs changed since.
TEST(Pipeline, SameStageInputsTellWhichStagesAnEditConcerns)
{
    RigProject p;
    p.setCharacterSpec("default");
    runPipeline(p, Stage::Weights);
    const RigProject before = p;
    for (const Stage s : {Stage::Load, Stage::Skeleton, Stage::Rig, Stage::Weights, Stage::Clip})
        EXPECT_TRUE(sameStageInputs(p, before, s)) << stageId(s);
    WeightOptions o = p.weightOptions();
    o.method = "heat";
    p.setWeightOptions(o);
    EXPECT_FALSE(sameStageInputs(p, before, Stage::Weights));
    EXPECT_TRUE(sameStageInputs(p, before, Stage::Rig));
    p.setFront(-Vec3::UnitZ());
    EXPECT_FALSE(sameStageInputs(p, before, Stage::Rig));
    CurveSkeletonOptions n = p.curveSkeletonOptions();
    n.voxelize.resolution = 100;
    p.setCurveSkeletonOptions(n);
    EXPECT_FALSE(sameStageInputs(p, before, Stage::Skeleton));
    EXPECT_TRUE(sameStageInputs(p, before, Stage::Load));
    p.setCharacterSpec("default:a");
    EXPECT_FALSE(sameStageInputs(p, before, Stage::Load));
}

/// A result computed on a snapshot is not applied over a newer edit.
TEST(Pipeline, ResultsOfAStaleSnapshotAreNotApplied)
{
    RigProject p;
    p.setCharacterSpec("default");
    runPipeline(p, Stage::Rig);
    const RigProject started = p;
    RigProject computed = started;
    runPipeline(computed, Stage::Weights);
    // Meanwhile the artist changed the weight options: the weights are stale.
    RigProject edited = p;
    WeightOptions o = edited.weightOptions();
    o.parameters["gaussian"]["c"] = 0.3;
    edited.setWeightOptions(o);
    EXPECT_TRUE(applyResults(edited, computed, started, Stage::Weights, Stage::Clip).empty());
    EXPECT_FALSE(edited.skinningCurrent());
    // Unchanged: applied.
    const auto applied = applyResults(p, computed, started, Stage::Weights, Stage::Clip);
    ASSERT_EQ(applied.size(), 1u);
    EXPECT_EQ(applied[0], Stage::Weights);
    EXPECT_EQ(p.skinning(), computed.skinning());
}

} // namespace
} // namespace rig
