// Weight methods on the artists' characters (../shared/devset, and
// assimp-testmodels' rigged humanoid): the artist's own skeleton, each
// method's weights against the artist's. Skipped, with a message, where the
// files are absent (a user's clone has no ../shared).
#include "core/eval/weight_compare.h"
#include "core/import/animation_poses.h"
#include "core/import/mesh_import.h"
#include "core/project/rig_project.h"
#include "core/skin/segmentation.h"
#include "core/skin/skinning.h"
#include "core/skin/weights_gaussian.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"
#include "tests/support/source_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#ifndef RIGSMITH_ASSIMP_MODELS
#define RIGSMITH_ASSIMP_MODELS "/usr/share/assimp/models"
#endif

namespace rig {
namespace {

const std::string devset = rig::test::sourcePath("../shared/devset/");

/// Influences of weight >= 0.05 per vertex, and the mean largest weight.
struct Spread {
    double influences = 0.0;
    double largest = 0.0;
};

Spread spreadOf(const Eigen::SparseMatrix<double, Eigen::RowMajor>& W)
{
    Spread s;
    for (Eigen::Index i = 0; i < W.rows(); ++i) {
        double top = 0.0;
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(W, i); it; ++it) {
            s.influences += it.value() >= 0.05 ? 1.0 : 0.0;
            top = std::max(top, it.value());
        }
        s.largest += top;
    }
    s.influences /= static_cast<double>(W.rows());
    s.largest /= static_cast<double>(W.rows());
    return s;
}

Eigen::SparseMatrix<double, Eigen::RowMajor> sparseOf(const SkinWeights& w, int joints)
{
    Eigen::SparseMatrix<double, Eigen::RowMajor> S(w.vertexCount(), joints);
    std::vector<Eigen::Triplet<double>> t;
    for (int i = 0; i < w.vertexCount(); ++i)
        for (int k = 0; k < w.maxInfluences; ++k)
            if (w.weights(i, k) > 0.0f)
                t.emplace_back(i, w.joints(i, k), w.weights(i, k));
    S.setFromTriplets(t.begin(), t.end());
    return S;
}

/// Calls `test` on each devset character present with its imported data and the
/// artist's skeleton (a missing file is named and skipped); returns how many ran.
int forEachArtistCharacter(
    const std::function<void(const std::string&, const ImportedCharacter&, const Skeleton&)>& test)
{
    int tested = 0;
    for (const std::string name : {"re_male", "re_female", "re_drone", "khr_cesium_man"}) {
        const std::string file = devset + name + ".glb";
        if (!std::filesystem::exists(file)) {
            std::cout << "skipped (missing): " << file << '\n';
            continue;
        }
        SCOPED_TRACE(name);
        const ImportedCharacter c = importCharacter(file);
        EXPECT_TRUE(c.skeleton) << name << " has no skeleton";
        if (!c.skeleton)
            continue;
        test(name, c, rigFromImportedSkeleton(*c.skeleton).skeleton);
        ++tested;
    }
    return tested;
}

// The thesis's weights (Alg. 4.2.1) on the artists' skeletons, deformed with
// them over the files' animations, stay near the artists': before the
// smoothing band was set in metres they smeared (3.1-3.4 influences of 0.05
// or more per vertex on the players and the drone, the artists 2.1 and 1.3;
// largest weight 0.55-0.57, the artists 0.79 and 0.87) and moved vertices by
// 1.2-2.3% of the height on average, up to 17-28% (`rigsmith evaluate`).
// The mean is held to the target for the default, 0.8%: re_drone
// measured 0.92% while the smoothing took 2 sweeps on every coarse mesh
// (2.96 influences per vertex, the artist 1.29); 0.66% with g² sweeps.
TEST(ArtistWeights, TheGaussianMethodDeformsLikeTheArtists)
{
    const int tested = forEachArtistCharacter([](const std::string& name, const ImportedCharacter& c, const Skeleton& s) {
        const Segmentation seg = segmentMesh(c.mesh, s, nullptr);
        const SkinWeights w = segmentationWeights(c.mesh, s, seg);
        const Spread ours = spreadOf(sparseOf(w, s.jointCount()));
        const Spread artist = spreadOf(c.skeleton->W);
        std::cout << "[ artist   ] " << name << ": influences >= 0.05 per vertex " << ours.influences << " (artist "
                  << artist.influences << "), largest weight " << ours.largest << " (artist " << artist.largest << ")\n";
        std::vector<std::vector<Eigen::Affine3d>> frames;
        for (const ImportedAnimation& a : c.skeleton->animations)
            if (a.frameCount() >= 2) {
                auto f = animationSkinning(*c.skeleton, a, 200);
                frames.insert(frames.end(), f.begin(), f.end());
            }
        const WeightComparison r =
            compareWeightsAnimated(c.mesh, s, w, c.skeleton->W, std::span<const std::vector<Eigen::Affine3d>>(frames));
        std::cout << "[ artist   ] " << name << ": mean / max deformation distance " << r.meanDistancePercent << " / "
                  << r.maxDistancePercent << " % of height over " << frames.size() << " frames\n";
        EXPECT_LE(r.meanDistancePercent, 0.8); // issue 15: the default's target
        EXPECT_LT(r.maxDistancePercent, 12.0);
    });
    if (tested == 0)
        GTEST_SKIP() << "the devset is absent (" << devset << ")";
}

// The weights report's far-reach test is calibrated on the artists: their
// own weights reach (almost) no vertex far from a bone.
TEST(ArtistWeights, ArtistsWeightsReachNoFarVertex)
{
    const int tested = forEachArtistCharacter([](const std::string& name, const ImportedCharacter& c, const Skeleton& s) {
        const SkinWeights artist = skinWeightsFromReference(c.skeleton->W);
        const Vec3 extent = (c.mesh.V.colwise().maxCoeff() - c.mesh.V.colwise().minCoeff()).transpose();
        int reached = 0;
        farReachingJoints(artist, c.mesh.V, s, extent.maxCoeff(), &reached);
        std::cout << "[ artist   ] " << name << ": " << reached << " of " << c.mesh.vertexCount()
                  << " vertices reached from afar by the artist's weights\n";
        EXPECT_LE(reached, c.mesh.vertexCount() / 200);
    });
    if (tested == 0)
        GTEST_SKIP() << "the devset is absent (" << devset << ")";
}

// BCN_Epileptic (assimp-testmodels) rests its left hand on its thigh. Through
// the solid the fingers' bones are nearer to that thigh skin than the thigh's
// own bone, and bone heat and geodesic voxel binding weighted 12 thigh and
// pelvis vertices to the hand (the artist: B_Hip_Left, B_LowerPelvis): the
// seizure clip dragged them along with the hand, 61 % of the height at worst.
// The segmentation puts them on the leg, and the leg's vertices now take no
// weight from another limb (mean deformation error heat 0.347 -> 0.246 %,
// geodesic voxel 0.338 -> 0.167 %; max 61 -> 9.4 and 18 %).
TEST(ArtistWeights, AHandRestingOnTheThighDoesNotTakeTheThigh)
{
    const std::string file = std::string(RIGSMITH_ASSIMP_MODELS) + "/X/BCN_Epileptic.X";
    if (!std::filesystem::exists(file))
        GTEST_SKIP() << "assimp-testmodels is not installed (" << file << ")";
    const ImportedCharacter c = importCharacter(file);
    ASSERT_TRUE(c.skeleton);
    const Skeleton s = rigFromImportedSkeleton(*c.skeleton).skeleton;
    int hand = -1;
    for (int j = 0; j < s.jointCount(); ++j)
        if (s.names[static_cast<size_t>(j)] == "B_Hand_Left")
            hand = j;
    ASSERT_GE(hand, 0);
    std::vector<bool> inHand(static_cast<size_t>(s.jointCount()), false); // the hand and its fingers
    for (int j = 0; j < s.jointCount(); ++j)
        for (int k = j; k >= 0 && !inHand[static_cast<size_t>(j)]; k = s.parents[static_cast<size_t>(k)])
            inHand[static_cast<size_t>(j)] = k == hand;
    // The thigh and pelvis vertices the artist weights to the leg or the pelvis.
    std::vector<int> thigh;
    for (Eigen::Index i = 0; i < c.skeleton->W.rows(); ++i) {
        double leg = 0.0;
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(c.skeleton->W, i); it; ++it)
            if (s.names[static_cast<size_t>(it.col())] == "B_Hip_Left" || s.names[static_cast<size_t>(it.col())] == "B_LowerPelvis")
                leg += it.value();
        if (leg >= 0.5)
            thigh.push_back(static_cast<int>(i));
    }
    ASSERT_GT(thigh.size(), 50u);
    VoxelizeOptions vo;
    vo.resolution = 155;
    const VoxelGrid solid = fillInterior(voxelizeSurface(c.mesh, vo), c.mesh).grid;
    for (const char* method : {"heat", "geodesic-voxel"}) {
        SCOPED_TRACE(method);
        WeightOptions o;
        o.method = method;
        const SkinWeights w = computeSkinning(c.mesh, s, &solid, o).weights;
        int dragged = 0;
        for (int i : thigh) {
            double fromHand = 0.0;
            for (int k = 0; k < w.maxInfluences; ++k)
                if (const int j = w.joints(i, k); j >= 0 && inHand[static_cast<size_t>(j)])
                    fromHand += w.weights(i, k);
            dragged += fromHand >= 0.5 ? 1 : 0;
        }
        std::cout << "[ artist   ] BCN_Epileptic, " << method << ": " << dragged << " of " << thigh.size()
                  << " thigh and pelvis vertices weighted mostly to the left hand\n";
        EXPECT_EQ(dragged, 0);
    }
}

} // namespace
} // namespace rig
