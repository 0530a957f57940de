#include "core/skin/weights_gaussian.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/deform/lbs.h"
#include "core/rig/fit_template.h"
#include "core/rig/template.h"
#include "core/skeleton/end_nodes.h"
#include "core/skeleton/extract.h"
#include "core/skin/segmentation.h"

#include "tests/support/meshes.h"

#include "tests/support/skeletons.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <set>

namespace rig {
namespace {

Skeleton chain(const std::vector<Vec3>& points) { return test::chainSkeleton(points); }

/// J joints 0.1 apart along +x.
Skeleton chainAlongX(int J)
{
    std::vector<Vec3> points;
    for (int j = 0; j < J; ++j)
        points.emplace_back(0.1 * j, 0.0, 0.0);
    return chain(points);
}

double gaussian(double x) { return 1.3 * std::exp(-(x - 0.5) * (x - 0.5) / (2 * 0.25 * 0.25)); } // thesis eq. 4.1

/// Max over the mesh's edges of the largest change of one joint's weight.
double maxEdgeJump(const Mesh& mesh, const SkinWeights& w, int joints)
{
    const Eigen::MatrixXd D = denseWeights(w, joints);
    double worst = 0.0;
    for (Eigen::Index f = 0; f < mesh.F.rows(); ++f)
        for (int k = 0; k < 3; ++k)
            worst = std::max(worst, (D.row(mesh.F(f, k)) - D.row(mesh.F(f, (k + 1) % 3))).cwiseAbs().maxCoeff());
    return worst;
}

// A capsule along x around the chain j0 (0) - j1 (0.5) - j2 (1.0), j2 a leaf.
struct Tube {
    Mesh mesh = test::capsuleMesh(Vec3(0, 0, 0), Vec3(1.2, 0, 0), 0.08, 16, 6, 48);
    Skeleton skeleton = chain({Vec3(0, 0, 0), Vec3(0.5, 0, 0), Vec3(1.0, 0, 0)});
    Segmentation seg = segmentMesh(mesh, skeleton, nullptr);
};

const Tube& tube()
{
    static const Tube t;
    return t;
}

TEST(SegmentationWeights, InvalidInputsThrow)
{
    const Tube& t = tube();
    EXPECT_THROW(segmentationWeights(Mesh{}, t.skeleton, Segmentation{}), InvalidInput);
    EXPECT_THROW(segmentationWeights(t.mesh, chain({Vec3::Zero()}), t.seg), InvalidInput);
    Mesh nan = t.mesh;
    nan.V(0, 0) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(segmentationWeights(nan, t.skeleton, t.seg), InvalidInput);
    Segmentation shortSeg = t.seg;
    shortSeg.bone.pop_back();
    shortSeg.delta.pop_back();
    EXPECT_THROW(segmentationWeights(t.mesh, t.skeleton, shortSeg), InvalidInput);
    Segmentation unset = t.seg;
    unset.bone[5] = -1;
    try {
        segmentationWeights(t.mesh, t.skeleton, unset);
        FAIL() << "expected rig::InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("rig::segmentationWeights(): vertex 5"), std::string::npos) << e.what();
    }
    Segmentation outOfRange = t.seg;
    outOfRange.bone[2] = 7;
    EXPECT_THROW(segmentationWeights(t.mesh, t.skeleton, outOfRange), InvalidInput);
    EXPECT_THROW(segmentationWeights(t.mesh, t.skeleton, t.seg, {.c = 0.0}), InvalidInput);
    EXPECT_THROW(segmentationWeights(t.mesh, t.skeleton, t.seg, {.a = -1.0}), InvalidInput);
    EXPECT_THROW(segmentationWeights(t.mesh, t.skeleton, t.seg, {.hierarchyLevel = -1}), InvalidInput);
    EXPECT_THROW(segmentationWeights(t.mesh, t.skeleton, t.seg, {.maxInfluences = 0}), InvalidInput);
}

// Without smoothing the weights are exactly eq. 4.1 normalized by eq. 4.2,
// with the parent one link up (x = δ + 1) and the child one link down (x = δ - 1).
TEST(SegmentationWeights, ThesisGaussianOnAChain)
{
    const Tube& t = tube();
    const SkinWeights w =
        segmentationWeights(t.mesh, t.skeleton, t.seg, {.smoothingIterations = 0, .minRelativeWeight = 1e-3});
    ASSERT_NO_THROW(validateSkinWeights(w, t.mesh.vertexCount(), 3));
    const Eigen::MatrixXd D = denseWeights(w, 3);
    int checked = 0;
    for (int i = 0; i < t.mesh.vertexCount(); ++i) {
        const double x = t.mesh.V(i, 0);
        double e0 = 0.0, e1 = 0.0, e2 = 0.0;
        if (x > 0.0 && x < 0.49) { // link j0 -> j1: main j0, child j1
            const double d = x / 0.5;
            e0 = gaussian(d);
            e1 = gaussian(d - 1.0);
        } else if (x > 0.51 && x < 0.99) { // link j1 -> j2: parent j0, main j1, child j2 (leaf)
            const double d = (x - 0.5) / 0.5;
            e0 = gaussian(d + 1.0);
            e1 = gaussian(d);
            e2 = gaussian(std::min(d - 1.0, 0.5));
        } else {
            continue;
        }
        double sum = e0 + e1 + e2;
        // Entries below 1e-3 of the largest are dropped (minRelativeWeight).
        const double top = std::max({e0, e1, e2});
        for (double* e : {&e0, &e1, &e2})
            if (*e < 1e-3 * top) {
                sum -= *e;
                *e = 0.0;
            }
        EXPECT_NEAR(D(i, 0), e0 / sum, 1e-6) << "x = " << x;
        EXPECT_NEAR(D(i, 1), e1 / sum, 1e-6) << "x = " << x;
        EXPECT_NEAR(D(i, 2), e2 / sum, 1e-6) << "x = " << x;
        ++checked;
    }
    EXPECT_GT(checked, t.mesh.vertexCount() / 2);
    // At the middle joint both sides agree: half and half.
    for (int i = 0; i < t.mesh.vertexCount(); ++i)
        if (std::abs(t.mesh.V(i, 0) - 0.5) < 1e-9) {
            EXPECT_NEAR(D(i, 0), 0.5, 1e-6);
            EXPECT_NEAR(D(i, 1), 0.5, 1e-6);
        }
    // Beyond the leaf j2 its weight takes over.
    for (int i = 0; i < t.mesh.vertexCount(); ++i)
        if (t.mesh.V(i, 0) > 1.15) {
            EXPECT_GT(D(i, 2), 0.99);
        }
}

/// The smoothing sweeps hold a vertex's weights in vectors of four joints,
/// unrolled for the joint counts of the templates (21, 51) and in a loop for
/// any other: a chain of 70 joints (an artist's skeleton has as many) takes
/// that path. Its weights are valid, smoothed across the links' borders, and
/// stay on the joints of the vertex's link and the links beside it (h = 1
/// and the smoothing: at most 3 joints away along the chain; a wrong column
/// stride would mix in joints 4 or more away).
TEST(SegmentationWeights, ALongChainOfJointsIsSmoothedJointByJoint)
{
    const int J = 70;
    const Skeleton skeleton = chainAlongX(J);
    const Mesh mesh = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0.1 * (J - 1) + 0.05, 0, 0), 0.04, 12, 4, 12 * J);
    const Segmentation seg = segmentMesh(mesh, skeleton, nullptr);
    const SkinWeights w = segmentationWeights(mesh, skeleton, seg);
    ASSERT_NO_THROW(validateSkinWeights(w, mesh.vertexCount(), J));
    const Eigen::MatrixXd D = denseWeights(w, J);
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        EXPECT_NEAR(D.row(i).sum(), 1.0, 1e-6);
        for (int j = 0; j < J; ++j)
            if (D(i, j) > 0.0) {
                EXPECT_LE(std::abs(j - seg.bone[static_cast<size_t>(i)]), 3) << "vertex " << i << ", joint " << j;
            }
    }
    const double raw = maxEdgeJump(mesh, segmentationWeights(mesh, skeleton, seg, {.smoothingIterations = 0}), J);
    EXPECT_LT(maxEdgeJump(mesh, w, J), raw);
}

/// The smoothing sweeps run colour by colour of a colouring of the zone (no
/// two neighbours alike), each colour split among the threads: the weights do
/// not depend on the thread count, bit for bit (a zone of ~48k vertices, so
/// that two and four threads each get their share).
TEST(SegmentationWeights, TheSmoothingGivesTheSameWeightsOnAnyNumberOfThreads)
{
    const int J = 40;
    const Skeleton skeleton = chainAlongX(J);
    const Mesh mesh = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0.1 * (J - 1) + 0.05, 0, 0), 0.04, 48, 4, 2000);
    ASSERT_GT(mesh.vertexCount(), 90000);
    const Segmentation seg = segmentMesh(mesh, skeleton, nullptr);
    const SkinWeights one = segmentationWeights(mesh, skeleton, seg, {.threads = 1});
    for (const int threads : {2, 4}) {
        const SkinWeights many = segmentationWeights(mesh, skeleton, seg, {.threads = threads});
        EXPECT_EQ(many.joints, one.joints) << threads << " threads";
        EXPECT_EQ(many.weights, one.weights) << threads << " threads";
    }
}

/// Where two limbs' skin meets (a sheet cut like trousers: the legs' regions
/// border each other along the midline below the crotch), the smoothing
/// sweeps carry one leg's weight across the border; it is handed to the
/// pelvis, never left on the other leg (`redirectedJoints()`, applied in the
/// sweeps as lane masks).
TEST(SegmentationWeights, SmoothingHandsAnotherLimbsWeightToTheirCommonAncestor)
{
    // 0 pelvis; left leg 1 hip - 2 knee - 3 ankle; right leg 4 - 5 - 6.
    const Skeleton skeleton = test::treeSkeleton(
        {-1, 0, 1, 2, 0, 4, 5}, {Vec3(0, 1.5, 0), Vec3(-0.4, 1.2, 0), Vec3(-0.4, 0.6, 0), Vec3(-0.4, 0.0, 0),
                                 Vec3(0.4, 1.2, 0), Vec3(0.4, 0.6, 0), Vec3(0.4, 0.0, 0)});
    const int n = 41;
    Mesh mesh;
    mesh.V.resize(n * n, 3);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            mesh.V.row(y * n + x) << -1.0 + 2.0 * x / (n - 1), 2.0 * y / (n - 1), 0.0;
    mesh.F.resize(2 * (n - 1) * (n - 1), 3);
    for (int y = 0, f = 0; y + 1 < n; ++y)
        for (int x = 0; x + 1 < n; ++x, f += 2) {
            const int a = y * n + x;
            mesh.F.row(f) << a, a + 1, a + n + 1;
            mesh.F.row(f + 1) << a, a + n + 1, a + n;
        }
    const Segmentation seg = segmentMesh(mesh, skeleton, nullptr);
    const SkinWeights w = segmentationWeights(mesh, skeleton, seg);
    ASSERT_NO_THROW(validateSkinWeights(w, mesh.vertexCount(), 7));
    const Eigen::MatrixXd D = denseWeights(w, 7);
    const Eigen::MatrixXd raw = denseWeights(segmentationWeights(mesh, skeleton, seg, {.smoothingIterations = 0}), 7);
    int legVertices = 0, smoothed = 0;
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        const int bone = seg.bone[static_cast<size_t>(i)];
        if (bone != 2 && bone != 3 && bone != 5 && bone != 6)
            continue; // a leg's lower links: the main joint is on the leg
        ++legVertices;
        const bool left = bone <= 3;
        for (int j : left ? std::vector<int>{4, 5, 6} : std::vector<int>{1, 2, 3})
            EXPECT_EQ(D(i, j), 0.0) << (left ? "left" : "right") << " leg vertex " << i << " at x = "
                                    << mesh.V(i, 0) << ", y = " << mesh.V(i, 1) << " has weight from joint " << j;
        smoothed += (D.row(i) - raw.row(i)).cwiseAbs().maxCoeff() > 0.01 ? 1 : 0;
    }
    EXPECT_GT(legVertices, n * n / 4);
    EXPECT_GT(smoothed, n); // the sweeps did reach the legs' border
}

/// Where links fan out of a trunk joint, a sibling limb's link can lean
/// towards the vertex's own limb: re_drone's upper arms rise 50° from the
/// chest, towards the head. A head vertex's δ' on such a link is not small,
/// and before the fix it took about a tenth of each upper arm's weight (94
/// head vertices of re_drone, 0.13 each). Skin on a limb takes weight only
/// from its own limb and the trunk.
TEST(SegmentationWeights, SkinOnALimbTakesNoWeightFromASiblingLimbLeaningTowardsIt)
{
    // Hips 0 (trunk) - spine 1 - chest 2 -> head 3 (leaf), arms 4-5 and 6-7 rising
    // 50° from the chest; legs 8-9, 10-11. The chest's three children head limbs.
    const Skeleton s = test::treeSkeleton(
        {-1, 0, 1, 2, 2, 4, 2, 6, 0, 8, 0, 10},
        {Vec3(0, 1.0, 0), Vec3(0, 1.2, 0), Vec3(0, 1.4, 0), Vec3(0, 1.6, 0), Vec3(0.15, 1.58, 0),
         Vec3(0.45, 1.58, 0), Vec3(-0.15, 1.58, 0), Vec3(-0.45, 1.58, 0), Vec3(0.1, 0.95, 0), Vec3(0.1, 0.5, 0),
         Vec3(-0.1, 0.95, 0), Vec3(-0.1, 0.5, 0)});
    Mesh mesh;
    mesh.V.resize(2, 3);
    mesh.V << 0.08, 1.75, 0.0, // above the head joint, a little to the left
        -0.08, 1.75, 0.0;
    Segmentation seg;
    seg.bone = {3, 3}; // the head's link (chest -> head), beyond its end
    seg.delta = {1.0, 1.0};
    const SkinWeights w = segmentationWeights(mesh, s, seg);
    const Eigen::MatrixXd D = denseWeights(w, s.jointCount());
    for (int i = 0; i < 2; ++i) {
        EXPECT_GT(D(i, 3), 0.9) << "vertex " << i << " follows the head";
        for (const int arm : {4, 5, 6, 7})
            EXPECT_EQ(D(i, arm), 0.0) << "vertex " << i << " joint " << arm;
    }
}

TEST(SegmentationWeights, HierarchyLevelAndFunctions)
{
    const Tube& t = tube();
    const SkinWeights rigid = segmentationWeights(t.mesh, t.skeleton, t.seg, {.hierarchyLevel = 0, .smoothingIterations = 0});
    ASSERT_NO_THROW(validateSkinWeights(rigid, t.mesh.vertexCount(), 3));
    for (int i = 0; i < t.mesh.vertexCount(); ++i)
        EXPECT_EQ(rigid.weights(i, 0), 1.0f);
    for (WeightFunction f : {WeightFunction::Gaussian, WeightFunction::Linear, WeightFunction::Smoothstep}) {
        const SkinWeights w = segmentationWeights(t.mesh, t.skeleton, t.seg, {.function = f, .maxInfluences = 2});
        ASSERT_NO_THROW(validateSkinWeights(w, t.mesh.vertexCount(), 3));
        EXPECT_EQ(w.maxInfluences, 2);
        // The middle joint's weight rises monotonically towards it along the tube.
        const Eigen::MatrixXd D = denseWeights(w, 3);
        std::vector<std::pair<double, double>> profile;
        for (int i = 0; i < t.mesh.vertexCount(); ++i)
            if (t.mesh.V(i, 0) > 0.3 && t.mesh.V(i, 0) < 0.75)
                profile.emplace_back(t.mesh.V(i, 0), D(i, 1));
        std::sort(profile.begin(), profile.end());
        for (size_t k = 1; k < profile.size(); ++k)
            EXPECT_GE(profile[k].second, profile[k - 1].second - 1e-3) << "x = " << profile[k].first;
        EXPECT_LT(maxEdgeJump(t.mesh, w, 3), 0.2);
    }
}

// ---- The bundled character with its fitted rig ------------------------------

struct Rigged {
    Humanoid humanoid;
    VoxelGrid solid;
    Skeleton rig;
    Segmentation seg;
};

const Rigged& rigged(HumanoidPose pose)
{
    static std::mutex mutex;
    static std::map<HumanoidPose, Rigged> cache;
    const std::lock_guard lock(mutex);
    auto it = cache.find(pose);
    if (it == cache.end()) {
        Rigged r;
        r.humanoid = generateHumanoid({.pose = pose});
        const CurveSkeletonResult cs = extractCurveSkeleton(r.humanoid.mesh);
        r.rig = fitTemplate(cs.refined, suggestEndNodeLabels(cs.refined), builtinTemplate("humanoid21")).skeleton;
        r.seg = segmentMesh(r.humanoid.mesh, r.rig, &cs.solid);
        r.solid = cs.solid;
        it = cache.emplace(pose, std::move(r)).first;
    }
    return it->second;
}

/// Joints of each limb, by name.
const std::map<std::string, std::set<std::string>>& limbJoints()
{
    static const std::map<std::string, std::set<std::string>> m = {
        {"LeftArm", {"LeftArm", "LeftForeArm", "LeftHand"}},
        {"RightArm", {"RightArm", "RightForeArm", "RightHand"}},
        {"LeftLeg", {"LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase"}},
        {"RightLeg", {"RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"}},
        {"Head", {"Head"}},
    };
    return m;
}

std::string partLimb(BodyPart p)
{
    switch (p) {
    case BodyPart::LeftUpperArm: case BodyPart::LeftForearm: case BodyPart::LeftHand: return "LeftArm";
    case BodyPart::RightUpperArm: case BodyPart::RightForearm: case BodyPart::RightHand: return "RightArm";
    case BodyPart::LeftThigh: case BodyPart::LeftShin: case BodyPart::LeftFoot: return "LeftLeg";
    case BodyPart::RightThigh: case BodyPart::RightShin: case BodyPart::RightFoot: return "RightLeg";
    case BodyPart::Head: return "Head";
    default: return "Trunk";
    }
}

class WeightsHumanoid : public ::testing::TestWithParam<HumanoidPose> {};

TEST_P(WeightsHumanoid, ValidNoBleedAndContinuous)
{
    const Rigged& r = rigged(GetParam());
    const Mesh& mesh = r.humanoid.mesh;
    const int J = r.rig.jointCount();
    const SkinWeights w = segmentationWeights(mesh, r.rig, r.seg);
    ASSERT_NO_THROW(validateSkinWeights(w, mesh.vertexCount(), J));
    EXPECT_EQ(w.maxInfluences, 4);
    const Eigen::MatrixXd D = denseWeights(w, J);
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        EXPECT_NEAR(D.row(i).sum(), 1.0, 1e-6);
        EXPECT_GE(D.row(i).minCoeff(), 0.0);
    }
    // No vertex of one limb carries weight from a bone of another limb
    // (left arm, right arm, left leg, right leg, head).
    int bleeding = 0;
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        const std::string limb = partLimb(static_cast<BodyPart>(r.humanoid.vertexPart[static_cast<size_t>(i)]));
        if (limb == "Trunk")
            continue;
        for (const auto& [other, joints] : limbJoints()) {
            if (other == limb)
                continue;
            for (const std::string& j : joints)
                if (D(i, *r.rig.find(j)) > 0.0) {
                    if (++bleeding < 5)
                        ADD_FAILURE() << limb << " vertex " << i << " has weight " << D(i, *r.rig.find(j)) << " from " << j;
                }
        }
    }
    EXPECT_EQ(bleeding, 0);
    // Nor does an arm reach the far side of the torso.
    const double midX = r.rig.bindPositions(0, 0);
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        if (partLimb(static_cast<BodyPart>(r.humanoid.vertexPart[static_cast<size_t>(i)])) != "Trunk")
            continue;
        const double x = mesh.V(i, 0) - midX;
        for (const std::string& j : limbJoints().at(x < 0.0 ? "LeftArm" : "RightArm")) {
            if (std::abs(x) > 0.06) {
                EXPECT_EQ(D(i, *r.rig.find(j)), 0.0) << "vertex " << i;
            }
        }
    }
    // Continuity: no crease between neighbouring vertices.
    const double jump = maxEdgeJump(mesh, w, J);
    const double raw = maxEdgeJump(mesh, segmentationWeights(mesh, r.rig, r.seg, {.smoothingIterations = 0}), J);
    std::cout << "[ weights  ] " << humanoidPoseName(GetParam()) << ": max weight jump along an edge " << jump
              << " (without smoothing " << raw << ")\n";
    EXPECT_LT(jump, 0.25);
    // The rest pose deforms to itself.
    const std::vector<Eigen::Isometry3d> identity(static_cast<size_t>(J), Eigen::Isometry3d::Identity());
    const DeformedMesh rest = lbs(mesh.V, MatrixX3d(), w, identity);
    EXPECT_LT((rest.V - mesh.V).cwiseAbs().maxCoeff(), 1e-5);
}

// The character cut open at the neck (a band of triangles removed: the head
// becomes a separate, open part) with two separate eyeballs: every vertex
// still gets valid weights, the head and the eyes follow the head.
TEST(SegmentationWeights, OpenNeckAndSeparateEyes)
{
    const Rigged& r = rigged(HumanoidPose::A);
    const Humanoid& h = r.humanoid;
    const Skeleton& rig = r.rig;
    Mesh cut = h.mesh;
    std::vector<Eigen::Vector3i> kept;
    for (Eigen::Index f = 0; f < cut.F.rows(); ++f) {
        double y = 0.0;
        for (int k = 0; k < 3; ++k)
            y += cut.V(cut.F(f, k), 1) / 3.0;
        if (y < 1.47 || y > 1.49)
            kept.emplace_back(cut.F.row(f).transpose());
    }
    ASSERT_LT(static_cast<Eigen::Index>(kept.size()), cut.F.rows());
    cut.F.resize(static_cast<Eigen::Index>(kept.size()), 3);
    for (size_t f = 0; f < kept.size(); ++f)
        cut.F.row(static_cast<Eigen::Index>(f)) = kept[f].transpose();
    const Vec3 head = h.joints.row(jointIndex(HumanoidJoint::Head)).transpose();
    const Mesh eyeL = test::capsuleMesh(head + Vec3(0.03, 0.1, 0.07), head + Vec3(0.031, 0.1, 0.07), 0.012, 12, 4, 1);
    const Mesh eyeR = test::capsuleMesh(head + Vec3(-0.03, 0.1, 0.07), head + Vec3(-0.031, 0.1, 0.07), 0.012, 12, 4, 1);
    const Mesh all = test::concat({cut, eyeL, eyeR});
    const Segmentation seg = segmentMesh(all, rig, &r.solid);
    const SkinWeights w = segmentationWeights(all, rig, seg);
    ASSERT_NO_THROW(validateSkinWeights(w, all.vertexCount(), rig.jointCount()));
    const int headJoint = *rig.find("Head"), neckJoint = *rig.find("Neck");
    for (int i = 0; i < all.vertexCount(); ++i) {
        const bool eye = i >= cut.vertexCount();
        const bool top = all.V(i, 1) > 1.62;
        if (eye || top) { // the eyes and the top of the head follow the head (and the neck)
            float hw = 0.0f;
            for (int k = 0; k < w.maxInfluences; ++k)
                if (w.joints(i, k) == headJoint || w.joints(i, k) == neckJoint)
                    hw += w.weights(i, k);
            EXPECT_GT(hw, 0.99f) << "vertex " << i << (eye ? " (eye)" : "");
        }
    }
}

INSTANTIATE_TEST_SUITE_P(TAndA, WeightsHumanoid, ::testing::Values(HumanoidPose::T, HumanoidPose::A),
                         [](const ::testing::TestParamInfo<HumanoidPose>& info) {
                             return std::string(humanoidPoseName(info.param));
                         });

} // namespace
} // namespace rig
