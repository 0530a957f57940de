#include "core/eval/joint_score.h"

#include "core/common/error.h"

#include <cmath>
#include <string>

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
            const int j = artistMap[extremityJoint(m)];
            const double d = (artist.bindPositions.row(j).transpose() - p).norm();
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
