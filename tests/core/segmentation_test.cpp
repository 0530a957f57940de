#include "core/skin/segmentation.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"
#include "core/rig/fit_template.h"
#include "core/rig/template.h"
#include "core/skeleton/end_nodes.h"
#include "core/skeleton/extract.h"

#include "tests/support/meshes.h"

#include "tests/support/skeletons.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <set>

namespace rig {
namespace {

/// The bundled character with its curve skeleton (n = 155) and the humanoid21
/// rig fitted to it: the pipeline's own rig, not the generator's joints.
struct RiggedHumanoid {
    Humanoid humanoid;
    CurveSkeletonResult curve;
    Skeleton rig;   ///< Fitted by the pipeline.
    Skeleton truth; ///< The generator's own joints (same names and order).
};

const RiggedHumanoid& riggedHumanoid(HumanoidPose pose)
{
    static std::mutex mutex;
    static std::map<HumanoidPose, RiggedHumanoid> cache;
    const std::lock_guard lock(mutex);
    auto it = cache.find(pose);
    if (it == cache.end()) {
        RiggedHumanoid r;
        r.humanoid = generateHumanoid({.pose = pose});
        r.curve = extractCurveSkeleton(r.humanoid.mesh);
        r.rig = fitTemplate(r.curve.refined, suggestEndNodeLabels(r.curve.refined), builtinTemplate("humanoid21"))
                    .skeleton;
        r.truth = r.rig;
        r.truth.bindPositions = r.humanoid.joints;
        r.truth.bindOrientations.assign(r.truth.names.size(), Eigen::Quaterniond::Identity());
        it = cache.emplace(pose, std::move(r)).first;
    }
    return it->second;
}

enum class Limb5 { Trunk, LeftArm, RightArm, LeftLeg, RightLeg };

Limb5 jointLimb(const std::string& name)
{
    for (const char* j : {"LeftArm", "LeftForeArm", "LeftHand"})
        if (name == j)
            return Limb5::LeftArm;
    for (const char* j : {"RightArm", "RightForeArm", "RightHand"})
        if (name == j)
            return Limb5::RightArm;
    for (const char* j : {"LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase"})
        if (name == j)
            return Limb5::LeftLeg;
    for (const char* j : {"RightUpLeg", "RightLeg", "RightFoot", "RightToeBase"})
        if (name == j)
            return Limb5::RightLeg;
    return Limb5::Trunk;
}

Limb5 partLimb(BodyPart p)
{
    switch (p) {
    case BodyPart::LeftUpperArm: case BodyPart::LeftForearm: case BodyPart::LeftHand: return Limb5::LeftArm;
    case BodyPart::RightUpperArm: case BodyPart::RightForearm: case BodyPart::RightHand: return Limb5::RightArm;
    case BodyPart::LeftThigh: case BodyPart::LeftShin: case BodyPart::LeftFoot: return Limb5::LeftLeg;
    case BodyPart::RightThigh: case BodyPart::RightShin: case BodyPart::RightFoot: return Limb5::RightLeg;
    default: return Limb5::Trunk;
    }
}

/// The joints that may drive a body part of the generator. A vertex on link c
/// is driven by parents[c] (by c beyond a leaf's end); the generator attaches
/// each part to one joint, but the borders of the trunk's parts do not fall on
/// its joints (the pelvis reaches 8 cm below the hip joints, the neck 2 cm
/// above the head joint, the chest holds the shoulder girdle), so those parts
/// accept their neighbouring joints.
std::vector<std::string> partDrivers(BodyPart p)
{
    switch (p) {
    case BodyPart::Head: return {"Head"};
    case BodyPart::Neck: return {"Neck", "Spine1", "Head"};
    case BodyPart::Chest: return {"Spine1", "Spine", "LeftShoulder", "RightShoulder"};
    case BodyPart::Abdomen: return {"Spine", "Hips"};
    case BodyPart::Pelvis: return {"Hips", "LeftUpLeg", "RightUpLeg"};
    case BodyPart::LeftUpperArm: return {"LeftArm"};
    case BodyPart::LeftForearm: return {"LeftForeArm"};
    case BodyPart::LeftHand: return {"LeftHand"};
    case BodyPart::RightUpperArm: return {"RightArm"};
    case BodyPart::RightForearm: return {"RightForeArm"};
    case BodyPart::RightHand: return {"RightHand"};
    case BodyPart::LeftThigh: return {"LeftUpLeg", "Hips"};
    case BodyPart::LeftShin: return {"LeftLeg"};
    case BodyPart::LeftFoot: return {"LeftFoot", "LeftToeBase"};
    case BodyPart::RightThigh: return {"RightUpLeg", "Hips"};
    case BodyPart::RightShin: return {"RightLeg"};
    case BodyPart::RightFoot: return {"RightFoot", "RightToeBase"};
    }
    return {};
}

struct Agreement {
    double part = 0.0; ///< Fraction of vertices whose driver joint fits their body part.
    double limb = 0.0; ///< Fraction whose driver fits their part or lies on their limb (trunk, arms, legs).
    int armToOtherLimb = 0;
    int legToOtherLimb = 0;
    std::map<std::string, int> confusion; ///< "part -> driver" counts of the disagreements.
};

Agreement agreement(const RiggedHumanoid& r, const Skeleton& k, const Segmentation& s)
{
    const auto children = childrenOf(k);
    Agreement a;
    int part = 0, limb = 0;
    const int n = static_cast<int>(s.bone.size());
    for (int i = 0; i < n; ++i) {
        const int c = s.bone[static_cast<size_t>(i)];
        const bool beyondLeaf = children[static_cast<size_t>(c)].empty() && s.delta[static_cast<size_t>(i)] >= 1.0;
        const std::string& driver = k.names[static_cast<size_t>(beyondLeaf ? c : k.parents[static_cast<size_t>(c)])];
        const auto bp = static_cast<BodyPart>(r.humanoid.vertexPart[static_cast<size_t>(i)]);
        const auto ok = partDrivers(bp);
        const bool fits = std::find(ok.begin(), ok.end(), driver) != ok.end();
        if (fits)
            ++part;
        else
            ++a.confusion[std::string(bodyPartName(bp)) + " -> " + driver];
        const Limb5 want = partLimb(bp), got = jointLimb(driver);
        limb += fits || want == got;
        const bool arm = want == Limb5::LeftArm || want == Limb5::RightArm;
        const bool leg = want == Limb5::LeftLeg || want == Limb5::RightLeg;
        if (arm && got != want && got != Limb5::Trunk)
            ++a.armToOtherLimb;
        if (leg && got != want && got != Limb5::Trunk)
            ++a.legToOtherLimb;
    }
    a.part = static_cast<double>(part) / n;
    a.limb = static_cast<double>(limb) / n;
    return a;
}

Skeleton chain(const std::vector<Vec3>& points) { return test::chainSkeleton(points); }

VoxelGrid solidOf(const Mesh& mesh, int resolution)
{
    CurveSkeletonOptions o;
    o.voxelize.resolution = resolution;
    return extractCurveSkeleton(mesh, o).solid;
}

const char* methodName(SegmentationMethod m)
{
    switch (m) {
    case SegmentationMethod::NearestLink: return "3.2.1";
    case SegmentationMethod::LineOfSight: return "3.2.2";
    case SegmentationMethod::RegionGrow: return "3.2.4";
    }
    return "?";
}

TEST(SegmentMesh, InvalidInputsThrow)
{
    const Mesh capsule = test::capsuleMesh(Vec3(0, 0, 0), Vec3(1, 0, 0), 0.1);
    const Skeleton k = chain({Vec3(0, 0, 0), Vec3(0.5, 0, 0), Vec3(1, 0, 0)});
    EXPECT_THROW(segmentMesh(Mesh{}, k, nullptr), InvalidInput);
    EXPECT_THROW(segmentMesh(capsule, chain({Vec3(0, 0, 0)}), nullptr), InvalidInput);
    Mesh nan = capsule;
    nan.V(3, 1) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(segmentMesh(nan, k, nullptr), InvalidInput);
    Mesh badFace = capsule;
    badFace.F(0, 0) = static_cast<int>(capsule.V.rows());
    EXPECT_THROW(segmentMesh(badFace, k, nullptr), InvalidInput);
    Skeleton badParents = k;
    badParents.parents[1] = 2;
    EXPECT_THROW(segmentMesh(capsule, badParents, nullptr), InvalidInput);
    try {
        segmentMesh(capsule, k, nullptr, {.method = SegmentationMethod::LineOfSight});
        FAIL() << "expected rig::InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("rig::segmentMesh()"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("voxel solid"), std::string::npos) << e.what();
    }
    const VoxelGrid empty;
    EXPECT_THROW(segmentMesh(capsule, k, &empty, {.method = SegmentationMethod::LineOfSight}), InvalidInput);
    EXPECT_THROW(segmentMesh(capsule, k, nullptr, {.hierarchyLevel = -1}), InvalidInput);
    EXPECT_THROW(segmentMesh(capsule, k, nullptr, {.maxNormalAngleDegrees = 200.0}), InvalidInput);
}

// A capsule along x around a straight 3-joint chain: every method cuts it at
// the middle joint, and δ is the projection along each link.
TEST(SegmentMesh, CapsuleSplitsAtTheMiddleJoint)
{
    const Mesh capsule = test::capsuleMesh(Vec3(0, 0, 0), Vec3(1, 0, 0), 0.1, 24, 8, 20);
    const Skeleton k = chain({Vec3(0, 0, 0), Vec3(0.5, 0, 0), Vec3(1, 0, 0)});
    const VoxelGrid solid = solidOf(capsule, 48);
    for (auto m : {SegmentationMethod::NearestLink, SegmentationMethod::LineOfSight, SegmentationMethod::RegionGrow}) {
        const Segmentation s = segmentMesh(capsule, k, &solid, {.method = m});
        ASSERT_NO_THROW(validateSegmentation(s, capsule.vertexCount(), k.jointCount()));
        for (int i = 0; i < capsule.vertexCount(); ++i) {
            const double x = capsule.V(i, 0);
            const int b = s.bone[static_cast<size_t>(i)];
            const double d = s.delta[static_cast<size_t>(i)];
            if (x < 0.47) {
                EXPECT_EQ(b, 1) << methodName(m) << " vertex " << i << " x " << x;
                EXPECT_NEAR(d, std::clamp(x / 0.5, 0.0, 1.0), 1e-9);
            } else if (x > 0.53) {
                EXPECT_EQ(b, 2) << methodName(m) << " vertex " << i << " x " << x;
                EXPECT_NEAR(d, std::clamp((x - 0.5) / 0.5, 0.0, 1.0), 1e-9);
            }
        }
    }
}

// After the region merge of 3.2.4 each link's region is one connected piece
// of the (single-part) character.
TEST(SegmentMesh, RegionsAreConnectedAfterMerge)
{
    const RiggedHumanoid& r = riggedHumanoid(HumanoidPose::A);
    const Segmentation s = segmentMesh(r.humanoid.mesh, r.rig, &r.curve.solid);
    ASSERT_NO_THROW(validateSegmentation(s, r.humanoid.mesh.vertexCount(), r.rig.jointCount()));
    // Count connected subsets per link over the mesh's edges.
    const int n = r.humanoid.mesh.vertexCount();
    std::vector<int> parent(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        parent[static_cast<size_t>(i)] = i;
    std::function<int(int)> find = [&](int x) {
        while (parent[static_cast<size_t>(x)] != x)
            x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
        return x;
    };
    const MatrixX3i& F = r.humanoid.mesh.F;
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int k = 0; k < 3; ++k) {
            const int a = F(f, k), b = F(f, (k + 1) % 3);
            if (s.bone[static_cast<size_t>(a)] == s.bone[static_cast<size_t>(b)])
                parent[static_cast<size_t>(find(a))] = find(b);
        }
    std::map<int, std::set<int>> rootsPerBone;
    for (int i = 0; i < n; ++i)
        rootsPerBone[s.bone[static_cast<size_t>(i)]].insert(find(i));
    for (const auto& [bone, roots] : rootsPerBone)
        EXPECT_EQ(roots.size(), 1u) << r.rig.names[static_cast<size_t>(bone)] << " has " << roots.size() << " pieces";
}

enum class RigKind { Fitted, Truth };

class SegmentHumanoid : public ::testing::TestWithParam<std::tuple<HumanoidPose, SegmentationMethod, RigKind>> {};

TEST_P(SegmentHumanoid, AgreesWithTheBodyParts)
{
    const auto [pose, method, kind] = GetParam();
    const RiggedHumanoid& r = riggedHumanoid(pose);
    const Skeleton& k = kind == RigKind::Fitted ? r.rig : r.truth;
    const Mesh& mesh = r.humanoid.mesh;
    const Segmentation s = segmentMesh(mesh, k, &r.curve.solid, {.method = method});
    ASSERT_NO_THROW(validateSegmentation(s, mesh.vertexCount(), k.jointCount()));
    for (int b : s.bone)
        ASSERT_GE(b, 1) << "every vertex lies on a link";
    const Agreement a = agreement(r, k, s);
    std::cout << "[ segment  ] " << humanoidPoseName(pose) << " " << methodName(method)
              << (kind == RigKind::Fitted ? " fitted rig" : " true joints") << ": parts " << 100.0 * a.part
              << "%, limbs " << 100.0 * a.limb << "% of " << mesh.vertexCount() << " vertices\n";
    for (const auto& [what, count] : a.confusion)
        if (count * 200 > mesh.vertexCount())
            std::cout << "             " << what << ": " << count << "\n";
    RecordProperty("partAgreementPercent", std::to_string(100.0 * a.part));
    // Thresholds a little below the measured figures (bench/README.md, Weights). With
    // the arms fitted from the shoulders the fitted rig agrees about as well as
    // the generator's joints. 3.2.4 reaches 97 % in every pose with both rigs.
    // The fitted T-pose (96.6 % before) had its right elbow and wrist 3-4 cm
    // inwards (a kink of the curve skeleton's spine tilted the clavicles'
    // step) and its arms 3 % short (the T-pose's spine scale): the clavicles
    // now step up along the spine less its sideways tilt, and the arms scale
    // by the body's scale (97.5 %). The fitted sitting pose (96.9 % before)
    // had its knees 4 cm down the shin (a curve skeleton rounds a bent knee
    // off), so the thigh kept about 90 shin vertices per knee: bent knees are
    // now placed where the leg's straight stretches meet (97.1 %; knees bent
    // went from 97.8 to 97.1 %, as the generator's joints' 97.6 %: the
    // accurate knee gives the thigh's front to the shin as the true one does).
    // The bent knees were below 97 % (96.7 % with the generator's joints)
    // until the front of a bent knee stayed on the thigh (the hinge exception
    // to the joint rule; before it, of the 181 left-thigh vertices on the shin
    // in knees-bent with the generator's joints, 92 went there by the joint
    // rule, 59 were never thigh candidates, 30 were nearer to the shin, and
    // the region merge moved none).
    // With the arms down, the plain nearest-link rule (3.2.1) gives hip and
    // thigh vertices to the hands; the line of sight (3.2.2) and the region
    // growing (3.2.4) do not.
    const bool grow = method == SegmentationMethod::RegionGrow;
    const bool nearest = method == SegmentationMethod::NearestLink;
    EXPECT_GE(a.part, grow ? 0.97 : 0.95);
    EXPECT_GE(a.limb, kind == RigKind::Truth ? (nearest ? 0.98 : 0.99) : (nearest ? 0.98 : 0.985));
    EXPECT_EQ(a.armToOtherLimb, 0) << "left/right arm vertices on the other arm or a leg";
    EXPECT_EQ(a.legToOtherLimb, 0) << "leg vertices on the other leg or an arm";
}

INSTANTIATE_TEST_SUITE_P(
    Poses, SegmentHumanoid,
    ::testing::Combine(::testing::ValuesIn(allHumanoidPoses()),
                       ::testing::Values(SegmentationMethod::NearestLink, SegmentationMethod::LineOfSight,
                                         SegmentationMethod::RegionGrow),
                       ::testing::Values(RigKind::Fitted, RigKind::Truth)),
    [](const ::testing::TestParamInfo<std::tuple<HumanoidPose, SegmentationMethod, RigKind>>& info) {
        std::string name(humanoidPoseName(std::get<0>(info.param)));
        name += std::string("_") + methodName(std::get<1>(info.param));
        name += std::get<2>(info.param) == RigKind::Fitted ? "_fitted" : "_truth";
        std::erase(name, '.');
        std::erase(name, '-');
        return name;
    });

// 3.2.4 at the joints, with the generator's joints: past the end of the
// thigh the front of a bent knee stays on the thigh (the thigh ends thicker
// than the shin starts), while past the end of the shin the heel goes with
// the foot, and the top of the shoulder with the upper arm (not a hinge: the
// clavicle is short and thick).
TEST(SegmentMesh, BentKneesStayOnTheThighHeelsGoWithTheFoot)
{
    for (const HumanoidPose pose : {HumanoidPose::ArmsDown, HumanoidPose::KneesBent, HumanoidPose::Sitting}) {
        const RiggedHumanoid& r = riggedHumanoid(pose);
        const Segmentation s = segmentMesh(r.humanoid.mesh, r.truth, &r.curve.solid);
        const Agreement a = agreement(r, r.truth, s);
        auto count = [&](const std::string& what) {
            const auto it = a.confusion.find(what);
            return it == a.confusion.end() ? 0 : it->second;
        };
        for (const std::string side : {"Left", "Right"}) {
            const int knee = count(side + "Thigh -> " + side + "Leg");
            const int heel = count(side + "Foot -> " + side + "Leg");
            const int shoulder = count(side + "UpperArm -> " + side + "Shoulder");
            std::cout << "[ segment  ] " << humanoidPoseName(pose) << " " << side << ": thigh on the shin " << knee
                      << ", foot on the shin " << heel << ", upper arm on the clavicle " << shoulder << "\n";
            EXPECT_LT(knee, 120) << humanoidPoseName(pose) << " " << side; // 181-250 without the hinge exception
            EXPECT_LT(heel, 60) << humanoidPoseName(pose) << " " << side;  // ~175 without the joint rule
            EXPECT_LT(shoulder, 60) << humanoidPoseName(pose) << " " << side;
        }
    }
}

// Eyeballs as separate parts inside the head, and a detached prop far from
// every link: all vertices segmented, each small part bound to one link.
TEST(SegmentMesh, SeparatePartsGetOneLinkEach)
{
    const RiggedHumanoid& r = riggedHumanoid(HumanoidPose::A);
    // Inside the head, in front (the generator's head joint is at its base).
    const Vec3 head = r.humanoid.joints.row(jointIndex(HumanoidJoint::Head)).transpose();
    const Mesh eyeL = test::capsuleMesh(head + Vec3(0.03, 0.1, 0.07), head + Vec3(0.031, 0.1, 0.07), 0.012, 12, 4, 1);
    const Mesh eyeR = test::capsuleMesh(head + Vec3(-0.03, 0.1, 0.07), head + Vec3(-0.031, 0.1, 0.07), 0.012, 12, 4, 1);
    const Mesh prop = test::boxMesh(Vec3(0.6, 0.1, 0.5), Vec3(0.65, 0.15, 0.55));
    const Mesh all = test::concat({r.humanoid.mesh, eyeL, eyeR, prop});
    const Segmentation s = segmentMesh(all, r.rig, &r.curve.solid);
    ASSERT_NO_THROW(validateSegmentation(s, all.vertexCount(), r.rig.jointCount()));
    const int body = r.humanoid.mesh.vertexCount();
    auto boneOfPart = [&](int first, int count) {
        std::set<int> bones;
        for (int i = first; i < first + count; ++i)
            bones.insert(s.bone[static_cast<size_t>(i)]);
        return bones;
    };
    const std::set<int> left = boneOfPart(body, eyeL.vertexCount());
    const std::set<int> right = boneOfPart(body + eyeL.vertexCount(), eyeR.vertexCount());
    ASSERT_EQ(left.size(), 1u);
    ASSERT_EQ(right.size(), 1u);
    EXPECT_EQ(r.rig.names[static_cast<size_t>(*left.begin())], "Head");
    EXPECT_EQ(r.rig.names[static_cast<size_t>(*right.begin())], "Head");
    const std::set<int> p = boneOfPart(body + eyeL.vertexCount() + eyeR.vertexCount(), prop.vertexCount());
    EXPECT_EQ(p.size(), 1u);
    for (int b : s.bone)
        EXPECT_GE(b, 1);
}

// A separate part that a short leaf link points at from afar (a thumb in an
// A-pose pointing at the top of a separate leg, re_male with fingers): the
// part lies beyond the leaf's end, so all of it is the leaf's candidate, and
// the face of the part turned towards its own link fails that link's
// belonging test. Seeded on that part, the leaf took those vertices; it may
// only seed on a part where it is some vertex's nearest link.
TEST(SegmentMesh, AFarLeafDoesNotSeedOnAPartNearerToOtherLinks)
{
    Skeleton k;
    k.names = {"Root", "Up", "Arm", "Thumb"};
    k.parents = {-1, 0, 0, 2};
    k.bindPositions.resize(4, 3);
    k.bindPositions << 0, 0, 0, 0, 1, 0, 2, 0.5, 0, 1.6, 0.5, 0;
    k.bindOrientations.assign(4, Eigen::Quaterniond::Identity());
    const Mesh trunk = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, 1, 0), 0.1, 16, 6, 4);
    const Mesh arm = test::capsuleMesh(Vec3(0.4, 0.1, 0), Vec3(1.9, 0.5, 0), 0.06, 16, 6, 4);
    const Mesh part = test::boxMesh(Vec3(0.15, 0.7, -0.1), Vec3(0.35, 0.9, 0.1));
    const Mesh all = test::concat({trunk, arm, part});
    const Segmentation s = segmentMesh(all, k, nullptr);
    ASSERT_NO_THROW(validateSegmentation(s, all.vertexCount(), k.jointCount()));
    const int first = trunk.vertexCount() + arm.vertexCount();
    std::map<std::string, int> owners;
    for (int i = first; i < all.vertexCount(); ++i)
        ++owners[k.names[static_cast<size_t>(s.bone[static_cast<size_t>(i)])]];
    for (const auto& [name, count] : owners)
        std::cout << "  part vertices on " << name << ": " << count << "\n";
    EXPECT_EQ(owners.count("Thumb"), 0u);
}

// Hierarchy level of the 3.2.2 post-process: 0 gives the raw line-of-sight
// answer; with 1 a vertex may only move to a nearer parent or child link.
TEST(SegmentMesh, PostProcessOnlyMovesToNearerLinks)
{
    const RiggedHumanoid& r = riggedHumanoid(HumanoidPose::A);
    const Mesh& mesh = r.humanoid.mesh;
    const Segmentation raw = segmentMesh(mesh, r.rig, &r.curve.solid,
                                         {.method = SegmentationMethod::LineOfSight, .hierarchyLevel = 0});
    const Segmentation post = segmentMesh(mesh, r.rig, &r.curve.solid,
                                          {.method = SegmentationMethod::LineOfSight, .hierarchyLevel = 1});
    auto dist = [&](int i, int c) {
        const Vec3 p = mesh.V.row(i).transpose();
        const Vec3 a = r.rig.bindPositions.row(r.rig.parents[static_cast<size_t>(c)]).transpose();
        const Vec3 b = r.rig.bindPositions.row(c).transpose();
        const double d = std::clamp(linkDelta(p, a, b), 0.0, 1.0);
        return (p - a - d * (b - a)).norm();
    };
    int moved = 0;
    for (int i = 0; i < mesh.vertexCount(); ++i) {
        const int b0 = raw.bone[static_cast<size_t>(i)], b1 = post.bone[static_cast<size_t>(i)];
        if (b0 == b1)
            continue;
        ++moved;
        EXPECT_LT(dist(i, b1), dist(i, b0) + 1e-12);
        EXPECT_TRUE(r.rig.parents[static_cast<size_t>(b0)] == b1 || r.rig.parents[static_cast<size_t>(b1)] == b0)
            << "vertex " << i << " moved from " << b0 << " to " << b1;
    }
    std::cout << "[ segment  ] 3.2.2 post-process (hLevel 1) moved " << moved << " vertices\n";
}

} // namespace
} // namespace rig
