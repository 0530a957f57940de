#include "core/import/animation_poses.h"

#include "core/common/error.h"

#include <Eigen/SVD>

#include <cmath>
#include <string>

namespace rig {
namespace {

/// The rotation nearest to `m` (polar decomposition); a reflection loses its weakest axis.
Eigen::Quaterniond nearestRotation(const Eigen::Matrix3d& m)
{
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d u = svd.matrixU();
    if ((u * svd.matrixV().transpose()).determinant() < 0.0)
        u.col(2) *= -1.0;
    return Eigen::Quaterniond(u * svd.matrixV().transpose()).normalized();
}

/// The frames kept: all, or `maxFrames` evenly spaced (first and last included).
std::vector<int> keptFrames(int nf, int maxFrames)
{
    std::vector<int> keep;
    if (maxFrames == 0 || nf <= maxFrames) {
        for (int f = 0; f < nf; ++f)
            keep.push_back(f);
    } else {
        for (int k = 0; k < maxFrames; ++k)
            keep.push_back(maxFrames == 1 ? 0 : static_cast<int>(std::lround(double(k) * (nf - 1) / (maxFrames - 1))));
    }
    return keep;
}

} // namespace

std::vector<std::vector<Eigen::Affine3d>> animationSkinning(const ImportedSkeleton& file,
                                                            const ImportedAnimation& animation, int maxFrames)
{
    const std::string fn = "rig::animationSkinning(): ";
    if (maxFrames < 0)
        throw InvalidInput(fn + "maxFrames must be 0 (all) or more");
    const size_t nj = file.bindGlobal.size();
    std::vector<Eigen::Matrix4d> bindInverse(nj);
    for (size_t j = 0; j < nj; ++j)
        bindInverse[j] = file.bindGlobal[j].inverse();
    std::vector<std::vector<Eigen::Affine3d>> out;
    for (int f : keptFrames(static_cast<int>(animation.global.size()), maxFrames)) {
        const std::vector<Eigen::Matrix4d>& G = animation.global[static_cast<size_t>(f)];
        if (G.size() != nj)
            throw InvalidInput(fn + "frame " + std::to_string(f) + " of '" + animation.name + "' has " +
                               std::to_string(G.size()) + " joints, the file's skeleton " + std::to_string(nj));
        std::vector<Eigen::Affine3d> S(nj);
        for (size_t j = 0; j < nj; ++j)
            S[j] = Eigen::Affine3d(G[j] * bindInverse[j]);
        out.push_back(std::move(S));
    }
    return out;
}

std::vector<Pose> animationPoses(const Skeleton& skeleton, const ImportedSkeleton& file,
                                 const ImportedAnimation& animation, int maxFrames)
{
    const std::string fn = "rig::animationPoses(): ";
    const int nj = skeleton.jointCount();
    if (static_cast<int>(file.names.size()) != nj || static_cast<int>(file.bindGlobal.size()) != nj)
        throw InvalidInput(fn + "the skeleton has " + std::to_string(nj) + " joints, the file's " +
                           std::to_string(file.names.size()) + "; build it with rig::rigFromImportedSkeleton()");
    if (maxFrames < 0)
        throw InvalidInput(fn + "maxFrames must be 0 (all) or more");
    const int nf = static_cast<int>(animation.global.size());
    const std::vector<int> keep = keptFrames(nf, maxFrames);
    std::vector<Eigen::Matrix4d> bindInverse(static_cast<size_t>(nj));
    for (int j = 0; j < nj; ++j)
        bindInverse[static_cast<size_t>(j)] = file.bindGlobal[static_cast<size_t>(j)].inverse();

    std::vector<Pose> poses;
    poses.reserve(keep.size());
    std::vector<Eigen::Quaterniond> O(static_cast<size_t>(nj));
    for (int f : keep) {
        const std::vector<Eigen::Matrix4d>& G = animation.global[static_cast<size_t>(f)];
        if (static_cast<int>(G.size()) != nj)
            throw InvalidInput(fn + "frame " + std::to_string(f) + " of '" + animation.name + "' has " +
                               std::to_string(G.size()) + " joints, the skeleton " + std::to_string(nj));
        Pose pose = identityPose(skeleton);
        for (int j = 0; j < nj; ++j) {
            const size_t uj = static_cast<size_t>(j);
            const Eigen::Matrix4d S = G[uj] * bindInverse[uj];
            O[uj] = (nearestRotation(S.block<3, 3>(0, 0)) * skeleton.bindOrientations[uj]).normalized();
            const int p = skeleton.parents[uj];
            if (p < 0) {
                pose.localRotations[uj] = (skeleton.bindOrientations[uj].conjugate() * O[uj]).normalized();
                pose.rootTranslation = G[uj].block<3, 1>(0, 3) - skeleton.bindPositions.row(j).transpose();
            } else {
                const size_t up = static_cast<size_t>(p);
                pose.localRotations[uj] = (skeleton.bindOrientations[uj].conjugate() * skeleton.bindOrientations[up] *
                                           O[up].conjugate() * O[uj])
                                              .normalized();
            }
        }
        poses.push_back(std::move(pose));
    }
    return poses;
}

std::optional<int> longestAnimation(const ImportedSkeleton& file)
{
    std::optional<int> best;
    for (size_t a = 0; a < file.animations.size(); ++a) {
        const int n = file.animations[a].frameCount();
        if (n >= 2 && (!best || n > file.animations[static_cast<size_t>(*best)].frameCount()))
            best = static_cast<int>(a);
    }
    return best;
}

} // namespace rig
