// The retargeting measure (issue 22) scores an exact reproduction as zero:
// the devset drone's own clip retargeted onto its own skeleton, deformed with
// its own weights, is the artist's deformation.
#include "core/eval/retarget_eval.h"

#include "core/common/error.h"
#include "core/import/mesh_import.h"
#include "core/motion/clip_file.h"
#include "core/project/rig_project.h"
#include "core/skin/skin_weights.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace rig {
namespace {

TEST(RetargetEval, ItsOwnClipOnItsOwnSkeletonScoresZero)
{
    const std::string file = rig::test::sourcePath("../shared/devset/re_drone.glb");
    if (!std::filesystem::exists(file))
        GTEST_SKIP() << "the devset is absent (" << file << "): the retargeting measure is not checked on it";
    const ImportedCharacter c = importCharacter(file);
    ASSERT_TRUE(c.skeleton.has_value());
    const ImportedSkeleton& s = *c.skeleton;
    const FitResult artist = rigFromImportedSkeleton(s);
    const SkinWeights weights = skinWeightsFromSparse(Eigen::SparseMatrix<double>(s.W), 4);
    const CanonicalJointMap map = mapCanonicalJoints(artist.skeleton);
    const Motion clip = motionFromAnimation(s, 0, "drone");
    RetargetOptions o;
    o.rootHeightFromGround = false;
    o.keepFeetOnGround = false;
    o.scaleTranslation = false;
    const RetargetedClip r = retargetClip(clip, artist.skeleton, o);
    const double height = c.mesh.V.col(1).maxCoeff() - c.mesh.V.col(1).minCoeff();
    const RetargetEvaluation e = evaluateRetarget({&c.mesh.V, &s, 0, &map}, {&artist.skeleton, &weights, &map, &r}, height);
    EXPECT_LT(e.mean.raw, 0.05 * e.mean.unposedRaw) << e.mean.raw << "% vs unposed " << e.mean.unposedRaw << "%";
    EXPECT_LT(e.alignedRatio(), 0.05);
    EXPECT_LT(e.meanBoneDegrees, 0.5);
    EXPECT_GT(e.mean.unposedAligned, 1.0); // the clip does move the mesh
    EXPECT_THROW(evaluateRetarget({&c.mesh.V, &s, 5, &map}, {&artist.skeleton, &weights, &map, &r}, height), InvalidInput);
}

// A clip that does not move the character has no ratio (not 828,592).
TEST(RetargetEval, AStillClipHasNoRatio)
{
    RetargetEvaluation e;
    e.mean.raw = 40.0;
    e.mean.aligned = 20.0;
    e.mean.unposedRaw = 1e-7;
    e.mean.unposedAligned = 0.0;
    EXPECT_TRUE(std::isnan(e.rawRatio()));
    EXPECT_TRUE(std::isnan(e.alignedRatio()));
    e.mean.unposedRaw = 10.0;
    e.mean.unposedAligned = 5.0;
    EXPECT_DOUBLE_EQ(e.rawRatio(), 4.0);
    EXPECT_DOUBLE_EQ(e.alignedRatio(), 4.0);
}

} // namespace
} // namespace rig
