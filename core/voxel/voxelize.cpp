#include "core/voxel/voxelize.h"

#include "core/common/error.h"
#include "core/voxel/triangle_box.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace rig {

VoxelGrid makeVoxelGrid(const Box3& box, const VoxelizeOptions& options)
{
    const Vec3 extent = box.size();
    VoxelGrid g;
    g.voxelSize = extent.maxCoeff() / options.resolution;
    for (int k = 0; k < 3; ++k) {
        // The small slack keeps an extent that is an exact multiple of the voxel
        // size (the longest axis) from getting an extra voxel through rounding.
        const int inner = std::max(1, static_cast<int>(std::ceil(extent[k] / g.voxelSize - 1e-6)));
        g.dims[k] = inner + 2 * options.padding;
    }
    g.origin = box.center() - 0.5 * g.voxelSize * g.dims.cast<double>();
    g.states.assign(static_cast<size_t>(g.voxelCount()), static_cast<std::uint8_t>(VoxelState::Empty));
    return g;
}

VoxelGrid voxelizeSurface(const Mesh& mesh, const VoxelizeOptions& options, const Progress& progress)
{
    const std::string fn = "rig::voxelizeSurface(): ";
    if (options.resolution < kMinVoxelResolution || options.resolution > kMaxVoxelResolution)
        throw InvalidInput(fn + "resolution n = " + std::to_string(options.resolution) + " is outside [" +
                           std::to_string(kMinVoxelResolution) + ", " + std::to_string(kMaxVoxelResolution) + "]");
    if (options.padding < 1)
        throw InvalidInput(fn + "padding must be at least 1");
    if (mesh.triangleCount() == 0 || mesh.vertexCount() == 0)
        throw InvalidInput(fn + "the mesh is empty (no triangles)");
    if (!mesh.V.allFinite())
        throw InvalidInput(fn + "the mesh has non-finite vertex coordinates");
    if (mesh.F.minCoeff() < 0 || mesh.F.maxCoeff() >= mesh.vertexCount())
        throw InvalidInput(fn + "a triangle references a vertex that does not exist");
    Box3 box;
    for (int f = 0; f < mesh.triangleCount(); ++f)
        for (int k = 0; k < 3; ++k)
            box.extend(mesh.V.row(mesh.F(f, k)).transpose());
    if (!(box.size().maxCoeff() > 0.0))
        throw InvalidInput(fn + "the mesh's bounding box has zero size");

    VoxelGrid g = makeVoxelGrid(box, options);
    const double h = g.voxelSize;
    // A face lying exactly on a voxel boundary (common: the box is centred in the
    // grid and the longest extent is a multiple of the voxel size) touches two
    // voxels but may, after rounding, seem to miss both. A relative margin of
    // 1e-6 voxel makes the test conservative in that case.
    const double eps = 1e-6 * h;
    const Vec3 half = Vec3::Constant(0.5 * h + eps);
    const Vec3i lo = Vec3i::Ones(), hi = g.dims - Vec3i::Constant(2); // keep the outer layer empty
    const int nf = mesh.triangleCount();
    const int step = std::max(1, nf / 20);
    for (int f = 0; f < nf; ++f) {
        if (f % step == 0)
            progress.update("voxelize", static_cast<double>(f) / nf);
        const Vec3 a = mesh.V.row(mesh.F(f, 0)).transpose();
        const Vec3 b = mesh.V.row(mesh.F(f, 1)).transpose();
        const Vec3 c = mesh.V.row(mesh.F(f, 2)).transpose();
        const Vec3i vmin = g.voxelAt(Vec3(a.cwiseMin(b).cwiseMin(c).array() - eps)).cwiseMax(lo);
        const Vec3i vmax = g.voxelAt(Vec3(a.cwiseMax(b).cwiseMax(c).array() + eps)).cwiseMin(hi);
        const bool single = (vmin.array() == vmax.array()).all();
        std::optional<TriangleBoxTest> test; // set up at the first voxel to test (dense meshes rarely need it)
        for (int z = vmin.z(); z <= vmax.z(); ++z)
            for (int y = vmin.y(); y <= vmax.y(); ++y)
                for (int x = vmin.x(); x <= vmax.x(); ++x) {
                    auto& s = g.states[static_cast<size_t>(g.index(x, y, z))];
                    if (s != 0)
                        continue;
                    // A triangle inside one voxel's box overlaps it: skip the test.
                    if (!single && !test)
                        test.emplace(a, b, c, half);
                    if (single || test->overlaps(g.center(Vec3i(x, y, z))))
                        s = static_cast<std::uint8_t>(VoxelState::Surface);
                }
    }
    progress.update("voxelize", 1.0);
    return g;
}

} // namespace rig
