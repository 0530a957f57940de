#include "core/mesh/subdivide.h"

#include "core/common/error.h"

#include <unordered_map>

namespace rig {
namespace {

/// The new vertices of each edge, created once per undirected edge.
class EdgePoints {
public:
    EdgePoints(const Mesh& mesh, int k, std::vector<Vec3>& points, std::vector<int>& part)
        : mesh_(mesh), k_(k), points_(points), part_(part) {}

    /// The index of point i (0..k) along the edge a -> b; 0 is a, k is b.
    int at(int a, int b, int i)
    {
        if (i == 0)
            return a;
        if (i == k_)
            return b;
        const bool flip = a > b;
        const int lo = flip ? b : a, hi = flip ? a : b;
        const auto key = (static_cast<std::uint64_t>(lo) << 32) | static_cast<std::uint32_t>(hi);
        auto [it, fresh] = first_.try_emplace(key, static_cast<int>(points_.size()));
        if (fresh)
            for (int j = 1; j < k_; ++j) { // k - 1 points from lo to hi
                const double t = double(j) / k_;
                points_.push_back((1.0 - t) * mesh_.V.row(lo).transpose() + t * mesh_.V.row(hi).transpose());
                if (!mesh_.part.empty())
                    part_.push_back(mesh_.part[static_cast<size_t>(lo)]);
            }
        return it->second + (flip ? k_ - i : i) - 1;
    }

private:
    const Mesh& mesh_;
    int k_;
    std::vector<Vec3>& points_;
    std::vector<int>& part_;
    std::unordered_map<std::uint64_t, int> first_;
};

} // namespace

Mesh subdivideLinear(const Mesh& mesh, int k)
{
    if (k < 1)
        throw InvalidInput("subdivideLinear: k must be at least 1, got " + std::to_string(k));
    std::vector<Vec3> points;
    std::vector<int> part(mesh.part.begin(), mesh.part.end());
    for (int v = 0; v < mesh.vertexCount(); ++v)
        points.push_back(mesh.V.row(v).transpose());
    EdgePoints edges(mesh, k, points, part);
    std::vector<Eigen::Vector3i> tris;
    tris.reserve(static_cast<size_t>(mesh.triangleCount()) * static_cast<size_t>(k * k));
    std::vector<int> grid(static_cast<size_t>((k + 1) * (k + 2) / 2));
    for (int f = 0; f < mesh.triangleCount(); ++f) {
        const int a = mesh.F(f, 0), b = mesh.F(f, 1), c = mesh.F(f, 2);
        // Barycentric lattice: point (i, j) = a + i/k (b - a) + j/k (c - a), i + j <= k.
        auto slot = [&](int i, int j) -> int& { return grid[static_cast<size_t>(j * (k + 1) - j * (j - 1) / 2 + i)]; };
        for (int j = 0; j <= k; ++j)
            for (int i = 0; i + j <= k; ++i) {
                if (j == 0)
                    slot(i, j) = edges.at(a, b, i);
                else if (i == 0)
                    slot(i, j) = edges.at(a, c, j);
                else if (i + j == k)
                    slot(i, j) = edges.at(b, c, j);
                else {
                    slot(i, j) = static_cast<int>(points.size());
                    points.push_back(mesh.V.row(a).transpose() + double(i) / k * (mesh.V.row(b) - mesh.V.row(a)).transpose() +
                                     double(j) / k * (mesh.V.row(c) - mesh.V.row(a)).transpose());
                    if (!part.empty())
                        part.push_back(mesh.part[static_cast<size_t>(a)]);
                }
            }
        for (int j = 0; j < k; ++j)
            for (int i = 0; i + j < k; ++i) {
                tris.emplace_back(slot(i, j), slot(i + 1, j), slot(i, j + 1));
                if (i + j + 1 < k)
                    tris.emplace_back(slot(i + 1, j), slot(i + 1, j + 1), slot(i, j + 1));
            }
    }
    Mesh out;
    out.V.resize(static_cast<Eigen::Index>(points.size()), 3);
    for (size_t v = 0; v < points.size(); ++v)
        out.V.row(static_cast<Eigen::Index>(v)) = points[v].transpose();
    out.F.resize(static_cast<Eigen::Index>(tris.size()), 3);
    for (size_t t = 0; t < tris.size(); ++t)
        out.F.row(static_cast<Eigen::Index>(t)) = tris[t].transpose();
    out.part = std::move(part);
    out.partNames = mesh.partNames;
    return out;
}

} // namespace rig
