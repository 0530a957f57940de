#include "core/skin/part_binding.h"

#include "core/common/error.h"
#include "core/deform/deformers.h"
#include "core/export/project_file.h"
#include "core/project/pipeline.h"
#include "core/project/project_io.h"
#include "core/skin/weight_methods.h"
#include "tests/support/expect_error.h"
#include "tests/support/skeletons.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace rig {
namespace {

using test::expectError;

Skeleton chain3() { return test::chainSkeleton({Vec3(0, 0, 0), Vec3(0, 1, 0), Vec3(0, 2, 0)}); }

/// Vertices weighted 0.6/0.4 between joints 0 and 1.
SkinWeights blended(int vertices)
{
    SkinWeights w;
    w.joints.setZero(vertices, 4);
    w.weights.setZero(vertices, 4);
    for (int v = 0; v < vertices; ++v) {
        w.joints.row(v) << 0, 1, 0, 0;
        w.weights.row(v) << 0.6f, 0.4f, 0, 0;
    }
    return w;
}

TEST(PartBinding, BoundPartsGetOneJointAndTheRestIsUntouched)
{
    const Skeleton s = chain3();
    const std::vector<std::vector<int>> parts = {{0, 1}, {2, 3}, {4}};
    const SkinWeights before = blended(5);
    const std::vector<PartBinding> bindings = {{1, "ring", s.names[2]}};
    const SkinWeights after = bindPartsRigidly(before, s, parts, bindings);
    validateSkinWeights(after, 5, s.jointCount());
    for (int v : {2, 3}) {
        EXPECT_EQ(after.joints(v, 0), 2);
        EXPECT_EQ(after.weights(v, 0), 1.0f);
        EXPECT_EQ(after.weights.row(v).sum(), 1.0f);
    }
    for (int v : {0, 1, 4}) {
        EXPECT_EQ(after.joints.row(v), before.joints.row(v));
        EXPECT_EQ(after.weights.row(v), before.weights.row(v));
    }
}

TEST(PartBinding, UnknownPartsAndJointsAreNamed)
{
    const Skeleton s = chain3();
    const std::vector<std::vector<int>> parts = {{0}};
    expectError<InvalidInput>(
        [&] { bindPartsRigidly(blended(1), s, parts, std::vector<PartBinding>{{0, "Helmet", "Head2"}}); },
        "bind part 'Helmet': the rig has no joint 'Head2'");
    expectError<InvalidInput>(
        [&] { bindPartsRigidly(blended(1), s, parts, std::vector<PartBinding>{{3, "Eye", s.names[0]}}); },
        "bind part 'Eye': the character has 1 parts");
}

TEST(PartBinding, TheReportSaysWhichPartsAreRigidAndWhatCarriesThem)
{
    const Skeleton s = chain3();
    const std::vector<std::vector<int>> parts = {{0, 1}, {2, 3}};
    const std::vector<PartBinding> bindings = {{1, "b", s.names[2]}};
    const SkinWeights w = bindPartsRigidly(blended(4), s, parts, bindings);
    const auto rows = partWeights(w, s, parts, {"a", "b"}, bindings);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "a");
    EXPECT_EQ(rows[0].boundTo, "");
    EXPECT_EQ(rows[0].dominantJoint, s.names[0]);
    EXPECT_NEAR(rows[0].dominantShare, 0.6, 1e-6);
    EXPECT_DOUBLE_EQ(rows[0].meanInfluences, 2.0);
    EXPECT_FALSE(rows[0].rigid);
    EXPECT_EQ(rows[1].boundTo, s.names[2]);
    EXPECT_EQ(rows[1].dominantJoint, s.names[2]);
    EXPECT_DOUBLE_EQ(rows[1].dominantShare, 1.0);
    EXPECT_TRUE(rows[1].rigid);
}

TEST(PartBinding, TheGeneratedPropsAreSeparatePartsAndTheRigStillFits)
{
    RigProject p;
    p.setCharacterSpec("default+props");
    runPipeline(p, Stage::Rig);
    const std::vector<CharacterPart> parts = characterParts(p.character()->imported);
    ASSERT_EQ(parts.size(), 4u);
    EXPECT_EQ(parts[0].name, "body");
    EXPECT_EQ(parts[1].name, "eye.L");
    EXPECT_EQ(parts[2].name, "eye.R");
    EXPECT_EQ(parts[3].name, "prop");
    for (const CharacterPart& part : parts) {
        EXPECT_EQ(part.components, 1) << part.name; // each its own closed piece
        EXPECT_GT(part.triangles, 50) << part.name;
    }
    EXPECT_EQ(p.rig()->skeleton.jointCount(), 21);
}

TEST(PartBinding, EveryMethodHonoursTheBindings)
{
    RigProject p;
    p.setCharacterSpec("default+props");
    runPipeline(p, Stage::Rig);
    const std::vector<PartBinding> bindings = {{1, "eye.L", "Head"}, {2, "eye.R", "Head"}, {3, "prop", "RightHand"}};
    p.setPartBindings(bindings);
    const auto vertices = partVertices(p.character()->imported);
    const Skeleton& s = p.rig()->skeleton;
    for (const WeightMethod& m : weightMethods()) {
        WeightOptions o;
        o.method = m.id;
        p.setWeightOptions(o);
        runPipeline(p, Stage::Weights);
        ASSERT_TRUE(p.skinningCurrent()) << m.id;
        const SkinWeights& w = p.skinning()->weights;
        validateSkinWeights(w, p.character()->imported.mesh.vertexCount(), s.jointCount());
        for (const PartBinding& b : bindings)
            for (int v : vertices[static_cast<size_t>(b.part)]) {
                ASSERT_EQ(w.joints(v, 0), *s.find(b.joint)) << m.id << " " << b.partName << " vertex " << v;
                ASSERT_EQ(w.weights(v, 0), 1.0f) << m.id << " " << b.partName << " vertex " << v;
            }
        // Posed, the prop moves exactly with the hand under every weight-based deformer.
        Pose pose = identityPose(s);
        pose.localRotations[static_cast<size_t>(*s.find("RightForeArm"))] =
            Eigen::Quaterniond(Eigen::AngleAxisd(1.2, Vec3(1, 0, 0)));
        pose.localRotations[static_cast<size_t>(*s.find("RightHand"))] =
            Eigen::Quaterniond(Eigen::AngleAxisd(2.5, Vec3(0.3, 1, 0.2).normalized()));
        const Eigen::Isometry3d hand = forwardKinematics(s, pose).skinning[static_cast<size_t>(*s.find("RightHand"))];
        const Mesh& mesh = p.character()->imported.mesh;
        const DeformerInput in{mesh, w, &p.skinning()->segmentation, s};
        for (const char* d : {"lbs", "dqs", "twist"}) {
            const DeformedMesh posed = deformOnce(findDeformer(d), in, pose);
            double worst = 0;
            for (int v : vertices[3])
                worst = std::max(worst, (posed.V.row(v).transpose() - hand * mesh.V.row(v).transpose()).norm());
            EXPECT_LT(worst, 1e-5) << m.id << " " << d;
        }
    }
}

TEST(PartBinding, AProjectKeepsItsBindingsAndDropsThoseOfPartsThatAreGone)
{
    RigProject p;
    p.setCharacterSpec("default+props");
    runPipeline(p, Stage::Rig);
    p.setPartBindings({{3, "prop", "RightHand"}});
    ProjectFile f = projectFileFrom(p, {});
    EXPECT_EQ(f.partBindings, p.partBindings());
    RestoredProject r = restoreProject(f);
    EXPECT_EQ(r.project.partBindings(), p.partBindings());
    EXPECT_TRUE(r.notes.empty());

    f.partBindings = {{3, "sword", "RightHand"}, {9, "helmet", "Head"}};
    r = restoreProject(f);
    EXPECT_TRUE(r.project.partBindings().empty());
    ASSERT_EQ(r.notes.size(), 2u);
    EXPECT_NE(r.notes[0].find("the part 'sword' bound to RightHand is not in the character any more"),
              std::string::npos);
}

TEST(PartBinding, AnotherCharacterClearsTheBindings)
{
    RigProject p;
    p.setCharacterSpec("default+props");
    p.setPartBindings({{1, "eye.L", "Head"}});
    p.setCharacterSpec("default+props"); // the same spec keeps them
    EXPECT_EQ(p.partBindings().size(), 1u);
    p.setCharacterSpec("default");
    EXPECT_TRUE(p.partBindings().empty());
}

} // namespace
} // namespace rig
