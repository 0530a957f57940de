#include "core/motion/retarget.h"

#include "core/character/humanoid.h"
#include "core/common/error.h"
#include "core/motion/bvh_file.h"
#include "core/rig/fit_template.h"
#include "core/rig/template.h"

#include "tests/support/motions.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <numbers>
#include <random>

#include <unistd.h>

#ifndef RIGSMITH_ASSIMP_MODELS
#define RIGSMITH_ASSIMP_MODELS "/usr/share/assimp/models"
#endif

namespace rig {
namespace {

using Quat = Eigen::Quaterniond;

const std::string bvhDir = std::string(RIGSMITH_ASSIMP_MODELS) + "/BVH/";

#define SKIP_WITHOUT_CLIPS()                                                                                           \
    if (!std::filesystem::exists(bvhDir + "01_01.bvh"))                                                                \
    GTEST_SKIP() << "assimp-testmodels is not installed (" << bvhDir << ")"

const Motion& cmuClip(const std::string& name)
{
    static std::map<std::string, Motion> cache;
    auto it = cache.find(name);
    if (it == cache.end())
        it = cache.emplace(name, readBvh(bvhDir + name)).first;
    return it->second;
}

Vec3 row(const MatrixX3d& m, int i) { return m.row(i).transpose(); }

double degrees(double radians) { return radians * 180.0 / std::numbers::pi; }

using test::makeMotion;

/// Sets joint j's Z, Y, X rotation (degrees) in frame f.
void setRotation(Motion& m, int f, int j, double z, double y, double x)
{
    const int c = m.channelStarts[static_cast<size_t>(j)] + (j == 0 ? 3 : 0);
    m.frames(f, c) = z;
    m.frames(f, c + 1) = y;
    m.frames(f, c + 2) = x;
}

/// The humanoid21 template as a clip skeleton (T-pose, metres), with its names
/// optionally prefixed.
Motion templateMotion(int frames, const std::string& prefix = "")
{
    const RigTemplate t = builtinTemplate("humanoid21");
    std::vector<std::string> names;
    for (const auto& n : t.names)
        names.push_back(prefix + n);
    return makeMotion(names, t.parents, t.offsets, frames);
}

/// A skeleton with Rigsmith bind frames (+Y along the bone) from joint positions.
Skeleton orientedSkeleton(std::vector<std::string> names, std::vector<int> parents, const MatrixX3d& positions)
{
    Skeleton k;
    k.names = std::move(names);
    k.parents = std::move(parents);
    k.bindPositions = positions;
    k.bindOrientations.assign(k.names.size(), Quat::Identity());
    orientBones(k);
    return k;
}

/// The 21-joint template fitted to the default character: the generator's
/// ground-truth joints of the default (A) pose with Rigsmith bind frames (what
/// `rigsmith fit default` produces up to the fit's ~1% joint error).
const Skeleton& defaultRig()
{
    static const Skeleton k = [] {
        const Humanoid h = generateHumanoid({.pose = HumanoidPose::A, .height = 1.75, .cellSize = 0.05});
        return orientedSkeleton(h.jointNames, h.jointParents, h.joints);
    }();
    return k;
}

/// Random small rotations on every joint and a drifting root.
Motion randomClip(Motion m, int frames, unsigned seed)
{
    m.frames = MotionFrames::Zero(frames, m.channelCount());
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> angle(-60.0, 60.0), shift(-0.3, 0.3);
    for (int f = 0; f < frames; ++f) {
        for (int a = 0; a < 3; ++a)
            m.frames(f, a) = m.offsets(0, a) + shift(rng);
        for (int j = 0; j < m.jointCount(); ++j)
            setRotation(m, f, j, angle(rng), angle(rng), angle(rng));
    }
    return m;
}

int jointOf(const Skeleton& k, const std::string& name)
{
    const auto j = k.find(name);
    EXPECT_TRUE(j.has_value()) << name;
    return j.value_or(0);
}

int jointOf(const Motion& m, const std::string& name)
{
    const auto j = m.find(name);
    EXPECT_TRUE(j.has_value()) << name;
    return j.value_or(0);
}

std::vector<std::string> sourceNamesOf(const RetargetMapping& m, int target)
{
    std::vector<std::string> out;
    for (const auto& s : m.joints[static_cast<size_t>(target)].sources)
        out.push_back(m.sourceNames[static_cast<size_t>(s.joint)]);
    return out;
}

bool allFinite(const RetargetedClip& c)
{
    for (const Pose& p : toPoses(c.frames)) {
        if (!p.rootTranslation.allFinite())
            return false;
        for (const Quat& q : p.localRotations)
            if (!q.coeffs().allFinite() || std::abs(q.norm() - 1.0) > 1e-9)
                return false;
    }
    return true;
}

/// Pearson correlation of two 3D trajectories (x, y, z per sample), each axis
/// centred on its own mean: how well the motion follows, whatever the offsets.
double correlation(const std::vector<double>& a, const std::vector<double>& b)
{
    const size_t n = a.size() / 3;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t axis = 0; axis < 3; ++axis) {
        double ma = 0, mb = 0;
        for (size_t i = 0; i < n; ++i) {
            ma += a[3 * i + axis];
            mb += b[3 * i + axis];
        }
        ma /= static_cast<double>(n);
        mb /= static_cast<double>(n);
        for (size_t i = 0; i < n; ++i) {
            const double x = a[3 * i + axis] - ma, y = b[3 * i + axis] - mb;
            sab += x * y;
            saa += x * x;
            sbb += y * y;
        }
    }
    return sab / std::sqrt(saa * sbb);
}

// ---------------------------------------------------------------- invalid input first

TEST(Retarget, MalformedInputsGiveClearErrors)
{
    const Skeleton& target = defaultRig();
    EXPECT_THROW(mapSkeletons(Motion{}, target), InvalidInput);
    Motion noFrames = templateMotion(0);
    // The default rest rule (no bind pose, no frame 0) takes the zero pose;
    // asking for frame 0 of a clip without frames is an error.
    EXPECT_EQ(mapSkeletons(noFrames, target).restUsed, RetargetRest::Zero);
    try {
        mapSkeletons(noFrames, target, {.rest = RetargetRest::FirstFrame});
        FAIL() << "expected rig::InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("no frames"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(mapSkeletons(noFrames, target, {.rest = RetargetRest::Zero}));
    EXPECT_THROW(retargetClip(noFrames, target, {.rest = RetargetRest::Zero}), InvalidInput);

    Skeleton broken = target;
    broken.parents[3] = 5;
    EXPECT_THROW(mapSkeletons(templateMotion(2), broken), InvalidInput);
    RetargetOptions zeroStep;
    zeroStep.frameStep = 0;
    EXPECT_THROW(retargetClip(templateMotion(2), target, zeroStep), InvalidInput);

    const Motion src = templateMotion(2);
    RetargetMapping m = mapSkeletons(src, target);
    RetargetMapping wrong = m;
    wrong.joints[3].sources = {{99, 1.0}};
    EXPECT_THROW(retargetClip(src, target, wrong), InvalidInput);
    wrong = m;
    wrong.joints[3].sources = {{1, -0.5}};
    EXPECT_THROW(retargetClip(src, target, wrong), InvalidInput);
    wrong = m;
    wrong.joints[3].sources = {{1, 0.0}};
    EXPECT_THROW(retargetClip(src, target, wrong), InvalidInput);
    wrong = m;
    wrong.joints.pop_back();
    EXPECT_THROW(retargetClip(src, target, wrong), InvalidInput);
    try {
        retargetClip(templateMotion(2, "other:"), target, m);
        FAIL() << "expected rig::InvalidInput";
    } catch (const InvalidInput& e) {
        EXPECT_NE(std::string(e.what()).find("another source skeleton"), std::string::npos) << e.what();
    }
    EXPECT_THROW(setRetargetSources(m, "Tail", {}), InvalidInput);
    EXPECT_THROW(setRetargetSources(m, "Head", {{"Nose", 1.0}}), InvalidInput);
    EXPECT_THROW(setRetargetSources(m, "Head", {{"Neck", -1.0}}), InvalidInput);
    EXPECT_THROW(setRetargetSources(m, "Head", {{"Neck", 0.0}}), InvalidInput);
    std::atomic<bool> cancel{true};
    Progress cancelled;
    cancelled.cancelFlag = &cancel;
    EXPECT_THROW(retargetClip(src, target, {}, cancelled), Cancelled);
    EXPECT_THROW(parseRetargetRest("tpose"), InvalidInput);
    EXPECT_EQ(parseRetargetRest("zero"), RetargetRest::Zero);
    EXPECT_EQ(parseRetargetRest(retargetRestName(RetargetRest::FirstFrame)), RetargetRest::FirstFrame);
}

// ---------------------------------------------------------------- self retargeting

void expectSelfRetargetExact(const Motion& clip, int step, const char* what)
{
    const Skeleton self = motionSkeleton(clip);
    RetargetOptions o{.rest = RetargetRest::Zero, .rootHeightFromGround = false, .keepFeetOnGround = false, .frameStep = step};
    const RetargetedClip r = retargetClip(clip, self, o);
    ASSERT_TRUE(allFinite(r));
    for (int j = 0; j < self.jointCount(); ++j)
        EXPECT_EQ(sourceNamesOf(r.mapping, j), std::vector<std::string>{self.names[static_cast<size_t>(j)]})
            << what << ": " << self.names[static_cast<size_t>(j)];
    const double height = r.sourceHeight;
    double worst = 0.0;
    for (size_t f = 0; f < r.frames.size(); ++f) {
        const MatrixX3d want = worldPositions(clip, static_cast<int>(f) * step);
        const MatrixX3d got = forwardKinematics(self, r.frames.pose(f)).positions;
        worst = std::max(worst, (want - got).rowwise().norm().maxCoeff() / height);
    }
    std::cout << "[ self     ] " << what << ": " << r.frames.size() << " frames, max joint error " << worst
              << " of height\n";
    ::testing::Test::RecordProperty(std::string("selfMaxError_") + what, std::to_string(worst));
    EXPECT_LT(worst, 1e-4) << what;
}

TEST(Retarget, OntoItsOwnSkeletonReproducesWorldPositions)
{
    expectSelfRetargetExact(randomClip(templateMotion(0), 40, 7), 1, "random");
    SKIP_WITHOUT_CLIPS();
    expectSelfRetargetExact(cmuClip("01_01.bvh"), 5, "01_01");
    expectSelfRetargetExact(cmuClip("Boxing_Toes.bvh"), 10, "Boxing_Toes");
}

// ---------------------------------------------------------------- rest poses

TEST(Retarget, TPoseOntoTPoseStaysTPose)
{
    // Source: the template with other proportions (arms 30% longer, legs 20%
    // shorter, 40x larger units), Mixamo names; target: the template itself.
    const RigTemplate t = builtinTemplate("humanoid21");
    Motion src = templateMotion(3, "mixamorig:");
    for (int j = 1; j < src.jointCount(); ++j) {
        const double k = t.chains[static_cast<size_t>(j)] == Chain::LeftArm || t.chains[static_cast<size_t>(j)] == Chain::RightArm ? 1.3
                         : t.chains[static_cast<size_t>(j)] == Chain::LeftLeg || t.chains[static_cast<size_t>(j)] == Chain::RightLeg ? 0.8
                                                                                                                         : 1.0;
        src.offsets.row(j) *= 40.0 * k;
    }
    src.offsets.row(0) *= 40.0;
    const Skeleton target = orientedSkeleton(t.names, t.parents, t.restPositions);
    for (RetargetRest rest : {RetargetRest::FirstFrame, RetargetRest::Zero}) {
        const RetargetedClip r = retargetClip(src, target, {.rest = rest});
        ASSERT_EQ(r.frames.size(), 3u);
        EXPECT_EQ(r.mapping.mappedCount(), target.jointCount());
        for (const Pose& p : toPoses(r.frames)) {
            for (size_t j = 0; j < p.localRotations.size(); ++j)
                EXPECT_LT(degrees(p.localRotations[j].angularDistance(Quat::Identity())), 1e-6) << target.names[j];
            EXPECT_LT(p.rootTranslation.norm(), 1e-9);
        }
        EXPECT_NEAR(r.mapping.translationScale, 1.0 / (40.0 * 0.8), 0.01);
    }
}

TEST(Retarget, RestOffsetTakesAnAPoseTargetToTheSourceTPose)
{
    // The default character is in an A-pose; a source standing in its T-pose
    // makes the target's arms horizontal, the world direction of every limb
    // bone the source's.
    const Skeleton& target = defaultRig();
    const Motion src = templateMotion(1);
    const RetargetedClip r = retargetClip(src, target);
    const PosedSkeleton posed = forwardKinematics(target, r.frames.pose(0));
    const MatrixX3d want = worldPositions(src, 0);
    for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
             {"LeftArm", "LeftForeArm"}, {"LeftForeArm", "LeftHand"}, {"RightArm", "RightForeArm"},
             {"LeftUpLeg", "LeftLeg"}, {"RightLeg", "RightFoot"}, {"Neck", "Head"}}) {
        const Vec3 dt = (row(posed.positions, jointOf(target, b)) - row(posed.positions, jointOf(target, a))).normalized();
        const Vec3 ds = (row(want, jointOf(src, b)) - row(want, jointOf(src, a))).normalized();
        EXPECT_LT(degrees(std::acos(std::clamp(dt.dot(ds), -1.0, 1.0))), 1e-6) << a << " -> " << b;
    }
}

// ---------------------------------------------------------------- names

TEST(Retarget, MirroredNamesAreOverruledByGeometry)
{
    // Mixamo-prefixed names on a mirrored skeleton: its "Left" limbs lie on -X
    // while its toes point to +Z, so they are the character's right. Left and
    // right come from geometry (issue 22: names alone mapped artists' rigs
    // wrongly), and the disagreement is reported.
    Motion src = templateMotion(2, "mixamorig1:");
    src.offsets.col(0) *= -1.0;
    const Skeleton& target = defaultRig();
    auto mirrored = [](std::string n) {
        if (n.rfind("Left", 0) == 0)
            return "Right" + n.substr(4);
        return "Left" + n.substr(5);
    };
    const RetargetMapping m = mapSkeletons(src, target);
    for (const char* n : {"LeftArm", "LeftForeArm", "LeftHand", "RightUpLeg", "RightLeg", "RightFoot", "LeftShoulder"})
        EXPECT_EQ(sourceNamesOf(m, jointOf(target, n)), std::vector<std::string>{"mixamorig1:" + mirrored(n)})
            << n << "\n" << formatMappingTable(m);
    const std::string table = formatMappingTable(m);
    EXPECT_NE(table.find("named as the other side"), std::string::npos) << table;
    const RetargetMapping byShape = mapSkeletons(src, target, {.useNames = false});
    EXPECT_EQ(sourceNamesOf(byShape, jointOf(target, "LeftForeArm")), std::vector<std::string>{"mixamorig1:RightForeArm"});
}

TEST(Retarget, BiovisionCollarAndShoulderMapToClavicleAndUpperArm)
{
    SKIP_WITHOUT_CLIPS();
    const Motion& boxing = cmuClip("Boxing_Toes.bvh");
    const Skeleton& target = defaultRig();
    const RetargetMapping m = mapSkeletons(boxing, target, {.rest = RetargetRest::Zero});
    EXPECT_EQ(sourceNamesOf(m, jointOf(target, "LeftShoulder")), std::vector<std::string>{"LeftCollar"});
    EXPECT_EQ(sourceNamesOf(m, jointOf(target, "LeftArm")), std::vector<std::string>{"LeftShoulder"});
    EXPECT_EQ(sourceNamesOf(m, jointOf(target, "RightForeArm")), std::vector<std::string>{"RightElbow"});
    EXPECT_EQ(sourceNamesOf(m, jointOf(target, "LeftLeg")), std::vector<std::string>{"LeftKnee"});
    EXPECT_EQ(sourceNamesOf(m, jointOf(target, "RightToeBase")), std::vector<std::string>{"RightToes"});
    EXPECT_EQ(m.mappedCount(), target.jointCount());
}

TEST(Retarget, UserEditedMappingIsUsed)
{
    // The artist drives the left forearm by the source's right forearm: the
    // target's left forearm bone then points where the source's right one does.
    const RigTemplate t = builtinTemplate("humanoid21");
    const Skeleton target = orientedSkeleton(t.names, t.parents, t.restPositions);
    const Motion src = randomClip(templateMotion(0), 8, 5);
    RetargetMapping m = mapSkeletons(src, target, {.rest = RetargetRest::Zero});
    setRetargetSources(m, "LeftForeArm", {{"RightForeArm", 2.0}});
    const int fore = jointOf(target, "LeftForeArm");
    EXPECT_EQ(m.joints[static_cast<size_t>(fore)].match, RetargetMatch::User);
    EXPECT_DOUBLE_EQ(m.joints[static_cast<size_t>(fore)].sources[0].weight, 1.0);
    const RetargetedClip r = retargetClip(src, target, m, {.rest = RetargetRest::Zero});
    EXPECT_NE(formatMappingTable(r.mapping).find("user"), std::string::npos);
    for (size_t f = 0; f < r.frames.size(); ++f) {
        const MatrixX3d ps = worldPositions(src, static_cast<int>(f));
        const MatrixX3d pt = forwardKinematics(target, r.frames.pose(f)).positions;
        const Vec3 ds = (row(ps, jointOf(src, "RightHand")) - row(ps, jointOf(src, "RightForeArm"))).normalized();
        const Vec3 dt = (row(pt, jointOf(target, "LeftHand")) - row(pt, fore)).normalized();
        EXPECT_LT((ds - dt).norm(), 1e-9) << f;
    }
    // Unmapping by hand is still the artist's edit: no sources, match User.
    setRetargetSources(m, "LeftForeArm", {});
    EXPECT_TRUE(m.joints[static_cast<size_t>(fore)].sources.empty());
    EXPECT_EQ(m.joints[static_cast<size_t>(fore)].match, RetargetMatch::User);
}

// ---------------------------------------------------------------- different joint counts

// Hips -> spine joints (up) -> Head, legs Hips -> Knee -> Foot; `spine` joints
// of equal length between the hips and the neck.
MatrixX3d chainOffsets(int spine, std::vector<std::string>& names, std::vector<int>& parents)
{
    names = {"Hips"};
    parents = {-1};
    std::vector<Vec3> off = {Vec3(0, 1, 0)};
    for (int k = 0; k < spine; ++k) {
        names.push_back(k == 0 ? "Spine" : "Spine" + std::to_string(k));
        parents.push_back(static_cast<int>(names.size()) - 2);
        off.emplace_back(0, 0.6 / spine, 0);
    }
    names.push_back("Neck");
    parents.push_back(static_cast<int>(names.size()) - 2);
    off.emplace_back(0, 0.6 / spine, 0);
    for (const char* side : {"Left", "Right"}) {
        const double x = side[0] == 'L' ? 0.1 : -0.1;
        names.push_back(std::string(side) + "UpLeg");
        parents.push_back(0);
        off.emplace_back(x, 0, 0);
        names.push_back(std::string(side) + "Leg");
        parents.push_back(static_cast<int>(names.size()) - 2);
        off.emplace_back(0, -0.5, 0);
        names.push_back(std::string(side) + "Foot");
        parents.push_back(static_cast<int>(names.size()) - 2);
        off.emplace_back(0, -0.5, 0);
    }
    MatrixX3d o(static_cast<Eigen::Index>(off.size()), 3);
    for (size_t i = 0; i < off.size(); ++i)
        o.row(static_cast<Eigen::Index>(i)) = off[i].transpose();
    return o;
}

Skeleton skeletonOf(const Motion& m) { return orientedSkeleton(m.names, m.parents, motionSkeleton(m).bindPositions); }

// Angle between the hips -> neck directions of the source (frame f) and the retargeted target.
double neckDirectionError(const Motion& src, const Skeleton& target, const RetargetedClip& r, int f)
{
    const MatrixX3d ps = worldPositions(src, f);
    const MatrixX3d pt = forwardKinematics(target, r.frames.pose(static_cast<size_t>(f))).positions;
    const Vec3 ds = (row(ps, jointOf(src, "Neck")) - row(ps, 0)).normalized();
    const Vec3 dt = (row(pt, jointOf(target, "Neck")) - row(pt, 0)).normalized();
    return degrees(std::acos(std::clamp(ds.dot(dt), -1.0, 1.0)));
}

TEST(Retarget, MoreTargetSpineJointsFollowTheCoveringSourceBones)
{
    std::vector<std::string> sn, tn;
    std::vector<int> sp, tp;
    Motion src = makeMotion({}, {}, MatrixX3d(), 0);
    {
        const MatrixX3d so = chainOffsets(2, sn, sp);
        src = makeMotion(sn, sp, so, 2);
    }
    setRotation(src, 1, jointOf(src, "Spine"), 0, 0, 30);  // bend forward
    setRotation(src, 1, jointOf(src, "Spine1"), 0, 0, 20);
    const MatrixX3d to = chainOffsets(4, tn, tp);
    const Skeleton target = skeletonOf(makeMotion(tn, tp, to, 1));
    double errors[2] = {0.0, 0.0};
    for (bool cover : {true, false}) {
        const RetargetedClip r = retargetClip(src, target, {.coverUnpaired = cover});
        ASSERT_TRUE(allFinite(r));
        const auto& j = r.mapping.joints;
        // Target bones end at 0.2, 0.4, ... 1 of the spine, the source's at 1/3,
        // 2/3, 1: Spine3's bone pairs with Spine1's, Spine2's has no partner.
        EXPECT_EQ(j[static_cast<size_t>(jointOf(target, "Spine3"))].match, RetargetMatch::Length);
        EXPECT_EQ(sourceNamesOf(r.mapping, jointOf(target, "Spine3")), std::vector<std::string>{"Spine1"});
        EXPECT_EQ(sourceNamesOf(r.mapping, jointOf(target, "Spine1")), std::vector<std::string>{"Spine"});
        const int spine2 = jointOf(target, "Spine2");
        errors[cover ? 0 : 1] = neckDirectionError(src, target, r, 1);
        if (cover) {
            EXPECT_EQ(j[static_cast<size_t>(spine2)].match, RetargetMatch::Covered);
            EXPECT_EQ(sourceNamesOf(r.mapping, spine2), std::vector<std::string>{"Spine1"});
        } else {
            EXPECT_EQ(j[static_cast<size_t>(spine2)].match, RetargetMatch::Unmapped);
            EXPECT_LT(degrees(r.frames.pose(1).localRotations[static_cast<size_t>(spine2)].angularDistance(Quat::Identity())), 1e-9);
        }
    }
    // The neck ends up in the source's direction: closely when the unpaired
    // bone follows its covering source bone, less so with the thesis's identity.
    EXPECT_LT(errors[0], 2.0);
    EXPECT_LT(errors[1], 8.0);
    EXPECT_LT(errors[0], errors[1]);
}

TEST(Retarget, FewerTargetSpineJointsBlendTheExtraSourceJoints)
{
    std::vector<std::string> sn, tn;
    std::vector<int> sp, tp;
    const MatrixX3d so = chainOffsets(4, sn, sp);
    Motion src = makeMotion(sn, sp, so, 2);
    for (const char* n : {"Spine", "Spine1", "Spine2", "Spine3"})
        setRotation(src, 1, jointOf(src, n), 0, 0, 12);
    const MatrixX3d to = chainOffsets(2, tn, tp);
    const Skeleton target = skeletonOf(makeMotion(tn, tp, to, 1));
    const RetargetedClip r = retargetClip(src, target);
    ASSERT_TRUE(allFinite(r));
    // Target Spine (bone 0.5 .. 1) takes the source bones ending at 0.75 and 1:
    // Spine2 and Spine3, blended by length (thesis Fig. 5.7).
    const auto& spine = r.mapping.joints[static_cast<size_t>(jointOf(target, "Spine1"))];
    ASSERT_EQ(spine.sources.size(), 2u) << formatMappingTable(r.mapping);
    EXPECT_EQ(sourceNamesOf(r.mapping, jointOf(target, "Spine1")), (std::vector<std::string>{"Spine2", "Spine3"}));
    EXPECT_NEAR(spine.sources[0].weight, 0.5, 1e-9);
    EXPECT_NEAR(spine.sources[0].weight + spine.sources[1].weight, 1.0, 1e-12);
    // The blended rotation sits between the two source joints' world rotations.
    const double bend = degrees(r.frames.pose(1).localRotations[static_cast<size_t>(jointOf(target, "Spine"))].angularDistance(Quat::Identity())) +
                        degrees(r.frames.pose(1).localRotations[static_cast<size_t>(jointOf(target, "Spine1"))].angularDistance(Quat::Identity()));
    EXPECT_GT(bend, 30.0);
    EXPECT_LT(bend, 48.0 + 1e-9);
    EXPECT_LT(neckDirectionError(src, target, r, 1), 6.0);
}

TEST(Retarget, UnmatchedTargetJointsGetIdentity)
{
    // A tail off the hips pointing back, and fingers below the hand: the source
    // (the template) has neither.
    const RigTemplate t = builtinTemplate("humanoid21");
    std::vector<std::string> names = t.names;
    std::vector<int> parents = t.parents;
    MatrixX3d pos(t.jointCount() + 4, 3);
    pos.topRows(t.jointCount()) = t.restPositions;
    const int hand = jointOf(orientedSkeleton(t.names, t.parents, t.restPositions), "LeftHand");
    names.insert(names.end(), {"Tail", "Tail1", "LeftHandIndex1", "LeftHandThumb1"});
    parents.insert(parents.end(), {0, t.jointCount(), hand, hand});
    pos.row(t.jointCount()) = t.restPositions.row(0) + Eigen::RowVector3d(0, -0.05, -0.2);
    pos.row(t.jointCount() + 1) = t.restPositions.row(0) + Eigen::RowVector3d(0, -0.1, -0.5);
    pos.row(t.jointCount() + 2) = t.restPositions.row(hand) + Eigen::RowVector3d(0.1, 0, 0);
    pos.row(t.jointCount() + 3) = t.restPositions.row(hand) + Eigen::RowVector3d(0.03, 0, 0.05);
    const Skeleton target = orientedSkeleton(names, parents, pos);
    const Motion src = randomClip(templateMotion(0), 6, 3);
    const RetargetedClip r = retargetClip(src, target, {.rest = RetargetRest::Zero});
    ASSERT_TRUE(allFinite(r));
    for (const char* n : {"Tail", "Tail1", "LeftHandIndex1", "LeftHandThumb1"}) {
        const int j = jointOf(target, n);
        EXPECT_EQ(r.mapping.joints[static_cast<size_t>(j)].match, RetargetMatch::Unmapped) << n;
        for (const Pose& p : toPoses(r.frames))
            EXPECT_LT(p.localRotations[static_cast<size_t>(j)].angularDistance(Quat::Identity()), 1e-12) << n;
    }
    EXPECT_EQ(r.mapping.mappedCount(), t.jointCount()) << formatMappingTable(r.mapping);
    EXPECT_NE(formatMappingTable(r.mapping).find("(identity)"), std::string::npos);
}

// ---------------------------------------------------------------- CMU clips on the default character

struct Trajectories {
    std::vector<double> source, target;
};

TEST(Retarget, CmuClipsOnTheDefaultCharacterFollowTheSource)
{
    SKIP_WITHOUT_CLIPS();
    const Skeleton& target = defaultRig();
    const std::vector<std::pair<std::string, std::string>> limbBones = {
        {"LeftUpLeg", "LeftLeg"}, {"LeftLeg", "LeftFoot"}, {"RightUpLeg", "RightLeg"}, {"RightLeg", "RightFoot"},
        {"LeftArm", "LeftForeArm"}, {"LeftForeArm", "LeftHand"}, {"RightArm", "RightForeArm"}, {"RightForeArm", "RightHand"}};
    const std::vector<std::string> ends = {"LeftHand", "RightHand", "LeftFoot", "RightFoot"};
    for (const char* file : {"01_01.bvh", "01_03.bvh"}) {
        const Motion& clip = cmuClip(file);
        const int step = 6;
        const RetargetedClip r = retargetClip(clip, target, {.frameStep = step});
        ASSERT_TRUE(allFinite(r)) << file;
        EXPECT_EQ(r.mapping.mappedCount(), target.jointCount()) << formatMappingTable(r.mapping);
        const double hs = r.sourceHeight, ht = r.targetHeight;
        double dirError = 0.0;
        int dirCount = 0;
        std::vector<Trajectories> traj(ends.size());
        double worstFoot = 0.0;
        int contacts = 0;
        const std::vector<int> feet = {jointOf(target, "LeftFoot"), jointOf(target, "LeftToeBase"),
                                       jointOf(target, "RightFoot"), jointOf(target, "RightToeBase")};
        const std::vector<int> sourceFeet = {jointOf(clip, "LeftFoot"), jointOf(clip, "LeftToeBase"),
                                             jointOf(clip, "RightFoot"), jointOf(clip, "RightToeBase")};
        auto lowestOf = [](const MatrixX3d& p, const std::vector<int>& js) {
            double y = 1e300;
            for (int j : js)
                y = std::min(y, p(j, 1));
            return y;
        };
        std::vector<double> sourceLow;
        for (size_t f = 0; f < r.frames.size(); ++f)
            sourceLow.push_back(lowestOf(worldPositions(clip, static_cast<int>(f) * step), sourceFeet));
        std::vector<double> sorted = sourceLow;
        std::sort(sorted.begin(), sorted.end());
        const double sourceGround = sorted[sorted.size() / 20];
        const double targetGround = lowestOf(target.bindPositions, feet);
        for (size_t f = 0; f < r.frames.size(); ++f) {
            const MatrixX3d ps = worldPositions(clip, static_cast<int>(f) * step);
            const MatrixX3d pt = forwardKinematics(target, r.frames.pose(f)).positions;
            for (const auto& [a, b] : limbBones) {
                const Vec3 ds = (row(ps, jointOf(clip, b)) - row(ps, jointOf(clip, a))).normalized();
                const Vec3 dt = (row(pt, jointOf(target, b)) - row(pt, jointOf(target, a))).normalized();
                dirError += degrees(std::acos(std::clamp(ds.dot(dt), -1.0, 1.0)));
                ++dirCount;
            }
            for (size_t e = 0; e < ends.size(); ++e)
                for (int a = 0; a < 3; ++a) {
                    traj[e].source.push_back((ps(jointOf(clip, ends[e]), a) - ps(0, a)) / hs);
                    traj[e].target.push_back((pt(jointOf(target, ends[e]), a) - pt(0, a)) / ht);
                }
            if (sourceLow[f] - sourceGround <= 0.01 * hs) { // the source stands on the ground
                ++contacts;
                worstFoot = std::max(worstFoot, std::abs(lowestOf(pt, feet) - targetGround) / ht);
            }
        }
        const double meanDir = dirError / dirCount;
        std::cout << "[ cmu      ] " << file << ": " << r.frames.size() << " frames, mean limb direction error "
                  << meanDir << " deg, feet " << 100.0 * worstFoot << "% of height on " << contacts
                  << " contact frames (library: " << 100.0 * r.footErrorAfter << "%, uncorrected " << 100.0 * r.footErrorBefore << "%)";
        EXPECT_LT(meanDir, 10.0) << file;
        for (size_t e = 0; e < ends.size(); ++e) {
            const double c = correlation(traj[e].source, traj[e].target);
            std::cout << ", " << ends[e] << " r=" << c;
            EXPECT_GT(c, 0.95) << file << " " << ends[e];
        }
        std::cout << '\n';
        EXPECT_GT(contacts, static_cast<int>(r.frames.size()) / 4) << file;
        EXPECT_LT(worstFoot, 0.02) << file;
        EXPECT_LT(r.footErrorAfter, 0.02) << file;
        EXPECT_GT(r.contactFrames, 0) << file;
        EXPECT_GT(r.mapping.translationScale, 0.02) << file; // inches-ish to metres
        EXPECT_LT(r.mapping.translationScale, 0.1) << file;
    }
}

TEST(Retarget, AHugeBoneOffsetLeavesTheMappingRight)
{
    // A bone offset of +-1e308 made the arm's bone lengths infinite, its ends
    // inf / inf = NaN, and the order-preserving pairing read from[i][-1] (a
    // 4-byte heap-buffer-overflow under AddressSanitizer; in release, LeftShoulder
    // driven by Spine1 and the arm unmapped). The BVH reader now refuses such
    // offsets; the mapping must still be right for any motion built in code.
    SKIP_WITHOUT_CLIPS();
    const Skeleton& target = defaultRig();
    const Motion& clean = cmuClip("01_01.bvh");
    const RetargetMapping reference = mapSkeletons(clean, target);
    auto sourceOf = [](const RetargetMapping& m, const std::string& targetJoint) -> std::string {
        const auto it = std::find(m.targetNames.begin(), m.targetNames.end(), targetJoint);
        const JointRetarget& j = m.joints[static_cast<size_t>(it - m.targetNames.begin())];
        if (j.sources.empty())
            return "(unmapped)";
        std::vector<std::string> names; // which joints, not their blend weights (lengths may be infinite)
        for (const RetargetSource& s : j.sources)
            names.push_back(m.sourceNames[static_cast<size_t>(s.joint)]);
        std::sort(names.begin(), names.end());
        std::string out;
        for (const std::string& n : names)
            out += (out.empty() ? "" : "+") + n;
        return out;
    };
    for (const char* bone : {"LeftForeArm", "LeftArm", "LeftHand", "Spine1", "RightUpLeg"})
        for (const double huge : {1e308, -1e308}) {
            Motion broken = clean;
            broken.offsets.row(jointOf(clean, bone)) = Eigen::RowVector3d(huge, 0.5 * huge, 0.0);
            const RetargetMapping m = mapSkeletons(broken, target);
            ASSERT_EQ(m.joints.size(), reference.joints.size());
            // Never a wrong source (the release build drove LeftShoulder by Spine1).
            for (const std::string& joint : target.names) {
                const std::string got = sourceOf(m, joint);
                EXPECT_TRUE(got == sourceOf(reference, joint) || got == "(unmapped)")
                    << bone << " offset " << huge << ": " << joint << " driven by " << got << "\n"
                    << formatMappingTable(m);
            }
            // The legs (and, unless the chest itself is infinitely far, everything) map as before.
            const bool chest = std::string(bone) == "Spine1";
            for (const char* joint : {"LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand", "RightArm", "RightForeArm",
                                      "LeftUpLeg", "LeftLeg", "RightUpLeg", "RightLeg", "Head"}) {
                if (!chest || std::string(joint).find("Leg") != std::string::npos) {
                    EXPECT_EQ(sourceOf(m, joint), sourceOf(reference, joint))
                        << bone << " offset " << huge << ", joint " << joint << "\n" << formatMappingTable(m);
                }
            }
            if (!chest) {
                EXPECT_EQ(m.mappedCount(), reference.mappedCount()) << bone << " offset " << huge;
            }
        }
}

TEST(Retarget, BoxingClipWithBiovisionNamesPlays)
{
    SKIP_WITHOUT_CLIPS();
    const Skeleton& target = defaultRig();
    const Motion& clip = cmuClip("Boxing_Toes.bvh");
    const RetargetedClip r = retargetClip(clip, target, {.rest = RetargetRest::Zero, .frameStep = 15});
    ASSERT_TRUE(allFinite(r));
    EXPECT_EQ(r.frames.size(), static_cast<size_t>((clip.frameCount() - 1) / 15 + 1));
    EXPECT_NEAR(r.frameTime, clip.frameTime * 15, 1e-12);
    // Its zero pose has the hips at y = 0, its frames at ~92: the root height is
    // taken above the clip's ground, so the feet are near the ground even
    // before the feet correction.
    EXPECT_GT(r.contactFrames, static_cast<int>(r.frames.size()) / 2);
    EXPECT_LT(r.footErrorBefore, 0.05);
    EXPECT_LT(r.footErrorAfter, 0.02);
    // The boxer faces -Z (hips turned 180 degrees): so does the target.
    const PosedSkeleton p = forwardKinematics(target, r.frames.pose(0));
    const Vec3 left = row(p.positions, jointOf(target, "LeftUpLeg")) - row(p.positions, jointOf(target, "RightUpLeg"));
    EXPECT_LT(left.x(), 0.0);
}

// ---------------------------------------------------------------- output as BVH

TEST(Retarget, RetargetedMotionIsABvhOfTheTarget)
{
    const Skeleton& target = defaultRig();
    const Motion src = randomClip(templateMotion(0), 12, 11);
    const RetargetedClip r = retargetClip(src, target, {.rest = RetargetRest::Zero});
    const Motion out = retargetedMotion(r, target);
    EXPECT_NO_THROW(validateMotion(out));
    EXPECT_EQ(out.names, target.names);
    EXPECT_EQ(out.frameCount(), 12);
    const Motion back = parseBvh(formatBvh(out), "retargeted.bvh");
    for (int f = 0; f < out.frameCount(); ++f) {
        const MatrixX3d want = forwardKinematics(target, r.frames.pose(static_cast<size_t>(f))).positions;
        EXPECT_LT((worldPositions(back, f) - want).rowwise().norm().maxCoeff(), 1e-9 * r.targetHeight + 1e-12) << f;
    }
    // Euler angles are continuous across frames.
    Motion spin = templateMotion(90);
    for (int f = 0; f < 90; ++f)
        setRotation(spin, f, 0, 0, 8.0 * f, 0);
    const Motion spun = retargetedMotion(retargetClip(spin, target), target);
    for (int f = 1; f < 90; ++f)
        for (int c = 3; c < spun.channelCount(); ++c)
            EXPECT_LT(std::abs(spun.frames(f, c) - spun.frames(f - 1, c)), 30.0) << f << " " << c;
}

TEST(Retarget, ALongClipIsWrittenFrameByFrameAsTheWholeMotionWould)
{
    // Issue 47: `rigsmith retarget` built the whole target motion (528 MB at
    // 10^6 frames) before writing it. writeRetargetedBvh() computes each
    // frame as it is written: the same bytes, every frame kept (10,000 frames
    // cross the writer's 4,096-frame pieces), angles continued across them.
    const Skeleton& target = defaultRig();
    Motion src = randomClip(templateMotion(0), 10'000, 7);
    for (int f = 0; f < 10'000; ++f) // a steady spin: continuity across pieces matters
        setRotation(src, f, 0, 0, 3.0 * f, 0);
    const RetargetedClip r = retargetClip(src, target, {.rest = RetargetRest::Zero});
    ASSERT_EQ(r.frames.size(), 10'000u);
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("rigsmith_retarget_long_" + std::to_string(::getpid()) + ".bvh");
    writeRetargetedBvh(r, target, path.string());
    std::ifstream in(path, std::ios::binary);
    const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(path);
    const Motion whole = retargetedMotion(r, target);
    EXPECT_TRUE(written == formatBvh(whole)) << "frame-by-frame output differs from the whole motion's";
    EXPECT_EQ(parseBvh(written, "long.bvh").frameCount(), 10'000);
}

} // namespace
} // namespace rig

namespace rig {
namespace {

TEST(RetargetRestDetection, CmuClipsUseFrameZeroAndAStanceStartUsesTheZeroPose)
{
    const std::string dir = RIGSMITH_ASSIMP_MODELS "/BVH/";
    if (!std::filesystem::exists(dir + "01_01.bvh"))
        GTEST_SKIP() << "assimp-testmodels is not installed";
    EXPECT_EQ(detectRestPose(readBvh(dir + "01_01.bvh")), RetargetRest::FirstFrame);
    EXPECT_EQ(detectRestPose(readBvh(dir + "01_03.bvh")), RetargetRest::FirstFrame);
    EXPECT_EQ(detectRestPose(readBvh(dir + "Boxing_Toes.bvh")), RetargetRest::Zero);
    Motion none = readBvh(dir + "01_01.bvh");
    none.frames.resize(0, none.channelCount());
    EXPECT_EQ(detectRestPose(none), RetargetRest::Zero);
}

} // namespace
} // namespace rig
