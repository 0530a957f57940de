#include "core/skin/weights_heat.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/mesh/laplacian.h"
#include "core/rig/fit_template.h"
#include "core/voxel/fill.h"
#include "core/voxel/voxelize.h"

#include "tests/support/meshes.h"

#include <Eigen/SparseCholesky>
#include "tests/support/skeletons.h"

#include "tests/support/weight_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>

namespace rig {
namespace {

/// A chain of joints at the given positions (parents[i] = i - 1), oriented.
Skeleton chain(const std::vector<Vec3>& points) { return test::chainSkeleton(points, true); }

using test::groundTruthSkeleton;

VoxelGrid solidOf(const Mesh& mesh, int resolution)
{
    VoxelizeOptions v;
    v.resolution = resolution;
    return fillInterior(voxelizeSurface(mesh, v), mesh).grid;
}

double weightOf(const SkinWeights& w, int vertex, int joint)
{
    for (int s = 0; s < w.maxInfluences; ++s)
        if (w.joints(vertex, s) == joint)
            return w.weights(vertex, s);
    return 0.0;
}

void expectValid(const SkinWeights& w, int vertices, int joints) { test::expectValidWeights(w, vertices, joints); }

TEST(HeatWeights, InvalidInputsAreRejectedFirst)
{
    const Mesh bar = test::capsuleMesh(Vec3(0, 0, 0), Vec3(2, 0, 0), 0.2, 12, 4, 8);
    const Skeleton s = chain({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)});
    EXPECT_THROW(boneHeatWeights(Mesh{}, s, nullptr), InvalidInput);
    EXPECT_THROW(boneHeatWeights(bar, Skeleton{}, nullptr), InvalidInput);
    Mesh nan = bar;
    nan.V(3, 1) = std::nan("");
    EXPECT_THROW(boneHeatWeights(nan, s, nullptr), InvalidInput);
    Mesh badIndex = bar;
    badIndex.F(0, 2) = bar.vertexCount();
    EXPECT_THROW(boneHeatWeights(badIndex, s, nullptr), InvalidInput);
    Skeleton badParent = s;
    badParent.parents[1] = 2;
    EXPECT_THROW(boneHeatWeights(bar, badParent, nullptr), InvalidInput);
    const VoxelGrid empty;
    EXPECT_THROW(boneHeatWeights(bar, s, &empty), InvalidInput);
    EXPECT_THROW(boneHeatWeights(bar, s, nullptr, {.heatConstant = 0.0}), InvalidInput);
    EXPECT_THROW(boneHeatWeights(bar, s, nullptr, {.minWeight = 0.6}), InvalidInput);
    EXPECT_THROW(boneHeatWeights(bar, s, nullptr, {.maxInfluences = 0}), InvalidInput);
    EXPECT_THROW(boneHeatWeights(bar, s, nullptr, {.smallPartSize = -0.1}), InvalidInput);
    try {
        boneHeatWeights(Mesh{}, s, nullptr);
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("rig::boneHeatWeights()"), std::string::npos) << e.what();
    }
}

TEST(HeatWeights, BarIsMonotoneSumsToOneAndRigidAtTheEnds)
{
    // A bar along +X with three joints: 0 at the start, 1 in the middle, 2 at the end (a leaf).
    const Mesh bar = test::capsuleMesh(Vec3(0, 0, 0), Vec3(3, 0, 0), 0.25, 16, 6, 30);
    const Skeleton s = chain({Vec3(0.2, 0, 0), Vec3(1.5, 0, 0), Vec3(2.8, 0, 0)});
    const VoxelGrid solid = solidOf(bar, 64);
    for (const VoxelGrid* g : {static_cast<const VoxelGrid*>(nullptr), &solid}) {
        const HeatWeightsResult r = boneHeatWeights(bar, s, g);
        expectValid(r.weights, bar.vertexCount(), 3);
        EXPECT_TRUE(r.rigidParts.empty());
        EXPECT_EQ(r.unreachedVertices, 0);
        // Weights of joint 0 fall and of the leaf joint 2 rise along the bar
        // (averaged per x slice: vertices of one ring share a value up to the
        // mesh's asymmetry).
        std::map<long, std::pair<double, double>> w0, w2; // slice -> (sum, count)
        for (int i = 0; i < bar.vertexCount(); ++i) {
            const long slice = std::lround(bar.V(i, 0) * 20.0);
            w0[slice].first += weightOf(r.weights, i, 0);
            w0[slice].second += 1;
            w2[slice].first += weightOf(r.weights, i, 2);
            w2[slice].second += 1;
        }
        double prev0 = 2.0, prev2 = -1.0;
        for (const auto& [slice, v] : w0) {
            const double a = v.first / v.second;
            const double b = w2[slice].first / w2[slice].second;
            EXPECT_LE(a, prev0 + 0.02) << "slice x = " << slice / 20.0;
            EXPECT_GE(b, prev2 - 0.02) << "slice x = " << slice / 20.0;
            prev0 = std::min(prev0, a);
            prev2 = std::max(prev2, b);
        }
        // Near 1 at the ends; both halves share the middle joint.
        int first = 0, last = 0;
        for (int i = 0; i < bar.vertexCount(); ++i) {
            if (bar.V(i, 0) < bar.V(first, 0))
                first = i;
            if (bar.V(i, 0) > bar.V(last, 0))
                last = i;
        }
        EXPECT_GT(weightOf(r.weights, first, 0), 0.95);
        EXPECT_GT(weightOf(r.weights, last, 2), 0.95);
        // Around the middle joint the two neighbouring bones blend.
        double mid = 0.0;
        for (int i = 0; i < bar.vertexCount(); ++i)
            if (std::abs(bar.V(i, 0) - 1.5) < 0.06)
                mid = std::max(mid, std::min(weightOf(r.weights, i, 0), weightOf(r.weights, i, 1)));
        EXPECT_GT(mid, 0.2);
    }
}

// A leaf joint at the start of a long end part (a head at the base of the
// skull on a short neck: Cesium Man) heats that part from a bone reaching its
// skin, not from a stub half the short link long (Cesium Man's mean
// deformation error 0.232 -> 0.186 % of height).
TEST(HeatWeights, ALeafThatEndsAChainOwnsThePartBeyondIt)
{
    const Mesh bar = test::capsuleMesh(Vec3(0, 0, 0), Vec3(3, 0, 0), 0.25, 16, 6, 30);
    const Skeleton s = chain({Vec3(0.2, 0, 0), Vec3(1.5, 0, 0), Vec3(1.65, 0, 0)});
    const VoxelGrid solid = solidOf(bar, 64);
    HeatWeightOptions o;
    const HeatWeightsResult r = boneHeatWeights(bar, s, &solid, o);
    expectValid(r.weights, bar.vertexCount(), 3);
    o.leafBonesToSkin = false;
    const HeatWeightsResult stub = boneHeatWeights(bar, s, &solid, o);
    double least = 1.0, leastStub = 1.0;
    for (int i = 0; i < bar.vertexCount(); ++i)
        if (bar.V(i, 0) > 2.3) {
            least = std::min(least, weightOf(r.weights, i, 2));
            leastStub = std::min(leastStub, weightOf(stub.weights, i, 2));
        }
    EXPECT_GT(least, 0.9);
    EXPECT_LT(leastStub, least);
}

TEST(HeatWeights, DefaultCharacterEveryVertexWeightedNoBleedingBetweenLegs)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .cellSize = 0.025});
    const Skeleton s = groundTruthSkeleton(h);
    const VoxelGrid solid = solidOf(h.mesh, 96);
    std::atomic<bool> cancel = false;
    int reports = 0;
    Progress progress;
    progress.report = [&](std::string_view, double) { ++reports; };
    progress.cancelFlag = &cancel;
    const HeatWeightsResult r = boneHeatWeights(h.mesh, s, &solid, {}, progress);
    EXPECT_GT(reports, 2);
    expectValid(r.weights, h.mesh.vertexCount(), s.jointCount());
    EXPECT_TRUE(r.rigidParts.empty());
    EXPECT_EQ(r.unreachedVertices, 0);
    const auto legOf = [&](int joint) {
        const std::string& n = s.names[static_cast<size_t>(joint)];
        if (n == "LeftUpLeg" || n == "LeftLeg" || n == "LeftFoot" || n == "LeftToeBase")
            return 1;
        if (n == "RightUpLeg" || n == "RightLeg" || n == "RightFoot" || n == "RightToeBase")
            return 2;
        return 0;
    };
    int leftLegVertices = 0;
    for (int i = 0; i < h.mesh.vertexCount(); ++i) {
        const auto part = static_cast<BodyPart>(h.vertexPart[i]);
        const int leg = part == BodyPart::LeftThigh || part == BodyPart::LeftShin || part == BodyPart::LeftFoot ? 1
                        : part == BodyPart::RightThigh || part == BodyPart::RightShin || part == BodyPart::RightFoot
                            ? 2
                            : 0;
        if (leg == 0)
            continue;
        leftLegVertices += leg == 1;
        for (int k = 0; k < r.weights.maxInfluences; ++k) {
            const int other = legOf(r.weights.joints(i, k));
            if (other != 0 && other != leg) {
                ASSERT_LT(r.weights.weights(i, k), 0.05)
                    << "vertex " << i << " of leg " << leg << " weighted by " << s.names[r.weights.joints(i, k)];
            }
        }
    }
    EXPECT_GT(leftLegVertices, 100);
    // The hand follows the hand joint, the head the head joint (leaf bones).
    const int head = *s.find("Head");
    const int hand = *s.find("LeftHand");
    const Vec3 top = h.endEffectors.row(0).transpose();
    int topVertex = 0;
    for (int i = 0; i < h.mesh.vertexCount(); ++i)
        if ((h.mesh.V.row(i).transpose() - top).norm() < (h.mesh.V.row(topVertex).transpose() - top).norm())
            topVertex = i;
    EXPECT_GT(weightOf(r.weights, topVertex, head), 0.9);
    int handVertices = 0;
    double handWeight = 0.0;
    for (int i = 0; i < h.mesh.vertexCount(); ++i)
        if (static_cast<BodyPart>(h.vertexPart[i]) == BodyPart::LeftHand) {
            ++handVertices;
            handWeight += weightOf(r.weights, i, hand);
        }
    ASSERT_GT(handVertices, 0);
    EXPECT_GT(handWeight / handVertices, 0.6);

    cancel = true;
    EXPECT_THROW(boneHeatWeights(h.mesh, s, &solid, {}, progress), Cancelled);
}

TEST(HeatWeights, JointOnlyEverTiedForNearestGetsItsShare)
{
    // Two leaf joints at the same place (twin end sites): their leaf bones
    // coincide, every vertex past them is tied between the two and the first
    // is always the "nearest". The second must get the same heat, not none.
    // (Without separateLimbs: the twins are two branches of the root, so two
    // "limbs", and the heat of one would be dropped where the other leads.)
    const Mesh bar = test::capsuleMesh(Vec3(0, 0, 0), Vec3(3, 0, 0), 0.25, 16, 6, 30);
    Skeleton s;
    s.names = {"root", "tip", "twin"};
    s.parents = {-1, 0, 0};
    s.bindPositions.resize(3, 3);
    s.bindPositions << 0.2, 0, 0, 2.75, 0, 0, 2.75, 0, 0; // between two rings of vertices: no three-way tie
    s.bindOrientations.assign(3, Eigen::Quaterniond::Identity());
    orientBones(s);
    const HeatWeightsResult r = boneHeatWeights(bar, s, nullptr, {.separateLimbs = false});
    expectValid(r.weights, bar.vertexCount(), 3);
    int last = 0;
    for (int i = 0; i < bar.vertexCount(); ++i) {
        ASSERT_NEAR(weightOf(r.weights, i, 1), weightOf(r.weights, i, 2), 1e-6) << "vertex " << i;
        if (bar.V(i, 0) > bar.V(last, 0))
            last = i;
    }
    EXPECT_GT(weightOf(r.weights, last, 1), 0.45);
    EXPECT_GT(weightOf(r.weights, last, 2), 0.45);
}

TEST(HeatWeights, AllBonesSolvedAtOnceMatchBoneByBoneSolves)
{
    // The block substitution against Eigen's own solve, one bone at a time, of
    // the same system (−L + A H) w_j = A H p_j, on a bar with three bones and
    // no visibility test (H from the plain nearest bone).
    const Mesh bar = test::capsuleMesh(Vec3(0, 0, 0), Vec3(3, 0, 0), 0.25, 16, 6, 30);
    const Skeleton s = chain({Vec3(0.2, 0, 0), Vec3(1.1, 0, 0), Vec3(1.9, 0, 0), Vec3(2.8, 0, 0)});
    const HeatWeightsResult r =
        boneHeatWeights(bar, s, nullptr, {.minWeight = 0.0, .separateLimbs = false, .maxInfluences = 4});
    const int n = bar.vertexCount();
    const Eigen::SparseMatrix<double> L = cotangentLaplacian(bar.V, bar.F);
    const Eigen::VectorXd area = vertexAreas(bar.V, bar.F);
    // Bones: links owned by their parents, the leaf's continuation (half its link) owned by it.
    const std::vector<std::pair<Vec3, Vec3>> segment = {{Vec3(0.2, 0, 0), Vec3(1.1, 0, 0)},
                                                        {Vec3(1.1, 0, 0), Vec3(1.9, 0, 0)},
                                                        {Vec3(1.9, 0, 0), Vec3(2.8, 0, 0)},
                                                        {Vec3(2.8, 0, 0), Vec3(3.25, 0, 0)}};
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(n, 4);
    Eigen::VectorXd H(n);
    for (int i = 0; i < n; ++i) {
        const Vec3 p = bar.V.row(i).transpose();
        double d2[4];
        for (int b = 0; b < 4; ++b) {
            const Vec3 a = segment[b].first, ab = segment[b].second - a;
            const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
            d2[b] = (a + t * ab - p).squaredNorm();
        }
        const double best = *std::min_element(d2, d2 + 4);
        H(i) = area(i) / best;
        // Bones within 0.01 % of the nearest distance share p (at the joints' rings).
        const auto tied = std::count_if(d2, d2 + 4, [&](double d) { return d <= best * 1.0002; });
        for (int b = 0; b < 4; ++b)
            if (d2[b] <= best * 1.0002)
                P(i, b) = 1.0 / static_cast<double>(tied);
    }
    Eigen::SparseMatrix<double> M = -L;
    for (int i = 0; i < n; ++i)
        M.coeffRef(i, i) += H(i);
    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(M);
    ASSERT_EQ(ldlt.info(), Eigen::Success);
    for (int j = 0; j < 4; ++j) {
        const Eigen::VectorXd w = ldlt.solve(Eigen::VectorXd(H.cwiseProduct(P.col(j))));
        for (int i = 0; i < n; ++i) {
            // Each vertex has at most 4 influences here: nothing dropped, nothing renormalized.
            ASSERT_NEAR(weightOf(r.weights, i, j), std::max(w(i), 0.0), 1e-6) << "vertex " << i << " joint " << j;
        }
    }
}

TEST(HeatWeights, LoosePartsAreBoundRigidlyAndReported)
{
    // A bar, a ball floating beside it (no bone visible through the solid), a
    // small "eyeball" inside the bar near its end, and a lone sliver triangle.
    const Mesh bar = test::capsuleMesh(Vec3(0, 0, 0), Vec3(3, 0, 0), 0.3, 16, 6, 30);
    const Mesh ball = test::capsuleMesh(Vec3(2.0, 1.2, 0), Vec3(2.0, 1.2001, 0), 0.2, 12, 6, 1);
    const Mesh eye = test::capsuleMesh(Vec3(2.95, 0.1, 0.1), Vec3(2.95, 0.1001, 0.1), 0.012, 8, 4, 1);
    Mesh sliver;
    sliver.V.resize(3, 3);
    sliver.V << 0.5, 0.05, 0, 0.6, 0.05, 0, 0.7, 0.05, 0; // collinear: no area
    sliver.F.resize(1, 3);
    sliver.F << 0, 1, 2;
    sliver.part = {0, 0, 0};
    sliver.partNames = {"sliver"};
    Mesh m = test::concat({bar, ball, eye, sliver});
    m.partNames = {"bar", "ball", "eye", "sliver"};
    const Skeleton s = chain({Vec3(0.2, 0, 0), Vec3(1.5, 0, 0), Vec3(2.8, 0, 0)});
    const VoxelGrid solid = solidOf(m, 80);
    HeatWeightsResult r;
    ASSERT_NO_THROW(r = boneHeatWeights(m, s, &solid));
    expectValid(r.weights, m.vertexCount(), 3);
    ASSERT_EQ(r.rigidParts.size(), 3u);
    std::map<std::string, RigidPart> byName;
    for (const RigidPart& p : r.rigidParts)
        byName[p.name] = p;
    ASSERT_TRUE(byName.count("ball"));
    ASSERT_TRUE(byName.count("eye"));
    ASSERT_TRUE(byName.count("sliver"));
    EXPECT_EQ(byName["ball"].reason, "no bone visible");
    EXPECT_EQ(byName["ball"].bone, 1); // nearest to its centre: the link from joint 1 to 2
    EXPECT_EQ(byName["ball"].vertexCount, ball.vertexCount());
    EXPECT_EQ(byName["eye"].bone, 2);
    EXPECT_NE(byName["eye"].reason.find("small"), std::string::npos);
    EXPECT_NE(byName["sliver"].reason.find("degenerate"), std::string::npos);
    for (const RigidPart& p : r.rigidParts) {
        ASSERT_EQ(static_cast<int>(p.vertices.size()), p.vertexCount);
        for (int v : p.vertices) {
            EXPECT_EQ(r.weights.joints(v, 0), p.bone);
            EXPECT_FLOAT_EQ(r.weights.weights(v, 0), 1.0f);
        }
    }
    // The bar itself is still solved by heat: its middle blends two bones.
    int blended = 0;
    for (int i = 0; i < bar.vertexCount(); ++i)
        blended += r.weights.weights(i, 1) > 0.2f;
    EXPECT_GT(blended, 10);
}

} // namespace
} // namespace rig

namespace rig {
namespace {

TEST(HeatWeights, CharacterWithEyeballsAndAnOpenNeckIsWeightedEverywhere)
{
    const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .cellSize = 0.03});
    const Skeleton s = groundTruthSkeleton(h);
    const int head = *s.find("Head");
    const int neck = *s.find("Neck");
    // Open the neck: drop the triangles of its front half around the middle of the neck.
    const double neckY = 0.5 * (h.joints(neck, 1) + h.joints(head, 1));
    Mesh body = h.mesh;
    std::vector<int> kept;
    for (int f = 0; f < body.triangleCount(); ++f) {
        const Vec3 c = (body.V.row(body.F(f, 0)) + body.V.row(body.F(f, 1)) + body.V.row(body.F(f, 2))).transpose() / 3.0;
        if (!(std::abs(c.y() - neckY) < 0.02 && c.z() > h.joints(neck, 2)))
            kept.push_back(f);
    }
    ASSERT_LT(static_cast<int>(kept.size()), body.triangleCount());
    MatrixX3i F(static_cast<Eigen::Index>(kept.size()), 3);
    for (size_t k = 0; k < kept.size(); ++k)
        F.row(static_cast<Eigen::Index>(k)) = body.F.row(kept[k]);
    body.F = F;
    // Two eyeballs inside the head, in front of the head joint.
    const Vec3 headCentre = 0.5 * (h.joints.row(head).transpose() + h.endEffectors.row(0).transpose());
    std::vector<Mesh> parts = {body};
    for (double side : {-1.0, 1.0}) {
        const Vec3 e = headCentre + Vec3(side * 0.03, 0.01, 0.06);
        parts.push_back(test::capsuleMesh(e, e + Vec3(0, 1e-4, 0), 0.012, 10, 4, 1));
    }
    Mesh m = test::concat(parts);
    m.partNames = {"body", "left eye", "right eye"};
    const VoxelGrid solid = solidOf(m, 96);
    HeatWeightsResult r;
    ASSERT_NO_THROW(r = boneHeatWeights(m, s, &solid));
    expectValid(r.weights, m.vertexCount(), s.jointCount());
    ASSERT_EQ(r.rigidParts.size(), 2u);
    for (const RigidPart& p : r.rigidParts) {
        EXPECT_NE(p.name.find("eye"), std::string::npos);
        EXPECT_EQ(p.bone, head) << p.name << " bound to " << s.names[p.bone];
    }
    // Only the vertices the hole left without a triangle are unreached (bound
    // to their nearest bone); every vertex of the surface got heat.
    std::vector<bool> used(static_cast<size_t>(m.vertexCount()), false);
    for (int f = 0; f < m.triangleCount(); ++f)
        for (int k = 0; k < 3; ++k)
            used[static_cast<size_t>(m.F(f, k))] = true;
    EXPECT_EQ(r.unreachedVertices, static_cast<int>(std::count(used.begin(), used.end(), false)));
    // The head still follows the head joint across the open neck.
    int topVertex = 0;
    const Vec3 top = h.endEffectors.row(0).transpose();
    for (int i = 0; i < body.vertexCount(); ++i)
        if ((m.V.row(i).transpose() - top).norm() < (m.V.row(topVertex).transpose() - top).norm())
            topVertex = i;
    EXPECT_GT(weightOf(r.weights, topVertex, head), 0.9);
}

} // namespace
} // namespace rig
