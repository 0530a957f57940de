// Separate pieces along one bone move with it alone (issue 42, "rigid parts
// stay rigid"): the boxes of a blocky figure, armour plates, a helmet.
#include "core/skin/rigid_pieces.h"

#include "core/common/error.h"
#include "core/skin/skinning.h"
#include "tests/support/meshes.h"
#include "tests/support/skeletons.h"

#include <gtest/gtest.h>

#include <set>

namespace rig {
namespace {

/// Six boxes end to end along +x (a blocky limb), each around one bone of a
/// chain whose joints sit in the gaps between them.
Mesh sixBoxes()
{
    std::vector<Mesh> boxes;
    for (int k = 0; k < 6; ++k)
        boxes.push_back(test::boxMesh(Vec3(k + 0.05, -0.2, -0.2), Vec3(k + 0.95, 0.2, 0.2)));
    return test::concat(boxes);
}

Skeleton sixBones()
{
    std::vector<Vec3> joints;
    for (int k = 0; k <= 6; ++k)
        joints.push_back(Vec3(k, 0, 0));
    return test::chainSkeleton(joints, true);
}

/// The joint carrying vertex v alone, or -1 when it is blended.
int soleJoint(const SkinWeights& w, int v)
{
    return w.weights(v, 0) >= 0.999f ? w.joints(v, 0) : -1;
}

TEST(RigidPieces, EachBoxOfABlockyFigureMovesWithItsBoneAlone)
{
    const Mesh m = sixBoxes();
    const Skeleton s = sixBones();
    {
        const SkinningResult r = computeSkinning(m, s, nullptr, {}); // the default method
        for (int box = 0; box < 6; ++box)
            for (int v = 8 * box; v < 8 * box + 8; ++v)
                EXPECT_EQ(soleJoint(r.weights, v), box) << "box " << box << " vertex " << v;
        // Said in the report, with the reason.
        bool said = false;
        for (const std::string& line : r.diagnostics.messages)
            said |= line.find("lies along one bone") != std::string::npos;
        EXPECT_TRUE(said);
    }
}

TEST(RigidPieces, APieceAcrossAJointKeepsItsBlend)
{
    // One box over the joint at x = 1 between two bones: half its weight each side.
    const Mesh across = test::concat({test::boxMesh(Vec3(0.5, -0.2, -0.2), Vec3(1.5, 0.2, 0.2)),
                                      test::boxMesh(Vec3(-3.0, -0.5, -0.5), Vec3(-1.0, 0.5, 0.5))});
    const Skeleton s = test::chainSkeleton({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)}, true);
    const SkinWeights w = computeSkinning(across, s, nullptr, {}).weights;
    std::set<int> joints; // of the box across the joint
    for (int v = 0; v < 8; ++v)
        for (int k = 0; k < w.maxInfluences; ++k)
            if (w.weights(v, k) > 0.0f)
                joints.insert(w.joints(v, k));
    EXPECT_EQ(joints, (std::set<int>{0, 1}));
}

TEST(RigidPieces, TheBodyKeepsItsWeightsAndBadSharesAreRefused)
{
    // One piece (the body) on a skeleton of one bone: nothing is bound.
    const Mesh bar = test::capsuleMesh(Vec3(0, 0, 0), Vec3(2, 0, 0), 0.2, 12, 4, 12);
    const Skeleton s = test::chainSkeleton({Vec3(0.1, 0, 0), Vec3(1.9, 0, 0)}, true);
    const SkinWeights w = computeSkinning(bar, s, nullptr, {}).weights;
    EXPECT_TRUE(bindRigidPieces(w, bar, s.jointCount()).parts.empty());
    EXPECT_THROW(bindRigidPieces(w, bar, s.jointCount(), {.minShare = 0.0}), InvalidInput);
    EXPECT_THROW(bindRigidPieces(w, bar, s.jointCount(), {.minShare = 1.5}), InvalidInput);
    // Off: the weights as they were.
    const Mesh boxes = sixBoxes();
    const SkinWeights raw = computeSkinning(boxes, sixBones(), nullptr, {}).weights;
    EXPECT_TRUE(bindRigidPieces(raw, boxes, 7, {.enabled = false}).parts.empty());
}

} // namespace
} // namespace rig
