// Regression (issue 22): the CMU clips of assimp-testmodels map onto the
// default character's rig and onto the humanoid21 template exactly as they did
// before the structure-first mapper (recorded from the name/segment mapper of
// issue 7). Any change of a source joint or of a blend weight (to 0.01) fails.
#include "core/motion/retarget.h"

#include "core/character/humanoid.h"
#include "core/motion/bvh_file.h"
#include "core/rig/fit_template.h"
#include "core/rig/template.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#ifndef RIGSMITH_ASSIMP_MODELS
#define RIGSMITH_ASSIMP_MODELS "/usr/share/assimp/models"
#endif

namespace rig {
namespace {

const std::string cmuDir = std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/";

/// One line per target joint: "Target<-Source:0.40+Other:0.60" (or "Target<-" when unmapped).
std::string mappingSummary(const RetargetMapping& m)
{
    std::string out;
    for (size_t i = 0; i < m.joints.size(); ++i) {
        out += m.targetNames[i] + "<-";
        for (size_t k = 0; k < m.joints[i].sources.size(); ++k) {
            const RetargetSource& s = m.joints[i].sources[k];
            char w[32];
            std::snprintf(w, sizeof w, ":%.2f", s.weight);
            out += (k ? "+" : "") + m.sourceNames[static_cast<size_t>(s.joint)] + w;
        }
        out += '\n';
    }
    return out;
}

Skeleton defaultCharacterRig()
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .height = 1.75, .cellSize = 0.05});
    Skeleton k;
    k.names = h.jointNames;
    k.parents = h.jointParents;
    k.bindPositions = h.joints;
    k.bindOrientations.assign(k.names.size(), Eigen::Quaterniond::Identity());
    orientBones(k);
    return k;
}

Skeleton templateRig()
{
    const RigTemplate t = builtinTemplate("humanoid21");
    Skeleton k;
    k.names = t.names;
    k.parents = t.parents;
    k.bindPositions = t.restPositions;
    k.bindOrientations.assign(k.names.size(), Eigen::Quaterniond::Identity());
    orientBones(k);
    return k;
}

struct Case {
    const char* file;
    RetargetRest rest;
};

const Case cases[] = {{"01_01.bvh", RetargetRest::FirstFrame}, {"01_03.bvh", RetargetRest::FirstFrame},
                      {"Boxing_Toes.bvh", RetargetRest::Zero}};

#include "retarget_cmu_mapping_expected.inc"

TEST(RetargetCmuMapping, CmuClipsMapAsBeforeTheStructureMapper)
{
    if (!std::filesystem::exists(cmuDir + "01_01.bvh"))
        GTEST_SKIP() << "assimp-testmodels is not installed (" << cmuDir << ")";
    const Skeleton targets[] = {defaultCharacterRig(), templateRig()};
    int k = 0;
    for (const Case& c : cases)
        for (const Skeleton& target : targets) {
            const Motion clip = readBvh(cmuDir + c.file);
            RetargetOptions o;
            o.rest = c.rest;
            const std::string got = mappingSummary(mapSkeletons(clip, target, o));
            if (std::getenv("RIGSMITH_PRINT_CMU_MAPPING"))
                std::cout << "R\"(" << got << ")\",\n";
            EXPECT_EQ(got, expectedCmuMappings[k]) << c.file << " onto target " << (k % 2 ? "humanoid21" : "default character");
            ++k;
        }
}

} // namespace
} // namespace rig
