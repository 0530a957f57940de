#pragma once
/// @file implicit_surface.h
/// Signed distance primitives (round cones and ellipsoids under a rigid
/// transform), their smooth union, and its sampling on a narrow-band grid for
/// `marchingTetrahedra()`.
///
/// References: I. Quilez, "distance functions" (round cone: exact; ellipsoid:
/// the k0 (k0 - 1) / k1 approximation, exact zero set, approximate distance)
/// and "smooth minimum" (the quadratic polynomial smin),
/// https://iquilezles.org/articles/distfunctions, /articles/smin.

#include "core/character/marching_tetrahedra.h"
#include "core/common/types.h"

#include <vector>

namespace rig {

/// One solid, defined in its own local frame and placed in the world by a
/// rigid transform: world = rotation * local + translation.
struct ImplicitPrimitive {
    enum class Shape { RoundCone, Ellipsoid };
    Shape shape = Shape::RoundCone;
    /// RoundCone: the convex hull of the spheres (a, radiusA) and (b, radiusB),
    /// local frame. Ellipsoid: `a` is the centre, `radii` its semi-axes along
    /// the local axes (b, radiusA, radiusB unused).
    Vec3 a = Vec3::Zero();
    Vec3 b = Vec3::Zero();
    double radiusA = 0.0;
    double radiusB = 0.0;
    Vec3 radii = Vec3::Zero();
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity(); ///< Local to world rotation.
    Vec3 translation = Vec3::Zero();                        ///< Local to world translation.
};

/// Signed distance from world point `p` to the primitive (negative inside).
/// Exact for round cones; for ellipsoids exact on the surface and a close
/// approximation near it.
double signedDistance(const ImplicitPrimitive& primitive, const Vec3& p);

/// World-space bounding box of the primitive (tight for both shapes).
Box3 worldBounds(const ImplicitPrimitive& primitive);

/// Polynomial smooth minimum of a and b with blend width k (Quilez): equals
/// min(a, b) exactly when |a - b| >= k, and is at most k / 4 below it.
double smoothMin(double a, double b, double k);

/// Options of `sampleSmoothUnion()`.
struct SmoothUnionOptions {
    double blend = 0.025;   ///< Smooth-min width k, metres.
    double cellSize = 0.01; ///< Grid spacing, metres.
    /// Grid points are at integer multiples of cellSize, so sampling two sets of
    /// primitives puts their shared points at identical positions.
    /// Throws rig::InvalidInput when the grid would exceed this many points.
    double maxGridPoints = 1.5e8;
};

/// Samples the smooth union of `primitives` on a lattice-aligned grid that
/// encloses them with a positive margin.
///
/// Only the narrow band is evaluated: each primitive is evaluated on the grid
/// points of its bounding box grown by blend + 3 cells and folded in with
/// `smoothMin()` in list order; every other point keeps the largest float
/// (outside).
/// Points near the surface therefore see every primitive that can change their
/// value, the boundary of the grid is positive, and the row ranges of the result
/// are filled so the polygonizer skips untouched space.
///
/// *Expects* a non-empty list and finite, positive sizes. Throws
/// `rig::InvalidInput` when the grid would be larger than `maxGridPoints`.
GridSamples sampleSmoothUnion(const std::vector<ImplicitPrimitive>& primitives,
                              const SmoothUnionOptions& options);

} // namespace rig
