#include "tests/support/inside_mesh.h"

#include <array>
#include <cmath>

namespace rig::test {

int rayCrossings(const Mesh& m, const Vec3& origin, const Vec3& dir)
{
    int hits = 0;
    for (Eigen::Index f = 0; f < m.F.rows(); ++f) {
        const Vec3 a = m.V.row(m.F(f, 0)), b = m.V.row(m.F(f, 1)), c = m.V.row(m.F(f, 2));
        const Vec3 e1 = b - a, e2 = c - a;
        const Vec3 p = dir.cross(e2);
        const double det = e1.dot(p);
        if (std::abs(det) < 1e-18)
            continue;
        const Vec3 s = origin - a;
        const double u = s.dot(p) / det;
        if (u < 0.0 || u > 1.0)
            continue;
        const Vec3 q = s.cross(e1);
        const double v = dir.dot(q) / det;
        if (v < 0.0 || u + v > 1.0)
            continue;
        if (e2.dot(q) / det > 0.0)
            ++hits;
    }
    return hits;
}

bool insideMesh(const Mesh& m, const Vec3& p)
{
    const std::array<Vec3, 3> dirs = {Vec3(0.3127, 0.8411, 0.4414).normalized(),
                                      Vec3(-0.6211, -0.2378, 0.7468).normalized(),
                                      Vec3(0.1597, -0.9012, -0.4028).normalized()};
    int votes = 0;
    for (const Vec3& d : dirs)
        votes += rayCrossings(m, p, d) % 2;
    return votes >= 2;
}

} // namespace rig::test
