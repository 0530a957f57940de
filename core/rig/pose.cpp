#include "core/rig/pose.h"

#include "core/common/error.h"

namespace rig {

Pose identityPose(const Skeleton& skeleton)
{
    Pose p;
    p.localRotations.assign(static_cast<size_t>(skeleton.jointCount()), Eigen::Quaterniond::Identity());
    return p;
}

PosedSkeleton forwardKinematics(const Skeleton& s, const Pose& pose)
{
    const int n = s.jointCount();
    if (static_cast<int>(pose.localRotations.size()) != n)
        throw InvalidInput("rig::forwardKinematics(): the pose has " + std::to_string(pose.localRotations.size()) +
                           " rotations for " + std::to_string(n) + " joints");
    PosedSkeleton out;
    out.positions.resize(n, 3);
    out.orientations.resize(static_cast<size_t>(n));
    out.skinning.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const Eigen::Quaterniond& B = s.bindOrientations[i];
        const Vec3 b = s.bindPositions.row(i).transpose();
        const int p = s.parents[i];
        Eigen::Quaterniond O;
        Vec3 x;
        if (p < 0) {
            O = B * pose.localRotations[i];
            x = b + pose.rootTranslation;
        } else {
            const Eigen::Quaterniond parentDelta = out.orientations[p] * s.bindOrientations[p].conjugate();
            O = parentDelta * B * pose.localRotations[i];
            x = out.positions.row(p).transpose() + parentDelta * (b - s.bindPositions.row(p).transpose());
        }
        O.normalize();
        out.orientations[i] = O;
        out.positions.row(i) = x.transpose();
        const Eigen::Quaterniond delta = O * B.conjugate();
        Eigen::Isometry3d M = Eigen::Isometry3d::Identity();
        M.linear() = delta.toRotationMatrix();
        M.translation() = x - delta * b;
        out.skinning[i] = M;
    }
    return out;
}

} // namespace rig
