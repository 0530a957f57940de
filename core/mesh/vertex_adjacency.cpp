#include "core/mesh/vertex_adjacency.h"

#include <algorithm>
#include <utility>

namespace rig {

VertexAdjacency vertexAdjacency(int n, const MatrixX3i& F)
{
    std::vector<std::pair<int, int>> e;
    e.reserve(static_cast<size_t>(F.rows()) * 6);
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int k = 0; k < 3; ++k) {
            const int a = F(f, k), b = F(f, (k + 1) % 3);
            if (a != b) {
                e.emplace_back(a, b);
                e.emplace_back(b, a);
            }
        }
    std::sort(e.begin(), e.end());
    e.erase(std::unique(e.begin(), e.end()), e.end());
    VertexAdjacency adj;
    adj.start.assign(static_cast<size_t>(n) + 1, 0);
    for (const auto& [a, b] : e)
        ++adj.start[static_cast<size_t>(a) + 1];
    for (int i = 0; i < n; ++i)
        adj.start[static_cast<size_t>(i) + 1] += adj.start[static_cast<size_t>(i)];
    adj.nbr.resize(e.size());
    for (size_t i = 0; i < e.size(); ++i)
        adj.nbr[i] = e[i].second; // sorted by the first vertex, so already in place
    return adj;
}

} // namespace rig
