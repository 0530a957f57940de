#include "core/voxel/voxel_grid.h"

#include <algorithm>

namespace rig {

std::int64_t VoxelGrid::count(VoxelState s) const
{
    return std::count(states.begin(), states.end(), static_cast<std::uint8_t>(s));
}

std::int64_t VoxelGrid::solidCount() const
{
    return static_cast<std::int64_t>(states.size()) - count(VoxelState::Empty);
}

std::vector<std::int64_t> VoxelGrid::indicesOf(VoxelState s) const
{
    std::vector<std::int64_t> out;
    const auto v = static_cast<std::uint8_t>(s);
    for (size_t i = 0; i < states.size(); ++i)
        if (states[i] == v)
            out.push_back(static_cast<std::int64_t>(i));
    return out;
}

std::array<std::int64_t, 26> VoxelGrid::neighbourIndexOffsets() const
{
    std::array<std::int64_t, 26> out{};
    const auto& n = neighbourOffsets26();
    for (size_t k = 0; k < 26; ++k)
        out[k] = index(n[k].x(), n[k].y(), n[k].z()); // linear, so valid for negative offsets too
    return out;
}

const std::array<Vec3i, 26>& neighbourOffsets26()
{
    static const std::array<Vec3i, 26> offsets = [] {
        std::array<Vec3i, 26> o;
        size_t k = 0;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    if (dx || dy || dz)
                        o[k++] = Vec3i(dx, dy, dz);
        return o;
    }();
    return offsets;
}

} // namespace rig
