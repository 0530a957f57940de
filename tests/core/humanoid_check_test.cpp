// "This does not look like a humanoid" (issue 21): quadrupeds, machines and a
// BVH clip's bone boxes were rigged as 21-joint humanoids with no notice.
#include "core/rig/humanoid_check.h"

#include "core/project/pipeline.h"
#include "core/project/rig_project.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

namespace rig {
namespace {

const std::string models = RIGSMITH_ASSIMP_MODELS;

/// The check on a file (or "default:POSE"), after the curve skeleton at the default resolution.
HumanoidCheck check(const std::string& spec)
{
    RigProject project;
    GuardedImportOptions inProcess;
    inProcess.isolate = false;
    project.setCharacter(std::make_shared<const LoadedCharacter>(loadCharacter(spec, inProcess)));
    project.setCurveSkeleton(std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(project)));
    const LoadedCharacter& c = *project.character();
    const HumanoidCheck h = checkHumanoid(c.imported.mesh, project.curveSkeleton()->refined, c.imported.info.format);
    std::cout << spec << ": " << (h.looksHumanoid() ? "humanoid" : h.message()) << '\n';
    return h;
}

TEST(HumanoidCheck, TheDefaultCharacterLooksHumanoidInEveryPose)
{
    for (HumanoidPose pose : allHumanoidPoses()) {
        const std::string spec = "default:" + std::string(humanoidPoseName(pose));
        EXPECT_TRUE(check(spec).looksHumanoid()) << spec;
    }
}

TEST(HumanoidCheck, ArtistCharactersLookHumanoid)
{
    const std::string devset = rig::test::sourcePath("../shared/devset/");
    for (const std::string& file : {models + "/X/BCN_Epileptic.X", devset + "re_male.glb", devset + "re_female.glb",
                                    devset + "re_drone.glb", devset + "khr_cesium_man.glb"}) {
        if (!std::filesystem::exists(file)) {
            std::cout << "skipped (missing): " << file << '\n';
            continue;
        }
        EXPECT_TRUE(check(file).looksHumanoid()) << file;
    }
}

// Fingers resolved by a fine curve skeleton are short branches, not limbs:
// at n = 255 mrfixit.iqm's skeleton has 13 ends (2 feet, 3 at the head, 8
// fingertips), which the old bound of 12 ends refused as "not a humanoid".
TEST(HumanoidCheck, FingersResolvedAtAFineResolutionStillLookHumanoid)
{
    const std::string file = models + "/IQM/mrfixit.iqm";
    if (!std::filesystem::exists(file))
        GTEST_SKIP() << "assimp-testmodels is not installed (" << file << ")";
    RigProject project;
    project.setCharacterSpec(file);
    project.setOrientation({.up = "auto", .facing = "auto"});
    CurveSkeletonOptions options = project.curveSkeletonOptions();
    options.voxelize.resolution = 255;
    project.setCurveSkeletonOptions(options);
    runPipeline(project, Stage::Skeleton);
    const LoadedCharacter& c = *project.character();
    const CurveSkeleton& s = project.curveSkeleton()->refined;
    int ends = 0;
    for (NodeType t : s.types)
        ends += t == NodeType::End ? 1 : 0;
    EXPECT_GT(ends, 12) << "the fingers are no longer resolved at n = 255: the test checks nothing";
    const HumanoidCheck h = checkHumanoid(c.imported.mesh, s, c.imported.info.format);
    EXPECT_TRUE(h.looksHumanoid()) << h.message();
}

TEST(HumanoidCheck, QuadrupedsMachinesAndClipsDoNot)
{
    if (!std::filesystem::exists(models + "/X/Testwuson.X"))
        GTEST_SKIP() << "assimp-testmodels is not installed (" << models << ")";
    for (const char* file : {"/X/Testwuson.X", "/PLY/Wuson.ply", "/STL/Spider_binary.stl",
                                   "/glTF/CesiumMilkTruck/CesiumMilkTruck.gltf",
                                   "/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb", "/BVH/01_01.bvh"}) {
        const HumanoidCheck h = check(models + file);
        EXPECT_FALSE(h.looksHumanoid()) << file;
        EXPECT_EQ(h.message().rfind("This does not look like a humanoid (", 0), 0u) << h.message();
    }
}

TEST(HumanoidCheck, TooFewEndsAreExplained)
{
    Mesh flat, line;
    flat.V.resize(4, 3);
    flat.V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.001;
    line.V.resize(3, 3);
    line.V << 0, 0, 0, 0.005, 1, 0, 0, 2, 0.001;
    CurveSkeleton one;
    one.componentCount = 1;
    EXPECT_NE(explainTooFewEnds(flat, one).find("the mesh is flat (its thinnest extent is 0.1% of its largest)"),
              std::string::npos)
        << explainTooFewEnds(flat, one);
    EXPECT_NE(explainTooFewEnds(line, one).find("the mesh is nearly a line"), std::string::npos)
        << explainTooFewEnds(line, one);
    Mesh box;
    box.V.resize(2, 3);
    box.V << 0, 0, 0, 1, 2, 1;
    CurveSkeleton pieces;
    pieces.componentCount = 50;
    EXPECT_NE(explainTooFewEnds(box, pieces).find("the mesh is in 50 separate pieces"), std::string::npos);
    EXPECT_EQ(explainTooFewEnds(box, one), "");
}

TEST(HumanoidCheck, AnUpsideDownFigureIsNamed)
{
    // Ends of a standing figure (head, hands at the hips, feet), then turned over.
    Mesh m;
    m.V.resize(2, 3);
    m.V << -0.5, 0, -0.2, 0.5, 1.8, 0.2;
    CurveSkeleton s;
    s.positions.resize(6, 3);
    s.positions << 0, 1.75, 0, -0.4, 0.9, 0, 0.4, 0.9, 0, -0.1, 0.02, 0, 0.1, 0.02, 0, 0, 1.0, 0;
    s.types = {NodeType::End, NodeType::End, NodeType::End, NodeType::End, NodeType::End, NodeType::Connection};
    EXPECT_FALSE(looksUpsideDown(m, s));
    EXPECT_TRUE(checkHumanoid(m, s).looksHumanoid()) << checkHumanoid(m, s).message();
    s.positions.col(1) = (1.8 - s.positions.col(1).array()).matrix();
    EXPECT_TRUE(looksUpsideDown(m, s));
    EXPECT_NE(checkHumanoid(m, s).message().find("it seems to stand on its head"), std::string::npos);
}

} // namespace
} // namespace rig
