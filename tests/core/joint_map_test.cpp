#include "core/eval/joint_map.h"

#include "core/common/error.h"
#include "core/eval/joint_score.h"
#include "core/rig/fit_template.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

namespace rig {
namespace {

using CJ = CanonicalJoint;

/// A skeleton from (name, parent name, position) rows, parents first.
Skeleton skeletonOf(const std::vector<std::tuple<std::string, std::string, Vec3>>& rows)
{
    Skeleton s;
    std::map<std::string, int> index;
    s.bindPositions.resize(static_cast<Eigen::Index>(rows.size()), 3);
    for (const auto& [name, parent, p] : rows) {
        const int j = s.jointCount();
        index[name] = j;
        s.names.push_back(name);
        s.parents.push_back(parent.empty() ? -1 : index.at(parent));
        s.bindPositions.row(j) = p.transpose();
    }
    s.bindOrientations.assign(rows.size(), Eigen::Quaterniond::Identity());
    return s;
}

/// A humanoid with names made by `name(part, side)` (side "", "L" or "R");
/// `clavicleUnderNeck` hangs the clavicles from the neck (3ds Max Biped).
Skeleton humanoid(const std::function<std::string(const std::string&, const std::string&)>& name,
                  bool clavicleUnderNeck = false)
{
    std::vector<std::tuple<std::string, std::string, Vec3>> r;
    r.emplace_back(name("root", ""), "", Vec3(0, 0, 0));
    r.emplace_back(name("hips", ""), name("root", ""), Vec3(0, 1.0, 0));
    r.emplace_back(name("spine", ""), name("hips", ""), Vec3(0, 1.2, 0));
    r.emplace_back(name("chest", ""), name("spine", ""), Vec3(0, 1.35, 0));
    r.emplace_back(name("neck", ""), name("chest", ""), Vec3(0, 1.5, 0));
    r.emplace_back(name("head", ""), name("neck", ""), Vec3(0, 1.6, 0));
    for (const std::string side : {"L", "R"}) {
        const double x = side == "L" ? 1.0 : -1.0;
        const std::string clavParent = clavicleUnderNeck ? name("neck", "") : name("chest", "");
        r.emplace_back(name("clavicle", side), clavParent, Vec3(0.05 * x, 1.45, 0));
        r.emplace_back(name("upperarm", side), name("clavicle", side), Vec3(0.2 * x, 1.45, 0));
        r.emplace_back(name("forearm", side), name("upperarm", side), Vec3(0.45 * x, 1.45, 0));
        r.emplace_back(name("hand", side), name("forearm", side), Vec3(0.7 * x, 1.45, 0));
        r.emplace_back(name("index", side), name("hand", side), Vec3(0.8 * x, 1.45, 0));
        r.emplace_back(name("thumb", side), name("hand", side), Vec3(0.75 * x, 1.45, 0.05));
        r.emplace_back(name("thigh", side), name("hips", ""), Vec3(0.1 * x, 0.95, 0));
        r.emplace_back(name("calf", side), name("thigh", side), Vec3(0.1 * x, 0.5, 0));
        r.emplace_back(name("foot", side), name("calf", side), Vec3(0.1 * x, 0.08, 0));
        r.emplace_back(name("toe", side), name("foot", side), Vec3(0.1 * x, 0.0, 0.15));
    }
    return skeletonOf(r);
}

/// Rigsmith's (and the CMU / MotionBuilder) names for `humanoid()`.
std::string rigsmithNames(const std::string& part, const std::string& side)
{
    static const std::map<std::string, std::string> n = {
        {"root", "Root"}, {"hips", "Hips"}, {"spine", "Spine"}, {"chest", "Spine1"}, {"neck", "Neck"},
        {"head", "Head"}, {"clavicle", "Shoulder"}, {"upperarm", "Arm"}, {"forearm", "ForeArm"},
        {"hand", "Hand"}, {"index", "HandIndex1"}, {"thumb", "HandThumb1"}, {"thigh", "UpLeg"},
        {"calf", "Leg"}, {"foot", "Foot"}, {"toe", "ToeBase"}};
    return std::string(side == "L" ? "Left" : side == "R" ? "Right" : "") + n.at(part);
}

void expectFull(const Skeleton& s, const CanonicalJointMap& m, const std::map<CJ, std::string>& expected)
{
    EXPECT_TRUE(m.unmapped().empty()) << m.unmapped().size() << " unmapped, first "
                                      << canonicalJointKey(m.unmapped().front());
    for (const auto& [c, name] : expected)
        EXPECT_EQ(m[c] < 0 ? std::string("(none)") : s.names[static_cast<size_t>(m[c])], name)
            << canonicalJointKey(c);
}

TEST(JointMap, NameWords)
{
    EXPECT_EQ(jointNameWords("mixamorig:LeftUpLeg"), (std::vector<std::string>{"left", "up", "leg"}));
    EXPECT_EQ(jointNameWords("upper_arm.L.01"), (std::vector<std::string>{"upper", "arm", "l", "01"}));
    EXPECT_EQ(jointNameWords("Bip01 L Thigh"), (std::vector<std::string>{"bip", "01", "l", "thigh"}));
    EXPECT_EQ(jointNameWords("LHipJoint"), (std::vector<std::string>{"l", "hip", "joint"}));
    EXPECT_EQ(jointNameWords("DEF-forearm.R"), (std::vector<std::string>{"def", "forearm", "r"}));
}

TEST(JointMap, Mixamo)
{
    const std::map<std::string, std::string> part = {
        {"root", "Armature"}, {"hips", "Hips"}, {"spine", "Spine"}, {"chest", "Spine2"}, {"neck", "Neck"},
        {"head", "Head"}, {"clavicle", "Shoulder"}, {"upperarm", "Arm"}, {"forearm", "ForeArm"},
        {"hand", "Hand"}, {"index", "HandIndex1"}, {"thumb", "HandThumb1"}, {"thigh", "UpLeg"},
        {"calf", "Leg"}, {"foot", "Foot"}, {"toe", "ToeBase"}};
    const Skeleton s = humanoid([&](const std::string& p, const std::string& side) {
        return "mixamorig:" + std::string(side == "L" ? "Left" : side == "R" ? "Right" : "") + part.at(p);
    });
    const CanonicalJointMap m = mapCanonicalJoints(s);
    EXPECT_EQ(m.convention, "mixamo");
    expectFull(s, m, {{CJ::Hips, "mixamorig:Hips"}, {CJ::SpineTop, "mixamorig:Spine2"},
                      {CJ::LeftShoulder, "mixamorig:LeftArm"}, {CJ::LeftKnee, "mixamorig:LeftLeg"},
                      {CJ::RightHip, "mixamorig:RightUpLeg"}, {CJ::RightWrist, "mixamorig:RightHand"}});
}

TEST(JointMap, Bip01ClaviclesUnderTheNeck)
{
    const std::map<std::string, std::string> part = {
        {"root", ""}, {"hips", "Pelvis"}, {"spine", "Spine"}, {"chest", "Spine1"}, {"neck", "Neck"},
        {"head", "Head"}, {"clavicle", "Clavicle"}, {"upperarm", "UpperArm"}, {"forearm", "Forearm"},
        {"hand", "Hand"}, {"index", "Finger0"}, {"thumb", "Finger1"}, {"thigh", "Thigh"}, {"calf", "Calf"},
        {"foot", "Foot"}, {"toe", "Toe0"}};
    const Skeleton s = humanoid(
        [&](const std::string& p, const std::string& side) {
            const std::string n = part.at(p);
            return "Bip01" + (side.empty() ? "" : " " + side) + (n.empty() ? "" : " " + n);
        },
        true);
    const CanonicalJointMap m = mapCanonicalJoints(s);
    EXPECT_EQ(m.convention, "bip01");
    expectFull(s, m, {{CJ::Hips, "Bip01 Pelvis"}, {CJ::SpineTop, "Bip01 Spine1"}, {CJ::Neck, "Bip01 Neck"},
                      {CJ::LeftElbow, "Bip01 L Forearm"}, {CJ::RightKnee, "Bip01 R Calf"},
                      {CJ::LeftAnkle, "Bip01 L Foot"}});
}

// Unnamed, the head is the joint the face hangs from, even where its name
// says neck (BCN_Epileptic: jaw, lips and eyes under 'B_Neck', a ponytail
// beside them); the chain rule took the ponytail's first joint for the head.
TEST(JointMap, TheHeadIsTheJointTheFaceHangsFromNotThePonytail)
{
    const std::map<std::string, std::string> part = {
        {"root", "B_Root"}, {"hips", "B_Pelvis"}, {"spine", "B_Spine1"}, {"chest", "B_Spine4"},
        {"neck", "B_Root_Neck_T"}, {"head", "B_Neck"}, {"clavicle", "B_Clavicle"}, {"upperarm", "B_UpperArm"},
        {"forearm", "B_Forearm"}, {"hand", "B_Hand"}, {"index", "B_Finger1"}, {"thumb", "B_Thumb"},
        {"thigh", "B_Thigh"}, {"calf", "B_Calf"}, {"foot", "B_Foot"}, {"toe", "B_Toe"}};
    Skeleton s = humanoid([&](const std::string& p, const std::string& side) {
        return part.at(p) + (side.empty() ? "" : "_" + side);
    });
    // The face and a ponytail under the skull (its tail longer than the face's chains).
    const int skull = *s.find("B_Neck");
    auto add = [&](const std::string& name, int parent, const Vec3& p) {
        s.names.push_back(name);
        s.parents.push_back(parent);
        s.bindPositions.conservativeResize(s.jointCount(), 3);
        s.bindPositions.row(s.jointCount() - 1) = p.transpose();
        s.bindOrientations.push_back(Eigen::Quaterniond::Identity());
        return s.jointCount() - 1;
    };
    add("B_Jaw", skull, Vec3(0, 1.58, 0.05));
    add("B_Lip_Upper", skull, Vec3(0, 1.6, 0.08));
    add("B_Eye_L", skull, Vec3(0.03, 1.65, 0.07));
    const int tail1 = add("B_PTail1", skull, Vec3(0, 1.66, -0.08));
    const int tail2 = add("B_PTail2", tail1, Vec3(0, 1.55, -0.12));
    add("B_PTail3", tail2, Vec3(0, 1.45, -0.14));
    const CanonicalJointMap m = mapCanonicalJoints(s);
    expectFull(s, m, {{CJ::Head, "B_Neck"}, {CJ::Neck, "B_Root_Neck_T"}, {CJ::SpineTop, "B_Spine4"}});
}

// Legs named only 'leg_joint_L_1..5' (Cesium Man): the ankle is where the
// rest of the chain runs further forward than down, not the start of the
// first near-horizontal bone (the ball of the foot).
TEST(JointMap, AnUnnamedAnkleIsWhereTheFootBeginsNotTheBallOfTheFoot)
{
    for (const bool toes : {true, false}) { // Cesium Man's chain ends at the ball (no toe joint)
        std::vector<std::tuple<std::string, std::string, Vec3>> r = {
            {"Skeleton_torso_joint_1", "", Vec3(0, 0.95, 0)},
            {"Skeleton_torso_joint_2", "Skeleton_torso_joint_1", Vec3(0, 1.2, 0)},
            {"Skeleton_neck_joint_1", "Skeleton_torso_joint_2", Vec3(0, 1.4, 0)},
            {"Skeleton_neck_joint_2", "Skeleton_neck_joint_1", Vec3(0, 1.5, 0)}};
        for (const std::string side : {"L", "R"}) {
            const double x = side == "L" ? 1.0 : -1.0;
            const std::string leg = "leg_joint_" + side + "_";
            r.emplace_back(leg + "1", "Skeleton_torso_joint_1", Vec3(0.09 * x, 0.9, 0));
            r.emplace_back(leg + "2", leg + "1", Vec3(0.09 * x, 0.5, 0));
            r.emplace_back(leg + "3", leg + "2", Vec3(0.09 * x, 0.086, -0.01)); // the ankle
            r.emplace_back(leg + "5", leg + "3", Vec3(0.09 * x, 0.021, 0.021)); // the ball of the foot
            if (toes)
                r.emplace_back(leg + "6", leg + "5", Vec3(0.09 * x, 0.0, 0.12)); // the toes' tip
            const std::string arm = "arm_joint_" + side + "_";
            r.emplace_back(arm + "1", "Skeleton_torso_joint_2", Vec3(0.2 * x, 1.35, 0));
            r.emplace_back(arm + "2", arm + "1", Vec3(0.45 * x, 1.35, 0));
            r.emplace_back(arm + "3", arm + "2", Vec3(0.7 * x, 1.35, 0));
        }
        const Skeleton s = skeletonOf(r);
        const CanonicalJointMap m = mapCanonicalJoints(s);
        auto name = [&](CJ c) { return m[c] < 0 ? std::string("(none)") : s.names[static_cast<size_t>(m[c])]; };
        EXPECT_EQ(name(CJ::LeftAnkle), "leg_joint_L_3") << (toes ? "with toes" : "ending at the ball");
        EXPECT_EQ(name(CJ::RightAnkle), "leg_joint_R_3") << (toes ? "with toes" : "ending at the ball");
        EXPECT_EQ(name(CJ::LeftKnee), "leg_joint_L_2");
    }
}

TEST(JointMap, RigifyAndUnreal)
{
    const std::map<std::string, std::string> rigify = {
        {"root", "root"}, {"hips", "hips"}, {"spine", "spine"}, {"chest", "ribs"}, {"neck", "neck"},
        {"head", "head"}, {"clavicle", "shoulder"}, {"upperarm", "upper_arm"}, {"forearm", "forearm"},
        {"hand", "hand"}, {"index", "finger_index.01"}, {"thumb", "thumb.01"}, {"thigh", "thigh"},
        {"calf", "shin"}, {"foot", "foot"}, {"toe", "toe"}};
    const Skeleton b = humanoid([&](const std::string& p, const std::string& side) {
        return rigify.at(p) + (side.empty() ? "" : "." + side + (p == "thigh" || p == "upperarm" ? ".01" : ""));
    });
    expectFull(b, mapCanonicalJoints(b), {{CJ::LeftShoulder, "upper_arm.L.01"}, {CJ::LeftHip, "thigh.L.01"},
                                          {CJ::RightKnee, "shin.R"}, {CJ::SpineTop, "ribs"}});
    const std::map<std::string, std::string> ue = {
        {"root", "root"}, {"hips", "pelvis"}, {"spine", "spine_01"}, {"chest", "spine_03"}, {"neck", "neck_01"},
        {"head", "head"}, {"clavicle", "clavicle"}, {"upperarm", "upperarm"}, {"forearm", "lowerarm"},
        {"hand", "hand"}, {"index", "index_01"}, {"thumb", "thumb_01"}, {"thigh", "thigh"}, {"calf", "calf"},
        {"foot", "foot"}, {"toe", "ball"}};
    const Skeleton u = humanoid([&](const std::string& p, const std::string& side) {
        std::string s = side;
        for (char& c : s)
            c = static_cast<char>(std::tolower(c));
        return ue.at(p) + (side.empty() ? "" : "_" + s);
    });
    const CanonicalJointMap mu = mapCanonicalJoints(u);
    EXPECT_EQ(mu.convention, "unreal");
    expectFull(u, mu, {{CJ::Hips, "pelvis"}, {CJ::SpineTop, "spine_03"}, {CJ::LeftElbow, "lowerarm_l"},
                       {CJ::RightAnkle, "foot_r"}});
}

/// Cesium Man's names say only "arm"/"leg" and a side: the hierarchy places
/// the elbow, wrist, knee and ankle, the hips, spine top, neck and head.
TEST(JointMap, HierarchyWhereNamesSayLittle)
{
    const std::map<std::string, std::string> part = {
        {"root", "Skeleton_root"}, {"hips", "Skeleton_torso_joint_1"}, {"spine", "Skeleton_torso_joint_2"},
        {"chest", "torso_joint_3"}, {"neck", "Skeleton_neck_joint_1"}, {"head", "Skeleton_neck_joint_2"},
        {"clavicle", "Skeleton_clav_joint"}, {"upperarm", "Skeleton_arm_joint_4"}, {"forearm", "Skeleton_arm_joint_3"},
        {"hand", "Skeleton_arm_joint_2"}, {"index", "Skeleton_arm_joint_1a"}, {"thumb", "Skeleton_arm_joint_1b"},
        {"thigh", "leg_joint_1"}, {"calf", "leg_joint_2"}, {"foot", "leg_joint_3"}, {"toe", "leg_joint_5"}};
    const Skeleton s = humanoid([&](const std::string& p, const std::string& side) {
        std::string n = part.at(p);
        if (!side.empty())
            n.insert(n.rfind('_') + 1, side + "_");
        return n;
    });
    const CanonicalJointMap m = mapCanonicalJoints(s);
    expectFull(s, m, {{CJ::Hips, "Skeleton_torso_joint_1"}, {CJ::SpineTop, "torso_joint_3"},
                      {CJ::Neck, "Skeleton_neck_joint_1"}, {CJ::Head, "Skeleton_neck_joint_2"},
                      {CJ::LeftShoulder, "Skeleton_arm_joint_L_4"}, {CJ::LeftElbow, "Skeleton_arm_joint_L_3"},
                      {CJ::LeftWrist, "Skeleton_arm_joint_L_2"}, {CJ::LeftHip, "leg_joint_L_1"},
                      {CJ::LeftKnee, "leg_joint_L_2"}, {CJ::LeftAnkle, "leg_joint_L_3"}});
    EXPECT_NE(m.how[static_cast<size_t>(CJ::Hips)].find("hierarchy"), std::string::npos);
}

TEST(JointMap, AQuadrupedLeavesJointsUnmapped)
{
    const Skeleton s = skeletonOf({{"pelvis_bone", "", Vec3(0, 1, -1)},
                                   {"back", "pelvis_bone", Vec3(0, 1, 0)},
                                   {"skull", "back", Vec3(0, 1.2, 1)},
                                   {"front_paw_a", "back", Vec3(0.3, 0, 0.8)},
                                   {"front_paw_b", "back", Vec3(-0.3, 0, 0.8)},
                                   {"tail", "pelvis_bone", Vec3(0, 1, -2)}});
    const CanonicalJointMap m = mapCanonicalJoints(s);
    EXPECT_GE(m.unmapped().size(), 12u);
    EXPECT_EQ(m.convention, "hierarchy");
}

TEST(JointScore, ErrorsOffsetsAndLabels)
{
    const Skeleton a = humanoid(rigsmithNames);
    Skeleton f = a;
    const CanonicalJointMap m = mapCanonicalJoints(a);
    const int knee = m[CJ::LeftKnee];
    f.bindPositions(knee, 1) -= 0.05; // the fitted left knee 5 cm low
    const JointScores s = scoreJoints(a, m, f, m, 2.0);
    EXPECT_EQ(s.scored, 16);
    EXPECT_NEAR(s.maxPercent, 2.5, 1e-9);
    EXPECT_EQ(s.worst, CJ::LeftKnee);
    EXPECT_NEAR(s.meanPercent, 2.5 / 16, 1e-9);
    EXPECT_NEAR(s.joints[static_cast<size_t>(CJ::LeftKnee)].offsetPercent.y(), -2.5, 1e-9);
    EXPECT_THROW(scoreJoints(a, m, f, m, 0.0), InvalidInput);

    // Labels: end nodes at the hands and feet, the feet swapped.
    CurveSkeleton c;
    c.positions.resize(5, 3);
    c.radii.assign(5, 0.01);
    c.types.assign(5, NodeType::End);
    const auto at = [&](CJ j) { return a.bindPositions.row(m[j]); };
    c.positions.row(0) = at(CJ::Head);
    c.positions.row(1) = at(CJ::LeftWrist);
    c.positions.row(2) = at(CJ::RightWrist);
    c.positions.row(3) = at(CJ::RightAnkle);
    c.positions.row(4) = at(CJ::LeftAnkle);
    EndNodeLabels labels;
    labels.nodes = {0, 1, 2, 3, 4};
    const auto checks = checkEndLabels(c, labels, a, m);
    EXPECT_TRUE(checks[0].right && checks[1].right && checks[2].right);
    EXPECT_FALSE(checks[3].right);
    EXPECT_EQ(checks[3].nearest, CJ::RightAnkle);
    EXPECT_FALSE(checks[4].right);
}

// Issue 39: "five ends right" judged anatomically. (1) A head end at the top of
// a large head is nearer to a raised wrist than to the head joint at the
// skull's base, yet on the head's bones (here a head-top joint): right. (2) A
// file that names its sides as seen from the front (its "left" wrist and
// ankle on the character's right) is judged by the character's own sides.
TEST(JointScore, LabelsAreJudgedByLimbAndByTheCharactersOwnSides)
{
    Skeleton a = humanoid(rigsmithNames);
    // A big head: the head top 0.9 above the skull's base, the right hand raised beside it.
    a.names.push_back("HeadTop");
    a.parents.push_back(static_cast<int>(std::find(a.names.begin(), a.names.end(), "Head") - a.names.begin()));
    a.bindPositions.conservativeResize(a.jointCount() + 1, 3);
    a.bindPositions.row(a.jointCount() - 1) << 0, 2.5, 0;
    const CanonicalJointMap m = mapCanonicalJoints(a);
    const auto at = [&](CJ j) -> Vec3 { return a.bindPositions.row(m[j]).transpose(); };
    CurveSkeleton c;
    c.positions.resize(5, 3);
    c.radii.assign(5, 0.01);
    c.types.assign(5, NodeType::End);
    c.positions.row(0) << 0.1, 2.45, 0; // the top of the head: 0.85 from the head joint
    c.positions.row(1) = at(CJ::LeftWrist).transpose();
    c.positions.row(2) = at(CJ::RightWrist).transpose();
    c.positions.row(3) = at(CJ::LeftAnkle).transpose();
    c.positions.row(4) = at(CJ::RightAnkle).transpose();
    a.bindPositions.row(m[CJ::RightWrist]) << -0.6, 2.2, 0; // raised: 0.7 from the head top
    c.positions.row(2) = a.bindPositions.row(m[CJ::RightWrist]);
    EndNodeLabels labels;
    labels.nodes = {0, 1, 2, 3, 4};
    EXPECT_FALSE(artistSidesMirrored(a, m));
    for (const EndLabelCheck& check : checkEndLabels(c, labels, a, m))
        EXPECT_TRUE(check.right) << limbKey(check.limb) << " nearest " << canonicalJointKey(check.nearest);

    // The same figure facing -Z: its own left is -X, where the file's "Right" joints are.
    const JointScoreOptions back{.up = Vec3::UnitY(), .front = -Vec3::UnitZ()};
    EXPECT_TRUE(artistSidesMirrored(a, m, back));
    EndNodeLabels own = labels; // the character's own left hand and foot are the file's right ones
    own.nodes = {0, 2, 1, 4, 3};
    for (const EndLabelCheck& check : checkEndLabels(c, own, a, swapSides(m)))
        EXPECT_TRUE(check.right) << limbKey(check.limb) << " nearest " << canonicalJointKey(check.nearest);
    EXPECT_FALSE(checkEndLabels(c, labels, a, swapSides(m))[1].right);
    EXPECT_EQ(swapSides(m)[CJ::LeftKnee], m[CJ::RightKnee]);
    EXPECT_EQ(swapSides(m)[CJ::Hips], m[CJ::Hips]);
}

} // namespace
} // namespace rig
