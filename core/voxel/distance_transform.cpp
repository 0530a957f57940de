#include "core/voxel/distance_transform.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <limits>

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

/// Per voxel the distance along x to the nearest Empty voxel of its row
/// (`kNoEmpty` for a row without one).
constexpr std::int32_t kNoEmpty = 1 << 20;

std::vector<std::int32_t> rowDistances(const VoxelGrid& grid)
{
    const int nx = grid.dims.x();
    const std::int64_t rows = grid.voxelCount() / std::max(nx, 1);
    std::vector<std::int32_t> d(grid.states.size());
    for (std::int64_t row = 0; row < rows; ++row) {
        const std::uint8_t* s = grid.states.data() + row * nx;
        std::int32_t* out = d.data() + row * nx;
        std::int32_t last = -kNoEmpty;
        for (int x = 0; x < nx; ++x) {
            if (!s[x])
                last = x;
            out[x] = x - last;
        }
        last = 2 * kNoEmpty;
        for (int x = nx - 1; x >= 0; --x) {
            if (!s[x])
                last = x;
            out[x] = std::min({out[x], last - x, kNoEmpty});
        }
    }
    return d;
}

} // namespace

std::vector<float> distanceToEmpty(const VoxelGrid& grid, const VoxelGrid& at)
{
    if (at.dims != grid.dims)
        throw InvalidInput("rig::distanceToEmpty(): the query grid is " + std::to_string(at.dims.x()) + "x" +
                           std::to_string(at.dims.y()) + "x" + std::to_string(at.dims.z()) + ", the solid " +
                           std::to_string(grid.dims.x()) + "x" + std::to_string(grid.dims.y()) + "x" +
                           std::to_string(grid.dims.z()));
    std::vector<float> dist(grid.states.size(), 0.0f);
    const std::vector<std::int32_t> row = rowDistances(grid);
    const int nx = grid.dims.x(), ny = grid.dims.y(), nz = grid.dims.z();
    auto rowAt = [&](int x, int y, int z) -> std::int64_t {
        const std::int64_t r = row[static_cast<size_t>(x + static_cast<std::int64_t>(nx) * (y + static_cast<std::int64_t>(ny) * z))];
        return r * r;
    };
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
