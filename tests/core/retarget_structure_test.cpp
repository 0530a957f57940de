// Structure-first retargeting (issue 22): artists' skeletons with IK goals,
// props and twist helpers, random names, swapped sides, different sizes, and
// skeletons without legs or arms.
#include "core/motion/retarget.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/motion/clip_file.h"
#include "core/motion/skeleton_structure.h"
#include "core/rig/fit_template.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <numbers>
#include <random>
#include <set>

namespace rig {
namespace {

/// A joint of a synthetic skeleton: name, parent name ("" for the root), world rest position.
struct J {
    std::string name, parent;
    double x, y, z;
};

/// The world-positioned joints as a BVH-like motion (6 channels on the root,
/// Z Y X rotations elsewhere), `frames` frames of the rest pose.
Motion motionOf(const std::vector<J>& joints, int frames = 2)
{
    Motion m;
    m.offsets = MatrixX3d::Zero(static_cast<Eigen::Index>(joints.size()), 3);
    std::map<std::string, int> index;
    m.channelStarts.push_back(0);
    for (const J& j : joints) {
        const int i = m.jointCount();
        const int p = j.parent.empty() ? -1 : index.at(j.parent);
        m.names.push_back(j.name);
        m.parents.push_back(p);
        const Vec3 here(j.x, j.y, j.z);
        const Vec3 there = p < 0 ? Vec3::Zero() : Vec3(joints[static_cast<size_t>(p)].x, joints[static_cast<size_t>(p)].y,
                                                       joints[static_cast<size_t>(p)].z);
        m.offsets.row(i) = (here - there).transpose();
        index[j.name] = i;
        if (i == 0)
            for (Channel c : {Channel::Xposition, Channel::Yposition, Channel::Zposition})
                m.channels.push_back(c);
        for (Channel c : {Channel::Zrotation, Channel::Yrotation, Channel::Xrotation})
            m.channels.push_back(c);
        m.channelStarts.push_back(m.channelCount());
    }
    m.frames = MotionFrames::Zero(frames, m.channelCount());
    for (int f = 0; f < frames; ++f)
        for (int a = 0; a < 3; ++a)
            m.frames(f, a) = m.offsets(0, a);
    return m;
}

/// An artist's skeleton (T-pose, metres, facing +Z, left on +X): a floor root
/// with IK goals and a knee pole, a pelvis, non-standard limb names, twist
/// helpers, a zero-length roll joint, a weapon under the left hand, toe ends.
std::vector<J> artistJoints(bool helpers)
{
    std::vector<J> j = {{"Root", "", 0, 0, 0}, {"B_Pelvis", "Root", 0, 1.0, 0}, {"B_Spine", "B_Pelvis", 0, 1.15, 0},
                        {"B_Chest", "B_Spine", 0, 1.35, 0}, {"B_Neck", "B_Chest", 0, 1.5, 0}, {"B_Skull", "B_Neck", 0, 1.6, 0}};
    if (helpers)
        j.push_back({"B_Skull_Top", "B_Skull", 0, 1.8, 0});
    for (const auto& [s, x] : {std::pair{std::string("Left"), 1.0}, std::pair{std::string("Right"), -1.0}}) {
        const std::string c = "B_Collar_" + s, u = "B_Bicep_" + s, f = "B_Elbow_" + s, h = "B_Wrist_" + s;
        j.push_back({c, "B_Chest", 0.05 * x, 1.45, 0});
        j.push_back({u, c, 0.18 * x, 1.45, 0});
        j.push_back({f, u, 0.45 * x, 1.45, 0});
        j.push_back({h, f, 0.7 * x, 1.45, 0});
        j.push_back({"B_Digits_" + s, h, 0.8 * x, 1.45, 0});
        j.push_back({"B_Digits2_" + s, "B_Digits_" + s, 0.88 * x, 1.45, 0});
        j.push_back({"B_Opp_" + s, h, 0.75 * x, 1.45, 0.04});
        j.push_back({"B_Opp2_" + s, "B_Opp_" + s, 0.8 * x, 1.45, 0.06});
        const std::string t = "B_Hip_" + s, k = "B_Knee_" + s, a = "B_Ankle_" + s, o = "B_Ball_" + s;
        j.push_back({t, "B_Pelvis", 0.1 * x, 0.95, 0});
        j.push_back({k, t, 0.1 * x, 0.5, 0.01});
        j.push_back({a, k, 0.1 * x, 0.08, 0});
        j.push_back({o, a, 0.1 * x, 0.02, 0.15});
        if (helpers) {
            j.push_back({"IK_Foot_" + s, "Root", 0.1 * x, 0.08, 0});
            j.push_back({"IK_Foot_Target_" + s, "IK_Foot_" + s, 0.1 * x, 0.02, 0.15});
            j.push_back({"Pole_Knee_" + s, "Root", 0.1 * x, 0.5, 0.6});
            j.push_back({"Twist_Bicep_" + s, u, 0.3 * x, 1.45, 0});
            j.push_back({"Roll_Hip_" + s, t, 0.1 * x, 0.95, 0}); // zero-length
            j.push_back({"B_Toe_End_" + s, o, 0.1 * x, 0.02, 0.22});
        }
    }
    if (helpers)
        j.push_back({"Weapon_Sword", "B_Wrist_Left", 0.7, 1.45, 1.2}); // a prop reaching far forward
    return j;
}

const Skeleton& defaultRig()
{
    static const Skeleton k = [] {
        const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .height = 1.75, .cellSize = 0.05});
        Skeleton s;
        s.names = h.jointNames;
        s.parents = h.jointParents;
        s.bindPositions = h.joints;
        s.bindOrientations.assign(s.names.size(), Eigen::Quaterniond::Identity());
        orientBones(s);
        return s;
    }();
    return k;
}

std::string sourceOf(const RetargetMapping& m, const std::string& target)
{
    const auto it = std::find(m.targetNames.begin(), m.targetNames.end(), target);
    EXPECT_NE(it, m.targetNames.end()) << target;
    const JointRetarget& j = m.joints[static_cast<size_t>(it - m.targetNames.begin())];
    std::string out;
    const RetargetSource* heaviest = nullptr;
    for (const RetargetSource& s : j.sources)
        if (!heaviest || s.weight > heaviest->weight)
            heaviest = &s;
    return heaviest ? m.sourceNames[static_cast<size_t>(heaviest->joint)] : "(not driven)";
}

TEST(SkeletonStructure, FindsTheBodyOfAnArtistsSkeletonPastItsHelpers)
{
    const Motion m = motionOf(artistJoints(true));
    const BodyStructure b = findBodyStructure(m.names, m.parents, worldPositions(m, 0));
    auto name = [&](int j) { return j < 0 ? std::string("-") : m.names[static_cast<size_t>(j)]; };
    EXPECT_EQ(name(b.pelvis), "B_Pelvis");
    EXPECT_EQ(name(b.chest), "B_Chest");
    EXPECT_EQ(name(b.head), "B_Skull");
    EXPECT_EQ(b.sidesFrom, "feet");
    EXPECT_NEAR(b.front.z(), 1.0, 1e-9);
    for (int s = 0; s < 2; ++s) {
        const std::string side = s == 0 ? "Left" : "Right";
        EXPECT_EQ(name(b.legs[static_cast<size_t>(s)].root), "B_Hip_" + side);
        EXPECT_EQ(name(b.legs[static_cast<size_t>(s)].middle), "B_Knee_" + side);
        EXPECT_EQ(name(b.legs[static_cast<size_t>(s)].end), "B_Ankle_" + side);
        EXPECT_EQ(name(b.legs[static_cast<size_t>(s)].tip), "B_Ball_" + side);
        EXPECT_EQ(name(b.arms[static_cast<size_t>(s)].root), "B_Bicep_" + side);
        EXPECT_EQ(name(b.arms[static_cast<size_t>(s)].middle), "B_Elbow_" + side);
        EXPECT_EQ(name(b.arms[static_cast<size_t>(s)].end), "B_Wrist_" + side);
        EXPECT_EQ(name(b.arms[static_cast<size_t>(s)].chain.front()), "B_Collar_" + side);
    }
    for (const char* helper : {"IK_Foot_Left", "IK_Foot_Target_Left", "Pole_Knee_Right", "Twist_Bicep_Left",
                               "Roll_Hip_Right", "Weapon_Sword", "B_Toe_End_Left", "B_Skull_Top"})
        EXPECT_FALSE(b.kept(*m.find(helper))) << helper;
    EXPECT_TRUE(b.messages.empty()) << b.messages.front();
}

TEST(RetargetStructure, IkGoalsPropsAndTwistHelpersDoNotDriveTheRig)
{
    const Motion m = motionOf(artistJoints(true));
    const RetargetMapping map = mapSkeletons(m, defaultRig());
    const std::map<std::string, std::string> want = {
        {"LeftUpLeg", "B_Hip_Left"},     {"LeftLeg", "B_Knee_Left"},       {"LeftFoot", "B_Ankle_Left"},
        {"LeftToeBase", "B_Ball_Left"},  {"RightUpLeg", "B_Hip_Right"},    {"RightLeg", "B_Knee_Right"},
        {"RightFoot", "B_Ankle_Right"},  {"LeftArm", "B_Bicep_Left"},      {"LeftForeArm", "B_Elbow_Left"},
        {"LeftHand", "B_Wrist_Left"},    {"RightArm", "B_Bicep_Right"},    {"RightForeArm", "B_Elbow_Right"},
        {"RightHand", "B_Wrist_Right"},  {"Hips", "B_Pelvis"},             {"Head", "B_Skull"}};
    for (const auto& [target, source] : want)
        EXPECT_EQ(sourceOf(map, target), source) << target << "\n" << formatMappingTable(map);
    for (const JointRetarget& j : map.joints)
        for (const RetargetSource& s : j.sources) {
            const std::string& n = map.sourceNames[static_cast<size_t>(s.joint)];
            EXPECT_TRUE(n.rfind("B_", 0) == 0 && n.find("End") == std::string::npos)
                << "driven by helper " << n << "\n" << formatMappingTable(map);
        }
    EXPECT_EQ(map.sourceRoot, *m.find("B_Pelvis"));
}

/// The same skeleton with every name replaced by a random one.
Motion renamed(Motion m, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> letter('a', 'z');
    for (size_t j = 0; j < m.names.size(); ++j) {
        std::string n("j");
        n += std::to_string(j);
        n += '_';
        for (int k = 0; k < 6; ++k)
            n += static_cast<char>(letter(rng));
        m.names[j] = n;
    }
    return m;
}

TEST(RetargetStructure, RandomJointNamesMapIdentically)
{
    const Motion named = motionOf(artistJoints(false));
    const RetargetMapping a = mapSkeletons(named, defaultRig());
    for (unsigned seed : {1u, 2u, 3u}) {
        const RetargetMapping b = mapSkeletons(renamed(named, seed), defaultRig());
        ASSERT_EQ(a.joints.size(), b.joints.size());
        for (size_t t = 0; t < a.joints.size(); ++t) {
            ASSERT_EQ(a.joints[t].sources.size(), b.joints[t].sources.size()) << a.targetNames[t];
            for (size_t k = 0; k < a.joints[t].sources.size(); ++k) {
                EXPECT_EQ(a.joints[t].sources[k].joint, b.joints[t].sources[k].joint) << a.targetNames[t];
                EXPECT_NEAR(a.joints[t].sources[k].weight, b.joints[t].sources[k].weight, 1e-12) << a.targetNames[t];
            }
        }
        EXPECT_DOUBLE_EQ(a.translationScale, b.translationScale);
    }
}

TEST(RetargetStructure, SwappedSideNamesAreCaughtByGeometry)
{
    Motion swapped = motionOf(artistJoints(false));
    for (std::string& n : swapped.names) {
        if (const auto p = n.find("Left"); p != std::string::npos)
            n.replace(p, 4, "Right");
        else if (const auto q = n.find("Right"); q != std::string::npos)
            n.replace(q, 5, "Left");
    }
    const RetargetMapping m = mapSkeletons(swapped, defaultRig());
    // The joint on the character's left (+X, named "..._Right") drives the rig's left.
    EXPECT_EQ(sourceOf(m, "LeftForeArm"), "B_Elbow_Right") << formatMappingTable(m);
    EXPECT_EQ(sourceOf(m, "LeftLeg"), "B_Knee_Right") << formatMappingTable(m);
    EXPECT_EQ(sourceOf(m, "RightHand"), "B_Wrist_Left") << formatMappingTable(m);
    const bool said = std::any_of(m.messages.begin(), m.messages.end(),
                                  [](const std::string& s) { return s.find("named as the other side") != std::string::npos; });
    EXPECT_TRUE(said) << formatMappingTable(m);
}

/// A generated character's true joints as a clip skeleton (its zero pose).
Motion characterMotion(double height)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::T, .height = height, .cellSize = 0.05});
    std::vector<J> joints;
    for (size_t j = 0; j < h.jointNames.size(); ++j) {
        const int p = h.jointParents[j];
        joints.push_back({h.jointNames[j], p < 0 ? "" : h.jointNames[static_cast<size_t>(p)], h.joints(static_cast<Eigen::Index>(j), 0),
                          h.joints(static_cast<Eigen::Index>(j), 1), h.joints(static_cast<Eigen::Index>(j), 2)});
    }
    return motionOf(joints);
}

double hipHeight(const MatrixX3d& p, const std::vector<std::string>& names)
{
    auto y = [&](const std::string& n) {
        return p(static_cast<Eigen::Index>(std::find(names.begin(), names.end(), n) - names.begin()), 1);
    };
    return y("Hips") - std::min({y("LeftFoot"), y("LeftToeBase"), y("RightFoot"), y("RightToeBase")});
}

// The same legs under a pelvis joint placed lower (Red Eclipse's players put
// it below the hip joints, humanoid21 above): the stride is the legs', so the
// root scale is 1, and the root keeps its own rest height. The pelvis-height
// ratio gave 1.12-1.18 on the players' own clips.
TEST(RetargetStructure, RootScaleIsTheLegLengthRatioWhereverThePelvisJointSits)
{
    const Skeleton& rig = defaultRig();
    std::vector<J> joints;
    for (int j = 0; j < rig.jointCount(); ++j) {
        const int p = rig.parents[static_cast<size_t>(j)];
        joints.push_back({"src_" + rig.names[static_cast<size_t>(j)], p < 0 ? "" : "src_" + rig.names[static_cast<size_t>(p)],
                          rig.bindPositions(j, 0), rig.bindPositions(j, 1), rig.bindPositions(j, 2)});
    }
    const int hips = *rig.find("Hips");
    const double hipJoints = rig.bindPositions(*rig.find("LeftUpLeg"), 1);
    joints[static_cast<size_t>(hips)].y = hipJoints - 0.08; // 8 cm below the hip joints
    const Motion source = motionOf(joints, 3);
    const RetargetedClip clip = retargetClip(source, rig, {.rest = RetargetRest::Zero});
    EXPECT_NEAR(clip.mapping.translationScale, 1.0, 1e-9) << formatMappingTable(clip.mapping);
    for (const Pose& pose : toPoses(clip.frames))
        EXPECT_NEAR(pose.rootTranslation.y(), 0.0, 1e-3); // standing at rest, as the source
}

TEST(RetargetStructure, RootScaleIsTheHipHeightRatio)
{
    const Motion small = characterMotion(1.2);
    const Skeleton& big = defaultRig();
    const RetargetMapping m = mapSkeletons(small, big, {.rest = RetargetRest::Zero});
    const double want = hipHeight(big.bindPositions, big.names) / hipHeight(worldPositions(small, 0), small.names);
    EXPECT_NEAR(m.translationScale, want, 1e-9 * want) << formatMappingTable(m);
    EXPECT_GT(m.translationScale, 1.3); // 1.75 / 1.2 characters
    for (const std::string& msg : m.messages)
        EXPECT_EQ(msg.find("warning"), std::string::npos) << msg; // a plausible ratio
}

TEST(RetargetStructure, AClipWithoutLegsLeavesThemNotDrivenAndSaysSo)
{
    std::vector<J> upper;
    for (const J& j : artistJoints(false))
        if (j.name.find("Hip") == std::string::npos && j.name.find("Knee") == std::string::npos &&
            j.name.find("Ankle") == std::string::npos && j.name.find("Ball") == std::string::npos)
            upper.push_back(j);
    const Motion m = motionOf(upper);
    const RetargetMapping map = mapSkeletons(m, defaultRig());
    for (const char* leg : {"LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot"}) {
        const auto t = static_cast<size_t>(*defaultRig().find(leg));
        EXPECT_TRUE(map.joints[t].sources.empty()) << leg << "\n" << formatMappingTable(map);
        EXPECT_NE(map.joints[t].note.find("not driven"), std::string::npos) << leg << ": " << map.joints[t].note;
    }
    const std::string table = formatMappingTable(map);
    EXPECT_NE(table.find("no legs found"), std::string::npos) << table;
    EXPECT_NE(table.find("scaled by the ratio of their heights"), std::string::npos) << table;
    EXPECT_NO_THROW(retargetClip(m, defaultRig()));
}

TEST(RetargetStructure, AClipWithoutArmsLeavesThemNotDriven)
{
    std::vector<J> legs;
    for (const J& j : artistJoints(false))
        if (j.name.find("Collar") == std::string::npos && j.name.find("Bicep") == std::string::npos &&
            j.name.find("Elbow") == std::string::npos && j.name.find("Wrist") == std::string::npos &&
            j.name.find("Digits") == std::string::npos && j.name.find("Opp") == std::string::npos)
            legs.push_back(j);
    const RetargetMapping map = mapSkeletons(motionOf(legs), defaultRig());
    for (const char* arm : {"LeftArm", "LeftForeArm", "RightHand"}) {
        const auto t = static_cast<size_t>(*defaultRig().find(arm));
        EXPECT_TRUE(map.joints[t].sources.empty()) << arm << "\n" << formatMappingTable(map);
        EXPECT_NE(map.joints[t].note.find("not driven"), std::string::npos) << arm << ": " << map.joints[t].note;
    }
    EXPECT_EQ(sourceOf(map, "LeftLeg"), "B_Knee_Left");
    EXPECT_NE(formatMappingTable(map).find("no arms found"), std::string::npos);
}

// Artists put the pelvis joint anywhere: Red Eclipse's players have it 1.5
// units below the hip joints, humanoid21 above them. The rest pose of such a
// clip leaves the rig standing (its spine and legs where they were), and a
// pelvis tilt tilts the rig's pelvis by the same angle. Matching the bones
// from the pelvis to the legs one by one (the hip joints above the pelvis in
// the clip, below it in the rig) turned the rig's pelvis at rest: by 20° here,
// by 138° on re_male (the spine bent back below the hips).
TEST(RetargetStructure, APelvisBelowTheHipJointsLeavesTheRigStandingAtRest)
{
    std::vector<J> joints = artistJoints(false);
    for (J& j : joints) { // the proportions of re_male's pelvis, spine and hip joints
        if (j.name == "B_Pelvis")
            j.y = 0.8, j.z = -0.01; // the hip joints are at 0.95
        if (j.name == "B_Spine")
            j.y = 1.0, j.z = 0.025;
    }
    Motion m = motionOf(joints, 2);
    // Frame 1: the pelvis (joint 1; each joint's channels Z Y X after the
    // floor root's six) tilted 15° about X, the spine turned back by as much.
    ASSERT_EQ(m.names[1], "B_Pelvis");
    ASSERT_EQ(m.names[2], "B_Spine");
    m.frames(1, 6 + 2) = 15.0;
    m.frames(1, 9 + 2) = -15.0;
    const Skeleton& rig = defaultRig();
    const RetargetedClip clip = retargetClip(m, rig);
    const auto at = [&](const PosedSkeleton& p, const char* name) -> Vec3 { return p.positions.row(*rig.find(name)); };
    const auto angle = [](const Vec3& a, const Vec3& b) { return std::acos(std::clamp(a.normalized().dot(b.normalized()), -1.0, 1.0)) * 180.0 / std::numbers::pi; };
    const PosedSkeleton bind = forwardKinematics(rig, identityPose(rig));
    const PosedSkeleton rest = forwardKinematics(rig, clip.frames.pose(0));
    EXPECT_LT(angle(at(rest, "Spine") - at(rest, "Hips"), at(bind, "Spine") - at(bind, "Hips")), 2.0);
    EXPECT_LT(angle(at(rest, "Head") - at(rest, "Hips"), at(bind, "Head") - at(bind, "Hips")), 5.0);
    for (const char* side : {"Left", "Right"}) {
        const std::string up = std::string(side) + "UpLeg", knee = std::string(side) + "Leg";
        EXPECT_LT(angle(at(rest, knee.c_str()) - at(rest, up.c_str()), at(bind, knee.c_str()) - at(bind, up.c_str())), 5.0)
            << side;
    }
    // The tilt: the rig's pelvis bone turns by the clip's 15°.
    const PosedSkeleton tilted = forwardKinematics(rig, clip.frames.pose(1));
    EXPECT_NEAR(angle(at(tilted, "Spine") - at(tilted, "Hips"), at(rest, "Spine") - at(rest, "Hips")), 15.0, 1.0);
}

// Red Eclipse's players split each limb segment in two bones
// (upper_arm.L.01/.02, forearm.L.01/.02). The rig's upper arm follows both
// halves of the upper arm and its forearm both halves of the forearm; the
// pairing by name alone gave the forearm the upper arm's second half too, so
// an elbow bent 90° bent the rig's forearm some 25° short.
TEST(RetargetStructure, ALimbSplitInTwoBonesPerSegmentDrivesEachSegmentWithItsOwnHalves)
{
    std::vector<J> joints;
    for (const J& j : artistJoints(false))
        if (j.name.find("Bicep") == std::string::npos && j.name.find("Elbow") == std::string::npos &&
            j.name.find("Wrist") == std::string::npos && j.name.find("Digits") == std::string::npos &&
            j.name.find("Opp") == std::string::npos)
            joints.push_back(j);
    for (const auto& [side, x] : {std::pair{std::string("L"), 1.0}, std::pair{std::string("R"), -1.0}}) {
        const std::string collar = std::string("B_Collar_") + (side == "L" ? "Left" : "Right");
        joints.push_back({"upper_arm." + side + ".01", collar, 0.18 * x, 1.45, 0});
        joints.push_back({"upper_arm." + side + ".02", "upper_arm." + side + ".01", 0.315 * x, 1.45, 0});
        joints.push_back({"forearm." + side + ".01", "upper_arm." + side + ".02", 0.45 * x, 1.45, 0});
        joints.push_back({"forearm." + side + ".02", "forearm." + side + ".01", 0.575 * x, 1.45, 0});
        joints.push_back({"hand." + side, "forearm." + side + ".02", 0.7 * x, 1.45, 0});
        joints.push_back({"fingers." + side, "hand." + side, 0.8 * x, 1.45, 0});
    }
    Motion m = motionOf(joints, 2);
    const Skeleton& rig = defaultRig();
    const RetargetMapping map = mapSkeletons(m, rig);
    const auto sources = [&](const char* target) {
        std::set<std::string> out;
        for (const RetargetSource& src : map.joints[static_cast<size_t>(*rig.find(target))].sources)
            out.insert(map.sourceNames[static_cast<size_t>(src.joint)]);
        return out;
    };
    EXPECT_EQ(sources("LeftArm"), (std::set<std::string>{"upper_arm.L.01", "upper_arm.L.02"})) << formatMappingTable(map);
    EXPECT_EQ(sources("LeftForeArm"), (std::set<std::string>{"forearm.L.01", "forearm.L.02"})) << formatMappingTable(map);
    EXPECT_EQ(sources("RightForeArm"), (std::set<std::string>{"forearm.R.01", "forearm.R.02"})) << formatMappingTable(map);

    // Frame 1: the left elbow bent 90° about the vertical (forearm.L.01; forearm.L.02 follows).
    const auto elbow = static_cast<size_t>(std::find(m.names.begin(), m.names.end(), "forearm.L.01") - m.names.begin());
    m.frames(1, m.channelStarts[elbow] + 1) = 90.0; // Y rotation
    const RetargetedClip clip = retargetClip(m, rig);
    const PosedSkeleton p = forwardKinematics(rig, clip.frames.pose(1));
    const Vec3 e = p.positions.row(*rig.find("LeftForeArm")), h = p.positions.row(*rig.find("LeftHand"));
    const Vec3 u = p.positions.row(*rig.find("LeftArm"));
    const double bend = std::acos(std::clamp((e - u).normalized().dot((h - e).normalized()), -1.0, 1.0)) * 180.0 / std::numbers::pi;
    EXPECT_NEAR(bend, 90.0, 3.0);
}

// BCN_Epileptic.X's layout: a root carrying the legs' pelvis and, beside it,
// the spine; arms hanging at the sides (horizontally they reach only the
// shoulders' half width); face joints under the head, an eyebrow its highest
// leaf. Before: "no spine found" (9 of 21 rig joints driven), the arms not
// found by their horizontal reach, the brow taken for the head.
std::vector<J> sideBySidePelvisJoints()
{
    std::vector<J> j = {{"B_Root_Pelvis_L", "", 0, 1.0, 0},     {"B_LowerPelvis", "B_Root_Pelvis_L", 0, 0.98, 0},
                        {"B_Root_Pelvis_T", "B_Root_Pelvis_L", 0, 1.02, 0}, {"B_Spine1", "B_Root_Pelvis_T", 0, 1.15, 0},
                        {"B_Spine2", "B_Spine1", 0, 1.35, 0},   {"B_Neck", "B_Spine2", 0, 1.5, 0},
                        {"B_Head", "B_Neck", 0, 1.6, 0},       {"B_Jaw", "B_Head", 0, 1.62, 0.06},
                        {"B_EyeBrow_Left", "B_Head", 0.03, 1.7, 0.08}, {"B_EyeBrow_Right", "B_Head", -0.03, 1.7, 0.08}};
    for (const auto& [s, x] : {std::pair{std::string("Left"), 1.0}, std::pair{std::string("Right"), -1.0}}) {
        j.push_back({"B_Clavicle_" + s, "B_Spine2", 0.05 * x, 1.45, 0});
        j.push_back({"B_UpperArm_" + s, "B_Clavicle_" + s, 0.16 * x, 1.43, 0});
        j.push_back({"B_ForeArm_" + s, "B_UpperArm_" + s, 0.18 * x, 1.15, 0});
        j.push_back({"B_Hand_" + s, "B_ForeArm_" + s, 0.19 * x, 0.9, 0.02});
        j.push_back({"B_Hip_" + s, "B_LowerPelvis", 0.1 * x, 0.95, 0});
        j.push_back({"B_Knee_" + s, "B_Hip_" + s, 0.1 * x, 0.5, 0.01});
        j.push_back({"B_Ankle_" + s, "B_Knee_" + s, 0.1 * x, 0.08, 0});
        j.push_back({"B_Toe_" + s, "B_Ankle_" + s, 0.1 * x, 0.02, 0.15});
    }
    return j;
}

TEST(SkeletonStructure, ASpineBesideTheLegsPelvisArmsAtTheSidesAndAFaceAreFound)
{
    const Motion m = motionOf(sideBySidePelvisJoints());
    const BodyStructure b = findBodyStructure(m.names, m.parents, worldPositions(m, 0));
    auto name = [&](int j) { return j < 0 ? std::string("-") : m.names[static_cast<size_t>(j)]; };
    EXPECT_EQ(name(b.pelvis), "B_LowerPelvis");
    EXPECT_EQ(name(b.chest), "B_Spine2");
    EXPECT_EQ(name(b.head), "B_Head");
    for (int s = 0; s < 2; ++s) {
        const std::string side = s == 0 ? "Left" : "Right";
        EXPECT_EQ(name(b.arms[static_cast<size_t>(s)].root), "B_UpperArm_" + side);
        EXPECT_EQ(name(b.arms[static_cast<size_t>(s)].end), "B_Hand_" + side);
        EXPECT_EQ(name(b.legs[static_cast<size_t>(s)].root), "B_Hip_" + side);
    }
    for (const char* face : {"B_Jaw", "B_EyeBrow_Left", "B_EyeBrow_Right"})
        EXPECT_FALSE(b.kept(*m.find(face))) << face;
    const RetargetMapping map = mapSkeletons(m, defaultRig());
    for (const auto& [target, source] : std::map<std::string, std::string>{
             {"Head", "B_Head"}, {"LeftArm", "B_UpperArm_Left"}, {"RightHand", "B_Hand_Right"},
             {"LeftUpLeg", "B_Hip_Left"}, {"Hips", "B_LowerPelvis"}})
        EXPECT_EQ(sourceOf(map, target), source) << target << "\n" << formatMappingTable(map);
    for (const char* t : {"Spine", "Spine1", "Neck"})
        EXPECT_NE(sourceOf(map, t), "(not driven)") << t << "\n" << formatMappingTable(map);
}

// The rig's own skeleton in its bind pose as a source, joints renamed
// (`src_` + name), edited by `edit` (joints dropped or moved: where another
// skeleton lacks a joint or puts it elsewhere).
template <class Edit>
Motion rigAsSource(const Skeleton& rig, Edit edit)
{
    std::vector<J> joints;
    for (int i = 0; i < rig.jointCount(); ++i) {
        const int p = rig.parents[static_cast<size_t>(i)];
        const Vec3 x = rig.bindPositions.row(i);
        joints.push_back({"src_" + rig.names[static_cast<size_t>(i)], p < 0 ? "" : "src_" + rig.names[static_cast<size_t>(p)],
                          x.x(), x.y(), x.z()});
    }
    edit(joints);
    return motionOf(joints, 1);
}

J& joint(std::vector<J>& joints, const std::string& name)
{
    const auto it = std::find_if(joints.begin(), joints.end(), [&](const J& j) { return j.name == name; });
    EXPECT_NE(it, joints.end()) << name;
    return *it;
}

void dropJoint(std::vector<J>& joints, const std::string& name)
{
    const std::string parent = joint(joints, name).parent;
    for (J& j : joints)
        if (j.parent == name)
            j.parent = parent;
    std::erase_if(joints, [&](const J& j) { return j.name == name; });
}

/// The largest distance, in units of the rig's height, between the rig's
/// joints retargeted from `source`'s frame 0 and their bind positions (both
/// relative to the hips: the feet-on-ground rule may lift the whole rig).
double restFrameDrift(const Motion& source, const Skeleton& rig)
{
    const RetargetedClip clip = retargetClip(source, rig);
    const PosedSkeleton rest = forwardKinematics(rig, clip.frames.pose(0));
    const double h = rig.bindPositions.col(1).maxCoeff() - rig.bindPositions.col(1).minCoeff();
    const Eigen::RowVector3d dr = rest.positions.row(0) - rig.bindPositions.row(0);
    double worst = 0.0;
    for (int i = 0; i < rig.jointCount(); ++i)
        worst = std::max(worst, (rest.positions.row(i) - dr - rig.bindPositions.row(i)).norm() / h);
    return worst;
}

// A source standing in the rig's own pose moves the rig nowhere, whatever
// joints it lacks and wherever it puts its joints. Without clavicles (re_drone:
// the upper arms hang from the chest), the chest's bone to the upper arm rose
// 50° where the rig's clavicle runs level, and matching the clavicle to it
// lifted the rig's shoulders by 8% of the height. With a short chest-to-arm
// bone (Khronos' Cesium Man) the upper-arm joint drives the clavicle too, and
// the clavicle was turned down along the upper arm. With the ankle joint high
// on the instep above a toe joint under it (Cesium Man again) the foot was
// pitched toe-down by the difference in slope.
TEST(RetargetStructure, ASourceInTheRigsOwnPoseLeavesItInItsBindPose)
{
    const Skeleton& rig = defaultRig();
    EXPECT_LT(restFrameDrift(rigAsSource(rig, [](std::vector<J>&) {}), rig), 1e-6);
    const auto noClavicles = [](std::vector<J>& j) {
        dropJoint(j, "src_LeftShoulder");
        dropJoint(j, "src_RightShoulder");
    };
    EXPECT_LT(restFrameDrift(rigAsSource(rig, noClavicles), rig), 0.005) << "without clavicles";
    const auto shortChestToArm = [&](std::vector<J>& j) {
        noClavicles(j);
        joint(j, "src_Spine1").y = joint(j, "src_LeftArm").y - 0.02;
    };
    EXPECT_LT(restFrameDrift(rigAsSource(rig, shortChestToArm), rig), 0.005) << "a short bone from the chest to the arms";
    const auto highAnkles = [](std::vector<J>& j) {
        for (const char* side : {"Left", "Right"}) {
            J& ankle = joint(j, std::string("src_") + side + "Foot");
            J& toe = joint(j, std::string("src_") + side + "ToeBase");
            ankle.y += 0.06;
            toe.z = ankle.z + 0.5 * (toe.z - ankle.z);
        }
    };
    EXPECT_LT(restFrameDrift(rigAsSource(rig, highAnkles), rig), 0.005) << "ankle joints high on the instep";
}

TEST(RetargetRestRule, BindPoseFirstThenTPoseFrameThenZero)
{
    Motion m = motionOf(artistJoints(false));
    EXPECT_EQ(resolveRetargetRest(m, RetargetRest::Auto), RetargetRest::FirstFrame); // frame 0 is the T-pose
    EXPECT_THROW(resolveRetargetRest(m, RetargetRest::Bind), InvalidInput);
    m.bindValues.assign(static_cast<size_t>(m.channelCount()), 0.0);
    EXPECT_EQ(resolveRetargetRest(m, RetargetRest::Auto), RetargetRest::Bind);
    EXPECT_EQ(resolveRetargetRest(m, RetargetRest::Zero), RetargetRest::Zero);
    EXPECT_EQ(mapSkeletons(m, defaultRig()).restUsed, RetargetRest::Bind);
    EXPECT_EQ(parseRetargetRest("auto"), RetargetRest::Auto);
    EXPECT_EQ(parseRetargetRest("bind"), RetargetRest::Bind);
}

} // namespace
} // namespace rig
