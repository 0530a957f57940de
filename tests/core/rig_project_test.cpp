#include "core/project/rig_project.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

namespace rig {
namespace {

TEST(RigProject, SkeletonNeedsACharacter)
{
    RigProject p;
    EXPECT_THROW(computeCurveSkeleton(p), InvalidInput);
}

TEST(RigProject, TheDeformerIsARowOfTheTableAndClearsNoResult)
{
    RigProject p;
    EXPECT_EQ(p.deformer(), RigProject::defaultDeformer);
    EXPECT_EQ(p.deformer(), "lbs") << "the default of the GUI before the deformer was saved";
    p.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter("default")));
    p.setDeformer("twist");
    EXPECT_EQ(p.deformer(), "twist");
    EXPECT_TRUE(p.character()) << "a deformer is a view of the results, not an input of them";
    EXPECT_THROW(p.setDeformer("no-such-deformer"), InvalidInput);
    EXPECT_EQ(p.deformer(), "twist") << "a refused id leaves the deformer";
    const RigProject snapshot = p;
    p.setDeformer("dqs");
    EXPECT_EQ(snapshot.deformer(), "twist");
}

TEST(RigProject, CopiesAreSnapshotsAndANewCharacterClearsLaterStages)
{
    RigProject p;
    p.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter("default")));
    p.setCurveSkeleton(std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(p)));
    ASSERT_TRUE(p.curveSkeleton());
    EXPECT_EQ(p.curveSkeleton()->refined.count(NodeType::End), 5);

    const RigProject snapshot = p; // cheap: shares the immutable results
    EXPECT_EQ(snapshot.curveSkeleton(), p.curveSkeleton());
    p.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter("default:t")));
    EXPECT_FALSE(p.curveSkeleton());
    EXPECT_TRUE(snapshot.curveSkeleton()); // the snapshot is untouched
}

TEST(CharacterSource, DefaultSpecsAndPoses)
{
    EXPECT_TRUE(isDefaultCharacterSpec("default"));
    EXPECT_TRUE(isDefaultCharacterSpec("default:sitting"));
    EXPECT_FALSE(isDefaultCharacterSpec("defaults.obj"));
    const LoadedCharacter c = loadCharacter("default:sitting");
    ASSERT_TRUE(c.groundTruth);
    EXPECT_EQ(c.groundTruth->pose, HumanoidPose::Sitting);
    EXPECT_TRUE(c.stats.watertight);
    try {
        loadCharacter("default:moonwalk");
        FAIL() << "no error for an unknown pose";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("knees-bent"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace rig
