// Issue 43: the viewport decides what to upload by the identity of the shared
// results it was shown (ui/viewport/view_state.h, made_from.h), not by dirty
// flags set by a setter per result: a copy of the project changes nothing, a
// new result object changes its part even when equal by value, painted
// weights keep the segmentation of the deformers that read no weights.
#include "ui/viewport/made_from.h"
#include "ui/viewport/view_state.h"

#include <gtest/gtest.h>

#include <memory>

namespace rig::ui {
namespace {

/// A view state with a tiny character, a rig, weights and a pose of two joints.
ViewState tinyState()
{
    ViewState s;
    auto character = std::make_shared<LoadedCharacter>();
    character->imported.mesh.V = MatrixX3d::Zero(3, 3);
    s.project.setCharacter(character);
    auto rig = std::make_shared<FitResult>();
    rig->skeleton.names = {"Hips", "Spine"};
    rig->skeleton.parents = {-1, 0};
    s.project.setRig({}, rig);
    auto skinning = std::make_shared<SkinningResult>();
    skinning->segmentation.bone = {0, 1, 1};
    skinning->segmentation.delta = {0.0, 0.5, 1.0};
    s.project.setSkinning(skinning);
    s.pose.localRotations.assign(2, Eigen::Quaterniond::Identity());
    s.poseTwist = {0.0, 0.0};
    return s;
}

TEST(SceneChange, ACopyOfTheProjectChangesNothing)
{
    const ViewState a = tinyState();
    const ViewState b = a; // the document's snapshot, copied again on every change signal
    EXPECT_FALSE(sceneChange(a, b).any());
    EXPECT_FALSE(sceneChange(ViewState{}, ViewState{}).any());
}

TEST(SceneChange, AnotherResultObjectIsAChangeEvenWhenEqual)
{
    const ViewState a = tinyState();
    ViewState b = a;
    b.project.setRig(b.project.labels(), std::make_shared<FitResult>(*a.project.rig())); // a refit to the same joints
    const SceneChange c = sceneChange(a, b);
    EXPECT_TRUE(c.rig);
    EXPECT_FALSE(c.character);
    EXPECT_TRUE(c.skinning) << "a new rig clears the weights made for the old one";
    EXPECT_FALSE(c.weightsOnly);
}

TEST(SceneChange, PaintedWeightsKeepTheSegmentation)
{
    const ViewState a = tinyState();
    ViewState painted = a;
    auto next = std::make_shared<SkinningResult>(*a.project.skinning()); // as Document::applyPaintedWeights()
    next->weights.maxInfluences = 1;
    painted.project.setSkinning(next);
    SceneChange c = sceneChange(a, painted);
    EXPECT_TRUE(c.skinning);
    EXPECT_TRUE(c.weightsOnly);
    EXPECT_FALSE(c.rig || c.character || c.pose);

    ViewState resegmented = painted;
    auto other = std::make_shared<SkinningResult>(*next);
    other->segmentation.delta[1] = 0.25;
    resegmented.project.setSkinning(other);
    c = sceneChange(painted, resegmented);
    EXPECT_TRUE(c.skinning);
    EXPECT_FALSE(c.weightsOnly) << "another segmentation binds every deformer again";

    ViewState none = a;
    none.project.setSkinning(nullptr);
    EXPECT_FALSE(sceneChange(a, none).weightsOnly);
}

TEST(SceneChange, PosesCompareByValue)
{
    const ViewState a = tinyState();
    ViewState b = a;
    b.pose.localRotations[1] = Eigen::Quaterniond(Eigen::AngleAxisd(0.1, Eigen::Vector3d::UnitX()));
    SceneChange c = sceneChange(a, b);
    EXPECT_TRUE(c.pose);
    EXPECT_FALSE(c.rig || c.skinning || c.character || c.deformer || c.clip);
    b = a;
    b.pose.rootTranslation.x() = 0.5;
    EXPECT_TRUE(sceneChange(a, b).pose);
    b = a;
    b.poseTwist[1] = 2.0 * 3.14159265358979;
    EXPECT_TRUE(sceneChange(a, b).pose) << "an unwrapped twist a full turn on looks alike but deforms otherwise";
    EXPECT_TRUE(samePose(a.pose, tinyState().pose));
}

TEST(SceneChange, TheDeformerTheDraggedRigAndTheClipTime)
{
    const ViewState a = tinyState();
    ViewState b = a;
    b.project.setDeformer("twist");
    SceneChange c = sceneChange(a, b);
    EXPECT_TRUE(c.deformer);
    EXPECT_FALSE(c.rig || c.skinning || c.pose);

    b = a;
    b.rigPreview = std::make_shared<FitResult>(*a.project.rig());
    c = sceneChange(a, b);
    EXPECT_TRUE(c.rig) << "a joint drag's preview is drawn";
    EXPECT_FALSE(c.skinning) << "and leaves the project's weights";
    EXPECT_EQ(b.rig(), b.rigPreview);

    b = a;
    b.clipTime = 1.5;
    EXPECT_TRUE(sceneChange(a, b).clip);
    b = a;
    b.project.setFront(-Vec3::UnitZ());
    EXPECT_TRUE(sceneChange(a, b).labels);
}

TEST(MadeFrom, StaleUntilMadeAndWhenAnInputIsAnotherObject)
{
    auto skin = std::make_shared<const SkinningResult>();
    MadeFrom<std::shared_ptr<const SkinningResult>, int> buffer;
    EXPECT_TRUE(buffer.stale(skin, 0)) << "nothing made yet";
    buffer.made(skin, 0);
    EXPECT_FALSE(buffer.stale(skin, 0));
    EXPECT_TRUE(buffer.stale(skin, 1)) << "values compare by value";
    EXPECT_TRUE(buffer.stale(std::make_shared<const SkinningResult>(*skin), 0)) << "shared results by identity";
    buffer.forget();
    EXPECT_TRUE(buffer.stale(skin, 0)) << "a new context: made again";
}

TEST(MadeFrom, WhatWasMadeFromStaysAliveSoItsAddressIsNotReused)
{
    MadeFrom<std::shared_ptr<const SkinningResult>> buffer;
    auto first = std::make_shared<const SkinningResult>();
    const std::weak_ptr<const SkinningResult> watch = first;
    buffer.made(first);
    first.reset(); // the document dropped it
    EXPECT_FALSE(watch.expired()) << "a newer result could otherwise take its address and look uploaded";
    auto second = std::make_shared<const SkinningResult>();
    EXPECT_TRUE(buffer.stale(second));
    buffer.made(second);
    EXPECT_TRUE(watch.expired()) << "released once something else is made";
}

} // namespace
} // namespace rig::ui
