#include "core/skin/deform_joints.h"

#include "core/common/error.h"

#include <gtest/gtest.h>

namespace rig {
namespace {

/// hips -> spine -> tag_head (an attachment), hips -> IK_goal_L.
Skeleton rig4()
{
    Skeleton s;
    s.names = {"hips", "spine", "tag_head", "IK_goal_L"};
    s.parents = {-1, 0, 1, 0};
    s.bindPositions = MatrixX3d::Zero(4, 3);
    s.bindOrientations.assign(4, Eigen::Quaterniond::Identity());
    return s;
}

TEST(DeformJoints, Specs)
{
    const Skeleton s = rig4();
    EXPECT_EQ(deformJoints("all", s, nullptr), (std::vector<bool>{true, true, true, true}));
    // No file weights: names mark the helpers.
    EXPECT_EQ(deformJoints("auto", s, nullptr), (std::vector<bool>{true, true, false, false}));
    // File weights: the joints they use.
    Eigen::SparseMatrix<double, Eigen::RowMajor> W(2, 4);
    W.insert(0, 0) = 1.0;
    W.insert(1, 2) = 1.0;
    EXPECT_EQ(deformJoints("auto", s, &W), (std::vector<bool>{true, false, true, false}));
    EXPECT_EQ(deformJoints("spine, hips", s, nullptr), (std::vector<bool>{true, true, false, false}));
    EXPECT_THROW(deformJoints("spine,wing", s, nullptr), InvalidInput);
    EXPECT_THROW(deformJoints(",", s, nullptr), InvalidInput);
}

TEST(DeformJoints, WeightsMoveToTheNearestDeformingAncestor)
{
    const Skeleton s = rig4();
    SkinWeights w;
    w.maxInfluences = 2;
    w.joints.resize(3, 2);
    w.weights.resize(3, 2);
    w.joints << 2, 1, 3, 0, 3, 0; // vertex 0: tag 0.6 + spine 0.4; vertex 1: IK 0.7 + hips 0.3; vertex 2: IK only
    w.weights << 0.6f, 0.4f, 0.7f, 0.3f, 1.0f, 0.0f;
    const SkinWeights r = restrictToDeformJoints(w, s, {true, true, false, false});
    const Eigen::MatrixXd D = denseWeights(r, 4);
    EXPECT_NEAR(D(0, 1), 1.0, 1e-6); // the tag's weight went to the spine
    EXPECT_NEAR(D(1, 0), 1.0, 1e-6); // the IK goal's to the hips
    EXPECT_NEAR(D(2, 0), 1.0, 1e-6);
    EXPECT_NEAR(D.col(2).sum() + D.col(3).sum(), 0.0, 1e-9);
    EXPECT_THROW(restrictToDeformJoints(w, s, {false, false, false, false}), InvalidInput);
    EXPECT_THROW(restrictToDeformJoints(w, s, {true}), InvalidInput);
}

} // namespace
} // namespace rig
