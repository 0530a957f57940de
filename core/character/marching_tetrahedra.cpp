#include "core/character/marching_tetrahedra.h"

#include "core/common/error.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace rig {
namespace {

// Cube corners are numbered by bits: bit 0 = +x, bit 1 = +y, bit 2 = +z.
Vec3i cornerOffset(int c) { return Vec3i(c & 1, (c >> 1) & 1, (c >> 2) & 1); }

// The six Kuhn tetrahedra: one per ordering of the axes, each the path
// 0 -> e_a -> e_a + e_b -> 7 along the main diagonal. Every edge of such a
// tetrahedron joins a corner u to a corner v with u's bits a subset of v's, so
// an edge is named by its lower corner and the bit difference (1..7), the same
// name in every cube that shares it. Vertex orders are fixed to positive volume.
struct KuhnTable {
    std::array<std::array<int, 4>, 6> tets{};
    KuhnTable()
    {
        const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        for (int t = 0; t < 6; ++t) {
            const int c1 = 1 << axes[t][0];
            const int c2 = c1 | (1 << axes[t][1]);
            std::array<int, 4> tet = {0, c1, c2, 7};
            const Vec3 p0 = cornerOffset(tet[0]).cast<double>();
            Eigen::Matrix3d m;
            for (int k = 0; k < 3; ++k)
                m.col(k) = cornerOffset(tet[k + 1]).cast<double>() - p0;
            if (m.determinant() < 0.0)
                std::swap(tet[2], tet[3]);
            tets[static_cast<size_t>(t)] = tet;
        }
    }
};

int inversions(const std::array<int, 4>& order)
{
    int n = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j)
            n += order[static_cast<size_t>(i)] > order[static_cast<size_t>(j)];
    return n;
}

constexpr double clampLow = 0.01;
constexpr double clampHigh = 0.99;

class Extractor {
public:
    explicit Extractor(const GridSamples& grid) : m_grid(grid)
    {
        m_vertexOfEdge.reserve(1 << 16);
        m_positions.reserve(1 << 16);
        m_triangles.reserve(1 << 17);
    }

    void cube(int i, int j, int k)
    {
        std::array<float, 8> f;
        std::array<Eigen::Index, 8> idx;
        bool anyInside = false, anyOutside = false;
        for (int c = 0; c < 8; ++c) {
            const Vec3i o = cornerOffset(c);
            idx[static_cast<size_t>(c)] = m_grid.index(i + o.x(), j + o.y(), k + o.z());
            f[static_cast<size_t>(c)] = m_grid.values[static_cast<size_t>(idx[static_cast<size_t>(c)])];
            (f[static_cast<size_t>(c)] < 0.0f ? anyInside : anyOutside) = true;
        }
        if (!anyInside || !anyOutside)
            return;
        static const KuhnTable table;
        for (const auto& tet : table.tets)
            tetrahedron(i, j, k, tet, f, idx);
    }

    IsoSurface take()
    {
        IsoSurface s;
        s.V.resize(static_cast<Eigen::Index>(m_positions.size()), 3);
        for (size_t v = 0; v < m_positions.size(); ++v)
            s.V.row(static_cast<Eigen::Index>(v)) = m_positions[v].transpose();
        s.F.resize(static_cast<Eigen::Index>(m_triangles.size()), 3);
        for (size_t t = 0; t < m_triangles.size(); ++t)
            s.F.row(static_cast<Eigen::Index>(t)) << m_triangles[t][0], m_triangles[t][1], m_triangles[t][2];
        return s;
    }

private:
    void tetrahedron(int i, int j, int k, const std::array<int, 4>& tet, const std::array<float, 8>& f,
                     const std::array<Eigen::Index, 8>& idx)
    {
        // Order the corners inside-first (or, with three inside, the lone
        // outside corner first), keeping the orientation positive: an odd
        // reordering is made even by swapping the last two, which lie on the
        // same side.
        std::array<int, 4> in{}, out{};
        int nIn = 0, nOut = 0;
        for (int c : tet)
            (f[static_cast<size_t>(c)] < 0.0f ? in[static_cast<size_t>(nIn++)] : out[static_cast<size_t>(nOut++)]) = c;
        if (nIn == 0 || nIn == 4)
            return;
        std::array<int, 4> order{};
        if (nIn == 3) {
            order = {out[0], in[0], in[1], in[2]};
        } else {
            int n = 0;
            for (int a = 0; a < nIn; ++a)
                order[static_cast<size_t>(n++)] = in[static_cast<size_t>(a)];
            for (int a = 0; a < nOut; ++a)
                order[static_cast<size_t>(n++)] = out[static_cast<size_t>(a)];
        }
        // Parity relative to the positive order `tet`.
        std::array<int, 4> pos{};
        for (int a = 0; a < 4; ++a)
            pos[static_cast<size_t>(a)] = static_cast<int>(std::find(tet.begin(), tet.end(), order[static_cast<size_t>(a)]) - tet.begin());
        if (inversions(pos) % 2 == 1)
            std::swap(order[2], order[3]);

        auto e = [&](int a, int b) {
            return edgeVertex(i, j, k, order[static_cast<size_t>(a)], order[static_cast<size_t>(b)], f, idx);
        };
        if (nIn == 1) {
            // (s, x, y, z) positive: triangle (sx, sy, sz) faces away from s.
            m_triangles.push_back({e(0, 1), e(0, 2), e(0, 3)});
        } else if (nIn == 3) {
            // The lone corner is outside: face towards it.
            m_triangles.push_back({e(0, 1), e(0, 3), e(0, 2)});
        } else {
            // (p, q, r, s) positive with p, q inside: quad pr, ps, qs, qr faces
            // from {p, q} towards {r, s}; its diagonal is inside the tetrahedron.
            const int pr = e(0, 2), ps = e(0, 3), qs = e(1, 3), qr = e(1, 2);
            m_triangles.push_back({pr, ps, qs});
            m_triangles.push_back({pr, qs, qr});
        }
    }

    int edgeVertex(int i, int j, int k, int ca, int cb, const std::array<float, 8>& f,
                   const std::array<Eigen::Index, 8>& idx)
    {
        const int lo = (ca & cb) == ca ? ca : cb; // the corner whose bits are a subset
        const int hi = lo == ca ? cb : ca;
        assert((lo & hi) == lo && lo != hi);
        const std::uint64_t key = (std::uint64_t(idx[static_cast<size_t>(lo)]) << 3) | std::uint64_t(hi & ~lo);
        const auto [it, inserted] = m_vertexOfEdge.try_emplace(key, static_cast<int>(m_positions.size()));
        if (inserted) {
            const double fl = f[static_cast<size_t>(lo)], fh = f[static_cast<size_t>(hi)];
            const double t = std::clamp(fl / (fl - fh), clampLow, clampHigh);
            const Vec3i ol = cornerOffset(lo), oh = cornerOffset(hi);
            const Vec3 pl = m_grid.position(i + ol.x(), j + ol.y(), k + ol.z());
            const Vec3 ph = m_grid.position(i + oh.x(), j + oh.y(), k + oh.z());
            m_positions.push_back(pl + t * (ph - pl));
        }
        return it->second;
    }

    const GridSamples& m_grid;
    std::unordered_map<std::uint64_t, int> m_vertexOfEdge;
    std::vector<Vec3> m_positions;
    std::vector<std::array<int, 3>> m_triangles;
};

void checkBoundary(const GridSamples& g)
{
    const int nx = g.dims.x(), ny = g.dims.y(), nz = g.dims.z();
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j) {
            const bool face = k == 0 || k == nz - 1 || j == 0 || j == ny - 1;
            for (int i = 0; i < nx; i += (face ? 1 : std::max(1, nx - 1)))
                if (g.values[static_cast<size_t>(g.index(i, j, k))] < 0.0f)
                    throw InvalidInput("rig::marchingTetrahedra(): the field is negative on the grid boundary at (" +
                                       std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) +
                                       "); enlarge the grid");
        }
}

} // namespace

IsoSurface marchingTetrahedra(const GridSamples& grid)
{
    assert(grid.cellSize > 0.0);
    assert(grid.values.size() == static_cast<size_t>(grid.dims.cast<Eigen::Index>().prod()));
    const int nx = grid.dims.x(), ny = grid.dims.y(), nz = grid.dims.z();
    if (nx < 2 || ny < 2 || nz < 2)
        return {};
    checkBoundary(grid);
    const bool rows = !grid.rowBegin.empty();
    assert(!rows || (grid.rowBegin.size() == size_t(ny) * size_t(nz) && grid.rowEnd.size() == grid.rowBegin.size()));

    Extractor extractor(grid);
    for (int k = 0; k + 1 < nz; ++k)
        for (int j = 0; j + 1 < ny; ++j) {
            int begin = 0, end = nx - 1; // cube x range
            if (rows) {
                // A cube can only be crossed if one of its corners may be negative.
                begin = nx;
                end = 0;
                for (int dk = 0; dk < 2; ++dk)
                    for (int dj = 0; dj < 2; ++dj) {
                        const size_t r = size_t(j + dj) + size_t(ny) * size_t(k + dk);
                        if (grid.rowBegin[r] < grid.rowEnd[r]) {
                            begin = std::min(begin, grid.rowBegin[r] - 1);
                            end = std::max(end, grid.rowEnd[r]);
                        }
                    }
                begin = std::max(begin, 0);
                end = std::min(end, nx - 1);
            }
            for (int i = begin; i < end; ++i)
                extractor.cube(i, j, k);
        }
    return extractor.take();
}

} // namespace rig
