#include "core/rig/pose.h"

#include "core/common/error.h"

namespace rig {

Pose identityPose(const Skeleton& skeleton)
{
    Pose p;
    p.localRotations.assign(static_cast<size_t>(skeleton.jointCount()), Eigen::Quaterniond::Identity());
    return p;
}

void posedJoints(const Skeleton& s, std::span<const Eigen::Quaterniond> localRotations, const Vec3& rootTranslation,
                 std::vector<Eigen::Quaterniond>& orientations, MatrixX3d& positions)
{
    const int n = s.jointCount();
    if (static_cast<int>(localRotations.size()) != n)
        throw InvalidInput("rig::forwardKinematics(): the pose has " + std::to_string(localRotations.size()) +
                           " rotations for " + std::to_string(n) + " joints");
    positions.resize(n, 3);
    orientations.resize(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const Eigen::Quaterniond& B = s.bindOrientations[i];
        const Vec3 b = s.bindPositions.row(i).transpose();
        const int p = s.parents[i];
        Eigen::Quaterniond O;
        Vec3 x;
        if (p < 0) {
            O = B * localRotations[i];
            x = b + rootTranslation;
        } else {
            const Eigen::Quaterniond parentDelta = orientations[p] * s.bindOrientations[p].conjugate();
            O = parentDelta * B * localRotations[i];
            x = positions.row(p).transpose() + parentDelta * (b - s.bindPositions.row(p).transpose());
        }
        O.normalize();
        orientations[i] = O;
        positions.row(i) = x.transpose();
    }
}

PosedSkeleton forwardKinematics(const Skeleton& s, const Pose& pose)
{
    PosedSkeleton out;
    posedJoints(s, pose.localRotations, pose.rootTranslation, out.orientations, out.positions);
    out.skinning.resize(out.orientations.size());
    for (int i = 0; i < s.jointCount(); ++i) {
        const Eigen::Quaterniond& B = s.bindOrientations[i];
        const Vec3 b = s.bindPositions.row(i).transpose();
        const Eigen::Quaterniond delta = out.orientations[i] * B.conjugate();
        Eigen::Isometry3d M = Eigen::Isometry3d::Identity();
        M.linear() = delta.toRotationMatrix();
        M.translation() = out.positions.row(i).transpose() - delta * b;
        out.skinning[i] = M;
    }
    return out;
}

} // namespace rig
