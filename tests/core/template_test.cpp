#include "core/rig/template.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/rig/fit_template.h"
#include "core/skeleton/extract.h"

#include "tests/support/expect_error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#if __has_include("core/motion/bvh_file.h")
#include "core/motion/bvh_file.h"
#define RIGSMITH_HAVE_BVH 1
#endif

namespace rig {
namespace {

using test::expectError;

std::string writeTemp(const std::string& name, const std::string& text)
{
    const auto path = std::filesystem::temp_directory_path() / ("rigsmith_template_test_" + name);
    std::ofstream(path) << text;
    return path.string();
}

// A CMU-like 31-joint hierarchy (the joints of /usr/share/assimp/models/BVH/01_01.bvh,
// offsets rounded), with its 5 End Sites as "_end" leaf joints, as a skeleton.
Skeleton cmuSkeleton()
{
    struct J {
        const char* name;
        const char* parent;
        Vec3 offset;
    };
    const std::vector<J> joints = {
        {"Hips", "", {0, 0, 0}},
        {"LHipJoint", "Hips", {0, 0, 0}},
        {"LeftUpLeg", "LHipJoint", {1.36, -1.79, 0.84}},
        {"LeftLeg", "LeftUpLeg", {2.45, -6.73, 0}},
        {"LeftFoot", "LeftLeg", {2.56, -7.04, 0}},
        {"LeftToeBase", "LeftFoot", {0.16, -0.43, 2.32}},
        {"LeftToeBase_end", "LeftToeBase", {0, 0, 1.19}},
        {"RHipJoint", "Hips", {0, 0, 0}},
        {"RightUpLeg", "RHipJoint", {-1.31, -1.79, 0.84}},
        {"RightLeg", "RightUpLeg", {-2.54, -6.99, 0}},
        {"RightFoot", "RightLeg", {-2.57, -7.06, 0}},
        {"RightToeBase", "RightFoot", {-0.16, -0.45, 2.36}},
        {"RightToeBase_end", "RightToeBase", {0, 0, 1.21}},
        {"LowerBack", "Hips", {0, 0, 0}},
        {"Spine", "LowerBack", {0.03, 2.04, -0.19}},
        {"Spine1", "Spine", {0.06, 2.05, -0.04}},
        {"Neck", "Spine1", {0, 0, 0}},
        {"Neck1", "Neck", {-0.05, 1.75, 0.17}},
        {"Head", "Neck1", {0.10, 1.76, -0.12}},
        {"Head_end", "Head", {0.04, 1.77, -0.06}},
        {"LeftShoulder", "Spine1", {0, 0, 0}},
        {"LeftArm", "LeftShoulder", {3.36, 1.20, -0.31}},
        {"LeftForeArm", "LeftArm", {4.98, 0, 0}},
        {"LeftHand", "LeftForeArm", {3.48, 0, 0}},
        {"LeftFingerBase", "LeftHand", {0, 0, 0}},
        {"LFingers", "LeftFingerBase", {0.72, 0, 0}},
        {"LFingers_end", "LFingers", {0.58, 0, 0}},
        {"LThumb", "LeftHand", {0, 0, 0}},
        {"LThumb_end", "LThumb", {0.59, 0, 0.59}},
        {"RightShoulder", "Spine1", {0, 0, 0}},
        {"RightArm", "RightShoulder", {-3.14, 1.37, -0.40}},
        {"RightForeArm", "RightArm", {-5.24, 0, 0}},
        {"RightHand", "RightForeArm", {-3.44, 0, 0}},
        {"RightFingerBase", "RightHand", {0, 0, 0}},
        {"RFingers", "RightFingerBase", {-0.62, 0, 0}},
        {"RFingers_end", "RFingers", {-0.50, 0, 0}},
        {"RThumb", "RightHand", {0, 0, 0}},
        {"RThumb_end", "RThumb", {-0.51, 0, 0.51}},
    };
    Skeleton s;
    s.bindPositions.resize(static_cast<Eigen::Index>(joints.size()), 3);
    for (const J& j : joints) {
        const int parent = *j.parent ? *s.find(j.parent) : -1;
        const auto i = static_cast<Eigen::Index>(s.names.size());
        s.names.emplace_back(j.name);
        s.parents.push_back(parent);
        s.bindPositions.row(i) = (parent >= 0 ? Vec3(s.bindPositions.row(parent).transpose() + j.offset) : j.offset)
                                     .transpose();
        s.bindOrientations.push_back(Eigen::Quaterniond::Identity());
    }
    return s;
}

int joint(const RigTemplate& t, const std::string& name)
{
    for (int j = 0; j < t.jointCount(); ++j)
        if (t.names[static_cast<size_t>(j)] == name)
            return j;
    ADD_FAILURE() << "no joint " << name;
    return 0;
}

TEST(RigTemplate, InvalidTemplatesGiveClearErrors)
{
    expectError<InvalidInput>([] { makeTemplate("x", {}, {}, MatrixX3d()); }, "template 'x' has no joints");
    expectError<InvalidInput>([] { makeTemplate("x", {"A", "A"}, {-1, 0}, MatrixX3d::Zero(2, 3)); },
                              "joint 'A' twice");
    expectError<InvalidInput>([] { makeTemplate("x", {"A", "B"}, {-1, 1}, MatrixX3d::Zero(2, 3)); },
                              "joint 'B' has parent 1");
    // No legs: a head and two arms only.
    MatrixX3d o(4, 3);
    o << 0, 1, 0, 0, 0.5, 0, 0.5, 0, 0, -0.5, 0, 0;
    expectError<InvalidInput>([&] { makeTemplate("armsOnly", {"Hips", "Head", "LeftHand", "RightHand"}, {-1, 0, 0, 0}, o); },
                              "template 'armsOnly' has no left leg chain");
    // A template missing the right leg, from the CMU hierarchy.
    Skeleton cmu = cmuSkeleton();
    Skeleton oneLeg;
    for (int j = 0; j < cmu.jointCount(); ++j)
        if (cmu.names[static_cast<size_t>(j)].find("Right") == std::string::npos &&
            cmu.names[static_cast<size_t>(j)].rfind("R", 0) != 0) {
            oneLeg.names.push_back(cmu.names[static_cast<size_t>(j)]);
            const int p = cmu.parents[static_cast<size_t>(j)];
            oneLeg.parents.push_back(p < 0 ? -1 : *oneLeg.find(cmu.names[static_cast<size_t>(p)]));
            oneLeg.bindOrientations.push_back(Eigen::Quaterniond::Identity());
        }
    oneLeg.bindPositions.resize(oneLeg.jointCount(), 3);
    for (int j = 0; j < oneLeg.jointCount(); ++j)
        oneLeg.bindPositions.row(j) = cmu.bindPositions.row(*cmu.find(oneLeg.names[static_cast<size_t>(j)]));
    expectError<InvalidInput>([&] { templateFromSkeleton(oneLeg, "oneLeg"); }, "template 'oneLeg' has no right arm chain");

    expectError<IoError>([] { loadTemplate("/nonexistent/t.json"); }, "/nonexistent/t.json: cannot open");
    const std::string bad = writeTemp("bad.json", "{\"format\": \"rigsmith-template\", \"version\": 1, \"joints\": [");
    expectError<IoError>([&] { loadTemplate(bad); }, bad + ": not valid JSON");
    const std::string wrong = writeTemp("wrong.json", "{\"format\": \"other\"}");
    expectError<IoError>([&] { loadTemplate(wrong); }, "\"format\" must be \"rigsmith-template\"");
    const std::string orphan = writeTemp(
        "orphan.json", R"({"format": "rigsmith-template", "version": 1, "joints": [{"name": "A", "parent": "B", "offset": [0,0,0]}]})");
    expectError<IoError>([&] { loadTemplate(orphan); }, "joint 'A': its \"parent\" must name a joint listed before it");
    expectError<IoError>([] { builtinTemplate("nosuch"); }, "no bundled template 'nosuch'");
}

TEST(RigTemplate, Humanoid21MatchesTheGenerator)
{
    const RigTemplate t = builtinTemplate("humanoid21");
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::T});
    ASSERT_EQ(t.jointCount(), humanoidJointCount);
    EXPECT_EQ(t.names, h.jointNames);
    EXPECT_EQ(t.parents, h.jointParents);
    EXPECT_LT((t.restPositions - h.restJoints).cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_EQ(t.names[static_cast<size_t>(t.hips)], "Hips");
    EXPECT_EQ(t.names[static_cast<size_t>(t.chest)], "Spine1");
    const auto chainOfName = [&](const std::string& n) { return t.chains[static_cast<size_t>(joint(t, n))]; };
    EXPECT_EQ(chainOfName("Neck"), Chain::Spine);
    EXPECT_EQ(chainOfName("LeftShoulder"), Chain::LeftArm);
    EXPECT_EQ(chainOfName("RightHand"), Chain::RightArm);
    EXPECT_EQ(chainOfName("LeftToeBase"), Chain::LeftLeg);
    EXPECT_EQ(chainOfName("RightUpLeg"), Chain::RightLeg);
    // Normalized arc lengths increase along each chain, from 0 (or above for legs) below 1.
    for (Limb l : allLimbs) {
        const auto& joints = t.chainJoints[static_cast<size_t>(l)];
        ASSERT_FALSE(joints.empty());
        double previous = -1.0;
        for (int j : joints) {
            EXPECT_GT(t.chainPositions[static_cast<size_t>(j)], previous);
            EXPECT_LT(t.chainPositions[static_cast<size_t>(j)], 1.0);
            previous = t.chainPositions[static_cast<size_t>(j)];
        }
    }
    EXPECT_NEAR(t.chainTips[static_cast<size_t>(Limb::Head)].y(), 1.75, 1e-9);
    EXPECT_NEAR(t.chainLengths[static_cast<size_t>(Limb::Head)], 0.58 + Vec3(0, 0.21, 0.01).norm(), 1e-9);
}

void expectCmuChains(const RigTemplate& t, const std::string& prefix = "")
{
    auto bare = [&](const std::string& n) { return n.substr(n.find(':') == std::string::npos ? 0 : n.find(':') + 1); };
    EXPECT_EQ(bare(t.names[static_cast<size_t>(t.hips)]), "Hips");
    EXPECT_EQ(bare(t.names[static_cast<size_t>(t.chest)]), "Spine1");
    auto last = [&](Limb l) { return bare(t.names[static_cast<size_t>(t.chainJoints[static_cast<size_t>(l)].back())]); };
    auto first = [&](Limb l) { return bare(t.names[static_cast<size_t>(t.chainJoints[static_cast<size_t>(l)].front())]); };
    EXPECT_EQ(first(Limb::LeftHand), "LeftShoulder");
    EXPECT_EQ(first(Limb::RightFoot), "RHipJoint");
    // Chains run to the longest extremity: fingers, not thumbs.
    EXPECT_TRUE(last(Limb::LeftHand) == "LFingers" || last(Limb::LeftHand) == "LFingers_end") << last(Limb::LeftHand);
    EXPECT_TRUE(last(Limb::RightHand) == "RFingers" || last(Limb::RightHand) == "RFingers_end") << last(Limb::RightHand);
    EXPECT_TRUE(last(Limb::Head).rfind("Head", 0) == 0) << last(Limb::Head);
    EXPECT_TRUE(last(Limb::LeftFoot).rfind("LeftToeBase", 0) == 0) << last(Limb::LeftFoot);
    EXPECT_EQ(t.chains[static_cast<size_t>(joint(t, prefix + "LThumb"))], Chain::None);
    EXPECT_EQ(t.chains[static_cast<size_t>(joint(t, prefix + "LowerBack"))], Chain::Spine);
    EXPECT_EQ(t.chains[static_cast<size_t>(joint(t, prefix + "Neck1"))], Chain::Spine);
}

TEST(RigTemplate, Cmu31ByNames)
{
    const RigTemplate t = templateFromSkeleton(cmuSkeleton(), "cmu");
    expectCmuChains(t);
}

TEST(RigTemplate, MixamoPrefixesAndTopologyFallback)
{
    Skeleton s = cmuSkeleton();
    for (auto& n : s.names)
        n.insert(0, "mixamorig:");
    expectCmuChains(templateFromSkeleton(s, "mixamo"), "mixamorig:");
    // Names that say nothing: chains from the rest pose alone.
    Skeleton anonymous = cmuSkeleton();
    const Skeleton named = anonymous;
    for (size_t j = 0; j < anonymous.names.size(); ++j)
        anonymous.names[j] = std::to_string(j).insert(0, 1, 'j');
    const RigTemplate t = templateFromSkeleton(anonymous, "anonymous");
    const RigTemplate reference = templateFromSkeleton(named, "cmu");
    EXPECT_EQ(t.hips, reference.hips);
    EXPECT_EQ(t.chest, reference.chest);
    for (Limb l : allLimbs)
        EXPECT_EQ(t.chainJoints[static_cast<size_t>(l)].back(), reference.chainJoints[static_cast<size_t>(l)].back())
            << limbKey(l);
}

#ifdef RIGSMITH_HAVE_BVH
TEST(RigTemplate, CmuBvhFileAsTemplate)
{
    const std::string path = "/usr/share/assimp/models/BVH/01_01.bvh";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << path << " is not installed";
    const Motion m = readBvh(path);
    ASSERT_EQ(m.jointCount(), 31);
    const RigTemplate t = templateFromSkeleton(motionSkeleton(m, {.includeEndSites = true}), "01_01");
    expectCmuChains(t);
}
#endif

TEST(RigTemplate, ExplicitLimbsInJson)
{
    const std::string path = writeTemp("explicit.json", R"({"format": "rigsmith-template", "version": 1, "name": "odd",
      "joints": [
        {"name": "root", "parent": null, "offset": [0, 1, 0]},
        {"name": "top", "parent": "root", "offset": [0, 0.7, 0]},
        {"name": "a", "parent": "root", "offset": [0.3, 0.4, 0]},
        {"name": "b", "parent": "root", "offset": [-0.3, 0.4, 0]},
        {"name": "c", "parent": "root", "offset": [0.1, -0.9, 0]},
        {"name": "d", "parent": "root", "offset": [-0.1, -0.9, 0]}],
      "limbs": {"head": "top", "lhand": "b", "rhand": "a", "lfoot": "c", "rfoot": "d"}})");
    const RigTemplate t = loadTemplate(path);
    EXPECT_EQ(t.name, "odd");
    EXPECT_EQ(t.chainJoints[static_cast<size_t>(Limb::LeftHand)].back(), 3); // as told, not by position
    EXPECT_EQ(t.hips, 0);
    EXPECT_EQ(t.chest, 0);
}

TEST(RigTemplate, FitCmu31OntoTheHumanoid)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A});
    const CurveSkeleton s = extractCurveSkeleton(h.mesh).refined;
    const RigTemplate t = templateFromSkeleton(cmuSkeleton(), "cmu");
    const FitResult f = fitTemplate(s, suggestEndNodeLabels(s), t);
    ASSERT_NO_THROW(validateSkeleton(f.skeleton));
    EXPECT_EQ(f.skeleton.names, t.names);
    // The joints the two hierarchies share land near the ground truth (CMU's
    // proportions differ from the generator's: 6% of height). CMU's "Neck" is
    // at its chest (Neck1 is the neck), so it is not compared.
    int shared = 0;
    for (int j = 0; j < humanoidJointCount; ++j)
        if (const auto k = f.skeleton.find(h.jointNames[static_cast<size_t>(j)]); k && j != jointIndex(HumanoidJoint::Neck)) {
            ++shared;
            EXPECT_LT((f.skeleton.bindPositions.row(*k) - h.joints.row(j)).norm(), 0.06 * h.height)
                << h.jointNames[static_cast<size_t>(j)];
        }
    EXPECT_EQ(shared, humanoidJointCount - 1);
    // The thumb, off the chains, sits beside the hand.
    const int thumb = *f.skeleton.find("LThumb_end"), hand = *f.skeleton.find("LeftHand");
    EXPECT_EQ(f.jointNode[static_cast<size_t>(thumb)], -1);
    EXPECT_LT((f.skeleton.bindPositions.row(thumb) - f.skeleton.bindPositions.row(hand)).norm(), 0.1 * h.height);
}

} // namespace
} // namespace rig
