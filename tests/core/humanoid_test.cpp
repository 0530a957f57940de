#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"

#include "tests/support/inside_mesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <unordered_set>

namespace rig {
namespace {

constexpr int idx(HumanoidJoint j) { return jointIndex(j); }

// The seven humanoids are generated once for the whole suite.
const Humanoid& humanoid(HumanoidPose pose)
{
    static std::map<HumanoidPose, Humanoid> cache;
    auto it = cache.find(pose);
    if (it == cache.end()) {
        HumanoidOptions options;
        options.pose = pose;
        it = cache.emplace(pose, generateHumanoid(options)).first;
    }
    return it->second;
}

Vec3 joint(const Humanoid& h, HumanoidJoint j) { return h.joints.row(idx(j)).transpose(); }

double signedVolume(const Mesh& m)
{
    double v = 0.0;
    for (Eigen::Index f = 0; f < m.F.rows(); ++f) {
        const Vec3 a = m.V.row(m.F(f, 0)), b = m.V.row(m.F(f, 1)), c = m.V.row(m.F(f, 2));
        v += a.dot(b.cross(c)) / 6.0;
    }
    return v;
}

// Parts that may share a mesh edge: neighbours across a joint, and the trunk
// (chest, abdomen, pelvis) among itself and with the thighs at the hip crease.
bool partsMayTouch(BodyPart a, BodyPart b)
{
    using P = BodyPart;
    if (a == b)
        return true;
    static const std::set<std::pair<P, P>> allowed = {
        {P::Head, P::Neck},
        {P::Neck, P::Chest},
        {P::Chest, P::Abdomen},
        {P::Abdomen, P::Pelvis},
        {P::Chest, P::Pelvis},
        {P::Chest, P::LeftUpperArm},
        {P::Chest, P::RightUpperArm},
        {P::LeftUpperArm, P::LeftForearm},
        {P::RightUpperArm, P::RightForearm},
        {P::LeftForearm, P::LeftHand},
        {P::RightForearm, P::RightHand},
        {P::Pelvis, P::LeftThigh},
        {P::Pelvis, P::RightThigh},
        {P::Abdomen, P::LeftThigh},
        {P::Abdomen, P::RightThigh},
        {P::LeftThigh, P::LeftShin},
        {P::RightThigh, P::RightShin},
        {P::LeftShin, P::LeftFoot},
        {P::RightShin, P::RightFoot},
    };
    return allowed.count({a, b}) > 0 || allowed.count({b, a}) > 0;
}

double degrees(const Vec3& u, const Vec3& v)
{
    return std::acos(std::clamp(u.normalized().dot(v.normalized()), -1.0, 1.0)) * 180.0 / std::numbers::pi;
}

std::string key(const Vec3& p)
{
    // Positions are bit-identical where the field is, so the raw bits are a key.
    return std::string(reinterpret_cast<const char*>(p.data()), 3 * sizeof(double));
}

// ---------------------------------------------------------------------------
// Invalid input first.

TEST(Humanoid, RejectsInvalidOptions)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    for (double height : {0.0, -1.75, nan, inf}) {
        HumanoidOptions o;
        o.height = height;
        EXPECT_THROW(generateHumanoid(o), InvalidInput) << "height " << height;
    }
    for (double cell : {-0.01, nan, inf}) {
        HumanoidOptions o;
        o.cellSize = cell;
        EXPECT_THROW(generateHumanoid(o), InvalidInput) << "cellSize " << cell;
    }
    HumanoidOptions tiny;
    tiny.cellSize = 1e-5; // a grid of ~1e15 points
    EXPECT_THROW(generateHumanoid(tiny), InvalidInput);
}

TEST(Humanoid, PoseNamesRoundTripAndRejectJunk)
{
    const std::vector<HumanoidPose> poses = allHumanoidPoses();
    ASSERT_EQ(poses.size(), 7u);
    std::set<std::string_view> names;
    for (HumanoidPose pose : poses) {
        const std::string_view name = humanoidPoseName(pose);
        names.insert(name);
        const auto parsed = parseHumanoidPose(name);
        ASSERT_TRUE(parsed.has_value()) << name;
        EXPECT_EQ(*parsed, pose);
    }
    EXPECT_EQ(names.size(), poses.size());
    EXPECT_EQ(parseHumanoidPose("t"), HumanoidPose::T);
    EXPECT_EQ(parseHumanoidPose("a"), HumanoidPose::A);
    EXPECT_EQ(parseHumanoidPose("arms-down"), HumanoidPose::ArmsDown);
    EXPECT_EQ(parseHumanoidPose("knees-bent"), HumanoidPose::KneesBent);
    EXPECT_EQ(parseHumanoidPose("sitting"), HumanoidPose::Sitting);
    EXPECT_EQ(parseHumanoidPose("reach"), HumanoidPose::Reach);
    EXPECT_EQ(parseHumanoidPose("twist"), HumanoidPose::Twist);
    for (const char* junk : {"", "T", "A-pose", "sit", "twist ", "knees_bent", "arms", "tt"})
        EXPECT_FALSE(parseHumanoidPose(junk).has_value()) << '"' << junk << '"';
}

TEST(Humanoid, BodyPartNamesAreDistinct)
{
    std::set<std::string_view> names;
    for (int p = 0; p < bodyPartCount; ++p) {
        const std::string_view name = bodyPartName(static_cast<BodyPart>(p));
        EXPECT_FALSE(name.empty());
        names.insert(name);
    }
    EXPECT_EQ(names.size(), size_t(bodyPartCount));
    EXPECT_EQ(bodyPartName(BodyPart::LeftUpperArm), "LeftUpperArm");
}

// ---------------------------------------------------------------------------
// The skeleton.

TEST(Humanoid, SkeletonHasTheBvhJointsParentsFirst)
{
    const Humanoid& h = humanoid(HumanoidPose::A);
    const std::vector<std::string> expected = {
        "Hips",         "Spine",     "Spine1",       "Neck",        "Head",       "LeftShoulder", "LeftArm",
        "LeftForeArm",  "LeftHand",  "RightShoulder", "RightArm",   "RightForeArm", "RightHand",  "LeftUpLeg",
        "LeftLeg",      "LeftFoot",  "LeftToeBase",  "RightUpLeg",  "RightLeg",   "RightFoot",    "RightToeBase"};
    EXPECT_EQ(h.jointNames, expected);
    ASSERT_EQ(h.jointParents.size(), size_t(humanoidJointCount));
    EXPECT_EQ(h.jointParents[0], -1);
    for (int i = 1; i < humanoidJointCount; ++i) {
        EXPECT_GE(h.jointParents[size_t(i)], 0);
        EXPECT_LT(h.jointParents[size_t(i)], i);
    }
    EXPECT_EQ(h.jointParents[size_t(idx(HumanoidJoint::LeftForeArm))], idx(HumanoidJoint::LeftArm));
    EXPECT_EQ(h.jointParents[size_t(idx(HumanoidJoint::RightToeBase))], idx(HumanoidJoint::RightFoot));
    EXPECT_EQ(h.joints.rows(), humanoidJointCount);
    EXPECT_EQ(h.restJoints.rows(), humanoidJointCount);
    EXPECT_EQ(h.localRotations.size(), size_t(humanoidJointCount));
}

TEST(Humanoid, TPoseIsTheRestPose)
{
    const Humanoid& h = humanoid(HumanoidPose::T);
    for (const auto& q : h.localRotations)
        EXPECT_NEAR(q.angularDistance(Eigen::Quaterniond::Identity()), 0.0, 1e-12);
    EXPECT_TRUE(h.joints.isApprox(h.restJoints, 1e-12));
    EXPECT_NEAR(h.rootTranslation.norm(), 0.0, 1e-12);
    // Facing +Z with the left side on +X: the left hand is at +x.
    EXPECT_GT(joint(h, HumanoidJoint::LeftHand).x(), 0.5);
    EXPECT_LT(joint(h, HumanoidJoint::RightHand).x(), -0.5);
    double leftHandX = 0.0;
    int n = 0;
    for (size_t v = 0; v < h.vertexPart.size(); ++v)
        if (h.vertexPart[v] == int(BodyPart::LeftHand)) {
            leftHandX += h.mesh.V(Eigen::Index(v), 0);
            ++n;
        }
    ASSERT_GT(n, 0);
    EXPECT_GT(leftHandX / n, 0.5);
    // Toes point +Z.
    EXPECT_GT(joint(h, HumanoidJoint::LeftToeBase).z(), joint(h, HumanoidJoint::LeftFoot).z() + 0.05);
}

// Joints are the forward kinematics of the local rotations (convention of humanoid.h).
TEST(Humanoid, JointsAreTheForwardKinematicsOfTheRotations)
{
    for (HumanoidPose pose : allHumanoidPoses()) {
        const Humanoid& h = humanoid(pose);
        std::vector<Eigen::Quaterniond> global(static_cast<size_t>(humanoidJointCount));
        for (int i = 0; i < humanoidJointCount; ++i) {
            const int p = h.jointParents[size_t(i)];
            Vec3 expected;
            if (p < 0) {
                global[size_t(i)] = h.localRotations[size_t(i)];
                expected = h.restJoints.row(i).transpose() + h.rootTranslation;
            } else {
                global[size_t(i)] = global[size_t(p)] * h.localRotations[size_t(i)];
                expected = h.joints.row(p).transpose() +
                           global[size_t(p)] * Vec3(h.restJoints.row(i) - h.restJoints.row(p));
            }
            EXPECT_LT((h.joints.row(i).transpose() - expected).norm(), 1e-12)
                << humanoidPoseName(pose) << " " << h.jointNames[size_t(i)];
        }
        ASSERT_EQ(h.endEffectors.rows(), 5);
        ASSERT_EQ(h.endEffectorNames.size(), 5u);
        for (Eigen::Index e = 0; e < h.endEffectors.rows(); ++e) {
            const int j = h.endEffectorJoints[size_t(e)];
            EXPECT_GE(j, 0);
            EXPECT_LT(j, humanoidJointCount);
        }
    }
}

TEST(Humanoid, PosesBendTheRightJoints)
{
    using J = HumanoidJoint;
    // Knees bent 60 degrees, feet flat on the ground, hips lowered.
    {
        const Humanoid& h = humanoid(HumanoidPose::KneesBent);
        for (auto [hip, knee, ankle] : {std::array{J::LeftUpLeg, J::LeftLeg, J::LeftFoot},
                                        std::array{J::RightUpLeg, J::RightLeg, J::RightFoot}}) {
            EXPECT_NEAR(degrees(joint(h, knee) - joint(h, hip), joint(h, ankle) - joint(h, knee)), 60.0, 1e-6);
            EXPECT_NEAR(joint(h, ankle).y(), h.restJoints(idx(ankle), 1), 1e-9);
            EXPECT_GT(joint(h, knee).z(), joint(h, hip).z() + 0.1); // knees forward
        }
        EXPECT_LT(h.rootTranslation.y(), -0.05);
    }
    // Sitting: trunk upright, thighs horizontal, shins vertical.
    {
        const Humanoid& h = humanoid(HumanoidPose::Sitting);
        const Vec3 up = joint(h, J::Spine1) - joint(h, J::Hips);
        for (auto [hip, knee, ankle] : {std::array{J::LeftUpLeg, J::LeftLeg, J::LeftFoot},
                                        std::array{J::RightUpLeg, J::RightLeg, J::RightFoot}}) {
            EXPECT_NEAR(degrees(up, joint(h, knee) - joint(h, hip)), 90.0, 1e-6);
            EXPECT_NEAR(degrees(joint(h, knee) - joint(h, hip), joint(h, ankle) - joint(h, knee)), 90.0, 1e-6);
            EXPECT_NEAR(joint(h, ankle).y(), h.restJoints(idx(ankle), 1), 1e-9);
        }
    }
    // A: arms 45 degrees down; arms down: close to vertical.
    for (auto [pose, angle] : {std::pair{HumanoidPose::A, 45.0}, std::pair{HumanoidPose::ArmsDown, 77.0}}) {
        const Humanoid& h = humanoid(pose);
        EXPECT_NEAR(degrees(joint(h, J::LeftForeArm) - joint(h, J::LeftArm), Vec3::UnitX()), angle, 1e-6);
        EXPECT_NEAR(degrees(joint(h, J::RightForeArm) - joint(h, J::RightArm), -Vec3::UnitX()), angle, 1e-6);
        EXPECT_LT(joint(h, J::LeftHand).y(), joint(h, J::LeftArm).y());
    }
    // Reach: the right hand crosses the midline in front of the chest.
    {
        const Humanoid& h = humanoid(HumanoidPose::Reach);
        EXPECT_GT(joint(h, J::RightHand).x(), 0.0);
        EXPECT_GT(joint(h, J::RightHand).z(), 0.2);
        EXPECT_GT(joint(h, J::RightHand).y(), joint(h, J::Spine1).y());
        EXPECT_TRUE(h.joints.row(idx(J::LeftHand)).isApprox(humanoid(HumanoidPose::A).joints.row(idx(J::LeftHand))));
    }
    // Twist: the left forearm turns 90 degrees about its own (rest) axis, joints stay.
    {
        const Humanoid& h = humanoid(HumanoidPose::Twist);
        const Eigen::AngleAxisd twist(h.localRotations[size_t(idx(J::LeftForeArm))]);
        EXPECT_NEAR(twist.angle(), std::numbers::pi / 2, 1e-9);
        const Vec3 bone = h.restJoints.row(idx(J::LeftHand)) - h.restJoints.row(idx(J::LeftForeArm));
        EXPECT_NEAR(std::abs(twist.axis().dot(bone.normalized())), 1.0, 1e-9);
        EXPECT_TRUE(h.joints.isApprox(humanoid(HumanoidPose::A).joints, 1e-12));
    }
}

// ---------------------------------------------------------------------------
// The surface, in every pose.

class HumanoidPoses : public ::testing::TestWithParam<HumanoidPose> {};

TEST_P(HumanoidPoses, SurfaceIsOneClosedOutwardManifold)
{
    const Humanoid& h = humanoid(GetParam());
    const Mesh& m = h.mesh;
    const EdgeTopology topo = edgeTopology(m.F);
    EXPECT_TRUE(topo.closedManifold()) << topo.boundaryEdges << " boundary, " << topo.nonManifoldEdges
                                       << " non-manifold, " << topo.inconsistentEdges << " inconsistent";
    EXPECT_EQ(topo.degenerateTriangles, 0);
    EXPECT_EQ(connectedComponents(m), 1);
    EXPECT_GE(m.triangleCount(), 20000);
    EXPECT_LE(m.triangleCount(), 60000);
    // Outward orientation: positive volume, of a slim adult (~50 litres).
    const double volume = signedVolume(m);
    EXPECT_GT(volume, 0.03);
    EXPECT_LT(volume, 0.1);
    // No zero-area triangle.
    double minArea = std::numeric_limits<double>::infinity();
    for (Eigen::Index f = 0; f < m.F.rows(); ++f) {
        const Vec3 a = m.V.row(m.F(f, 0)), b = m.V.row(m.F(f, 1)), c = m.V.row(m.F(f, 2));
        minArea = std::min(minArea, 0.5 * (b - a).cross(c - a).norm());
    }
    EXPECT_GT(minArea, 0.0);
    // Per-vertex arrays and the single part.
    EXPECT_EQ(m.N.rows(), m.V.rows());
    EXPECT_EQ(m.part.size(), size_t(m.vertexCount()));
    EXPECT_TRUE(std::all_of(m.part.begin(), m.part.end(), [](int p) { return p == 0; }));
    EXPECT_EQ(m.partNames, std::vector<std::string>{"body"});
}

// No tunnel between a limb and the body: the surface is a sphere (Euler
// characteristic V - E + F = 2), at the default and at coarse cells, so a
// voxel-based curve skeleton is a tree.
TEST_P(HumanoidPoses, SurfaceIsATopologicalSphere)
{
    auto euler = [](const Mesh& m) { return m.vertexCount() - edgeTopology(m.F).edges + m.triangleCount(); };
    EXPECT_EQ(euler(humanoid(GetParam()).mesh), 2);
    HumanoidOptions coarse;
    coarse.pose = GetParam();
    coarse.cellSize = 0.025;
    const Humanoid h = generateHumanoid(coarse);
    EXPECT_TRUE(edgeTopology(h.mesh.F).closedManifold());
    EXPECT_EQ(connectedComponents(h.mesh), 1);
    EXPECT_EQ(euler(h.mesh), 2);
}

TEST_P(HumanoidPoses, StandsOnTheFloor)
{
    const Humanoid& h = humanoid(GetParam());
    const Box3 box = boundingBox(h.mesh);
    EXPECT_NEAR(box.min.y(), 0.0, 0.003);
    // Only the feet touch the floor.
    for (Eigen::Index v = 0; v < h.mesh.V.rows(); ++v)
        if (h.mesh.V(v, 1) < 0.01) {
            const auto part = static_cast<BodyPart>(h.vertexPart[size_t(v)]);
            ASSERT_TRUE(part == BodyPart::LeftFoot || part == BodyPart::RightFoot) << bodyPartName(part);
        }
}

TEST_P(HumanoidPoses, JointsAreInsideTheSurface)
{
    const Humanoid& h = humanoid(GetParam());
    for (int j = 0; j < humanoidJointCount; ++j)
        EXPECT_TRUE(test::insideMesh(h.mesh, h.joints.row(j).transpose())) << h.jointNames[size_t(j)];
    // Controls for the parity test: above the head, in front of the chest, and
    // between the knees are outside.
    const Vec3 head = joint(h, HumanoidJoint::Head), chest = joint(h, HumanoidJoint::Spine1);
    EXPECT_FALSE(test::insideMesh(h.mesh, head + Vec3(0.0, 0.3, 0.0)));
    EXPECT_FALSE(test::insideMesh(h.mesh, chest + Vec3(0.0, 0.0, 0.15)));
    EXPECT_FALSE(test::insideMesh(h.mesh, 0.5 * (joint(h, HumanoidJoint::LeftLeg) + joint(h, HumanoidJoint::RightLeg))));
}

TEST_P(HumanoidPoses, EndEffectorsAreOnTheSurface)
{
    const Humanoid& h = humanoid(GetParam());
    const double cell = h.height / 100.0;
    for (Eigen::Index e = 0; e < h.endEffectors.rows(); ++e) {
        const Vec3 p = h.endEffectors.row(e).transpose();
        const double d = (h.mesh.V.rowwise() - p.transpose()).rowwise().norm().minCoeff();
        EXPECT_LT(d, cell) << h.endEffectorNames[size_t(e)];
    }
}

TEST_P(HumanoidPoses, LabelsCoverEveryPartAndLimbsTouchOnlyAtJoints)
{
    const Humanoid& h = humanoid(GetParam());
    ASSERT_EQ(h.vertexPart.size(), size_t(h.mesh.vertexCount()));
    std::vector<int> count(size_t(bodyPartCount), 0);
    for (int p : h.vertexPart) {
        ASSERT_GE(p, 0);
        ASSERT_LT(p, bodyPartCount);
        ++count[size_t(p)];
    }
    for (int p = 0; p < bodyPartCount; ++p)
        EXPECT_GT(count[size_t(p)], 30) << bodyPartName(static_cast<BodyPart>(p));
    // A mesh edge between two parts that do not meet at a joint means the
    // surface fused them (a hand on a thigh, two knees...).
    std::set<std::pair<int, int>> bad;
    for (Eigen::Index f = 0; f < h.mesh.F.rows(); ++f)
        for (int k = 0; k < 3; ++k) {
            const int a = h.vertexPart[size_t(h.mesh.F(f, k))], b = h.vertexPart[size_t(h.mesh.F(f, (k + 1) % 3))];
            if (!partsMayTouch(static_cast<BodyPart>(a), static_cast<BodyPart>(b)))
                bad.insert({std::min(a, b), std::max(a, b)});
        }
    for (auto [a, b] : bad)
        ADD_FAILURE() << bodyPartName(static_cast<BodyPart>(a)) << " touches " << bodyPartName(static_cast<BodyPart>(b));
}

TEST_P(HumanoidPoses, FacesPlusZWithANose)
{
    const Humanoid& h = humanoid(GetParam());
    const Vec3 head = joint(h, HumanoidJoint::Head);
    double front = -1.0, back = -1.0;
    Vec3 tip = Vec3::Zero();
    for (Eigen::Index v = 0; v < h.mesh.V.rows(); ++v) {
        if (h.vertexPart[size_t(v)] != int(BodyPart::Head))
            continue;
        const Vec3 p = h.mesh.V.row(v).transpose();
        if (p.z() - head.z() > front) {
            front = p.z() - head.z();
            tip = p;
        }
        back = std::max(back, head.z() - p.z());
    }
    EXPECT_GT(front, back + 0.02); // the nose sticks out in front
    EXPECT_LT(std::abs(tip.x()), 0.02);
    EXPECT_GT(tip.y(), head.y() + 0.03); // at face height, above the head joint
}

std::string poseTestName(const ::testing::TestParamInfo<HumanoidPose>& info)
{
    std::string name(humanoidPoseName(info.param));
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(AllPoses, HumanoidPoses, ::testing::ValuesIn(allHumanoidPoses()), poseTestName);

// ---------------------------------------------------------------------------
// Pose-specific properties of the surface.

TEST(Humanoid, StandingHeightIsAsAsked)
{
    for (HumanoidPose pose : {HumanoidPose::A, HumanoidPose::T}) {
        const Box3 box = boundingBox(humanoid(pose).mesh);
        EXPECT_NEAR(box.max.y() - box.min.y(), 1.75, 0.01) << humanoidPoseName(pose);
    }
    HumanoidOptions small;
    small.height = 1.0;
    const Humanoid h = generateHumanoid(small);
    const Box3 box = boundingBox(h.mesh);
    EXPECT_NEAR(box.max.y() - box.min.y(), 1.0, 0.01);
    EXPECT_TRUE(edgeTopology(h.mesh.F).closedManifold());
    // The default cell scales with the height: about the same triangle count.
    EXPECT_NEAR(h.mesh.triangleCount(), humanoid(HumanoidPose::A).mesh.triangleCount(), 2000);
}

TEST(Humanoid, FinerCellsGiveMoreTriangles)
{
    HumanoidOptions fine;
    fine.cellSize = 0.0125;
    const Humanoid h = generateHumanoid(fine);
    EXPECT_TRUE(edgeTopology(h.mesh.F).closedManifold());
    EXPECT_GT(h.mesh.triangleCount(), 1.5 * humanoid(HumanoidPose::A).mesh.triangleCount());
}

TEST(Humanoid, GenerationIsDeterministic)
{
    const Humanoid again = generateHumanoid({});
    const Humanoid& first = humanoid(HumanoidPose::A);
    ASSERT_EQ(again.mesh.V.rows(), first.mesh.V.rows());
    EXPECT_EQ(again.mesh.V, first.mesh.V);
    EXPECT_EQ(again.mesh.F, first.mesh.F);
    EXPECT_EQ(again.vertexPart, first.vertexPart);
}

TEST(Humanoid, ArmsDownLeavesAGapToTheThighs)
{
    const Humanoid& h = humanoid(HumanoidPose::ArmsDown);
    using P = BodyPart;
    for (auto [hand, thigh] : {std::pair{P::LeftHand, P::LeftThigh}, std::pair{P::RightHand, P::RightThigh}}) {
        double gap = std::numeric_limits<double>::infinity();
        for (size_t a = 0; a < h.vertexPart.size(); ++a) {
            if (h.vertexPart[a] != int(hand))
                continue;
            for (size_t b = 0; b < h.vertexPart.size(); ++b) {
                const int part = h.vertexPart[b];
                if (part == int(thigh) || part == int(P::Pelvis))
                    gap = std::min(gap, (h.mesh.V.row(Eigen::Index(a)) - h.mesh.V.row(Eigen::Index(b))).norm());
            }
        }
        EXPECT_GT(gap, 0.03) << bodyPartName(hand);
        EXPECT_LT(gap, 0.2) << bodyPartName(hand); // still along the body
    }
}

// The twist changes the surface only around the left forearm and hand: far
// from the left wrist, the two surfaces are bit-identical.
TEST(Humanoid, TwistDiffersFromAOnlyAtTheLeftHand)
{
    const Humanoid& a = humanoid(HumanoidPose::A);
    const Humanoid& t = humanoid(HumanoidPose::Twist);
    const Vec3 wrist = joint(a, HumanoidJoint::LeftHand);
    const double radius = 0.2;
    auto farSet = [&](const Humanoid& h) {
        std::unordered_set<std::string> s;
        for (Eigen::Index v = 0; v < h.mesh.V.rows(); ++v) {
            const Vec3 p = h.mesh.V.row(v).transpose();
            if ((p - wrist).norm() > radius)
                s.insert(key(p));
        }
        return s;
    };
    const auto farA = farSet(a), farT = farSet(t);
    EXPECT_GT(farA.size(), 10000u);
    EXPECT_EQ(farA, farT);

    // Near the wrist they differ: the flat hand turned 90 degrees, so its
    // thickness across z shrinks (A: palm width along z; twist: thickness).
    auto handDepth = [](const Humanoid& h) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (size_t v = 0; v < h.vertexPart.size(); ++v)
            if (h.vertexPart[v] == int(BodyPart::LeftHand)) {
                lo = std::min(lo, h.mesh.V(Eigen::Index(v), 2));
                hi = std::max(hi, h.mesh.V(Eigen::Index(v), 2));
            }
        return hi - lo;
    };
    EXPECT_LT(handDepth(t), 0.6 * handDepth(a));
    EXPECT_GT(handDepth(a), 0.07);
}

} // namespace
} // namespace rig
