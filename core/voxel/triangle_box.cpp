#include "core/voxel/triangle_box.h"

#include <algorithm>
#include <cmath>

namespace rig {
namespace {

// Does axis `n` separate the triangle (vertices relative to the box centre) from the box?
bool separates(const Vec3& n, const Vec3& v0, const Vec3& v1, const Vec3& v2, const Vec3& h)
{
    const double p0 = n.dot(v0), p1 = n.dot(v1), p2 = n.dot(v2);
    const double r = h.x() * std::abs(n.x()) + h.y() * std::abs(n.y()) + h.z() * std::abs(n.z());
    return std::min({p0, p1, p2}) > r || std::max({p0, p1, p2}) < -r;
}

} // namespace

bool triangleBoxOverlap(const Vec3& center, const Vec3& h, const Vec3& a, const Vec3& b, const Vec3& c)
{
    const Vec3 v0 = a - center, v1 = b - center, v2 = c - center;
    // 1. Box face normals: the triangle's bounding box against the box.
    for (int k = 0; k < 3; ++k) {
        if (std::min({v0[k], v1[k], v2[k]}) > h[k] || std::max({v0[k], v1[k], v2[k]}) < -h[k])
            return false;
    }
    // 2. The nine cross products of box axes and triangle edges.
    const Vec3 e[3] = {v1 - v0, v2 - v1, v0 - v2};
    for (const Vec3& edge : e)
        for (int k = 0; k < 3; ++k) {
            const Vec3 axis = Vec3::Unit(k).cross(edge);
            if (separates(axis, v0, v1, v2, h))
                return false;
        }
    // 3. The triangle's plane.
    const Vec3 n = e[0].cross(e[1]);
    return !separates(n, v0, v1, v2, h);
}

} // namespace rig
