#include "tests/support/stick_figure.h"

#include "core/voxel/voxel_grid.h"

#include <algorithm>
#include <cmath>

namespace rig::test {

int StickBuilder::add(const Vec3& p)
{
    points.push_back(p);
    return static_cast<int>(points.size()) - 1;
}

int StickBuilder::line(int from, const Vec3& b)
{
    const Vec3 a = points[static_cast<size_t>(from)];
    const int steps = std::max(1, static_cast<int>(std::ceil((b - a).norm() / 0.05)));
    int previous = from;
    for (int k = 1; k <= steps; ++k) {
        const int v = add(a + (b - a) * (static_cast<double>(k) / steps));
        edges.push_back({std::min(previous, v), std::max(previous, v)});
        previous = v;
    }
    return previous;
}

CurveSkeleton StickBuilder::build() const
{
    CurveSkeleton s;
    const int n = static_cast<int>(points.size());
    s.positions.resize(n, 3);
    s.voxels = MatrixX3i::Zero(n, 3);
    for (int i = 0; i < n; ++i)
        s.positions.row(i) = points[static_cast<size_t>(i)].transpose();
    s.radii.assign(static_cast<size_t>(n), 0.04);
    s.voxelStates.assign(static_cast<size_t>(n), static_cast<std::uint8_t>(VoxelState::Interior));
    s.edges = edges;
    return finalizeCurveSkeleton(s);
}

int nodeNear(const CurveSkeleton& s, const Vec3& p)
{
    int best = 0;
    for (int v = 1; v < s.nodeCount(); ++v)
        if ((s.positions.row(v).transpose() - p).norm() < (s.positions.row(best).transpose() - p).norm())
            best = v;
    return best;
}

} // namespace rig::test
