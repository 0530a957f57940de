#pragma once
/// @file types.h
/// Plain matrix types shared by the engine. Row-major so that a vertex's three
/// coordinates are contiguous (cheap upload to the GPU, cache-friendly loops).

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <limits>

namespace rig {

using MatrixX3d = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
using MatrixX3i = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;
using Vec3 = Eigen::Vector3d;
using Vec3i = Eigen::Vector3i;

/// Axis-aligned bounding box. Empty when min > max.
struct Box3 {
    Vec3 min = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 max = Vec3::Constant(-std::numeric_limits<double>::infinity());
    bool empty() const { return (min.array() > max.array()).any(); }
    Vec3 size() const { return empty() ? Vec3::Zero() : Vec3(max - min); }
    Vec3 center() const { return 0.5 * (min + max); }
    double diagonal() const { return size().norm(); }
    void extend(const Vec3& p) { min = min.cwiseMin(p); max = max.cwiseMax(p); }
};

} // namespace rig
