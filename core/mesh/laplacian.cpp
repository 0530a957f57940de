#include "core/mesh/laplacian.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace rig {
namespace {

void checkMesh(const MatrixX3d& V, const MatrixX3i& F, const char* fn)
{
    if (!V.allFinite())
        throw InvalidInput(std::string(fn) + ": the mesh has non-finite vertex coordinates; fix or re-export it");
    const int n = static_cast<int>(V.rows());
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int k = 0; k < 3; ++k)
            if (F(f, k) < 0 || F(f, k) >= n)
                throw InvalidInput(std::string(fn) + ": triangle " + std::to_string(f) + " uses vertex " +
                                   std::to_string(F(f, k)) + ", outside [0, " + std::to_string(n) + ")");
}

} // namespace

double clampedCotangent(const Vec3& at, const Vec3& b, const Vec3& c, const CotangentOptions& options)
{
    const Vec3 e1 = b - at;
    const Vec3 e2 = c - at;
    const double l1 = e1.norm();
    const double l2 = e2.norm();
    // A zero-length side has no angle: no diffusion across it (its two
    // vertices coincide and stay connected through the other triangles).
    if (!(l1 > 0.0) || !(l2 > 0.0))
        return 0.0;
    const Vec3 u1 = e1 / l1;
    const Vec3 u2 = e2 / l2;
    const double cosine = u1.dot(u2);
    const double sine = std::max(u1.cross(u2).norm(), options.minSine);
    return std::clamp(cosine / sine, -options.maxCotangent, options.maxCotangent);
}

Eigen::SparseMatrix<double> cotangentLaplacian(const MatrixX3d& V, const MatrixX3i& F, const CotangentOptions& options)
{
    checkMesh(V, F, "rig::cotangentLaplacian()");
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(static_cast<size_t>(F.rows()) * 12);
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const int v[3] = {F(f, 0), F(f, 1), F(f, 2)};
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2])
            continue; // no triangle, no angles
        for (int k = 0; k < 3; ++k) {
            // The angle at v[k] is opposite the edge (v[k+1], v[k+2]).
            const int a = v[k], i = v[(k + 1) % 3], j = v[(k + 2) % 3];
            const double w = 0.5 * clampedCotangent(V.row(a).transpose(), V.row(i).transpose(),
                                                    V.row(j).transpose(), options);
            t.emplace_back(i, j, w);
            t.emplace_back(j, i, w);
            t.emplace_back(i, i, -w);
            t.emplace_back(j, j, -w);
        }
    }
    Eigen::SparseMatrix<double> L(V.rows(), V.rows());
    L.setFromTriplets(t.begin(), t.end()); // duplicates (both triangles of an edge) are summed
    return L;
}

Eigen::VectorXd vertexAreas(const MatrixX3d& V, const MatrixX3i& F)
{
    checkMesh(V, F, "rig::vertexAreas()");
    Eigen::VectorXd A = Eigen::VectorXd::Zero(V.rows());
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const Vec3 a = V.row(F(f, 0)), b = V.row(F(f, 1)), c = V.row(F(f, 2));
        const double third = (b - a).cross(c - a).norm() / 6.0;
        for (int k = 0; k < 3; ++k)
            A(F(f, k)) += third;
    }
    return A;
}

} // namespace rig
