#include "core/rig/joint_names.h"

#include <gtest/gtest.h>

namespace rig {
namespace {

TEST(JointNames, SplitsTheUsualSpellings)
{
    EXPECT_EQ(jointNameWords("mixamorig:LeftUpLeg"), (std::vector<std::string>{"left", "up", "leg"}));
    EXPECT_EQ(jointNameWords("Bip01 L UpperArm"), (std::vector<std::string>{"bip", "01", "l", "upper", "arm"}));
    EXPECT_EQ(jointNameWords("upperarm_l"), (std::vector<std::string>{"upperarm", "l"}));
    EXPECT_EQ(jointNameWords("LHipJoint"), (std::vector<std::string>{"l", "hip", "joint"}));
}

TEST(JointNames, PartAndSideOfRigAndMocapNames)
{
    struct Case {
        const char* name;
        JointPart part;
        JointSide side;
    };
    for (const Case& c : {Case{"mixamorig:LeftUpLeg", JointPart::Thigh, JointSide::Left},
                          Case{"Bip01 R Forearm", JointPart::ForeArm, JointSide::Right},
                          Case{"upperarm_l", JointPart::UpperArm, JointSide::Left},
                          Case{"rightfoot", JointPart::Foot, JointSide::Right},
                          Case{"LeftHip", JointPart::Thigh, JointSide::Left}, // Biovision: the thigh
                          Case{"Hips", JointPart::Hips, JointSide::None},
                          Case{"Head", JointPart::Head, JointSide::None},
                          Case{"Tail3", JointPart::None, JointSide::None}}) {
        const JointNameRole r = jointNameRole(c.name);
        EXPECT_EQ(r.part, c.part) << c.name;
        EXPECT_EQ(r.side, c.side) << c.name;
    }
}

TEST(JointNames, ShoulderIsTheUpperArmBesideACollar)
{
    const auto withCollar = jointNameRoles({"LeftCollar", "LeftShoulder", "RightShoulder"});
    EXPECT_EQ(withCollar[0].part, JointPart::Clavicle);
    EXPECT_EQ(withCollar[1].part, JointPart::UpperArm) << "Biovision: Collar then Shoulder";
    EXPECT_EQ(withCollar[2].part, JointPart::Clavicle) << "no collar on the right: the shoulder is the clavicle";
    EXPECT_TRUE(sameJointRole(jointNameRole("LeftForeArm"), jointNameRole("forearm_l")));
    EXPECT_FALSE(sameJointRole(jointNameRole("LeftForeArm"), jointNameRole("RightForeArm")));
    EXPECT_FALSE(sameJointRole(jointNameRole("Tail"), jointNameRole("Tail")));
}

} // namespace
} // namespace rig
