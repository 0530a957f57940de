// Naming presets for an exported rig (issue 45): the engines' names, unique,
// ours kept where a preset has none.
#include "core/rig/bone_names.h"

#include "core/common/error.h"
#include "core/rig/template.h"
#include "tests/support/skeletons.h"

#include <gtest/gtest.h>

#include <set>

namespace rig {
namespace {

Skeleton templateSkeleton(const std::string& name)
{
    return test::restSkeleton(builtinTemplate(name));
}

TEST(BoneNames, EveryPresetNamesEveryJointOfTheHumanoidTemplatesUniquely)
{
    const Skeleton ours = templateSkeleton("humanoid51");
    for (const std::string& preset : boneNamePresets()) {
        const Skeleton named = withBoneNames(ours, preset);
        ASSERT_EQ(named.names.size(), ours.names.size()) << preset;
        EXPECT_EQ(std::set<std::string>(named.names.begin(), named.names.end()).size(), named.names.size()) << preset;
        EXPECT_EQ(named.parents, ours.parents) << preset; // only names change
        for (size_t j = 0; j < ours.names.size(); ++j) {
            EXPECT_EQ(named.names[j], presetBoneName(preset, ours.names[j])) << preset; // no clash forced ours
            // Unity's names coincide with ours for some joints ("Hips", "LeftHand"); the others rename all.
            if (preset != "rigsmith" && preset != "unity") {
                EXPECT_NE(named.names[j], ours.names[j]) << preset << ": " << ours.names[j] << " kept";
            }
        }
    }
}

TEST(BoneNames, TheEnginesNames)
{
    EXPECT_EQ(presetBoneName("rigsmith", "LeftForeArm"), "LeftForeArm");
    EXPECT_EQ(presetBoneName("mixamo", "LeftForeArm"), "mixamorig:LeftForeArm");
    EXPECT_EQ(presetBoneName("unity", "Spine1"), "Chest");
    EXPECT_EQ(presetBoneName("unity", "RightToeBase"), "RightToes");
    EXPECT_EQ(presetBoneName("unity", "LeftHandPinky3"), "LeftLittleDistal");
    EXPECT_EQ(presetBoneName("unreal", "Hips"), "pelvis");
    EXPECT_EQ(presetBoneName("unreal", "LeftShoulder"), "clavicle_l");
    EXPECT_EQ(presetBoneName("unreal", "RightUpLeg"), "thigh_r");
    EXPECT_EQ(presetBoneName("unreal", "RightHandIndex2"), "index_02_r");
    EXPECT_EQ(presetBoneName("vrm", "LeftArm"), "leftUpperArm");
    EXPECT_EQ(presetBoneName("vrm", "RightHandThumb1"), "rightThumbMetacarpal");
    EXPECT_EQ(presetBoneName("vrm", "LeftHandMiddle2"), "leftMiddleIntermediate");
}

TEST(BoneNames, JointsAPresetHasNoNameForKeepOurs)
{
    for (const std::string preset : {"unity", "unreal", "vrm"}) {
        EXPECT_EQ(presetBoneName(preset, "Tail1"), "Tail1") << preset;
        EXPECT_EQ(presetBoneName(preset, "HandIndex1"), "HandIndex1") << preset; // no side
        EXPECT_EQ(presetBoneName(preset, "LeftHandIndex4"), "LeftHandIndex4") << preset;
    }
    // A preset name another joint already has: ours stays, names stay unique.
    Skeleton s = templateSkeleton("humanoid21");
    s.names[static_cast<size_t>(*s.find("Neck"))] = "pelvis";
    const Skeleton named = withBoneNames(s, "unreal");
    EXPECT_EQ(named.names[static_cast<size_t>(*s.find("Hips"))], "Hips");
    EXPECT_EQ(std::set<std::string>(named.names.begin(), named.names.end()).size(), named.names.size());
}

TEST(BoneNames, AnUnknownPresetIsRefusedWithTheList)
{
    try {
        withBoneNames(templateSkeleton("humanoid21"), "blender");
        FAIL() << "no error";
    } catch (const InvalidInput& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("'blender'"), std::string::npos) << m;
        EXPECT_NE(m.find("rigsmith, mixamo, unity, unreal, vrm"), std::string::npos) << m;
    }
}

} // namespace
} // namespace rig
