#include "core/mesh/point_grid.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace rig {

PointGrid::PointGrid(const MatrixX3d& P, double pointsPerCell) : m_P(P)
{
    if (!(pointsPerCell > 0.0) || !std::isfinite(pointsPerCell))
        throw InvalidInput("rig::PointGrid: pointsPerCell must be positive and finite, got " +
                           std::to_string(pointsPerCell));
    Box3 box;
    for (Eigen::Index i = 0; i < P.rows(); ++i) {
        if (!P.row(i).allFinite())
            throw InvalidInput("rig::PointGrid: point " + std::to_string(i) + " has a non-finite coordinate");
        box.extend(P.row(i).transpose());
    }
    if (P.rows() == 0) {
        m_start.assign(1, 0);
        return;
    }
    const Vec3 size = box.size();
    const double diag = std::max(size.norm(), 1e-300);
    // Volume of the box with flat sides thickened to a tenth of the diagonal,
    // so that a planar point set does not get a huge cell count.
    const Vec3 thick = size.cwiseMax(Vec3::Constant(0.1 * diag));
    double cell = std::cbrt(thick.prod() / static_cast<double>(P.rows()) * pointsPerCell);
    cell = std::max(cell, 1e-9 * diag);
    constexpr double maxCells = 2097152.0; // 2^21
    for (;;) {
        const Vec3 d = (size / cell).array().floor() + 1.0;
        if (d.prod() <= maxCells)
            break;
        cell *= 1.25;
    }
    m_cell = cell;
    m_origin = box.min;
    m_dims = ((size / cell).array().floor() + 1.0).cast<int>();
    const size_t cells = static_cast<size_t>(m_dims.prod());
    std::vector<int> cellOfPoint(static_cast<size_t>(P.rows()));
    m_start.assign(cells + 1, 0);
    for (Eigen::Index i = 0; i < P.rows(); ++i) {
        const Vec3i c = cellOf(P.row(i).transpose());
        const int k = cellIndex(c.x(), c.y(), c.z());
        cellOfPoint[static_cast<size_t>(i)] = k;
        ++m_start[static_cast<size_t>(k) + 1];
    }
    for (size_t k = 0; k < cells; ++k)
        m_start[k + 1] += m_start[k];
    m_items.resize(static_cast<size_t>(P.rows()));
    std::vector<int> fill(m_start.begin(), m_start.end() - 1);
    for (Eigen::Index i = 0; i < P.rows(); ++i) // increasing index within each cell
        m_items[static_cast<size_t>(fill[static_cast<size_t>(cellOfPoint[static_cast<size_t>(i)])]++)] =
            static_cast<int>(i);
}

Vec3i PointGrid::cellOf(const Vec3& p) const
{
    Vec3i c;
    for (int a = 0; a < 3; ++a) {
        const double t = std::floor((p[a] - m_origin[a]) / m_cell);
        c[a] = static_cast<int>(std::clamp(t, 0.0, static_cast<double>(m_dims[a] - 1)));
    }
    return c;
}

void PointGrid::pointsWithin(const Vec3& centre, double radius, std::vector<int>& out) const
{
    out.clear();
    if (m_items.empty() || !(radius >= 0.0) || !std::isfinite(radius) || !centre.allFinite())
        return;
    const Vec3 lo = centre - Vec3::Constant(radius), hi = centre + Vec3::Constant(radius);
    const Vec3 top = m_origin + m_dims.cast<double>() * m_cell;
    if ((hi.array() < m_origin.array()).any() || (lo.array() > top.array()).any())
        return;
    const Vec3i a = cellOf(lo), b = cellOf(hi);
    const double r2 = radius * radius;
    for (int z = a.z(); z <= b.z(); ++z)
        for (int y = a.y(); y <= b.y(); ++y)
            for (int x = a.x(); x <= b.x(); ++x) {
                const int k = cellIndex(x, y, z);
                for (int s = m_start[static_cast<size_t>(k)]; s < m_start[static_cast<size_t>(k) + 1]; ++s) {
                    const int i = m_items[static_cast<size_t>(s)];
                    if ((m_P.row(i).transpose() - centre).squaredNorm() <= r2)
                        out.push_back(i);
                }
            }
}

std::optional<int> PointGrid::nearest(const Vec3& q) const
{
    if (m_items.empty() || !q.allFinite())
        return std::nullopt;
    // Rings of cells around q's (clamped) cell, growing until the best point
    // found is closer than anything the next ring could hold.
    const Vec3i c = cellOf(q);
    int best = -1;
    double bestD2 = std::numeric_limits<double>::infinity();
    const int maxRing = m_dims.maxCoeff();
    for (int ring = 0; ring <= maxRing; ++ring) {
        for (int z = c.z() - ring; z <= c.z() + ring; ++z) {
            if (z < 0 || z >= m_dims.z())
                continue;
            for (int y = c.y() - ring; y <= c.y() + ring; ++y) {
                if (y < 0 || y >= m_dims.y())
                    continue;
                const bool shellYZ = std::abs(z - c.z()) == ring || std::abs(y - c.y()) == ring;
                for (int x = c.x() - ring; x <= c.x() + ring; x += (shellYZ ? 1 : 2 * std::max(ring, 1))) {
                    if (x < 0 || x >= m_dims.x())
                        continue;
                    const int k = cellIndex(x, y, z);
                    for (int s = m_start[static_cast<size_t>(k)]; s < m_start[static_cast<size_t>(k) + 1]; ++s) {
                        const int i = m_items[static_cast<size_t>(s)];
                        const double d2 = (m_P.row(i).transpose() - q).squaredNorm();
                        if (d2 < bestD2 || (d2 == bestD2 && i < best)) {
                            bestD2 = d2;
                            best = i;
                        }
                    }
                }
            }
        }
        // A cell beyond this ring differs from q's (clamped) cell by more than
        // `ring` along some axis, so it lies at least ring * cell from q along that
        // axis (farther still when q is outside the box).
        const double reach = static_cast<double>(ring) * m_cell;
        if (best >= 0 && bestD2 <= reach * reach)
            break;
    }
    return best >= 0 ? std::optional<int>(best) : std::nullopt;
}

} // namespace rig
