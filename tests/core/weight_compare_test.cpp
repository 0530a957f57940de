#include "core/eval/weight_compare.h"

#include "core/common/error.h"
#include "core/import/animation_poses.h"
#include "core/import/mesh_import.h"
#include "core/project/rig_project.h"
#include "core/rig/fit_template.h"
#include "core/skin/weights_heat.h"

#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace rig {
namespace {

using RowSparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;

struct Bar {
    Mesh mesh;
    Skeleton skeleton;
    SkinWeights weights;
};

/// A bar along +X with three joints and heat weights.
Bar bar()
{
    Bar b;
    b.mesh = test::capsuleMesh(Vec3(0, 0, 0), Vec3(2, 0, 0), 0.2, 12, 4, 16);
    b.skeleton.names = {"a", "b", "c"};
    b.skeleton.parents = {-1, 0, 1};
    b.skeleton.bindPositions.resize(3, 3);
    b.skeleton.bindPositions << 0.1, 0, 0, 1, 0, 0, 1.9, 0, 0;
    b.skeleton.bindOrientations.assign(3, Eigen::Quaterniond::Identity());
    orientBones(b.skeleton);
    b.weights = boneHeatWeights(b.mesh, b.skeleton, nullptr).weights;
    return b;
}

RowSparse sparseOf(const SkinWeights& w, int joints)
{
    return denseWeights(w, joints).sparseView();
}

TEST(WeightCompare, InvalidInputsAreRejectedFirst)
{
    const Bar b = bar();
    const RowSparse ref = sparseOf(b.weights, 3);
    EXPECT_THROW(compareWeights(b.mesh, b.skeleton, b.weights, RowSparse(b.mesh.vertexCount(), 2)), InvalidInput);
    EXPECT_THROW(compareWeights(b.mesh, b.skeleton, b.weights, RowSparse(3, 3)), InvalidInput);
    RowSparse negative = ref;
    negative.coeffRef(0, 1) = -0.5;
    EXPECT_THROW(compareWeights(b.mesh, b.skeleton, b.weights, negative), InvalidInput);
    EXPECT_THROW(compareWeights(b.mesh, b.skeleton, b.weights, RowSparse(b.mesh.vertexCount(), 3)),
                 InvalidInput); // no reference weight at all
    Pose wrong;
    wrong.localRotations.assign(2, Eigen::Quaterniond::Identity());
    EXPECT_THROW(compareWeights(b.mesh, b.skeleton, b.weights, ref, std::span<const Pose>(&wrong, 1)), InvalidInput);
    EXPECT_THROW(compareWeights(b.mesh, b.skeleton, b.weights, ref, {}, {.influenceThreshold = 0.0}), InvalidInput);
    EXPECT_THROW(compareWeights(b.mesh, b.skeleton, b.weights, ref, {}, {.randomPoses = 0}), InvalidInput);
    SkinWeights short_ = b.weights;
    short_.joints.conservativeResize(3, Eigen::NoChange);
    short_.weights.conservativeResize(3, Eigen::NoChange);
    EXPECT_THROW(compareWeights(b.mesh, b.skeleton, short_, ref), InvalidInput);
}

TEST(WeightCompare, WeightsAgainstThemselvesAreIdentical)
{
    const Bar b = bar();
    const WeightComparison c = compareWeights(b.mesh, b.skeleton, b.weights, sparseOf(b.weights, 3));
    EXPECT_NEAR(c.meanL1, 0.0, 1e-6);
    EXPECT_DOUBLE_EQ(c.precision, 1.0);
    EXPECT_DOUBLE_EQ(c.recall, 1.0);
    EXPECT_LT(c.meanDistancePercent, 1e-4);
    EXPECT_LT(c.maxDistancePercent, 1e-4);
    EXPECT_EQ(c.poses, 20);
    EXPECT_TRUE(c.randomPoses);
    EXPECT_EQ(c.comparedVertices, b.mesh.vertexCount());
    EXPECT_EQ(c.unweightedReference, 0);
}

TEST(WeightCompare, RigidWeightsDifferFromBlendedOnes)
{
    const Bar b = bar();
    // Rigid: every vertex on the joint of its largest weight.
    Eigen::MatrixXd rigid = Eigen::MatrixXd::Zero(b.mesh.vertexCount(), 3);
    for (int i = 0; i < b.mesh.vertexCount(); ++i)
        rigid(i, b.weights.joints(i, 0)) = 1.0;
    const WeightComparison c = compareWeights(b.mesh, b.skeleton, b.weights, rigid.sparseView());
    EXPECT_GT(c.meanL1, 0.01);
    EXPECT_LT(c.precision, 1.0); // the blended set has influences the rigid one lacks
    EXPECT_DOUBLE_EQ(c.recall, 1.0); // but contains every rigid one
    EXPECT_GT(c.meanDistancePercent, 0.01);
    EXPECT_GE(c.maxDistancePercent, c.meanDistancePercent);
    // Explicit frames are used as given: the bind pose deforms both to the rest mesh.
    const Pose rest = identityPose(b.skeleton);
    const WeightComparison r = compareWeights(b.mesh, b.skeleton, b.weights, rigid.sparseView(),
                                              std::span<const Pose>(&rest, 1));
    EXPECT_FALSE(r.randomPoses);
    EXPECT_EQ(r.poses, 1);
    EXPECT_LT(r.maxDistancePercent, 1e-4);
}

TEST(WeightCompare, RandomPosesAreDeterministicAndBounded)
{
    const Bar b = bar();
    const auto p1 = randomPoses(b.skeleton, 5, 45.0, 7);
    const auto p2 = randomPoses(b.skeleton, 5, 45.0, 7);
    const auto p3 = randomPoses(b.skeleton, 5, 45.0, 8);
    ASSERT_EQ(p1.size(), 5u);
    bool differs = false;
    for (size_t k = 0; k < p1.size(); ++k)
        for (size_t j = 0; j < 3; ++j) {
            EXPECT_TRUE(p1[k].localRotations[j].isApprox(p2[k].localRotations[j]));
            differs |= !p1[k].localRotations[j].isApprox(p3[k].localRotations[j]);
            EXPECT_LE(p1[k].localRotations[j].angularDistance(Eigen::Quaterniond::Identity()),
                      45.0 * M_PI / 180.0 + 1e-9);
        }
    EXPECT_TRUE(differs);
}

TEST(WeightCompare, FileSkeletonAsRigAndHeatWeightsAgainstTheFile)
{
    const std::string path = std::string(RIGSMITH_ASSIMP_MODELS) + "/X/BCN_Epileptic.X";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << "assimp-testmodels not installed";
    const ImportedCharacter c = importCharacter(path);
    ASSERT_TRUE(c.skeleton.has_value());
    const FitResult rig = rigFromImportedSkeleton(*c.skeleton);
    ASSERT_EQ(rig.skeleton.jointCount(), static_cast<int>(c.skeleton->names.size()));
    EXPECT_EQ(rig.skeleton.names, c.skeleton->names);
    for (int j = 0; j < rig.skeleton.jointCount(); ++j)
        EXPECT_TRUE(rig.skeleton.bindPositions.row(j).transpose().isApprox(
            c.skeleton->bindGlobal[static_cast<size_t>(j)].block<3, 1>(0, 3), 1e-9));
    const SkinWeights fileWeights = skinWeightsFromReference(c.skeleton->W);

    // The file against itself: 0 / 100% / 100% / 0.
    const WeightComparison self = compareWeights(c.mesh, rig.skeleton, fileWeights, c.skeleton->W);
    EXPECT_NEAR(self.meanL1, 0.0, 1e-6);
    EXPECT_DOUBLE_EQ(self.precision, 1.0);
    EXPECT_DOUBLE_EQ(self.recall, 1.0);
    EXPECT_LT(self.maxDistancePercent, 1e-3);

    // Heat weights recomputed for the file's own skeleton (a 54-joint human,
    // fingers included) find most of the artist's influences.
    const HeatWeightsResult heat = boneHeatWeights(c.mesh, rig.skeleton, nullptr);
    const WeightComparison h = compareWeights(c.mesh, rig.skeleton, heat.weights, c.skeleton->W);
    EXPECT_GT(h.recall, 0.75) << "precision " << h.precision << ", L1 " << h.meanL1;
    EXPECT_GT(h.precision, 0.4);
    EXPECT_LT(h.meanL1, 1.0);
    EXPECT_LT(h.meanDistancePercent, 2.0);
    EXPECT_GT(h.meanDistancePercent, self.meanDistancePercent);
}

/// Over the file's own animation frames (what `rigsmith compare-weights` uses
/// when the file has an animation): still 0 / 100% / 100% / 0 against itself,
/// and the rigid weights that differ from it show distances.
TEST(WeightCompare, OverTheFilesOwnAnimation)
{
    const std::string path = std::string(RIGSMITH_ASSIMP_MODELS) + "/X/BCN_Epileptic.X";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << "assimp-testmodels not installed";
    const ImportedCharacter c = importCharacter(path);
    ASSERT_TRUE(c.skeleton.has_value());
    const FitResult rig = rigFromImportedSkeleton(*c.skeleton);
    const auto k = longestAnimation(*c.skeleton);
    ASSERT_TRUE(k.has_value());
    const ImportedAnimation& anim = c.skeleton->animations[static_cast<size_t>(*k)];
    const std::vector<Pose> frames = animationPoses(rig.skeleton, *c.skeleton, anim, 200);
    ASSERT_GE(frames.size(), 2u);
    const SkinWeights fileWeights = skinWeightsFromReference(c.skeleton->W);
    const WeightComparison self = compareWeights(c.mesh, rig.skeleton, fileWeights, c.skeleton->W, frames);
    EXPECT_NEAR(self.meanL1, 0.0, 1e-6);
    EXPECT_DOUBLE_EQ(self.precision, 1.0);
    EXPECT_DOUBLE_EQ(self.recall, 1.0);
    EXPECT_LT(self.maxDistancePercent, 1e-3);
    EXPECT_FALSE(self.randomPoses);
    EXPECT_EQ(self.poses, static_cast<int>(frames.size()));

    // Rigid weights (each vertex on its largest file weight) differ over the animation.
    Eigen::MatrixXd rigid = Eigen::MatrixXd::Zero(c.mesh.vertexCount(), rig.skeleton.jointCount());
    for (int i = 0; i < c.mesh.vertexCount(); ++i)
        rigid(i, fileWeights.joints(i, 0)) = 1.0;
    SkinWeights rigidWeights = skinWeightsFromReference(rigid.sparseView());
    const WeightComparison r = compareWeights(c.mesh, rig.skeleton, rigidWeights, c.skeleton->W, frames);
    EXPECT_GT(r.meanDistancePercent, 1e-3);
    EXPECT_GE(r.maxDistancePercent, r.meanDistancePercent);
}

TEST(WeightCompare, ImportedSkeletonErrors)
{
    ImportedSkeleton s;
    EXPECT_THROW(rigFromImportedSkeleton(s), InvalidInput);
    s.names = {"root", "child"};
    s.parents = {-1, 0};
    s.bindGlobal = {Eigen::Matrix4d::Identity()};
    EXPECT_THROW(rigFromImportedSkeleton(s), InvalidInput); // sizes differ
    s.bindGlobal.push_back(Eigen::Matrix4d::Identity());
    s.parents = {-1, 1};
    EXPECT_THROW(rigFromImportedSkeleton(s), InvalidInput); // parent after child
    s.parents = {-1, 0};
    s.bindGlobal[1](0, 3) = std::nan("");
    EXPECT_THROW(rigFromImportedSkeleton(s), InvalidInput);
    // Scale is removed, extra roots hang from joint 0.
    s.bindGlobal[1] = Eigen::Matrix4d::Identity();
    s.bindGlobal[1].block<3, 3>(0, 0) = 2.5 * Eigen::AngleAxisd(0.5, Vec3::UnitY()).toRotationMatrix();
    s.bindGlobal[1].block<3, 1>(0, 3) = Vec3(1, 2, 3);
    s.parents = {-1, -1};
    const FitResult r = rigFromImportedSkeleton(s);
    EXPECT_EQ(r.skeleton.parents, (std::vector<int>{-1, 0}));
    EXPECT_TRUE(r.skeleton.bindOrientations[1].isApprox(Eigen::Quaterniond(Eigen::AngleAxisd(0.5, Vec3::UnitY()))));
    EXPECT_TRUE(r.skeleton.bindPositions.row(1).isApprox(Eigen::RowVector3d(1, 2, 3)));
    EXPECT_EQ(r.jointNode, (std::vector<int>{-1, -1}));
}

} // namespace
} // namespace rig

namespace rig {
namespace {

/// Two roots (a body and an IK goal beside it, as game rigs have) and an
/// animation that translates the second root: the file's own channels must
/// move it (before issue 14 it hung from the first root and kept still).
TEST(WeightCompare, EveryRootAndTranslationOfTheAnimationIsKept)
{
    ImportedSkeleton s;
    s.names = {"body", "ik_goal"};
    s.parents = {-1, -1};
    s.bindGlobal = {Eigen::Matrix4d::Identity(), Eigen::Matrix4d::Identity()};
    s.bindGlobal[1].block<3, 1>(0, 3) = Vec3(1.0, 0.0, 0.0);
    ImportedAnimation anim;
    anim.name = "slide";
    anim.times = {0.0, 1.0};
    for (double t : {0.0, 0.25}) {
        std::vector<Eigen::Matrix4d> g = s.bindGlobal;
        g[1].block<3, 1>(0, 3) += Vec3(0.0, 0.0, t); // the second root slides forward
        anim.global.push_back(g);
    }
    s.animations.push_back(anim);

    // A unit-high box: its left half on the body, its right half on the goal.
    const Mesh mesh = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    Eigen::MatrixXd ref = Eigen::MatrixXd::Zero(mesh.vertexCount(), 2), mine = ref;
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        ref(i, mesh.V(i, 0) > 0.5 ? 1 : 0) = 1.0;
        mine(i, 0) = 1.0; // all on the body
    }
    s.W = ref.sparseView();
    const FitResult rig = rigFromImportedSkeleton(s);
    const auto frames = animationSkinning(s, anim);
    ASSERT_EQ(frames.size(), 2u);
    EXPECT_TRUE(frames[1][1].translation().isApprox(Vec3(0, 0, 0.25)));
    const WeightComparison c = compareWeightsAnimated(mesh, rig.skeleton, skinWeightsFromReference(mine.sparseView()), s.W,
                                              std::span<const std::vector<Eigen::Affine3d>>(frames));
    // The goal's vertices are 0.25 apart in the second frame: max 25 % of the height 1.
    EXPECT_NEAR(c.maxDistancePercent, 25.0, 1e-9);
    int goalVertices = 0;
    for (int i = 0; i < mesh.vertexCount(); ++i)
        goalVertices += mesh.V(i, 0) > 0.5;
    EXPECT_NEAR(c.meanDistancePercent, 25.0 * goalVertices / (2.0 * mesh.vertexCount()), 1e-9);
    EXPECT_EQ(c.poses, 2);
    EXPECT_FALSE(c.randomPoses);
    // Against itself: nothing moves apart.
    const WeightComparison self = compareWeightsAnimated(mesh, rig.skeleton, skinWeightsFromReference(s.W), s.W,
                                                 std::span<const std::vector<Eigen::Affine3d>>(frames));
    EXPECT_NEAR(self.meanL1, 0.0, 1e-9);
    EXPECT_LT(self.maxDistancePercent, 1e-9);
    // A frame with the wrong joint count is refused.
    std::vector<std::vector<Eigen::Affine3d>> wrong = {{Eigen::Affine3d::Identity()}};
    EXPECT_THROW(compareWeightsAnimated(mesh, rig.skeleton, skinWeightsFromReference(s.W), s.W,
                                std::span<const std::vector<Eigen::Affine3d>>(wrong)),
                 InvalidInput);
}

/// A character much wider than tall (arm span, tail): the height is the
/// extent along up, not the largest side of the box.
TEST(WeightCompare, HeightIsTheExtentAlongUp)
{
    const Mesh mesh = test::boxMesh(Vec3(-2, 0, 0), Vec3(2, 1, 0.5)); // 4 wide, 1 high
    EXPECT_DOUBLE_EQ(heightAlong(mesh.V, Vec3::UnitY()), 1.0);
    EXPECT_DOUBLE_EQ(heightAlong(mesh.V, Vec3(0, 3, 0)), 1.0);
    Skeleton k;
    k.names = {"a", "b"};
    k.parents = {-1, 0};
    k.bindPositions.resize(2, 3);
    k.bindPositions << -1, 0.5, 0.25, 1, 0.5, 0.25;
    k.bindOrientations.assign(2, Eigen::Quaterniond::Identity());
    Eigen::MatrixXd ref = Eigen::MatrixXd::Zero(mesh.vertexCount(), 2), mine = ref;
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        ref(i, mesh.V(i, 0) > 0 ? 1 : 0) = 1.0;
        mine(i, 0) = 1.0;
    }
    std::vector<std::vector<Eigen::Affine3d>> frames(1, std::vector<Eigen::Affine3d>(2, Eigen::Affine3d::Identity()));
    frames[0][1].translation() = Vec3(0, 0.1, 0); // joint b lifted by 0.1
    const RowSparse R = ref.sparseView();
    const WeightComparison c = compareWeightsAnimated(mesh, k, skinWeightsFromReference(mine.sparseView()), R,
                                              std::span<const std::vector<Eigen::Affine3d>>(frames));
    EXPECT_NEAR(c.maxDistancePercent, 10.0, 1e-9); // 0.1 of a height of 1, not 2.5 % of the width 4
}

} // namespace
} // namespace rig
