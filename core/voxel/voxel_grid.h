#pragma once
/// @file voxel_grid.h
/// A dense, axis-aligned voxel grid: the discrete space of the skeleton
/// extraction stage (thesis §2.1). Voxel (x, y, z) is the cube
/// [origin + (x, y, z) * voxelSize, origin + (x + 1, y + 1, z + 1) * voxelSize].

#include "core/common/types.h"

#include <array>
#include <cstdint>
#include <vector>

namespace rig {

/// What a voxel holds. Stored as one byte per voxel.
enum class VoxelState : std::uint8_t {
    Empty = 0,    ///< Outside the solid.
    Surface = 1,  ///< Overlapped by at least one triangle of the mesh.
    Interior = 2, ///< Inside the solid, touched by no triangle.
};

/// A dense grid of `VoxelState`s, x fastest: index = x + dims.x * (y + dims.y * z).
/// Built by `voxelizeSurface`, filled by `fillInterior`, thinned by `thin`.
/// The voxels on the grid's outer layer are always Empty, so a solid voxel's 26
/// neighbours are always inside the grid.
struct VoxelGrid {
    Vec3i dims = Vec3i::Zero();       ///< Number of voxels along x, y, z.
    Vec3 origin = Vec3::Zero();       ///< World position of the min corner of voxel (0, 0, 0).
    double voxelSize = 0.0;           ///< Edge length of a voxel (world units).
    std::vector<std::uint8_t> states; ///< dims.prod() `VoxelState` values, x fastest.

    std::int64_t voxelCount() const { return static_cast<std::int64_t>(dims.x()) * dims.y() * dims.z(); }
    bool empty() const { return states.empty(); }

    /// Flat index of voxel (x, y, z). Expects the voxel inside the grid.
    std::int64_t index(int x, int y, int z) const
    {
        return x + static_cast<std::int64_t>(dims.x()) * (y + static_cast<std::int64_t>(dims.y()) * z);
    }
    std::int64_t index(const Vec3i& v) const { return index(v.x(), v.y(), v.z()); }
    /// Voxel coordinates of a flat index.
    Vec3i coord(std::int64_t i) const
    {
        const std::int64_t nx = dims.x(), nxy = nx * dims.y();
        return Vec3i(static_cast<int>(i % nx), static_cast<int>((i / nx) % dims.y()), static_cast<int>(i / nxy));
    }
    bool contains(const Vec3i& v) const { return (v.array() >= 0).all() && (v.array() < dims.array()).all(); }

    VoxelState state(std::int64_t i) const { return static_cast<VoxelState>(states[static_cast<size_t>(i)]); }
    /// True for Surface and Interior voxels.
    bool solid(std::int64_t i) const { return states[static_cast<size_t>(i)] != 0; }

    /// World position of the centre of voxel v.
    Vec3 center(const Vec3i& v) const { return origin + (v.cast<double>().array() + 0.5).matrix() * voxelSize; }
    /// The voxel containing world point p (may lie outside the grid).
    Vec3i voxelAt(const Vec3& p) const
    {
        return ((p - origin) / voxelSize).array().floor().cast<int>().matrix();
    }

    /// Number of voxels in state s.
    std::int64_t count(VoxelState s) const;
    /// Number of Surface plus Interior voxels.
    std::int64_t solidCount() const;
    /// Flat indices of the voxels in state s, ascending (e.g. for instanced display).
    std::vector<std::int64_t> indicesOf(VoxelState s) const;

    /// Flat-index offsets of the 26 neighbours, in the order of `neighbourOffsets26()`.
    std::array<std::int64_t, 26> neighbourIndexOffsets() const;
};

/// The 26 neighbour offsets (dx, dy, dz) in {-1, 0, 1}^3 \ {0}, z slowest, x fastest.
const std::array<Vec3i, 26>& neighbourOffsets26();

} // namespace rig
