#include "core/voxel/triangle_box.h"

#include <algorithm>
#include <cmath>

namespace rig {
namespace {

// The box's radius along axis n.
double radiusAlong(const Vec3& n, const Vec3& h)
{
    return h.x() * std::abs(n.x()) + h.y() * std::abs(n.y()) + h.z() * std::abs(n.z());
}

// Does axis `n` (box radius r) separate the triangle (vertices relative to the box centre) from the box?
bool separates(const Vec3& n, double r, const Vec3& v0, const Vec3& v1, const Vec3& v2)
{
    const double p0 = n.dot(v0), p1 = n.dot(v1), p2 = n.dot(v2);
    return std::min({p0, p1, p2}) > r || std::max({p0, p1, p2}) < -r;
}

bool separates(const Vec3& n, const Vec3& v0, const Vec3& v1, const Vec3& v2, const Vec3& h)
{
    return separates(n, radiusAlong(n, h), v0, v1, v2);
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

TriangleBoxTest::TriangleBoxTest(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& halfSize)
    : m_a(a), m_b(b), m_c(c), m_half(halfSize)
{
    // The same edges, axes and radii triangleBoxOverlap() computes per box
    // (edges of the vertices relative to a centre equal the absolute ones).
    const Vec3 e[3] = {b - a, c - b, a - c};
    m_axis[0] = e[0].cross(e[1]);
    int k = 1;
    for (const Vec3& edge : e)
        for (int axis = 0; axis < 3; ++axis)
            m_axis[k++] = Vec3::Unit(axis).cross(edge);
    for (int n = 0; n < 10; ++n)
        m_radius[n] = radiusAlong(m_axis[n], m_half);
}

bool TriangleBoxTest::overlaps(const Vec3& center) const
{
    const Vec3 v0 = m_a - center, v1 = m_b - center, v2 = m_c - center;
    for (int k = 0; k < 3; ++k)
        if (std::min({v0[k], v1[k], v2[k]}) > m_half[k] || std::max({v0[k], v1[k], v2[k]}) < -m_half[k])
            return false;
    for (int n = 0; n < 10; ++n)
        if (separates(m_axis[n], m_radius[n], v0, v1, v2))
            return false;
    return true;
}

} // namespace rig
