#include "core/eval/joint_score.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace rig {

CanonicalJoint extremityJoint(Limb limb)
{
    switch (limb) {
    case Limb::Head: return CanonicalJoint::Head;
    case Limb::LeftHand: return CanonicalJoint::LeftWrist;
    case Limb::RightHand: return CanonicalJoint::RightWrist;
    case Limb::LeftFoot: return CanonicalJoint::LeftAnkle;
    case Limb::RightFoot: return CanonicalJoint::RightAnkle;
    }
    return CanonicalJoint::Head;
}

JointScores scoreJoints(const Skeleton& artist, const CanonicalJointMap& artistMap, const Skeleton& fitted,
                        const CanonicalJointMap& fittedMap, double height, const JointScoreOptions& options)
{
    const std::string fn = "rig::scoreJoints(): ";
    if (!(height > 0.0) || !std::isfinite(height))
        throw InvalidInput(fn + "the height must be positive and finite");
    const Vec3 up = options.up.normalized();
    const Vec3 front = (options.front - options.front.dot(up) * up).normalized();
    const Vec3 left = up.cross(front);
    JointScores s;
    s.height = height;
    double sum = 0.0;
    for (int c = 0; c < canonicalJointCount; ++c) {
        CanonicalJointScore j;
        j.joint = static_cast<CanonicalJoint>(c);
        j.artist = artistMap.joints[static_cast<size_t>(c)];
        j.fitted = fittedMap.joints[static_cast<size_t>(c)];
        if (j.artist >= artist.jointCount() || j.fitted >= fitted.jointCount())
            throw InvalidInput(fn + "the map of " + std::string(canonicalJointKey(j.joint)) +
                               " names a joint the skeleton does not have");
        if (j.scored()) {
            const Vec3 d = fitted.bindPositions.row(j.fitted).transpose() - artist.bindPositions.row(j.artist).transpose();
            j.errorPercent = 100.0 * d.norm() / height;
            j.offsetPercent = 100.0 / height * Vec3(d.dot(left), d.dot(up), d.dot(front));
            sum += j.errorPercent;
            if (s.scored == 0 || j.errorPercent > s.maxPercent) {
                s.maxPercent = j.errorPercent;
                s.worst = j.joint;
            }
            ++s.scored;
        }
        s.joints.push_back(j);
    }
    if (s.scored > 0)
        s.meanPercent = sum / s.scored;
    return s;
}

namespace {

/// Distance from `p` to the segment a-b.
double segmentDistance(const Vec3& p, const Vec3& a, const Vec3& b)
{
    const Vec3 ab = b - a;
    const double l2 = ab.squaredNorm();
    const double t = l2 > 0.0 ? std::clamp((p - a).dot(ab) / l2, 0.0, 1.0) : 0.0;
    return (a + t * ab - p).norm();
}

/// Distance from `p` to joint `j`'s limb: the bone into `j` and every bone
/// below it (the file comment).
double limbDistance(const Skeleton& s, int j, const Vec3& p)
{
    const auto at = [&](int k) -> Vec3 { return s.bindPositions.row(k).transpose(); };
    double best = (at(j) - p).norm();
    std::vector<char> below(static_cast<size_t>(s.jointCount()), 0);
    below[static_cast<size_t>(j)] = 1;
    for (int k = 0; k < s.jointCount(); ++k) { // parents precede children
        const int parent = s.parents[static_cast<size_t>(k)];
        if (parent < 0)
            continue;
        if (k != j && below[static_cast<size_t>(parent)])
            below[static_cast<size_t>(k)] = 1;
        if (below[static_cast<size_t>(k)])
            best = std::min(best, segmentDistance(p, at(parent), at(k)));
    }
    return best;
}

} // namespace

bool artistSidesMirrored(const Skeleton& artist, const CanonicalJointMap& m, const JointScoreOptions& options)
{
    const Vec3 left = options.up.cross(options.front);
    const auto across = [&](CanonicalJoint l, CanonicalJoint r) {
        if (m[l] < 0 || m[r] < 0)
            return 0.0;
        return (artist.bindPositions.row(m[l]) - artist.bindPositions.row(m[r])).dot(left.transpose());
    };
    return across(CanonicalJoint::LeftWrist, CanonicalJoint::RightWrist) < 0.0 &&
           across(CanonicalJoint::LeftAnkle, CanonicalJoint::RightAnkle) < 0.0;
}

CanonicalJointMap swapSides(const CanonicalJointMap& map)
{
    using CJ = CanonicalJoint;
    CanonicalJointMap out = map;
    const std::pair<CJ, CJ> twins[] = {{CJ::LeftShoulder, CJ::RightShoulder}, {CJ::LeftElbow, CJ::RightElbow},
                                       {CJ::LeftWrist, CJ::RightWrist},       {CJ::LeftHip, CJ::RightHip},
                                       {CJ::LeftKnee, CJ::RightKnee},         {CJ::LeftAnkle, CJ::RightAnkle}};
    for (const auto& [l, r] : twins) {
        std::swap(out.joints[static_cast<size_t>(l)], out.joints[static_cast<size_t>(r)]);
        std::swap(out.how[static_cast<size_t>(l)], out.how[static_cast<size_t>(r)]);
    }
    return out;
}

std::array<EndLabelCheck, limbCount> checkEndLabels(const CurveSkeleton& curve, const EndNodeLabels& labels,
                                                    const Skeleton& artist, const CanonicalJointMap& artistMap)
{
    std::array<EndLabelCheck, limbCount> out;
    bool allExtremities = true;
    for (Limb l : allLimbs)
        allExtremities &= artistMap[extremityJoint(l)] >= 0;
    for (Limb l : allLimbs) {
        EndLabelCheck& c = out[static_cast<size_t>(l)];
        c.limb = l;
        c.node = labels[l];
        if (!allExtremities || c.node < 0 || c.node >= curve.nodeCount())
            continue;
        const Vec3 p = curve.positions.row(c.node).transpose();
        double best = 1e300;
        for (Limb m : allLimbs) {
            const double d = limbDistance(artist, artistMap[extremityJoint(m)], p);
            if (d < best) {
                best = d;
                c.nearest = extremityJoint(m);
            }
        }
        c.known = true;
        c.right = c.nearest == extremityJoint(l);
    }
    return out;
}

} // namespace rig
