#include "core/character/humanoid.h"

#include "core/character/implicit_surface.h"
#include "core/character/marching_tetrahedra.h"
#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace rig {
namespace {

using Quat = Eigen::Quaterniond;
using Shape = ImplicitPrimitive::Shape;
using J = HumanoidJoint;

// Everything below is designed for a 1.75 m character and scaled to the
// requested height.
constexpr double designHeight = 1.75;
constexpr double designBlend = 0.025;        // smooth-min width
constexpr double defaultCellsPerHeight = 100; // 17.5 mm cells at 1.75 m

constexpr std::array<std::string_view, 7> poseNames = {"t",          "a",       "arms-down", "knees-bent",
                                                       "sitting",    "reach",   "twist"};

constexpr std::array<std::string_view, bodyPartCount> partNames = {
    "Head",          "Neck",         "Chest",     "Abdomen",   "Pelvis",     "LeftUpperArm",
    "LeftForearm",   "LeftHand",     "RightUpperArm", "RightForearm", "RightHand", "LeftThigh",
    "LeftShin",      "LeftFoot",     "RightThigh", "RightShin", "RightFoot"};

struct JointSpec {
    const char* name;
    J parent; // ignored for Hips
    Vec3 rest;
};

// The T-pose reference skeleton (left side; the right side mirrors x).
const std::array<JointSpec, humanoidJointCount>& jointSpecs()
{
    static const std::array<JointSpec, humanoidJointCount> specs = {{
        {"Hips", J::Hips, {0.0, 0.96, 0.0}},
        {"Spine", J::Hips, {0.0, 1.06, 0.0}},
        {"Spine1", J::Spine, {0.0, 1.20, 0.0}},
        {"Neck", J::Spine1, {0.0, 1.43, 0.0}},
        {"Head", J::Neck, {0.0, 1.54, 0.0}},
        {"LeftShoulder", J::Spine1, {0.03, 1.40, 0.0}},
        {"LeftArm", J::LeftShoulder, {0.20, 1.41, 0.0}},
        {"LeftForeArm", J::LeftArm, {0.475, 1.41, 0.0}},
        {"LeftHand", J::LeftForeArm, {0.725, 1.41, 0.0}},
        {"RightShoulder", J::Spine1, {-0.03, 1.40, 0.0}},
        {"RightArm", J::RightShoulder, {-0.20, 1.41, 0.0}},
        {"RightForeArm", J::RightArm, {-0.475, 1.41, 0.0}},
        {"RightHand", J::RightForeArm, {-0.725, 1.41, 0.0}},
        {"LeftUpLeg", J::Hips, {0.10, 0.92, 0.0}},
        {"LeftLeg", J::LeftUpLeg, {0.10, 0.50, 0.0}},
        {"LeftFoot", J::LeftLeg, {0.10, 0.085, 0.0}},
        {"LeftToeBase", J::LeftFoot, {0.10, 0.035, 0.13}},
        {"RightUpLeg", J::Hips, {-0.10, 0.92, 0.0}},
        {"RightLeg", J::RightUpLeg, {-0.10, 0.50, 0.0}},
        {"RightFoot", J::RightLeg, {-0.10, 0.085, 0.0}},
        {"RightToeBase", J::RightFoot, {-0.10, 0.035, 0.13}},
    }};
    return specs;
}

struct EndEffectorSpec {
    const char* name;
    J joint;
    Vec3 rest;
};

const std::array<EndEffectorSpec, 5>& endEffectorSpecs()
{
    static const std::array<EndEffectorSpec, 5> specs = {{
        {"HeadTop", J::Head, {0.0, 1.75, 0.01}},
        {"LeftHandTip", J::LeftHand, {0.90, 1.41, 0.0}},
        {"RightHandTip", J::RightHand, {-0.90, 1.41, 0.0}},
        {"LeftToeTip", J::LeftToeBase, {0.10, 0.028, 0.193}},
        {"RightToeTip", J::RightToeBase, {-0.10, 0.028, 0.193}},
    }};
    return specs;
}

// A primitive of the reference body, attached to a joint.
struct BodyPrimitive {
    J joint;
    BodyPart part;
    Shape shape;
    Vec3 a, b;       // round cone end centres, or ellipsoid centre (a)
    double ra, rb;   // round cone radii
    Vec3 radii;      // ellipsoid semi-axes
};

BodyPrimitive cone(J joint, BodyPart part, Vec3 a, double ra, Vec3 b, double rb)
{
    return {joint, part, Shape::RoundCone, a, b, ra, rb, Vec3::Zero()};
}

BodyPrimitive ellipsoid(J joint, BodyPart part, Vec3 centre, Vec3 radii)
{
    return {joint, part, Shape::Ellipsoid, centre, Vec3::Zero(), 0.0, 0.0, radii};
}

Vec3 mirrored(Vec3 p) { return Vec3(-p.x(), p.y(), p.z()); }

// The body in the T-pose reference. Trunk first, then each side; the right
// side is the mirror image of the left.
std::vector<BodyPrimitive> bodyPrimitives(HumanoidGarment garment)
{
    using P = BodyPart;
    std::vector<BodyPrimitive> body = {
        ellipsoid(J::Head, P::Head, {0.0, 1.645, 0.01}, {0.075, 0.105, 0.095}),
        ellipsoid(J::Head, P::Head, {0.0, 1.625, 0.098}, {0.014, 0.022, 0.025}), // nose
        cone(J::Neck, P::Neck, {0.0, 1.39, 0.0}, 0.05, {0.0, 1.56, 0.0}, 0.048),
        ellipsoid(J::Spine1, P::Chest, {0.0, 1.28, 0.0}, {0.14, 0.165, 0.105}),
        ellipsoid(J::Spine, P::Abdomen, {0.0, 1.10, 0.005}, {0.13, 0.12, 0.095}),
        ellipsoid(J::Hips, P::Pelvis, {0.0, 0.94, 0.0}, {0.165, 0.10, 0.105}),
    };
    struct Side {
        J shoulder, arm, foreArm, hand, upLeg, leg, foot;
        P upperArmPart, forearmPart, handPart, thighPart, shinPart, footPart;
        double sx;
    };
    const Side sides[2] = {
        {J::LeftShoulder, J::LeftArm, J::LeftForeArm, J::LeftHand, J::LeftUpLeg, J::LeftLeg, J::LeftFoot,
         P::LeftUpperArm, P::LeftForearm, P::LeftHand, P::LeftThigh, P::LeftShin, P::LeftFoot, 1.0},
        {J::RightShoulder, J::RightArm, J::RightForeArm, J::RightHand, J::RightUpLeg, J::RightLeg, J::RightFoot,
         P::RightUpperArm, P::RightForearm, P::RightHand, P::RightThigh, P::RightShin, P::RightFoot, -1.0},
    };
    for (const Side& s : sides) {
        auto x = [&](double px, double py, double pz) { return s.sx > 0 ? Vec3(px, py, pz) : mirrored(Vec3(px, py, pz)); };
        body.push_back(cone(s.shoulder, P::Chest, x(0.03, 1.40, 0.0), 0.05, x(0.18, 1.41, 0.0), 0.05)); // shoulder girdle
        body.push_back(cone(s.arm, s.upperArmPart, x(0.20, 1.41, 0.0), 0.048, x(0.475, 1.41, 0.0), 0.038));
        body.push_back(cone(s.foreArm, s.forearmPart, x(0.475, 1.41, 0.0), 0.036, x(0.725, 1.41, 0.0), 0.027));
        // Flat hand, palm down in the T-pose: 9 cm wide (z), 4 cm thick (y).
        body.push_back(ellipsoid(s.hand, s.handPart, x(0.81, 1.41, 0.0), {0.09, 0.02, 0.045}));
        body.push_back(cone(s.upLeg, s.thighPart, x(0.10, 0.92, 0.0), 0.075, x(0.10, 0.50, 0.0), 0.052));
        body.push_back(cone(s.leg, s.shinPart, x(0.10, 0.50, 0.0), 0.048, x(0.10, 0.085, 0.0), 0.033));
        // Foot from heel to toe tip along +z, its sole on y = 0.
        body.push_back(cone(s.foot, s.footPart, x(0.10, 0.040, -0.035), 0.040, x(0.10, 0.028, 0.165), 0.028));
    }
    switch (garment) {
    case HumanoidGarment::None:
        break;
    case HumanoidGarment::LongSkirt: // the hem sphere's bottom at 0.56 - 0.25 = 0.31 m
        body.push_back(cone(J::Hips, P::Pelvis, {0.0, 0.97, 0.0}, 0.17, {0.0, 0.56, 0.0}, 0.25));
        break;
    case HumanoidGarment::Robe: // the hem at 0.40 - 0.29 = 0.11 m, above the ankles (0.085 m)
        body.push_back(cone(J::Hips, P::Pelvis, {0.0, 0.97, 0.0}, 0.17, {0.0, 0.40, 0.0}, 0.29));
        break;
    }
    return body;
}

/// The accessories of `HumanoidOptions::props`, by part name: eyeballs that
/// bulge 4 mm out of the head's front, and a rod through the right palm.
std::vector<std::pair<std::string, BodyPrimitive>> propPrimitives()
{
    using P = BodyPart;
    return {
        {"eye.L", ellipsoid(J::Head, P::Head, {0.03, 1.665, 0.085}, {0.014, 0.014, 0.014})},
        {"eye.R", ellipsoid(J::Head, P::Head, {-0.03, 1.665, 0.085}, {0.014, 0.014, 0.014})},
        {"prop", cone(J::RightHand, P::RightHand, {-0.80, 1.41, -0.06}, 0.012, {-0.80, 1.41, 0.06}, 0.012)},
    };
}

Quat rotation(double degrees, const Vec3& axis)
{
    return Quat(Eigen::AngleAxisd(degrees * std::numbers::pi / 180.0, axis.normalized()));
}

// Local rotations of a pose (see the convention in humanoid.h). Every joint
// frame is world-aligned at rest, and the trunk stays upright in every pose,
// so an arm's local rotation is also its world rotation.
std::vector<Quat> poseRotations(HumanoidPose pose)
{
    std::vector<Quat> L(humanoidJointCount, Quat::Identity());
    auto at = [&L](J j) -> Quat& { return L[static_cast<size_t>(j)]; };
    const Vec3 X = Vec3::UnitX(), Z = Vec3::UnitZ();

    // Arms are lowered about +-Z (the left arm points +X at rest).
    auto arms = [&](double down) {
        at(J::LeftArm) = rotation(-down, Z);
        at(J::RightArm) = rotation(down, Z);
    };
    // Hip flexion brings the thigh forward (+Z), knee flexion the shin back;
    // the ankle compensates so that the foot stays flat.
    auto legs = [&](double hip, double knee) {
        for (J upLeg : {J::LeftUpLeg, J::RightUpLeg})
            at(upLeg) = rotation(-hip, X);
        for (J leg : {J::LeftLeg, J::RightLeg})
            at(leg) = rotation(knee, X);
        for (J foot : {J::LeftFoot, J::RightFoot})
            at(foot) = rotation(hip - knee, X);
    };

    switch (pose) {
    case HumanoidPose::T:
        break;
    case HumanoidPose::A:
        arms(45.0);
        break;
    case HumanoidPose::ArmsDown:
        arms(77.0);
        break;
    case HumanoidPose::KneesBent:
        arms(45.0);
        legs(30.0, 60.0);
        break;
    case HumanoidPose::Sitting:
        arms(45.0);
        legs(90.0, 90.0);
        break;
    case HumanoidPose::Reach: {
        arms(45.0);
        // Right upper arm raised forward to shoulder height (straight ahead,
        // so that it leaves the shoulder without sliding along the chest); the
        // elbow bends so that the forearm crosses 30 cm in front of the chest
        // and the hand ends in front of the left shoulder.
        const Vec3 rest(-1.0, 0.0, 0.0);
        const Vec3 upperArm = Vec3(0.10, 0.05, 1.0).normalized();
        const Vec3 forearm = Vec3(1.0, 0.10, 0.10).normalized();
        const Quat arm = Quat::FromTwoVectors(rest, upperArm);
        const Quat fore = Quat::FromTwoVectors(upperArm, forearm) * arm;
        at(J::RightArm) = arm;
        at(J::RightForeArm) = arm.conjugate() * fore;
        break;
    }
    case HumanoidPose::Twist:
        arms(45.0);
        at(J::LeftForeArm) = rotation(90.0, X); // about the forearm's own rest axis
        break;
    }
    return L;
}

/// `b` scaled by `s` and posed by its joint: world = G (x - rest) + joint.
ImplicitPrimitive posedPrimitive(const BodyPrimitive& b, const Humanoid& h, const std::vector<Quat>& global, double s)
{
    const auto j = static_cast<int>(b.joint);
    ImplicitPrimitive p;
    p.shape = b.shape;
    p.a = s * b.a;
    p.b = s * b.b;
    p.radiusA = s * b.ra;
    p.radiusB = s * b.rb;
    p.radii = s * b.radii;
    p.rotation = global[static_cast<size_t>(j)].toRotationMatrix();
    p.translation = h.joints.row(j).transpose() - p.rotation * h.restJoints.row(j).transpose();
    return p;
}

/// Appends each of `propPrimitives()` as its own closed surface and mesh part
/// (polygonized at a quarter of the body's cell: an eyeball is 2.8 cm across).
void appendProps(Humanoid& h, const std::vector<Quat>& global, double s, double cell)
{
    for (const auto& [name, b] : propPrimitives()) {
        SmoothUnionOptions o;
        o.cellSize = cell / 4.0;
        const IsoSurface surface = marchingTetrahedra(sampleSmoothUnion({posedPrimitive(b, h, global, s)}, o));
        const Eigen::Index first = h.mesh.V.rows();
        const int part = h.mesh.partCount();
        h.mesh.partNames.push_back(name);
        h.mesh.V.conservativeResize(first + surface.V.rows(), 3);
        h.mesh.V.bottomRows(surface.V.rows()) = surface.V;
        h.mesh.F.conservativeResize(h.mesh.F.rows() + surface.F.rows(), 3);
        h.mesh.F.bottomRows(surface.F.rows()) = surface.F.array() + static_cast<int>(first);
        h.mesh.part.resize(static_cast<size_t>(h.mesh.V.rows()), part);
        h.vertexPart.resize(static_cast<size_t>(h.mesh.V.rows()), static_cast<int>(b.part));
    }
    h.mesh.N = vertexNormals(h.mesh.V, h.mesh.F);
}

void validate(const HumanoidOptions& o)
{
    if (!std::isfinite(o.height) || o.height <= 0.0)
        throw InvalidInput("rig::generateHumanoid(): height must be a positive number of metres, got " +
                           std::to_string(o.height));
    if (!std::isfinite(o.cellSize) || o.cellSize < 0.0)
        throw InvalidInput("rig::generateHumanoid(): cellSize must be 0 (default) or a positive number of metres, got " +
                           std::to_string(o.cellSize));
    const int p = static_cast<int>(o.pose);
    if (p < 0 || p >= static_cast<int>(poseNames.size()))
        throw InvalidInput("rig::generateHumanoid(): unknown pose " + std::to_string(p));
}

} // namespace

std::optional<HumanoidGarment> parseHumanoidGarment(std::string_view name)
{
    if (name == "none")
        return HumanoidGarment::None;
    if (name == "skirt")
        return HumanoidGarment::LongSkirt;
    if (name == "robe")
        return HumanoidGarment::Robe;
    return std::nullopt;
}

std::optional<HumanoidPose> parseHumanoidPose(std::string_view name)
{
    for (size_t i = 0; i < poseNames.size(); ++i)
        if (poseNames[i] == name)
            return static_cast<HumanoidPose>(i);
    return std::nullopt;
}

std::string_view humanoidPoseName(HumanoidPose pose)
{
    const auto i = static_cast<size_t>(pose);
    return i < poseNames.size() ? poseNames[i] : std::string_view("unknown");
}

std::vector<HumanoidPose> allHumanoidPoses()
{
    std::vector<HumanoidPose> poses;
    for (size_t i = 0; i < poseNames.size(); ++i)
        poses.push_back(static_cast<HumanoidPose>(i));
    return poses;
}

std::string_view bodyPartName(BodyPart part)
{
    const auto i = static_cast<size_t>(part);
    return i < partNames.size() ? partNames[i] : std::string_view("Unknown");
}

Humanoid generateHumanoid(const HumanoidOptions& options)
{
    validate(options);
    const double s = options.height / designHeight;
    const double cell = options.cellSize > 0.0 ? options.cellSize : options.height / defaultCellsPerHeight;
    const double blend = designBlend * s;

    Humanoid h;
    h.pose = options.pose;
    h.height = options.height;

    // Skeleton and forward kinematics (convention in humanoid.h).
    const auto& specs = jointSpecs();
    h.restJoints.resize(humanoidJointCount, 3);
    for (int i = 0; i < humanoidJointCount; ++i) {
        const JointSpec& spec = specs[static_cast<size_t>(i)];
        h.jointNames.emplace_back(spec.name);
        h.jointParents.push_back(i == 0 ? -1 : static_cast<int>(spec.parent));
        h.restJoints.row(i) = (s * spec.rest).transpose();
    }
    h.localRotations = poseRotations(options.pose);
    std::vector<Quat> global(humanoidJointCount);
    auto forwardKinematics = [&](const Vec3& rootTranslation) {
        h.joints.resize(humanoidJointCount, 3);
        for (int i = 0; i < humanoidJointCount; ++i) {
            const int p = h.jointParents[static_cast<size_t>(i)];
            const Quat& L = h.localRotations[static_cast<size_t>(i)];
            if (p < 0) {
                global[static_cast<size_t>(i)] = L;
                h.joints.row(i) = h.restJoints.row(i) + rootTranslation.transpose();
            } else {
                global[static_cast<size_t>(i)] = global[static_cast<size_t>(p)] * L;
                const Vec3 offset = h.restJoints.row(i) - h.restJoints.row(p);
                h.joints.row(i) = h.joints.row(p) + (global[static_cast<size_t>(p)] * offset).transpose();
            }
        }
    };

    // Primitives posed by the joint they hang from: world = G (x - rest) + joint.
    const std::vector<BodyPrimitive> body = bodyPrimitives(options.garment);
    std::vector<ImplicitPrimitive> primitives;
    auto place = [&] {
        primitives.clear();
        for (const BodyPrimitive& b : body)
            primitives.push_back(posedPrimitive(b, h, global, s));
    };

    // Pose with the hips at rest, then move the whole body so that its lowest
    // point (the soles when standing or sitting) touches y = 0.
    forwardKinematics(Vec3::Zero());
    place();
    double lowest = std::numeric_limits<double>::infinity();
    for (const auto& p : primitives)
        lowest = std::min(lowest, worldBounds(p).min.y());
    h.rootTranslation = Vec3(0.0, -lowest, 0.0);
    if (std::abs(lowest) < 1e-12 * s)
        h.rootTranslation.setZero(); // the standing poses: keep the rest hips exactly
    forwardKinematics(h.rootTranslation);
    place();

    // The surface.
    SmoothUnionOptions unionOptions;
    unionOptions.blend = blend;
    unionOptions.cellSize = cell;
    const GridSamples grid = sampleSmoothUnion(primitives, unionOptions);
    IsoSurface surface = marchingTetrahedra(grid);
    h.mesh.V = std::move(surface.V);
    h.mesh.F = std::move(surface.F);
    h.mesh.N = vertexNormals(h.mesh.V, h.mesh.F);
    h.mesh.part.assign(static_cast<size_t>(h.mesh.V.rows()), 0);
    h.mesh.partNames = {"body"};

    // Ground-truth labels: the part of the nearest primitive. Only primitives
    // whose box (grown by the blend and two cells) holds the vertex can be
    // nearest; fall back to all of them if none does.
    const double margin = blend + 2.0 * cell;
    std::vector<Box3> boxes;
    for (const auto& p : primitives) {
        Box3 box = worldBounds(p);
        box.min.array() -= margin;
        box.max.array() += margin;
        boxes.push_back(box);
    }
    h.vertexPart.resize(static_cast<size_t>(h.mesh.V.rows()));
    for (Eigen::Index v = 0; v < h.mesh.V.rows(); ++v) {
        const Vec3 x = h.mesh.V.row(v).transpose();
        int best = 0;
        double bestDistance = std::numeric_limits<double>::infinity();
        for (int pass = 0; pass < 2 && !std::isfinite(bestDistance); ++pass)
            for (size_t n = 0; n < primitives.size(); ++n) {
                if (pass == 0 && !((x.array() >= boxes[n].min.array()).all() &&
                                   (x.array() <= boxes[n].max.array()).all()))
                    continue;
                const double d = signedDistance(primitives[n], x);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = static_cast<int>(n);
                }
            }
        h.vertexPart[static_cast<size_t>(v)] = static_cast<int>(body[static_cast<size_t>(best)].part);
    }

    if (options.props)
        appendProps(h, global, s, cell);

    // End effectors ride on their joints.
    const auto& ends = endEffectorSpecs();
    h.endEffectors.resize(static_cast<Eigen::Index>(ends.size()), 3);
    for (size_t e = 0; e < ends.size(); ++e) {
        const auto j = static_cast<int>(ends[e].joint);
        h.endEffectorNames.emplace_back(ends[e].name);
        h.endEffectorJoints.push_back(j);
        const Vec3 offset = s * ends[e].rest - h.restJoints.row(j).transpose();
        h.endEffectors.row(static_cast<Eigen::Index>(e)) =
            h.joints.row(j) + (global[static_cast<size_t>(j)] * offset).transpose();
    }
    return h;
}

} // namespace rig
