#include "core/mesh/volume.h"

#include "core/common/error.h"

#include <string>

namespace rig {

double signedVolume(const MatrixX3d& V, const MatrixX3i& F)
{
    if (F.rows() == 0)
        return 0.0;
    if (F.minCoeff() < 0 || F.maxCoeff() >= V.rows())
        throw InvalidInput("rig::signedVolume(): a triangle names a vertex outside [0, " + std::to_string(V.rows()) +
                           ")");
    // Relative to the first vertex instead of the origin: the same sum for a
    // closed mesh, far less cancellation for a mesh away from the origin.
    const Vec3 o = V.row(F(0, 0)).transpose();
    double six = 0.0;
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const Vec3 a = V.row(F(f, 0)).transpose() - o;
        const Vec3 b = V.row(F(f, 1)).transpose() - o;
        const Vec3 c = V.row(F(f, 2)).transpose() - o;
        six += a.dot(b.cross(c));
    }
    return six / 6.0;
}

double signedVolume(const Mesh& mesh)
{
    return signedVolume(mesh.V, mesh.F);
}

} // namespace rig
