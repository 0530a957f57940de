#include "core/character/implicit_surface.h"

#include "core/common/error.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>

namespace rig {
namespace {

double sign(double x) { return double((x > 0.0) - (x < 0.0)); }

// Quilez's exact round cone, with the point already in the local frame.
double roundCone(const Vec3& p, const Vec3& a, const Vec3& b, double r1, double r2)
{
    const Vec3 ba = b - a;
    const double l2 = ba.squaredNorm();
    const double rr = r1 - r2;
    const double a2 = l2 - rr * rr;
    const double il2 = 1.0 / l2;
    const Vec3 pa = p - a;
    const double y = pa.dot(ba);
    const double z = y - l2;
    const double x2 = (pa * l2 - ba * y).squaredNorm();
    const double y2 = y * y * l2;
    const double z2 = z * z * l2;
    const double k = sign(rr) * rr * rr * x2;
    if (sign(z) * a2 * z2 > k)
        return std::sqrt(x2 + z2) * il2 - r2;
    if (sign(y) * a2 * y2 < k)
        return std::sqrt(x2 + y2) * il2 - r1;
    return (std::sqrt(x2 * a2 * il2) + y * rr) * il2 - r1;
}

double ellipsoid(const Vec3& p, const Vec3& r)
{
    const double k1 = p.cwiseQuotient(r.cwiseProduct(r)).norm();
    if (k1 < 1e-12)
        return -r.minCoeff(); // at the centre
    const double k0 = p.cwiseQuotient(r).norm();
    return k0 * (k0 - 1.0) / k1;
}

Box3 grown(Box3 box, double margin)
{
    box.min.array() -= margin;
    box.max.array() += margin;
    return box;
}

} // namespace

double signedDistance(const ImplicitPrimitive& primitive, const Vec3& p)
{
    const Vec3 local = primitive.rotation.transpose() * (p - primitive.translation);
    if (primitive.shape == ImplicitPrimitive::Shape::Ellipsoid)
        return ellipsoid(local - primitive.a, primitive.radii);
    return roundCone(local, primitive.a, primitive.b, primitive.radiusA, primitive.radiusB);
}

Box3 worldBounds(const ImplicitPrimitive& primitive)
{
    Box3 box;
    const auto& R = primitive.rotation;
    if (primitive.shape == ImplicitPrimitive::Shape::Ellipsoid) {
        // Half extent along world axis i: the norm of row i of R * diag(radii).
        const Vec3 c = R * primitive.a + primitive.translation;
        const Vec3 half = (R * primitive.radii.asDiagonal()).rowwise().norm();
        box.extend(c - half);
        box.extend(c + half);
    } else {
        // The extreme points of a round cone lie on one of its two spheres.
        const Vec3 a = R * primitive.a + primitive.translation;
        const Vec3 b = R * primitive.b + primitive.translation;
        box.extend(a.array() - primitive.radiusA);
        box.extend(a.array() + primitive.radiusA);
        box.extend(b.array() - primitive.radiusB);
        box.extend(b.array() + primitive.radiusB);
    }
    return box;
}

double smoothMin(double a, double b, double k)
{
    const double h = std::max(k - std::abs(a - b), 0.0) / k;
    return std::min(a, b) - h * h * k * 0.25;
}

GridSamples sampleSmoothUnion(const std::vector<ImplicitPrimitive>& primitives,
                              const SmoothUnionOptions& options)
{
    assert(!primitives.empty());
    const double h = options.cellSize;
    const double margin = options.blend + 3.0 * h;

    std::vector<Box3> boxes;
    boxes.reserve(primitives.size());
    Box3 all;
    for (const auto& p : primitives) {
        boxes.push_back(grown(worldBounds(p), margin));
        all.extend(boxes.back().min);
        all.extend(boxes.back().max);
    }

    // One more lattice point beyond the boxes on every side: the boundary of
    // the grid is untouched by every primitive, hence positive.
    GridSamples grid;
    grid.cellSize = h;
    Vec3i hiIndex;
    for (int a = 0; a < 3; ++a) {
        grid.origin[a] = static_cast<int>(std::floor(all.min[a] / h)) - 1;
        hiIndex[a] = static_cast<int>(std::ceil(all.max[a] / h)) + 1;
        grid.dims[a] = hiIndex[a] - grid.origin[a] + 1;
    }
    const double points = double(grid.dims.x()) * double(grid.dims.y()) * double(grid.dims.z());
    if (!(points <= options.maxGridPoints))
        throw InvalidInput("rig::sampleSmoothUnion(): a cell size of " + std::to_string(h) +
                           " m needs a grid of " + std::to_string(points) + " points, more than the limit of " +
                           std::to_string(options.maxGridPoints) + "; use a larger cell size");

    const int nx = grid.dims.x(), ny = grid.dims.y();
    grid.values.assign(static_cast<size_t>(points), std::numeric_limits<float>::max());
    grid.rowBegin.assign(static_cast<size_t>(ny) * static_cast<size_t>(grid.dims.z()), nx);
    grid.rowEnd.assign(grid.rowBegin.size(), 0);

    for (size_t n = 0; n < primitives.size(); ++n) {
        const ImplicitPrimitive& prim = primitives[n];
        const Box3& box = boxes[n];
        Vec3i lo, hi; // grid indices of the points inside the box
        for (int a = 0; a < 3; ++a) {
            lo[a] = static_cast<int>(std::ceil(box.min[a] / h)) - grid.origin[a];
            hi[a] = static_cast<int>(std::floor(box.max[a] / h)) - grid.origin[a];
            assert(lo[a] >= 1 && hi[a] <= grid.dims[a] - 2);
        }
        const Eigen::Matrix3d Rt = prim.rotation.transpose();
        const bool isEllipsoid = prim.shape == ImplicitPrimitive::Shape::Ellipsoid;
        for (int k = lo.z(); k <= hi.z(); ++k)
            for (int j = lo.y(); j <= hi.y(); ++j) {
                const size_t row = size_t(j) + size_t(ny) * size_t(k);
                grid.rowBegin[row] = std::min(grid.rowBegin[row], lo.x());
                grid.rowEnd[row] = std::max(grid.rowEnd[row], hi.x() + 1);
                for (int i = lo.x(); i <= hi.x(); ++i) {
                    const Vec3 local = Rt * (grid.position(i, j, k) - prim.translation);
                    const double d = isEllipsoid ? ellipsoid(local - prim.a, prim.radii)
                                                 : roundCone(local, prim.a, prim.b, prim.radiusA, prim.radiusB);
                    float& v = grid.values[static_cast<size_t>(grid.index(i, j, k))];
                    v = static_cast<float>(smoothMin(double(v), d, options.blend));
                }
            }
    }
    return grid;
}

} // namespace rig
