#include "core/skeleton/humanoid_ends.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <queue>

namespace rig {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// Shortest paths along the skeleton from one end: distance and predecessor per node.
struct Paths {
    std::vector<double> dist;
    std::vector<int> pred;
};

Paths shortestPaths(const CurveSkeleton& s, const std::vector<std::vector<int>>& adjacency, int from)
{
    Paths p{std::vector<double>(adjacency.size(), inf), std::vector<int>(adjacency.size(), -1)};
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    p.dist[static_cast<size_t>(from)] = 0.0;
    queue.emplace(0.0, from);
    while (!queue.empty()) {
        const auto [d, u] = queue.top();
        queue.pop();
        if (d > p.dist[static_cast<size_t>(u)])
            continue;
        for (int v : adjacency[static_cast<size_t>(u)]) {
            const double nd = d + (s.positions.row(u) - s.positions.row(v)).norm();
            if (nd < p.dist[static_cast<size_t>(v)]) {
                p.dist[static_cast<size_t>(v)] = nd;
                p.pred[static_cast<size_t>(v)] = u;
                queue.emplace(nd, v);
            }
        }
    }
    return p;
}

/// What the scoring reads: the skeleton, its ends' paths and heights.
struct Context {
    const CurveSkeleton& s;
    std::vector<int> ends;                 ///< End node per candidate index.
    std::vector<Paths> paths;              ///< Per candidate index.
    std::vector<double> height;            ///< Per node: fraction of the figure's height above its bottom.
    Vec3 up, left;
    double h;                              ///< The figure's height (world units).
    const HumanoidEndsOptions& o;

    double dist(int a, int node) const { return paths[static_cast<size_t>(a)].dist[static_cast<size_t>(node)]; }
    double y(int node) const { return height[static_cast<size_t>(node)]; }
    int node(int a) const { return ends[static_cast<size_t>(a)]; }

    /// Where the paths between three ends meet: the node of the path a–b nearest to c.
    int meet(int a, int b, int c) const
    {
        int best = node(b), x = node(b);
        double bestD = inf;
        for (int guard = 0; x >= 0 && guard <= s.nodeCount(); ++guard) {
            if (dist(c, x) < bestD) {
                bestD = dist(c, x);
                best = x;
            }
            if (x == node(a))
                break;
            x = paths[static_cast<size_t>(a)].pred[static_cast<size_t>(x)];
        }
        return best;
    }
    Vec3 horizontal(int from, int to) const
    {
        const Vec3 d = (s.positions.row(to) - s.positions.row(from)).transpose();
        return d - d.dot(up) * up;
    }
};

/// The penalty of a ratio of two lengths being unequal: 0 equal, 1 at a third apart.
double unequal(double a, double b)
{
    return std::abs(a - b) / std::max({a, b, 1e-12}) / 0.33;
}

double tooShort(double length, double minimum)
{
    return std::max(0.0, minimum - length) / minimum;
}

struct Limbs {
    int a = -1, b = -1, joint = -1; ///< Candidate indices of the two ends, and the node they meet the head's path at.
    double cost = inf;
};

Limbs legs(const Context& c, int fa, int fb, int head)
{
    Limbs l{fa, fb, c.meet(fa, fb, head), 0.0};
    const double la = c.dist(fa, l.joint) / c.h, lb = c.dist(fb, l.joint) / c.h;
    l.cost = (c.y(c.node(fa)) + c.y(c.node(fb))) / (2.0 * c.o.supportBand) + unequal(la, lb) +
             tooShort(std::min(la, lb), c.o.minLimb);
    return l;
}

Limbs arms(const Context& c, int ha, int hb, int head)
{
    Limbs l{ha, hb, c.meet(ha, hb, head), 0.0};
    const double la = c.dist(ha, l.joint) / c.h, lb = c.dist(hb, l.joint) / c.h;
    const Vec3 da = c.horizontal(l.joint, c.node(ha)), db = c.horizontal(l.joint, c.node(hb));
    const double cosine = da.norm() > 0 && db.norm() > 0 ? da.dot(db) / (da.norm() * db.norm()) : 1.0;
    l.cost = unequal(la, lb) + tooShort(std::min(la, lb), c.o.minLimb) + std::max(0.0, cosine + 0.5) / 1.5;
    // The hands reach furthest from the body's vertical (at rest, in a T- or
    // A-pose): hair, ears and shoulder pads branch off nearer to it.
    double reach = 0.0;
    for (int e = 0; e < static_cast<int>(c.ends.size()); ++e)
        reach = std::max(reach, c.horizontal(l.joint, c.node(e)).norm());
    if (reach > 0.0)
        l.cost += (reach - std::min(da.norm(), db.norm())) / reach;
    // Hands on the support are feet (a quadruped's legs), not hands.
    l.cost += std::max(0.0, c.o.supportBand - std::min(c.y(c.node(ha)), c.y(c.node(hb)))) / 0.1;
    return l;
}

/// The torso between the pelvis and the chest, and the head above.
double torsoCost(const Context& c, const Limbs& leg, const Limbs& arm, int head)
{
    const double chest = c.y(arm.joint), pelvis = c.y(leg.joint), top = c.y(c.node(head));
    double cost = std::max(0.0, pelvis + 0.05 - chest) / 0.1; // the chest above the pelvis
    cost += std::max(0.0, chest - top) / 0.1;                 // the head above the chest
    const double detour = c.dist(head, arm.joint) + (c.s.positions.row(arm.joint) - c.s.positions.row(leg.joint)).norm() -
                          c.dist(head, leg.joint);
    cost += std::max(0.0, detour) / c.h / 0.1; // the chest on the way from the head to the pelvis
    const double raised = std::max(c.y(c.node(arm.a)), c.y(c.node(arm.b))) - top;
    cost += std::max(0.0, raised) / 0.2;
    // An upright torso: the head above the pelvis rather than ahead of it (a
    // bird's, a dinosaur's or a quadruped's body runs forward).
    const Vec3 spine = (c.s.positions.row(c.node(head)) - c.s.positions.row(leg.joint)).transpose();
    const double upright = spine.norm() > 0 ? spine.dot(c.up) / spine.norm() : 0.0;
    cost += std::max(0.0, 0.85 - upright) / 0.3;
    // A rest pose is symmetric: both hands at about the same height.
    cost += std::abs(c.y(c.node(arm.a)) - c.y(c.node(arm.b))) / 0.15;
    // Each arm leaves the spine (the path from the head to a foot) above the
    // pelvis: a hand whose path meets the legs is a leg, or touches one.
    for (int hand : {arm.a, arm.b}) {
        const int shoulder = c.meet(head, leg.a, hand);
        cost += std::max(0.0, pelvis + 0.05 - c.y(shoulder)) / 0.1;
        cost += shoulder == leg.joint ? 1.0 : 0.0;
    }
    return cost;
}

struct Choice {
    int head = -1;
    Limbs leg, arm;
    double cost = inf;
};

/// The best body for one head: of the cheapest legs and arms, the pair of
/// distinct ends with the cheapest torso between them (cost inf when none).
Choice bestWithHead(const Context& c, int head)
{
    const int n = static_cast<int>(c.ends.size());
    std::vector<Limbs> legOptions, armOptions;
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            if (a == head || b == head)
                continue;
            if (c.y(c.node(a)) <= c.o.supportBand && c.y(c.node(b)) <= c.o.supportBand)
                legOptions.push_back(legs(c, a, b, head));
            if (c.y(c.node(a)) > 0.0 && c.y(c.node(b)) > 0.0)
                armOptions.push_back(arms(c, a, b, head));
        }
    auto cheapest = [](std::vector<Limbs>& v, size_t k) {
        std::sort(v.begin(), v.end(), [](const Limbs& x, const Limbs& y) { return x.cost < y.cost; });
        if (v.size() > k)
            v.resize(k);
    };
    cheapest(legOptions, 6);
    cheapest(armOptions, 24);
    Choice best;
    for (const Limbs& l : legOptions)
        for (const Limbs& a : armOptions) {
            if (a.a == l.a || a.a == l.b || a.b == l.a || a.b == l.b)
                continue;
            const double cost = l.cost + a.cost + torsoCost(c, l, a, head);
            if (cost < best.cost)
                best = {head, l, a, cost};
        }
    return best;
}

double side(const Context& c, int end, int joint)
{
    return (c.s.positions.row(c.node(end)) - c.s.positions.row(joint)).dot(c.left.transpose());
}

HumanoidEnds structureOf(const Context& c, const Choice& best)
{
    HumanoidEnds b;
    const bool aLeft = side(c, best.arm.a, best.arm.joint) >= side(c, best.arm.b, best.arm.joint);
    b.labels[Limb::Head] = c.node(best.head);
    b.labels[Limb::LeftHand] = c.node(aLeft ? best.arm.a : best.arm.b);
    b.labels[Limb::RightHand] = c.node(aLeft ? best.arm.b : best.arm.a);
    const bool fLeft = side(c, best.leg.a, best.leg.joint) >= side(c, best.leg.b, best.leg.joint);
    b.labels[Limb::LeftFoot] = c.node(fLeft ? best.leg.a : best.leg.b);
    b.labels[Limb::RightFoot] = c.node(fLeft ? best.leg.b : best.leg.a);
    b.pelvis = best.leg.joint;
    b.chest = best.arm.joint;
    b.cost = best.cost;
    for (int e : c.ends)
        if (std::find(b.labels.nodes.begin(), b.labels.nodes.end(), e) == b.labels.nodes.end())
            b.extraEnds.push_back(e);
    std::sort(b.extraEnds.begin(), b.extraEnds.end());
    return b;
}

std::string format(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

} // namespace

std::optional<HumanoidEnds> findHumanoidEnds(const CurveSkeleton& s, double bottom, double height,
                                               const HumanoidEndsOptions& o, std::string* why)
{
    auto none = [&](const std::string& reason) -> std::optional<HumanoidEnds> {
        if (why)
            *why = reason;
        return std::nullopt;
    };
    const std::vector<int> ends = s.nodesOf(NodeType::End);
    if (ends.size() < 5 || !(height > 0.0) || o.up.norm() == 0.0)
        return none("fewer than five skeleton ends");
    const Vec3 up = o.up.normalized();
    Context c{s, {}, {}, std::vector<double>(static_cast<size_t>(s.nodeCount())), up, up.cross(o.front).normalized(), height, o};
    for (int i = 0; i < s.nodeCount(); ++i)
        c.height[static_cast<size_t>(i)] = (s.positions.row(i).dot(up.transpose()) - bottom) / height;
    c.ends = ends;
    if (static_cast<int>(c.ends.size()) > o.maxEnds) { // the longest-reaching first: the highest and the lowest
        std::sort(c.ends.begin(), c.ends.end(), [&](int a, int b) {
            return std::abs(c.y(a) - 0.5) > std::abs(c.y(b) - 0.5);
        });
        c.ends.resize(static_cast<size_t>(o.maxEnds));
    }
    const auto adjacency = s.adjacency();
    for (int e : c.ends)
        c.paths.push_back(shortestPaths(s, adjacency, e));
    Choice best;
    for (int head = 0; head < static_cast<int>(c.ends.size()); ++head)
        if (c.y(c.node(head)) >= o.headBand)
            if (const Choice ch = bestWithHead(c, head); ch.cost < best.cost)
                best = ch;
    if (best.head < 0)
        return none("no two skeleton ends stand on the support with a head above and two arms");
    if (!(best.cost <= o.acceptCost))
        return none("the best head, arms and legs in the skeleton are far from a standing humanoid's (cost " +
                    format("%.2f", best.cost) + ")");
    HumanoidEnds b = structureOf(c, best);
    b.confidence = std::clamp(1.0 - best.cost / o.acceptCost, 0.0, 1.0);
    b.summary = "head, two arms and two legs found (cost " + format("%.2f", b.cost) + ": legs " +
                format("%.2f", best.leg.cost) + ", arms " + format("%.2f", best.arm.cost) + ", torso " +
                format("%.2f", best.cost - best.leg.cost - best.arm.cost) + "; confidence " +
                format("%.2f", b.confidence) + ", " + std::to_string(b.extraEnds.size()) + " extra branches)";
    return b;
}

} // namespace rig
