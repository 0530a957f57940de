#include "tests/support/inside_mesh.h"

#include <array>
#include <cmath>

namespace rig::test {

// Möller-Trumbore on plain doubles: the tests call this for every node of a
// skeleton against every triangle, and the sanitizer build's instrumented Eigen
// temporaries made it the slowest code of the core ring.
int rayCrossings(const Mesh& m, const Vec3& origin, const Vec3& dir)
{
    const double* V = m.V.data(); // row-major: vertex i at V + 3 i
    const int* F = m.F.data();
    const double d[3] = {dir.x(), dir.y(), dir.z()};
    const double o[3] = {origin.x(), origin.y(), origin.z()};
    const auto sub = [](const double* x, const double* y, double* r) {
        r[0] = x[0] - y[0], r[1] = x[1] - y[1], r[2] = x[2] - y[2];
    };
    const auto cross = [](const double* x, const double* y, double* r) {
        r[0] = x[1] * y[2] - x[2] * y[1], r[1] = x[2] * y[0] - x[0] * y[2], r[2] = x[0] * y[1] - x[1] * y[0];
    };
    const auto dot = [](const double* x, const double* y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    int hits = 0;
    for (Eigen::Index f = 0; f < m.F.rows(); ++f) {
        const double* a = V + 3 * F[3 * f];
        const double* b = V + 3 * F[3 * f + 1];
        const double* c = V + 3 * F[3 * f + 2];
        double e1[3], e2[3], p[3], s[3], q[3];
        sub(b, a, e1);
        sub(c, a, e2);
        cross(d, e2, p);
        const double det = dot(e1, p);
        if (std::abs(det) < 1e-18)
            continue;
        sub(o, a, s);
        const double u = dot(s, p) / det;
        if (u < 0.0 || u > 1.0)
            continue;
        cross(s, e1, q);
        const double v = dot(d, q) / det;
        if (v < 0.0 || u + v > 1.0)
            continue;
        if (dot(e2, q) / det > 0.0)
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
