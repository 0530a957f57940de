#include "core/voxel/distance_transform.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <limits>
#include <memory>

namespace rig {
namespace {

// 1D squared distance transform of f (n samples) into d (Felzenszwalb-Huttenlocher).
// v, z are scratch buffers of n and n + 1 entries.
void transform1d(const float* f, float* d, int n, int* v, float* z)
{
    constexpr float inf = std::numeric_limits<float>::infinity();
    int k = 0;
    // Skip leading infinite samples: they never form the envelope.
    int q0 = 0;
    while (q0 < n && f[q0] == inf)
        ++q0;
    if (q0 == n) {
        for (int q = 0; q < n; ++q)
            d[q] = inf;
        return;
    }
    v[0] = q0;
    z[0] = -inf;
    z[1] = inf;
    for (int q = q0 + 1; q < n; ++q) {
        if (f[q] == inf)
            continue;
        float s;
        for (;;) {
            const int p = v[k];
            s = ((f[q] + static_cast<float>(q) * q) - (f[p] + static_cast<float>(p) * p)) / (2.0f * (q - p));
            if (s <= z[k] && k > 0)
                --k;
            else
                break;
        }
        ++k;
        v[k] = q;
        z[k] = s;
        z[k + 1] = inf;
    }
    k = 0;
    for (int q = 0; q < n; ++q) {
        while (z[k + 1] < static_cast<float>(q))
            ++k;
        const float dq = static_cast<float>(q - v[k]);
        d[q] = dq * dq + f[v[k]];
    }
}

} // namespace

std::vector<float> distanceToEmpty(const VoxelGrid& grid)
{
    constexpr float inf = std::numeric_limits<float>::infinity();
    const Vec3i dims = grid.dims;
    const std::int64_t stride[3] = {1, dims.x(), static_cast<std::int64_t>(dims.x()) * dims.y()};
    std::vector<float> dist(grid.states.size());
    for (size_t i = 0; i < dist.size(); ++i)
        dist[i] = grid.states[i] ? inf : 0.0f;
    const int maxDim = dims.maxCoeff();
    std::vector<float> f(static_cast<size_t>(maxDim)), d(static_cast<size_t>(maxDim)), z(static_cast<size_t>(maxDim) + 1);
    std::vector<int> v(static_cast<size_t>(maxDim));
    for (int a = 0; a < 3; ++a) {
        const int u = (a + 1) % 3, w = (a + 2) % 3, n = dims[a];
        for (int j = 0; j < dims[w]; ++j)
            for (int i = 0; i < dims[u]; ++i) {
                const std::int64_t base = i * stride[u] + j * stride[w];
                bool zero = true; // a line of empty voxels (most of a T-pose's box) stays 0
                for (int q = 0; q < n; ++q) {
                    f[static_cast<size_t>(q)] = dist[static_cast<size_t>(base + q * stride[a])];
                    zero = zero && f[static_cast<size_t>(q)] == 0.0f;
                }
                if (zero)
                    continue;
                transform1d(f.data(), d.data(), n, v.data(), z.data());
                for (int q = 0; q < n; ++q)
                    dist[static_cast<size_t>(base + q * stride[a])] = d[static_cast<size_t>(q)];
            }
    }
    for (float& x : dist)
        x = std::sqrt(x);
    return dist;
}

namespace {

/// A row's distance where it has no Empty voxel.
constexpr std::int32_t kNoEmpty = 1 << 20;

/// The rows' distances, each row computed the first time a query needs it
/// (the rows within a skeleton voxel's radius: a small part of the box).
class RowDistances {
public:
    explicit RowDistances(const VoxelGrid& g)
        : m_grid(g), m_nx(g.dims.x()), m_done(static_cast<size_t>(g.voxelCount() / std::max(g.dims.x(), 1)), 0),
          m_d(new std::int32_t[static_cast<size_t>(g.voxelCount())]) // filled row by row, as needed
    {
    }
    /// Squared distance along x from voxel `x` of row `row` to the row's nearest Empty voxel.
    std::int64_t squared(std::int64_t row, int x)
    {
        if (!m_done[static_cast<size_t>(row)])
            compute(row);
        const std::int64_t r = m_d[row * m_nx + x];
        return r * r;
    }

private:
    void compute(std::int64_t row)
    {
        const std::uint8_t* s = m_grid.states.data() + row * m_nx;
        std::int32_t* out = m_d.get() + row * m_nx;
        std::int32_t last = -kNoEmpty;
        for (int x = 0; x < m_nx; ++x) {
            if (!s[x])
                last = x;
            out[x] = x - last;
        }
        last = 2 * kNoEmpty;
        for (int x = m_nx - 1; x >= 0; --x) {
            if (!s[x])
                last = x;
            out[x] = std::min({out[x], last - x, kNoEmpty});
        }
        m_done[static_cast<size_t>(row)] = 1;
    }

    const VoxelGrid& m_grid;
    int m_nx;
    std::vector<std::uint8_t> m_done;
    std::unique_ptr<std::int32_t[]> m_d; ///< Per voxel, valid in the rows done.
};

} // namespace

std::vector<float> distanceToEmpty(const VoxelGrid& grid, const VoxelGrid& at)
{
    if (at.dims != grid.dims)
        throw InvalidInput("rig::distanceToEmpty(): the query grid is " + std::to_string(at.dims.x()) + "x" +
                           std::to_string(at.dims.y()) + "x" + std::to_string(at.dims.z()) + ", the solid " +
                           std::to_string(grid.dims.x()) + "x" + std::to_string(grid.dims.y()) + "x" +
                           std::to_string(grid.dims.z()));
    std::vector<float> dist(grid.states.size(), 0.0f);
    RowDistances row(grid);
    const int ny = grid.dims.y(), nz = grid.dims.z();
    auto rowAt = [&](int x, int y, int z) { return row.squared(y + static_cast<std::int64_t>(ny) * z, x); };
    for (std::int64_t i = 0; i < at.voxelCount(); ++i) {
        if (!at.states[static_cast<size_t>(i)] || !grid.states[static_cast<size_t>(i)])
            continue;
        const Vec3i c = grid.coord(i);
        std::int64_t best = rowAt(c.x(), c.y(), c.z());
        // Rows at Chebyshev radius r in (y, z); beyond it every row is at least (r + 1)² away.
        for (int r = 1; static_cast<std::int64_t>(r) * r < best; ++r)
            for (int dz = -r; dz <= r; ++dz)
                for (int dy = -r; dy <= r; dy += (dz == -r || dz == r) ? 1 : 2 * r) {
                    const int y = c.y() + dy, z = c.z() + dz;
                    if (y < 0 || y >= ny || z < 0 || z >= nz)
                        continue;
                    best = std::min(best, static_cast<std::int64_t>(dy) * dy + static_cast<std::int64_t>(dz) * dz +
                                              rowAt(c.x(), y, z));
                }
        dist[static_cast<size_t>(i)] = std::sqrt(static_cast<float>(best));
    }
    return dist;
}

} // namespace rig
