#include "core/rig/skeleton.h"

#include "core/common/error.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <unordered_set>

namespace rig {

std::optional<int> Skeleton::find(const std::string& name) const
{
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<int>(i);
    return std::nullopt;
}

namespace {

std::string positionText(const Vec3& p)
{
    std::ostringstream out;
    out << std::setprecision(4) << '(' << p.x() << ", " << p.y() << ", " << p.z() << ')';
    return out.str();
}

} // namespace

void validateSkeleton(const Skeleton& s)
{
    const size_t n = s.names.size();
    if (n == 0)
        throw InvalidInput("rig::validateSkeleton(): the skeleton has no joints");
    if (s.parents.size() != n || static_cast<size_t>(s.bindPositions.rows()) != n || s.bindOrientations.size() != n)
        throw InvalidInput("rig::validateSkeleton(): names, parents, positions and orientations differ in length");
    std::unordered_set<std::string> seen;
    for (size_t i = 0; i < n; ++i) {
        if (s.names[i].empty())
            throw InvalidInput("rig::validateSkeleton(): joint " + std::to_string(i) + " has no name");
        if (!seen.insert(s.names[i]).second)
            throw InvalidInput("rig::validateSkeleton(): joint name '" + s.names[i] + "' is used twice");
        const int p = s.parents[i];
        if (i == 0 ? p != -1 : (p < 0 || p >= static_cast<int>(i)))
            throw InvalidInput("rig::validateSkeleton(): joint '" + s.names[i] +
                               "' has parent " + std::to_string(p) + "; need one root at index 0 and parents[i] < i");
        if (!s.bindPositions.row(static_cast<Eigen::Index>(i)).allFinite())
            throw InvalidInput("rig::validateSkeleton(): joint '" + s.names[i] + "' has a NaN or infinite position");
        if (s.bindPositions.row(static_cast<Eigen::Index>(i)).cwiseAbs().maxCoeff() > kMaxJointCoordinate)
            throw InvalidInput("rig::validateSkeleton(): joint '" + s.names[i] + "' lies at " +
                               positionText(s.bindPositions.row(static_cast<Eigen::Index>(i)).transpose()) +
                               ", beyond ±1e9 units from the origin (a corrupt value?)");
        if (std::abs(s.bindOrientations[i].norm() - 1.0) > 1e-6)
            throw InvalidInput("rig::validateSkeleton(): joint '" + s.names[i] + "' has a non-unit orientation");
    }
}

void validateSkeletonNearMesh(const Skeleton& s, const Box3& bounds)
{
    const double size = bounds.size().maxCoeff();
    if (bounds.empty() || !std::isfinite(size))
        throw InvalidInput("rig::validateSkeletonNearMesh(): the character's bounding box is empty or not finite");
    const Vec3 &lo = bounds.min, &hi = bounds.max;
    const double margin = 2.0 * size;
    for (int j = 0; j < s.jointCount(); ++j) {
        const Vec3 p = s.bindPositions.row(j).transpose();
        const double outside = (lo - p).cwiseMax(p - hi).cwiseMax(0.0).norm();
        if (!(outside <= margin))
            throw InvalidInput("joint '" + s.names[static_cast<size_t>(j)] + "' lies at " + positionText(p) + ", " +
                               std::to_string(outside) + " units outside the character, whose size is " +
                               std::to_string(size) + ": the rig does not belong to this mesh (fit the rig again, "
                               "or open the project with the mesh it was made for)");
    }
}

std::vector<std::vector<int>> childrenOf(const Skeleton& s)
{
    std::vector<std::vector<int>> c(s.names.size());
    for (size_t i = 0; i < s.parents.size(); ++i)
        if (s.parents[i] >= 0)
            c[s.parents[i]].push_back(static_cast<int>(i));
    return c;
}

} // namespace rig
