#include "core/voxel/distance_transform.h"

#include <cmath>
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
                for (int q = 0; q < n; ++q)
                    f[static_cast<size_t>(q)] = dist[static_cast<size_t>(base + q * stride[a])];
                transform1d(f.data(), d.data(), n, v.data(), z.data());
                for (int q = 0; q < n; ++q)
                    dist[static_cast<size_t>(base + q * stride[a])] = d[static_cast<size_t>(q)];
            }
    }
    for (float& x : dist)
        x = std::sqrt(x);
    return dist;
}

} // namespace rig
