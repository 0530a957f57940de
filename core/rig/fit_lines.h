#pragma once
/// @file fit_lines.h
/// The template fit's working parts (core/rig/fit_template.cpp, thesis §3.3):
/// a geometric segment of the curve skeleton as a polyline, and the rules that
/// place the arms, legs, hip joints and head on the segments. Internal to the
/// fit: each rule is documented, with its reason and figures, at its definition
/// in core/rig/fit_lines.cpp.

#include "core/rig/fit_template.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace rig::fit {

// A geometric segment as a polyline: node positions, then the tip extension.
struct Polyline {
    std::vector<Vec3> points;
    std::vector<int> nodes; // node of each point; -1 for the extension
    std::vector<double> arc;

    double length() const { return arc.empty() ? 0.0 : arc.back(); }
    void add(const Vec3& p, int node)
    {
        arc.push_back(points.empty() ? 0.0 : arc.back() + (p - points.back()).norm());
        points.push_back(p);
        nodes.push_back(node);
    }
    // Position at normalized arc length t, and the node nearest in arc length.
    std::pair<Vec3, int> at(double t) const
    {
        const double s = std::clamp(t, 0.0, 1.0) * length();
        size_t k = 0;
        while (k + 2 < arc.size() && arc[k + 1] < s)
            ++k;
        if (points.size() == 1)
            return {points[0], nodes[0]};
        const double span = arc[k + 1] - arc[k];
        const double u = span > 0.0 ? std::clamp((s - arc[k]) / span, 0.0, 1.0) : 0.0;
        const Vec3 p = (1.0 - u) * points[k] + u * points[k + 1];
        int node = (u <= 0.5 || nodes[k + 1] < 0) ? nodes[k] : nodes[k + 1];
        return {p, node};
    }
    // Arc length of the first point at Euclidean distance `radius` from `centre`
    // (walking from the start, which lies closer); the whole length when the
    // line never gets that far.
    double arcAtDistance(const Vec3& centre, double radius) const
    {
        for (size_t k = 0; k + 1 < points.size(); ++k) {
            const Vec3 a = points[k] - centre, d = points[k + 1] - points[k];
            if ((points[k + 1] - centre).norm() < radius)
                continue;
            // |a + u d| = radius, the root in [0, 1] (a is inside or on the sphere).
            const double qa = d.squaredNorm(), qb = 2.0 * a.dot(d), qc = a.squaredNorm() - radius * radius;
            if (qa <= 0.0)
                return arc[k];
            const double u = std::clamp((-qb + std::sqrt(std::max(0.0, qb * qb - 4.0 * qa * qc))) / (2.0 * qa), 0.0, 1.0);
            return arc[k] + u * (arc[k + 1] - arc[k]);
        }
        return length();
    }
    // The part of the line from arc length s on, starting with the point there.
    Polyline from(double s) const
    {
        Polyline out;
        const double t = length() > 0.0 ? s / length() : 0.0;
        const auto [p, node] = at(t);
        out.add(p, node);
        for (size_t k = 0; k < points.size(); ++k)
            if (arc[k] > s + 1e-12)
                out.add(points[k], nodes[k]);
        return out;
    }
};

/// (position, node) of each template joint a rule placed; empty where none did.
using Placed = std::vector<std::optional<std::pair<Vec3, int>>>;

/// A corner of a polyline (see cornerNear()).
struct Corner {
    Vec3 position;
    double arc = 0.0; ///< Arc length of the bend on the line.
};

/// Position of curve-skeleton node `v`.
Vec3 nodePosition(const CurveSkeleton& s, int v);

/// The segment along `path` as a polyline, with the tip extension where asked (FitOptions::extendTips).
Polyline polyline(const CurveSkeleton& s, const std::vector<int>& path, const FitOptions& options);

/// Whether an arm's segment ends in a finger (its end radius under 0.4 of the forearm's).
bool endsInAFinger(const CurveSkeleton& s, const Polyline& line, const Polyline& tail);

/// The arms from the shoulders (FitOptions::armsFromShoulders): clavicle, upper arm and the joints after it.
void placeArms(const CurveSkeleton& s, const RigTemplate& t, const std::array<Polyline, limbCount>& lines,
               const std::array<double, limbCount>& scales, const Vec3& up,
               std::vector<std::optional<std::pair<Vec3, int>>>& placed);

/// A straight line through `line` between arc lengths a and b: centroid and principal direction.
std::pair<Vec3, Vec3> fitLine(const Polyline& line, double a, double b);

/// The node of `line` nearest to `position`.
int nearestNode(const Polyline& line, const Vec3& position);

/// A corner of `line` near arc length `thesis` (the knee's bend), bent more than `minBend`; none when straighter.
std::optional<Corner> cornerNear(const Polyline& line, double thesis, double before, double after, double minBend,
                                 double searchEnd = std::numeric_limits<double>::infinity());

/// Knees at the legs' bends and ankles on the shins' lines (FitOptions::kneesAtBends, anklesOnShins).
void placeLegs(const RigTemplate& t, const std::array<Polyline, limbCount>& lines,
               const std::array<double, limbCount>& scales, double minBend, bool knees, bool ankles,
               std::vector<std::optional<std::pair<Vec3, int>>>& placed);

/// The hip joints on the thighs (FitOptions::hipsOnThighs).
void placeHipJoints(const RigTemplate& t, std::array<Polyline, limbCount>& lines, const Vec3& up, const Vec3& front,
                    std::vector<std::optional<std::pair<Vec3, int>>>& placed);

/// The head at the top of the neck and the neck at its base (FitOptions::headAtNeck); whether it placed them.
bool placeHead(const CurveSkeleton& s, const RigTemplate& t, const Polyline& line, double tolerance,
               double maxNeckToHead, double neckBaseWidening, std::vector<std::optional<std::pair<Vec3, int>>>& placed);

} // namespace rig::fit
