#include "core/rig/fingers.h"

#include "core/common/error.h"
#include "core/eval/joint_map.h"
#include "core/export/project_file.h"
#include "core/mesh/mesh_queries.h"
#include "core/motion/retarget.h"
#include "core/rig/pose.h"
#include "core/project/pipeline.h"
#include "tests/support/expect_error.h"
#include "tests/support/inside_mesh.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace rig {
namespace {

using test::expectError;

const std::string kMrFixit = std::string(RIGSMITH_ASSIMP_MODELS) + "/IQM/mrfixit.iqm";

/// A project with its curve skeleton computed once per character spec (the
/// slow stage); each test copies it and fits with its own finger options.
const RigProject& skeletonOf(const std::string& spec, const std::string& up)
{
    static std::map<std::string, RigProject> cache;
    auto it = cache.find(spec);
    if (it == cache.end()) {
        RigProject p;
        p.setCharacterSpec(spec);
        p.setOrientation({.up = up, .facing = "auto"});
        runPipeline(p, Stage::Skeleton);
        it = cache.emplace(spec, std::move(p)).first;
    }
    return it->second;
}

FitResult fitWith(const RigProject& base, FingerMode mode, int count = -1)
{
    RigProject p = base;
    p.setFingerOptions({.mode = mode, .count = count});
    runStage(p, Stage::Rig);
    return *p.rig();
}

double heightOf(const Mesh& mesh) { return mesh.V.col(1).maxCoeff() - mesh.V.col(1).minCoeff(); }

/// Joint order, finite positions, and for a closed mesh every joint inside it
/// (for a mesh with holes inside is undefined).
void expectValidRig(const FitResult& rig, const Mesh& mesh, bool closed = true)
{
    const Skeleton& s = rig.skeleton;
    EXPECT_NO_THROW(validateSkeleton(s));
    for (int j = 1; j < s.jointCount(); ++j)
        EXPECT_LT(s.parents[static_cast<size_t>(j)], j) << s.names[static_cast<size_t>(j)];
    for (int j = 0; j < s.jointCount(); ++j) {
        const Vec3 p = s.bindPositions.row(j).transpose();
        EXPECT_TRUE(p.allFinite()) << s.names[static_cast<size_t>(j)];
        if (closed) {
            EXPECT_TRUE(test::insideMesh(mesh, p)) << s.names[static_cast<size_t>(j)] << " at " << p.transpose();
        }
    }
}

TEST(Fingers, BadInputsAreRefusedWithTheirRemedy)
{
    expectError<InvalidInput>([] { parseFingerMode("fists"); }, "use none");
    const RigTemplate t = builtinTemplate("humanoid51");
    expectError<InvalidInput>([&] { templateWithFingers(t, 6); }, "choose 0 to 5");
    expectError<InvalidInput>([&] { templateWithFingers(t, -1); }, "choose 0 to 5");
    FitResult rig;
    expectError<InvalidInput>([&] { placeFingers(rig, t, Mesh{}, {}, {.mode = FingerMode::Auto}); }, "humanoid51");
}

TEST(Fingers, JointNamesReadBackAndModesRoundTrip)
{
    const auto j = fingerJoint("mixamorig:RightHandPinky3");
    ASSERT_TRUE(j);
    EXPECT_FALSE(j->left);
    EXPECT_EQ(j->finger, Finger::Pinky);
    EXPECT_EQ(j->segment, 3);
    EXPECT_FALSE(fingerJoint("LeftHand"));
    EXPECT_FALSE(fingerJoint("LeftHandIndex"));
    EXPECT_FALSE(fingerJoint("LeftFootIndex1"));
    for (FingerMode m : {FingerMode::None, FingerMode::Auto, FingerMode::Shape})
        EXPECT_EQ(parseFingerMode(fingerModeId(m)), m);
}

/// Artists' finger joints are found by name in the usual conventions; helper
/// and end joints are not finger joints.
TEST(Fingers, ArtistFingerJointsAreMappedByName)
{
    Skeleton s;
    s.names = {"root",        "hand.L",          "finger_index.01.L.01", "finger_index.01.L.02", "finger_index.02.L",
               "thumb.01.L.01", "palm.01.L",     "mixamorig:RightHand",  "mixamorig:RightHandPinky1",
               "mixamorig:RightHandPinky2",     "mixamorig:RightHandPinky4", "Bip01 R Finger0", "Bip01 R Finger01",
               "LeftHandIndex1_end"};
    s.parents = {-1, 0, 1, 2, 3, 1, 1, 0, 7, 8, 9, 7, 11, 1};
    s.bindPositions = MatrixX3d::Zero(static_cast<Eigen::Index>(s.names.size()), 3);
    const FingerJointMap m = mapFingerJoints(s);
    EXPECT_EQ(m.chains[0][1], (std::vector<int>{2, 3, 4})); // Rigify's index, in depth order
    EXPECT_EQ(m.chains[0][0], (std::vector<int>{5}));
    EXPECT_EQ(m.chains[1][4], (std::vector<int>{8, 9})); // Mixamo's 4th joint is the tip's end
    EXPECT_EQ(m.chains[1][0], (std::vector<int>{11, 12})); // 3ds Max Biped's Finger0 is the thumb
    EXPECT_EQ(m.fingers(0), 2);
    EXPECT_EQ(m.fingers(1), 2);
    EXPECT_EQ(m.tipJoint(1, 4), 9);
    EXPECT_EQ(m.tipJoint(0, 2), -1);
}

/// The finger choice is saved in the project file and read back.
TEST(Fingers, TheChoiceIsSavedInTheProject)
{
    ProjectFile f;
    f.meshPath = "default";
    f.fingerMode = "shape";
    f.fingerCount = 4;
    const std::string path = (std::filesystem::temp_directory_path() / "rigsmith_fingers_test.rsproj").string();
    writeProjectFile(f, path);
    const ProjectFile back = readProjectFile(path);
    std::filesystem::remove(path);
    EXPECT_EQ(back.fingerMode, "shape");
    EXPECT_EQ(back.fingerCount, 4);
    EXPECT_EQ(parseFingerMode(back.fingerMode), FingerMode::Shape);
}

/// humanoid51 is humanoid21 with 30 finger joints, and its arms fit the same:
/// the middle fingertip lies where humanoid21's hand End Site does.
TEST(Fingers, TheFingeredTemplateKeepsTheArmsOfHumanoid21)
{
    const RigTemplate t21 = builtinTemplate("humanoid21"), t51 = builtinTemplate("humanoid51");
    EXPECT_EQ(t51.jointCount(), 51);
    EXPECT_TRUE(hasFingers(t51));
    EXPECT_FALSE(hasFingers(t21));
    for (int c = 0; c < limbCount; ++c)
        EXPECT_NEAR(t51.chainLengths[static_cast<size_t>(c)], t21.chainLengths[static_cast<size_t>(c)], 1e-3) << c;
    const RigTemplate none = templateWithFingers(t51, 0);
    EXPECT_EQ(none.names, t21.names);
    for (int c = 0; c < limbCount; ++c)
        EXPECT_NEAR(none.chainLengths[static_cast<size_t>(c)], t21.chainLengths[static_cast<size_t>(c)], 1e-3) << c;
    const RigTemplate four = templateWithFingers(t51, 4);
    EXPECT_EQ(four.jointCount(), 21 + 2 * 4 * 3);
    EXPECT_EQ(std::find(four.names.begin(), four.names.end(), "LeftHandPinky1"), four.names.end());
    EXPECT_EQ(mapFingerJoints(Skeleton{four.names, four.parents, four.restPositions, {}}).fingers(1), 4);
}

/// The bundled character has mitten hands: "no fingers" and "fingers from the
/// hand's shape" (and auto, which finds one tip per hand) give valid rigs.
TEST(Fingers, MittenHandsGiveValidRigsWithAndWithoutFingers)
{
    const RigProject& base = skeletonOf("default", "file");
    const Mesh& mesh = base.character()->imported.mesh;
    const FitResult none = fitWith(base, FingerMode::None);
    EXPECT_EQ(none.skeleton.jointCount(), 21); // the default template, fingers off
    expectValidRig(none, mesh);
    for (FingerMode mode : {FingerMode::Shape, FingerMode::Auto}) {
        const FitResult rig = fitWith(base, mode);
        SCOPED_TRACE(std::string(fingerModeId(mode)));
        EXPECT_EQ(rig.skeleton.jointCount(), 51);
        expectValidRig(rig, mesh);
        const FingerJointMap fingers = mapFingerJoints(rig.skeleton);
        EXPECT_EQ(fingers.fingers(0), 5);
        EXPECT_EQ(fingers.fingers(1), 5);
        // Fingers grow out of the hand, away from the elbow, in order.
        for (const char* side : {"Left", "Right"}) {
            const Vec3 elbow = rig.skeleton.bindPositions.row(*rig.skeleton.find(std::string(side) + "ForeArm"));
            const Vec3 wrist = rig.skeleton.bindPositions.row(*rig.skeleton.find(std::string(side) + "Hand"));
            const Vec3 axis = (wrist - elbow).normalized();
            const Vec3 tip = rig.skeleton.bindPositions.row(*rig.skeleton.find(std::string(side) + "HandMiddle3"));
            EXPECT_GT((tip - wrist).dot(axis), 0.05 * (wrist - elbow).norm()) << side;
        }
        // The arms are those of humanoid21.
        for (const char* name : {"LeftForeArm", "LeftHand", "RightHand"})
            EXPECT_LT((rig.skeleton.bindPositions.row(*rig.skeleton.find(name)) -
                       none.skeleton.bindPositions.row(*none.skeleton.find(name)))
                          .norm(),
                      0.005 * heightOf(mesh))
                << name;
    }
    const FitResult three = fitWith(base, FingerMode::Shape, 3);
    EXPECT_EQ(three.skeleton.jointCount(), 21 + 2 * 3 * 3);
    expectValidRig(three, mesh);
}

/// A clip of humanoid51's hierarchy (as a BVH file has it: root 6 channels,
/// the others Z Y X): frame 0 the rest, frame 1 the left index's middle joint
/// bent by `degrees` about the palm's axis (Y, palms down).
Motion fingerClip(double degrees)
{
    const RigTemplate t = builtinTemplate("humanoid51");
    Motion m;
    m.names = t.names;
    m.parents = t.parents;
    m.offsets = t.offsets;
    m.channelStarts.push_back(0);
    for (int j = 0; j < t.jointCount(); ++j) {
        if (j == 0)
            m.channels.insert(m.channels.end(), {Channel::Xposition, Channel::Yposition, Channel::Zposition});
        m.channels.insert(m.channels.end(), {Channel::Zrotation, Channel::Yrotation, Channel::Xrotation});
        m.channelStarts.push_back(static_cast<int>(m.channels.size()));
    }
    m.endSiteOffsets.resize(0, 3);
    m.frames = MotionFrames::Zero(2, m.channelCount());
    m.frames(0, 1) = m.frames(1, 1) = t.offsets(0, 1);
    const int bent = *m.find("LeftHandIndex2");
    m.frames(1, m.channelStarts[static_cast<size_t>(bent)] + 1) = degrees; // Yrotation
    return m;
}

/// BVH clips with finger channels drive the fitted fingers: the bent finger
/// bends on the rig by the clip's angle, its neighbour does not move.
TEST(Fingers, ClipsWithFingerChannelsDriveTheFittedFingers)
{
    const RigProject& base = skeletonOf("default", "file");
    const FitResult rig = fitWith(base, FingerMode::Shape);
    const RetargetedClip clip = retargetClip(fingerClip(60.0), rig.skeleton);
    const Skeleton& s = rig.skeleton;
    const int index2 = *s.find("LeftHandIndex2"), index3 = *s.find("LeftHandIndex3");
    const int middle2 = *s.find("LeftHandMiddle2"), middle3 = *s.find("LeftHandMiddle3");
    EXPECT_FALSE(clip.mapping.joints[static_cast<size_t>(index2)].sources.empty()) << formatMappingTable(clip.mapping);
    const PosedSkeleton rest = forwardKinematics(s, clip.frames.pose(0)), bent = forwardKinematics(s, clip.frames.pose(1));
    auto bone = [](const PosedSkeleton& p, int a, int b) { return Vec3(p.positions.row(b) - p.positions.row(a)).normalized(); };
    const double indexTurn = std::acos(std::clamp(bone(rest, index2, index3).dot(bone(bent, index2, index3)), -1.0, 1.0));
    const double middleTurn = std::acos(std::clamp(bone(rest, middle2, middle3).dot(bone(bent, middle2, middle3)), -1.0, 1.0));
    EXPECT_NEAR(indexTurn * 180.0 / 3.14159265358979, 60.0, 10.0);
    EXPECT_LT(middleTurn * 180.0 / 3.14159265358979, 1.0);
}

/// mrfixit.iqm's hands have separate fingers: 4 or 5 finger chains per hand,
/// each finger's tip joint near a fingertip of the mesh (within 3 % of the
/// height of a surface point that is the farthest from the wrist nearby).
TEST(Fingers, SeparatedFingersAreFoundOnMrFixit)
{
    if (!std::filesystem::exists(kMrFixit))
        GTEST_SKIP() << kMrFixit << " not installed (scripts/deps.sh installs assimp-testmodels)";
    const RigProject& base = skeletonOf(kMrFixit, "auto");
    const Mesh& mesh = base.character()->imported.mesh;
    const double height = heightOf(mesh);
    RigProject p = base;
    p.setFingerOptions({.mode = FingerMode::Auto});
    runStage(p, Stage::Rig);
    const FitResult& rig = *p.rig();
    const FingerJointMap fingers = mapFingerJoints(rig.skeleton);
    for (int side = 0; side < 2; ++side) {
        SCOPED_TRACE(side == 0 ? "left" : "right");
        EXPECT_GE(fingers.fingers(side), 4);
        const char* hand = side == 0 ? "LeftHand" : "RightHand";
        const char* forearm = side == 0 ? "LeftForeArm" : "RightForeArm";
        const Vec3 wrist = rig.skeleton.bindPositions.row(*rig.skeleton.find(hand));
        const Vec3 elbow = rig.skeleton.bindPositions.row(*rig.skeleton.find(forearm));
        const HandTips tips = findFingertips(mesh, elbow, wrist, {.mode = FingerMode::Auto});
        EXPECT_GE(tips.tips.size(), 4u);
        for (int f = 0; f < maxFingers; ++f) {
            const int j = fingers.tipJoint(side, f);
            if (j < 0)
                continue;
            double nearest = 1e300;
            for (const Vec3& t : tips.tips)
                nearest = std::min(nearest, (rig.skeleton.bindPositions.row(j).transpose() - t).norm());
            EXPECT_LT(nearest, 0.03 * height) << rig.skeleton.names[static_cast<size_t>(j)];
        }
    }
    expectValidRig(rig, mesh, false); // mrfixit.iqm has holes: inside is undefined
}

/// re_male's and re_female's hands have separate fingers and the artist's
/// skeleton five fingers per hand: five chains fitted, each finger's tip joint
/// within 3 % of the height of the artist's.
TEST(Fingers, DevsetPlayersGetFiveFingersNearTheArtists)
{
    for (const char* name : {"re_male", "re_female"}) {
        const std::string path = test::sourcePath(std::string("../shared/devset/") + name + ".glb");
        if (!std::filesystem::exists(path))
            GTEST_SKIP() << path << " is missing (the devset lies beside the clone in CI only)";
        SCOPED_TRACE(name);
        const RigProject& base = skeletonOf(path, "auto");
        const FitResult rig = fitWith(base, FingerMode::Auto);
        const auto& imported = base.character()->imported.skeleton;
        ASSERT_TRUE(imported);
        const Skeleton artist = rigFromImportedSkeleton(*imported).skeleton;
        const double height = heightOf(base.character()->imported.mesh);
        const FingerJointMap fitted = mapFingerJoints(rig.skeleton), theirs = mapFingerJoints(artist);
        for (int side = 0; side < 2; ++side) {
            EXPECT_EQ(fitted.fingers(side), 5);
            for (int f = 0; f < maxFingers; ++f) {
                const int a = theirs.tipJoint(side, f), j = fitted.tipJoint(side, f);
                if (a < 0 || j < 0)
                    continue;
                EXPECT_LT((artist.bindPositions.row(a) - rig.skeleton.bindPositions.row(j)).norm(), 0.03 * height)
                    << rig.skeleton.names[static_cast<size_t>(j)];
            }
        }
    }
}

// With fingers on, the default weights keep every finger joint's weight on
// the hand. A thumb pointing at the body in the players' A-pose used to seed
// its region on the top of the separate leg part and weight 3-7 vertices at
// the hips (the weights report's "far from its bone" notes; segmentation.cpp,
// seedsPerPart()).
TEST(Fingers, DevsetPlayersFingerWeightsStayOnTheHands)
{
    for (const char* name : {"re_male", "re_female"}) {
        const std::string path = test::sourcePath(std::string("../shared/devset/") + name + ".glb");
        if (!std::filesystem::exists(path))
            GTEST_SKIP() << path << " is missing (the devset lies beside the clone in CI only)";
        SCOPED_TRACE(name);
        RigProject p = skeletonOf(path, "auto");
        p.setFingerOptions({.mode = FingerMode::Auto});
        runPipeline(p, Stage::Weights);
        ASSERT_TRUE(p.skinning());
        const Skeleton& rig = p.rig()->skeleton;
        const FingerJointMap fingers = mapFingerJoints(rig);
        ASSERT_EQ(fingers.fingers(0) + fingers.fingers(1), 10);
        for (const FarReach& far : p.skinning()->diagnostics.farReach) {
            const std::string& joint = rig.names[static_cast<size_t>(far.joint)];
            EXPECT_EQ(joint.find("Hand"), std::string::npos)
                << joint << " weights " << far.vertices << " vertices far from the hand";
        }
    }
}

} // namespace
} // namespace rig
