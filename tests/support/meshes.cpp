#include "tests/support/meshes.h"

#include "core/mesh/mesh_queries.h"

#include <Eigen/Geometry>

#include <cmath>
#include <numbers>

namespace rig::test {

Mesh boxMesh(const Vec3& lo, const Vec3& hi)
{
    Mesh m;
    m.V.resize(8, 3);
    for (int i = 0; i < 8; ++i)
        m.V.row(i) << ((i & 1) ? hi.x() : lo.x()), ((i & 2) ? hi.y() : lo.y()), ((i & 4) ? hi.z() : lo.z());
    m.F.resize(12, 3);
    m.F << 0, 2, 1, 1, 2, 3, // z = lo
        4, 5, 6, 5, 7, 6,    // z = hi
        0, 1, 4, 1, 5, 4,    // y = lo
        2, 6, 3, 3, 6, 7,    // y = hi
        0, 4, 2, 2, 4, 6,    // x = lo
        1, 3, 5, 3, 7, 5;    // x = hi
    m.N = vertexNormals(m.V, m.F);
    m.part.assign(8, 0);
    m.partNames = {"box"};
    return m;
}

Mesh capsuleMesh(const Vec3& a, const Vec3& b, double radius, int segments, int rings, int bodyRings)
{
    // Build along +Y from 0 to L, then rotate onto a-b.
    const double L = (b - a).norm();
    const double pi = std::numbers::pi;
    std::vector<Vec3> pts;
    std::vector<Eigen::Vector3i> tris;
    // Rows of rings from bottom pole to top pole.
    std::vector<std::pair<double, double>> rows; // (y, ring radius)
    for (int i = 1; i < rings; ++i) {
        const double t = -pi / 2 + pi / 2 * i / rings;
        rows.push_back({radius * std::sin(t), radius * std::cos(t)});
    }
    for (int i = 0; i <= bodyRings; ++i)
        rows.push_back({L * i / bodyRings, radius});
    for (int i = 1; i < rings; ++i) {
        const double t = pi / 2 * i / rings;
        rows.push_back({L + radius * std::sin(t), radius * std::cos(t)});
    }
    pts.push_back(Vec3(0, -radius, 0));
    for (const auto& [y, r] : rows)
        for (int s = 0; s < segments; ++s) {
            const double phi = 2 * pi * s / segments;
            pts.push_back(Vec3(r * std::cos(phi), y, -r * std::sin(phi)));
        }
    pts.push_back(Vec3(0, L + radius, 0));
    const int nRows = static_cast<int>(rows.size());
    const int top = static_cast<int>(pts.size()) - 1;
    auto idx = [&](int row, int s) { return 1 + row * segments + (s % segments); };
    for (int s = 0; s < segments; ++s)
        tris.push_back({0, idx(0, s + 1), idx(0, s)});
    for (int r = 0; r + 1 < nRows; ++r)
        for (int s = 0; s < segments; ++s) {
            tris.push_back({idx(r, s), idx(r, s + 1), idx(r + 1, s)});
            tris.push_back({idx(r, s + 1), idx(r + 1, s + 1), idx(r + 1, s)});
        }
    for (int s = 0; s < segments; ++s)
        tris.push_back({top, idx(nRows - 1, s), idx(nRows - 1, s + 1)});

    const Vec3 axis = L > 0 ? Vec3((b - a) / L) : Vec3::UnitY();
    const Eigen::Matrix3d R = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitY(), axis).toRotationMatrix();
    Mesh m;
    m.V.resize(static_cast<Eigen::Index>(pts.size()), 3);
    for (size_t i = 0; i < pts.size(); ++i)
        m.V.row(static_cast<Eigen::Index>(i)) = (R * pts[i] + a).transpose();
    m.F.resize(static_cast<Eigen::Index>(tris.size()), 3);
    for (size_t i = 0; i < tris.size(); ++i)
        m.F.row(static_cast<Eigen::Index>(i)) = tris[i].transpose();
    m.N = vertexNormals(m.V, m.F);
    m.part.assign(pts.size(), 0);
    m.partNames = {"capsule"};
    return m;
}

Mesh torusMesh(double R, double r, int segments, int sides)
{
    const double pi = std::numbers::pi;
    Mesh m;
    m.V.resize(segments * sides, 3);
    m.F.resize(2 * segments * sides, 3);
    for (int i = 0; i < segments; ++i) {
        const double u = 2 * pi * i / segments;
        for (int j = 0; j < sides; ++j) {
            const double v = 2 * pi * j / sides;
            m.V.row(i * sides + j) << (R + r * std::cos(v)) * std::cos(u), r * std::sin(v),
                (R + r * std::cos(v)) * std::sin(u);
        }
    }
    int f = 0;
    for (int i = 0; i < segments; ++i)
        for (int j = 0; j < sides; ++j) {
            const int a = i * sides + j, b = ((i + 1) % segments) * sides + j;
            const int c = ((i + 1) % segments) * sides + (j + 1) % sides, d = i * sides + (j + 1) % sides;
            m.F.row(f++) << a, d, b;
            m.F.row(f++) << b, d, c;
        }
    m.N = vertexNormals(m.V, m.F);
    m.part.assign(static_cast<size_t>(m.V.rows()), 0);
    m.partNames = {"torus"};
    return m;
}

Mesh concat(const std::vector<Mesh>& meshes)
{
    Mesh out;
    Eigen::Index nv = 0, nf = 0;
    for (const Mesh& m : meshes) {
        nv += m.V.rows();
        nf += m.F.rows();
    }
    out.V.resize(nv, 3);
    out.F.resize(nf, 3);
    Eigen::Index v = 0, f = 0;
    for (const Mesh& m : meshes) {
        out.V.middleRows(v, m.V.rows()) = m.V;
        out.F.middleRows(f, m.F.rows()) = m.F.array() + static_cast<int>(v);
        const int base = out.partCount();
        for (int p : m.part)
            out.part.push_back(base + p);
        out.partNames.insert(out.partNames.end(), m.partNames.begin(), m.partNames.end());
        v += m.V.rows();
        f += m.F.rows();
    }
    out.N = vertexNormals(out.V, out.F);
    return out;
}

} // namespace rig::test
