#include "core/voxel/fill.h"

#include "core/common/error.h"
#include "core/mesh/mesh_queries.h"

#include <algorithm>
#include <cmath>

namespace rig {
namespace {

constexpr std::uint8_t kEmpty = static_cast<std::uint8_t>(VoxelState::Empty);
constexpr std::uint8_t kSurface = static_cast<std::uint8_t>(VoxelState::Surface);
constexpr std::uint8_t kInterior = static_cast<std::uint8_t>(VoxelState::Interior);

// 6-connected flood fill over the Empty voxels from voxel 0 (a corner of the
// always-empty outer layer). Returns 1 for every voxel reached. Scanline form:
// a seed grows into its whole run of Empty voxels along x, and each
// neighbouring row (y ± 1, z ± 1) gets one seed per run of unreached Empty
// voxels beside it, so the work is a few sequential byte reads per voxel and
// one stack entry per run.
std::vector<std::uint8_t> floodOutside(const VoxelGrid& g)
{
    const int nx = g.dims.x(), ny = g.dims.y(), nz = g.dims.z();
    const std::int64_t nxy = static_cast<std::int64_t>(nx) * ny;
    std::vector<std::uint8_t> out(static_cast<size_t>(g.voxelCount()), 0);
    const std::uint8_t* s = g.states.data();
    auto open = [&](std::int64_t i) { return !out[static_cast<size_t>(i)] && s[i] == kEmpty; };
    std::vector<std::int64_t> stack;
    if (g.voxelCount() > 0 && s[0] == kEmpty)
        stack.push_back(0);
    while (!stack.empty()) {
        const std::int64_t i = stack.back();
        stack.pop_back();
        if (!open(i))
            continue;
        const std::int64_t row = i - i % nx;
        const int y = static_cast<int>((i / nx) % ny), z = static_cast<int>(i / nxy);
        int left = static_cast<int>(i - row), right = left;
        while (left > 0 && open(row + left - 1))
            --left;
        while (right + 1 < nx && open(row + right + 1))
            ++right;
        std::fill(out.begin() + row + left, out.begin() + row + right + 1, std::uint8_t{1});
        const std::int64_t rows[4] = {y > 0 ? row - nx : -1, y + 1 < ny ? row + nx : -1, z > 0 ? row - nxy : -1,
                                      z + 1 < nz ? row + nxy : -1};
        for (const std::int64_t other : rows) {
            if (other < 0)
                continue;
            for (int x = left; x <= right; ++x)
                if (open(other + x)) {
                    stack.push_back(other + x); // the first voxel of a run beside this one
                    while (x < right && open(other + x + 1))
                        ++x;
                }
        }
    }
    return out;
}

// 2D edge function of p against the directed edge a->b, computed in a canonical
// vertex order so that the two triangles sharing an edge get exactly opposite
// values (bitwise), which makes the tie-breaking rule below consistent.
double edgeFunction(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& p)
{
    const bool swap = a.x() > b.x() || (a.x() == b.x() && a.y() > b.y());
    const Eigen::Vector2d& s = swap ? b : a;
    const Eigen::Vector2d& t = swap ? a : b;
    const double e = (t.x() - s.x()) * (p.y() - s.y()) - (t.y() - s.y()) * (p.x() - s.x());
    return swap ? -e : e;
}

/// The line along axis a through grid coordinates c: c[p] + d[p]·c[q], p < q the other two axes.
struct AxisLines {
    int p, q;
    Vec3i d;
    AxisLines(const VoxelGrid& g, int a) : p(a == 0 ? 1 : 0), q(a == 2 ? 1 : 2), d(g.dims) {}
    std::int64_t count() const { return static_cast<std::int64_t>(d[p]) * d[q]; }
    size_t of(const int c[3]) const { return static_cast<size_t>(c[p] + static_cast<std::int64_t>(d[p]) * c[q]); }
};

// Per line along axis a, the running sum w of the crossings before each voxel
// and the line's total (summed while the crossings were found): a vote for
// the half-ray before it (w > 0) and the one after it (w - total > 0). The
// lines are walked together, slice by slice across a, so memory is read in
// order whatever the axis (the y and z lines of a voxel grid are strided).
void accumulateVotes(const VoxelGrid& g, int a, const std::vector<std::int16_t>& delta, const std::vector<int>& total,
                     std::vector<std::uint8_t>& votes)
{
    const AxisLines lines(g, a);
    std::vector<int> w(static_cast<size_t>(lines.count()), 0);
    std::int64_t idx = 0;
    int c[3];
    for (c[2] = 0; c[2] < g.dims.z(); ++c[2])
        for (c[1] = 0; c[1] < g.dims.y(); ++c[1])
            for (c[0] = 0; c[0] < g.dims.x(); ++c[0], ++idx) {
                const size_t l = lines.of(c);
                w[l] += delta[static_cast<size_t>(idx)];
                votes[static_cast<size_t>(idx)] =
                    static_cast<std::uint8_t>(votes[static_cast<size_t>(idx)] + (w[l] > 0) + (w[l] - total[l] > 0));
            }
}

// Adds to `votes` the inside votes of the two half-rays along axis `a` through
// every voxel centre: the signed crossings (+1 entering, -1 leaving, by the
// triangle's orientation) before the centre, and the negated ones after it.
void addAxisVotes(const VoxelGrid& g, const Mesh& mesh, int a, std::vector<std::int16_t>& delta,
                  std::vector<std::uint8_t>& votes)
{
    const int u = (a + 1) % 3, v = (a + 2) % 3;
    const std::int64_t stride[3] = {1, g.dims.x(), static_cast<std::int64_t>(g.dims.x()) * g.dims.y()};
    const double h = g.voxelSize;
    std::fill(delta.begin(), delta.end(), std::int16_t{0});
    const AxisLines lines(g, a);
    std::vector<int> total(static_cast<size_t>(lines.count()), 0); // per line, the sum of its crossings
    for (int f = 0; f < mesh.triangleCount(); ++f) {
        const Vec3 P[3] = {mesh.V.row(mesh.F(f, 0)).transpose(), mesh.V.row(mesh.F(f, 1)).transpose(),
                           mesh.V.row(mesh.F(f, 2)).transpose()};
        const Vec3 n = (P[1] - P[0]).cross(P[2] - P[0]);
        if (n[a] == 0.0)
            continue; // edge-on: the neighbouring triangles account for the crossing
        const double orient = n[a] > 0 ? 1.0 : -1.0;
        // Grid-line coordinates: line (i, j) passes through voxel centres at u = i, v = j.
        Eigen::Vector2d q[3];
        for (int k = 0; k < 3; ++k)
            q[k] = Eigen::Vector2d((P[k][u] - g.origin[u]) / h - 0.5, (P[k][v] - g.origin[v]) / h - 0.5);
        const int i0 = std::max(0, static_cast<int>(std::ceil(std::min({q[0].x(), q[1].x(), q[2].x()}))));
        const int i1 = std::min(g.dims[u] - 1, static_cast<int>(std::floor(std::max({q[0].x(), q[1].x(), q[2].x()}))));
        const int j0 = std::max(0, static_cast<int>(std::ceil(std::min({q[0].y(), q[1].y(), q[2].y()}))));
        const int j1 = std::min(g.dims[v] - 1, static_cast<int>(std::floor(std::max({q[0].y(), q[1].y(), q[2].y()}))));
        const std::int16_t sign = n[a] < 0 ? 1 : -1; // a ray going +a enters where the normal faces -a
        for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i) {
                const Eigen::Vector2d p(i, j);
                bool inside = true;
                for (int k = 0; k < 3 && inside; ++k) {
                    const Eigen::Vector2d& e0 = q[k];
                    const Eigen::Vector2d& e1 = q[(k + 1) % 3];
                    const double e = orient * edgeFunction(e0, e1, p);
                    if (e < 0)
                        inside = false;
                    else if (e == 0) {
                        // On the edge: a top-left style rule gives the point to
                        // exactly one of the two triangles sharing the edge.
                        const Eigen::Vector2d d = orient * (e1 - e0);
                        inside = d.y() < 0 || (d.y() == 0 && d.x() > 0);
                    }
                }
                if (!inside)
                    continue;
                // Where the line meets the triangle's plane, in voxel units along a.
                const double pu = g.origin[u] + (i + 0.5) * h, pv = g.origin[v] + (j + 0.5) * h;
                const double t = P[0][a] + (n[u] * (P[0][u] - pu) + n[v] * (P[0][v] - pv)) / n[a];
                // The first voxel whose centre lies beyond the crossing.
                const double ta = (t - g.origin[a]) / h - 0.5;
                const int ia = std::clamp(static_cast<int>(std::floor(ta)) + 1, 0, g.dims[a] - 1);
                delta[static_cast<size_t>(ia * stride[a] + i * stride[u] + j * stride[v])] += sign;
                int c[3];
                c[a] = ia;
                c[u] = i;
                c[v] = j;
                total[lines.of(c)] += sign;
            }
    }
    accumulateVotes(g, a, delta, total, votes);
}

} // namespace

FillResult fillInterior(const VoxelGrid& surface, const Mesh& mesh, const FillOptions& options,
                        const Progress& progress)
{
    if (surface.empty() || (surface.dims.array() < 3).any())
        throw InvalidInput("rig::fillInterior(): the voxel grid is empty");
    if (surface.solid(0))
        throw InvalidInput("rig::fillInterior(): the grid's outer layer must be empty (use rig::voxelizeSurface())");

    FillResult r;
    r.grid = surface;
    r.watertight = mesh.triangleCount() > 0 && (options.watertight ? *options.watertight : edgeTopology(mesh.F).watertight());
    progress.update("fill", 0.0);
    const std::vector<std::uint8_t> reached = floodOutside(surface);
    const size_t n = surface.states.size();
    auto& s = r.grid.states;

    if (!options.robustInside || r.watertight || mesh.triangleCount() == 0) {
        for (size_t i = 0; i < n; ++i)
            if (s[i] == kEmpty && !reached[i])
                s[i] = kInterior;
    } else {
        std::vector<std::uint8_t> votes(n, 0);
        {
            std::vector<std::int16_t> delta(n);
            for (int a = 0; a < 3; ++a) {
                progress.update("fill", 0.1 + 0.25 * a);
                addAxisVotes(surface, mesh, a, delta, votes);
            }
        }
        for (size_t i = 0; i < n; ++i)
            if (s[i] == kEmpty && (!reached[i] || votes[i] >= 4))
                s[i] = kInterior;
        progress.update("fill", 0.85);
        // Close the cavities the votes may have sealed off, then count what was bridged.
        const std::vector<std::uint8_t> outside = floodOutside(r.grid);
        for (size_t i = 0; i < n; ++i) {
            if (s[i] == kEmpty && !outside[i])
                s[i] = kInterior;
            if (s[i] == kInterior && reached[i])
                ++r.bridgedVoxels;
        }
        // Gaps: bridged voxels that face the outside, grouped 26-connectedly.
        const auto nb = r.grid.neighbourIndexOffsets();
        const std::int64_t nx = r.grid.dims.x(), nxy = nx * r.grid.dims.y();
        const std::int64_t step6[6] = {1, -1, nx, -nx, nxy, -nxy};
        std::vector<std::uint8_t> gap(n, 0);
        for (size_t i = 0; i < n; ++i) {
            if (s[i] != kInterior || !reached[i])
                continue;
            for (std::int64_t d : step6)
                if (outside[static_cast<size_t>(static_cast<std::int64_t>(i) + d)]) {
                    gap[i] = 1;
                    break;
                }
        }
        std::vector<std::int64_t> stack;
        for (size_t i = 0; i < n; ++i) {
            if (gap[i] != 1)
                continue;
            ++r.bridgedGaps;
            gap[i] = 2;
            stack.push_back(static_cast<std::int64_t>(i));
            while (!stack.empty()) {
                const std::int64_t k = stack.back();
                stack.pop_back();
                for (std::int64_t d : nb) {
                    const auto j = static_cast<size_t>(k + d);
                    if (gap[j] == 1) {
                        gap[j] = 2;
                        stack.push_back(static_cast<std::int64_t>(j));
                    }
                }
            }
        }
    }
    r.surfaceVoxels = r.grid.count(VoxelState::Surface);
    r.interiorVoxels = r.grid.count(VoxelState::Interior);
    progress.update("fill", 1.0);
    return r;
}

} // namespace rig
