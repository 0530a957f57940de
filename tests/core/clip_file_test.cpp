// Clips from any animated file (issue 22): an imported skeleton and animation
// as a Motion, and the devset characters' own clips mapped onto a rig.
#include "core/motion/clip_file.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/motion/retarget.h"
#include "core/motion/skeleton_structure.h"
#include "core/rig/fit_template.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

namespace rig {
namespace {

Eigen::Matrix4d transform(const Eigen::Quaterniond& q, const Vec3& t, double scale = 1.0)
{
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = scale * q.toRotationMatrix();
    m.block<3, 1>(0, 3) = t;
    return m;
}

/// Two roots (a body chain and an IK goal), scaled bind transforms, three random frames.
ImportedSkeleton twoRootSkeleton()
{
    ImportedSkeleton s;
    s.names = {"hips", "spine", "head", "ik goal {x}"};
    s.parents = {-1, 0, 1, -1};
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    auto randomQ = [&] { return Eigen::Quaterniond(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized()); };
    const std::vector<Vec3> local = {Vec3(0, 1, 0), Vec3(0, 0.3, 0.05), Vec3(0, 0.4, 0), Vec3(0.2, 0, 0.1)};
    auto pose = [&](bool bind) {
        std::vector<Eigen::Matrix4d> g(4);
        for (size_t j = 0; j < 4; ++j) {
            const Eigen::Matrix4d l = transform(bind ? Eigen::Quaterniond::Identity() : randomQ(), local[j], j == 1 ? 1.5 : 1.0);
            g[j] = s.parents[j] < 0 ? l : Eigen::Matrix4d(g[static_cast<size_t>(s.parents[j])] * l);
        }
        return g;
    };
    s.bindGlobal = pose(true);
    ImportedAnimation a;
    a.name = "wave";
    for (int f = 0; f < 3; ++f) {
        a.times.push_back(0.1 * f);
        a.global.push_back(pose(false));
    }
    s.animations.push_back(a);
    return s;
}

TEST(ClipFile, AnimationBecomesAMotionWithTheSameWorldPositions)
{
    const ImportedSkeleton s = twoRootSkeleton();
    EXPECT_THROW(motionFromAnimation(s, 1), InvalidInput);
    const Motion m = motionFromAnimation(s, 0, "walker");
    ASSERT_EQ(m.jointCount(), 5); // an added root for the two file roots
    EXPECT_EQ(m.names[0], "walker_root");
    EXPECT_EQ(m.names[4], "ik goal _x_"); // braces cannot stand in a BVH name
    EXPECT_NEAR(m.frameTime, 0.1, 1e-12);
    EXPECT_EQ(m.bindValues.size(), static_cast<size_t>(m.channelCount()));
    for (int f = 0; f < 3; ++f) {
        const MotionWorld w = worldTransforms(m, evaluateFrame(m, f));
        for (int j = 0; j < 4; ++j) {
            const Eigen::Matrix4d& g = s.animations[0].global[static_cast<size_t>(f)][static_cast<size_t>(j)];
            EXPECT_LT((w.positions.row(j + 1).transpose() - g.block<3, 1>(0, 3)).norm(), 1e-9) << f << " " << j;
            // The rotation of the (scaled) transform: its columns' directions.
            const Eigen::Matrix3d r = w.orientations[static_cast<size_t>(j + 1)].toRotationMatrix();
            for (int c = 0; c < 3; ++c)
                EXPECT_LT((r.col(c) - g.block<3, 1>(0, c).normalized()).norm(), 1e-9) << f << " " << j;
        }
    }
    const MotionWorld bind = worldTransforms(m, evaluateValues(m, m.bindValues));
    for (int j = 0; j < 4; ++j)
        EXPECT_LT((bind.positions.row(j + 1).transpose() - s.bindGlobal[static_cast<size_t>(j)].block<3, 1>(0, 3)).norm(), 1e-9);
}

TEST(ClipFile, AFileWithoutAnimationSaysSo)
{
    const std::string obj = std::string(RIGSMITH_ASSIMP_MODELS) + "/OBJ/box.obj";
    if (!std::filesystem::exists(obj))
        GTEST_SKIP() << "assimp-testmodels is not installed (" << obj << ")";
    try {
        readClipFile(obj);
        FAIL() << "a mesh without a skeleton was read as a clip";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no skeleton"), std::string::npos) << e.what();
    }
}

const std::string devset = rig::test::sourcePath("../shared/devset/");

Skeleton defaultRig()
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .height = 1.75, .cellSize = 0.05});
    Skeleton s;
    s.names = h.jointNames;
    s.parents = h.jointParents;
    s.bindPositions = h.joints;
    s.bindOrientations.assign(s.names.size(), Eigen::Quaterniond::Identity());
    orientBones(s);
    return s;
}

TEST(ClipFile, DevsetClipsDriveEveryLimbJointOfARig)
{
    if (!std::filesystem::exists(devset + "re_drone.glb"))
        GTEST_SKIP() << "the devset is absent (" << devset << "): clips of artists' rigs not checked";
    const Skeleton rig = defaultRig();
    const BodyStructure body = findBodyStructure(rig.names, rig.parents, rig.bindPositions);
    for (const char* name : {"re_male", "re_drone", "khr_cesium_man"}) {
        const ClipFile first = readClipFile(devset + name + ".glb");
        EXPECT_EQ(first.format, "glb");
        EXPECT_FALSE(first.motion.bindValues.empty()) << name;
        for (const std::string& animation : first.animations) {
            const ClipFile c = readClipFile(devset + name + ".glb", animation);
            const RetargetedClip r = retargetClip(c.motion, rig);
            EXPECT_EQ(r.mapping.restUsed, RetargetRest::Bind) << name;
            for (const auto* limbs : {&body.arms, &body.legs})
                for (const BodyLimb& l : *limbs)
                    for (int j : l.chain)
                        EXPECT_FALSE(r.mapping.joints[static_cast<size_t>(j)].sources.empty())
                            << name << " '" << animation << "': " << rig.names[static_cast<size_t>(j)] << " not driven\n"
                            << formatMappingTable(r.mapping);
            EXPECT_GT(r.mapping.translationScale, 0.0);
        }
    }
    EXPECT_THROW(readClipFile(devset + "re_drone.glb", "no such clip"), InvalidInput);
}

} // namespace
} // namespace rig
