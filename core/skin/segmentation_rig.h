#pragma once
/// @file segmentation_rig.h
/// Private to core/skin's segmentation (segmentation.cpp and
/// segmentation_regions.cpp): the skeleton as the thesis's segmentation
/// algorithms see it (its links, a point's δ and distance to a link, the
/// joint rule "SetSeg") and visibility through the voxel solid. Not part of
/// the engine's API.

#include "core/rig/skeleton.h"
#include "core/voxel/voxel_grid.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace rig::segmenting {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Link c of the rig: from joint parents[c] (a) to joint c (b).
struct Link {
    Vec3 a = Vec3::Zero();
    Vec3 ab = Vec3::Zero();
    double len2 = 0.0;
    bool leaf = false; ///< c has no children: the link also owns what lies beyond c (the end segment).
    bool degenerate() const { return !(len2 > 0.0); }
};

/// A point's relation to a link: δ of eq. 3.1 (raw and clamped to [0, 1]) and
/// its distance to the link's nearest point (eq. 3.5 with the clamped δ).
struct LinkHit {
    double raw = 0.0;
    double delta = 0.0;
    double dist = kInf;
    Vec3 nearest = Vec3::Zero();
};

inline LinkHit hitLink(const Link& l, const Vec3& p)
{
    LinkHit h;
    h.raw = l.degenerate() ? 0.0 : (p - l.a).dot(l.ab) / l.len2;
    h.delta = std::clamp(h.raw, 0.0, 1.0);
    h.nearest = l.a + h.delta * l.ab;
    h.dist = (p - h.nearest).norm();
    return h;
}

/// An assignment: link (child joint) and clamped δ.
struct Assign {
    int bone = -1;
    double delta = 0.0;
};

/// The rig as the algorithms see it.
struct Rig {
    const Skeleton& s;
    std::vector<std::vector<int>> children;
    std::vector<Link> links; ///< #J, entry c for link (parents[c], c); entry 0 unused.
    std::vector<int> usable; ///< Non-degenerate links, ascending.

    explicit Rig(const Skeleton& k) : s(k), children(childrenOf(k)), links(static_cast<size_t>(k.jointCount()))
    {
        for (int c = 1; c < k.jointCount(); ++c) {
            Link& l = links[static_cast<size_t>(c)];
            l.a = k.bindPositions.row(k.parents[static_cast<size_t>(c)]).transpose();
            l.ab = k.bindPositions.row(c).transpose() - l.a;
            l.len2 = l.ab.squaredNorm();
            l.leaf = children[static_cast<size_t>(c)].empty();
            if (!l.degenerate())
                usable.push_back(c);
        }
    }
    const Link& link(int c) const { return links[static_cast<size_t>(c)]; }
    Vec3 joint(int j) const { return s.bindPositions.row(j).transpose(); }

    /// The non-degenerate links that start at joint j (looking through
    /// zero-length children, which start there too).
    void linksFrom(int j, std::vector<int>& out) const
    {
        for (int ch : children[static_cast<size_t>(j)]) {
            if (link(ch).degenerate())
                linksFrom(ch, out);
            else
                out.push_back(ch);
        }
    }

    /// Thesis "SetSeg" for a joint: the link where the joint is point a (the
    /// nearest of them where several start there); a leaf's own end segment.
    Assign fromJoint(int j, const Vec3& p) const
    {
        std::vector<int> from;
        linksFrom(j, from);
        if (from.empty()) {
            if (j == 0) // a root with only zero-length links below: nothing to project on
                return {children[0].empty() ? 0 : children[0].front(), 0.0};
            // A leaf (or a chain of zero-length links ending here): the end
            // segment, which our data stores as δ = 1 on the link into j.
            int c = j;
            while (c > 0 && link(c).degenerate())
                c = s.parents[static_cast<size_t>(c)];
            return {c > 0 ? c : j, 1.0};
        }
        Assign best;
        double bestDist = kInf;
        for (int c : from) {
            const LinkHit h = hitLink(link(c), p);
            if (h.dist < bestDist) {
                bestDist = h.dist;
                best = {c, h.delta};
            }
        }
        return best;
    }
};

/// Visibility through the voxel solid (thesis `isInOutLine`): the segment
/// from a surface vertex to a point of the skeleton crosses no empty voxel.
/// Sampled every half voxel; the first three quarters of a voxel next to the
/// vertex are skipped (the vertex lies on the surface, its own voxel may be
/// the empty one beside the surface voxel through rounding).
class Visibility {
public:
    explicit Visibility(const VoxelGrid& g) : m_g(g) {}
    bool visible(const Vec3& p, const Vec3& q) const
    {
        const Vec3 d = q - p;
        const double len = d.norm();
        const double h = 0.5 * m_g.voxelSize;
        if (!(len > 0.75 * m_g.voxelSize))
            return true;
        const Vec3 u = d / len;
        for (double t = 0.75 * m_g.voxelSize;; t += h) {
            const double tt = std::min(t, len);
            const Vec3i v = m_g.voxelAt(p + tt * u);
            if (!m_g.contains(v) || !m_g.solid(m_g.index(v)))
                return false;
            if (tt >= len)
                return true;
        }
    }

private:
    const VoxelGrid& m_g;
};

} // namespace rig::segmenting
