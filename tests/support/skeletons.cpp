#include "tests/support/skeletons.h"

#include "core/rig/fit_template.h"

#include <string>

namespace rig::test {

Skeleton chainSkeleton(const std::vector<Vec3>& points, bool orient)
{
    Skeleton s;
    for (size_t i = 0; i < points.size(); ++i) {
        s.names.push_back(std::string("j").append(std::to_string(i))); // not "j" + ...: GCC 12 -Wrestrict false positive
        s.parents.push_back(static_cast<int>(i) - 1);
    }
    s.bindPositions.resize(static_cast<Eigen::Index>(points.size()), 3);
    for (size_t i = 0; i < points.size(); ++i)
        s.bindPositions.row(static_cast<Eigen::Index>(i)) = points[i].transpose();
    s.bindOrientations.assign(points.size(), Eigen::Quaterniond::Identity());
    if (orient)
        orientBones(s);
    return s;
}

Skeleton treeSkeleton(const std::vector<int>& parents, const std::vector<Vec3>& points)
{
    Skeleton s = chainSkeleton(points);
    s.parents = parents;
    orientBones(s);
    return s;
}

Skeleton groundTruthSkeleton(const Humanoid& h)
{
    Skeleton s;
    s.names = h.jointNames;
    s.parents = h.jointParents;
    s.bindPositions = h.joints;
    s.bindOrientations.assign(h.jointNames.size(), Eigen::Quaterniond::Identity());
    orientBones(s);
    return s;
}

Skeleton restSkeleton(const RigTemplate& t)
{
    Skeleton s;
    s.names = t.names;
    s.parents = t.parents;
    s.bindPositions = t.restPositions;
    s.bindOrientations.assign(t.names.size(), Eigen::Quaterniond::Identity());
    return s;
}

} // namespace rig::test
