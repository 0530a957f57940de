#include "core/rig/fingers.h"

#include "core/common/error.h"
#include "core/mesh/vertex_adjacency.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>

namespace rig {
namespace {

constexpr std::array<std::string_view, maxFingers> kFingerNames = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
constexpr double kInf = std::numeric_limits<double>::infinity();

Vec3 rowOf(const MatrixX3d& m, int i) { return m.row(i).transpose(); }

// A joint's rest tip: its End Site, else the joint (a template built by hand may lack `tips`).
Vec3 tipOf(const RigTemplate& t, int j)
{
    return static_cast<size_t>(j) < t.tips.size() ? t.tips[static_cast<size_t>(j)] : rowOf(t.restPositions, j);
}

// ---------------------------------------------------------------------------
// The hand region and the geodesic distance from the wrist (steps 1-2).

struct HandRegion {
    std::vector<int> vertices;         // mesh vertex of each region vertex
    std::vector<std::vector<int>> nbr; // neighbours, as region indices
    std::vector<double> d;             // geodesic distance from the wrist's cross-section
    double length = 0.0;               // the largest d

    int size() const { return static_cast<int>(vertices.size()); }
};

// The edge-connected piece of the vertices beyond the wrist's plane and within
// reach that holds the one nearest the wrist; `local` receives region indices.
HandRegion regionPiece(const Mesh& mesh, const VertexAdjacency& adj, const Vec3& axis, const Vec3& wrist,
                       double back, double reach, std::vector<int>& local)
{
    const int n = mesh.vertexCount();
    std::vector<char> inside(static_cast<size_t>(n), 0);
    int nearest = -1;
    double best = kInf;
    for (int v = 0; v < n; ++v) {
        const Vec3 p = rowOf(mesh.V, v) - wrist;
        if (p.dot(axis) < -back || p.norm() > reach)
            continue;
        inside[static_cast<size_t>(v)] = 1;
        if (p.norm() < best) {
            best = p.norm();
            nearest = v;
        }
    }
    HandRegion r;
    local.assign(static_cast<size_t>(n), -1);
    if (nearest < 0)
        return r;
    local[static_cast<size_t>(nearest)] = 0;
    r.vertices.push_back(nearest);
    for (size_t k = 0; k < r.vertices.size(); ++k) { // breadth first over the inside vertices
        const int v = r.vertices[k];
        for (int e = adj.start[static_cast<size_t>(v)]; e < adj.start[static_cast<size_t>(v) + 1]; ++e) {
            const int w = adj.nbr[static_cast<size_t>(e)];
            if (inside[static_cast<size_t>(w)] && local[static_cast<size_t>(w)] < 0) {
                local[static_cast<size_t>(w)] = static_cast<int>(r.vertices.size());
                r.vertices.push_back(w);
            }
        }
    }
    r.nbr.resize(r.vertices.size());
    for (size_t i = 0; i < r.vertices.size(); ++i) {
        const int v = r.vertices[i];
        for (int e = adj.start[static_cast<size_t>(v)]; e < adj.start[static_cast<size_t>(v) + 1]; ++e)
            if (const int w = local[static_cast<size_t>(adj.nbr[static_cast<size_t>(e)])]; w >= 0)
                r.nbr[i].push_back(w);
    }
    return r;
}

// Dijkstra over the region's edges from its vertices near the wrist's plane.
void geodesicFromWrist(const Mesh& mesh, const Vec3& axis, const Vec3& wrist, double band, HandRegion& r)
{
    const int m = r.size();
    r.d.assign(static_cast<size_t>(m), kInf);
    double lowest = kInf;
    for (int v : r.vertices)
        lowest = std::min(lowest, (rowOf(mesh.V, v) - wrist).dot(axis));
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (int i = 0; i < m; ++i)
        if ((rowOf(mesh.V, r.vertices[static_cast<size_t>(i)]) - wrist).dot(axis) <= lowest + band) {
            r.d[static_cast<size_t>(i)] = 0.0;
            queue.push({0.0, i});
        }
    while (!queue.empty()) {
        const auto [di, i] = queue.top();
        queue.pop();
        if (di > r.d[static_cast<size_t>(i)])
            continue;
        const Vec3 p = rowOf(mesh.V, r.vertices[static_cast<size_t>(i)]);
        for (int j : r.nbr[static_cast<size_t>(i)]) {
            const double dj = di + (rowOf(mesh.V, r.vertices[static_cast<size_t>(j)]) - p).norm();
            if (dj < r.d[static_cast<size_t>(j)]) {
                r.d[static_cast<size_t>(j)] = dj;
                queue.push({dj, j});
            }
        }
    }
    r.length = 0.0;
    for (double x : r.d)
        if (std::isfinite(x))
            r.length = std::max(r.length, x);
}

HandRegion handRegion(const Mesh& mesh, const VertexAdjacency& adj, const Vec3& elbow, const Vec3& wrist,
                      const FingerOptions& o)
{
    const double forearm = (wrist - elbow).norm();
    const Vec3 axis = (wrist - elbow) / forearm;
    std::vector<int> local;
    HandRegion r = regionPiece(mesh, adj, axis, wrist, o.wristBack * forearm, o.handReach * forearm, local);
    if (r.size() > 0)
        geodesicFromWrist(mesh, axis, wrist, o.seedBand * forearm, r);
    return r;
}

// ---------------------------------------------------------------------------
// Persistent maxima of the geodesic distance (step 3).

struct Tip {
    int vertex = -1;      // region index
    double peak = 0.0;    // d at the tip
    double saddle = -1.0; // d where its piece met a higher one; -1 for the highest
    double persistence() const { return peak - std::max(0.0, saddle); }
};

std::vector<Tip> persistentMaxima(const HandRegion& r)
{
    const int m = r.size();
    std::vector<int> order(static_cast<size_t>(m));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return r.d[static_cast<size_t>(a)] > r.d[static_cast<size_t>(b)]; });
    std::vector<int> parent(static_cast<size_t>(m), -1), peak(static_cast<size_t>(m), -1);
    std::function<int(int)> find = [&](int v) {
        while (parent[static_cast<size_t>(v)] != v)
            v = parent[static_cast<size_t>(v)] = parent[static_cast<size_t>(parent[static_cast<size_t>(v)])];
        return v;
    };
    std::vector<Tip> tips;
    for (int v : order) {
        if (!std::isfinite(r.d[static_cast<size_t>(v)]))
            continue;
        std::vector<int> roots;
        for (int w : r.nbr[static_cast<size_t>(v)])
            if (parent[static_cast<size_t>(w)] >= 0)
                roots.push_back(find(w));
        std::sort(roots.begin(), roots.end());
        roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
        if (roots.empty()) {
            parent[static_cast<size_t>(v)] = v;
            peak[static_cast<size_t>(v)] = v;
            continue;
        }
        auto height = [&](int root) { return r.d[static_cast<size_t>(peak[static_cast<size_t>(root)])]; };
        const int survivor = *std::max_element(roots.begin(), roots.end(), [&](int a, int b) { return height(a) < height(b); });
        for (int root : roots)
            if (root != survivor) {
                tips.push_back({peak[static_cast<size_t>(root)], height(root), r.d[static_cast<size_t>(v)]});
                parent[static_cast<size_t>(root)] = survivor;
            }
        parent[static_cast<size_t>(v)] = survivor;
    }
    for (int v = 0; v < m; ++v)
        if (parent[static_cast<size_t>(v)] == v)
            tips.push_back({peak[static_cast<size_t>(v)], r.d[static_cast<size_t>(peak[static_cast<size_t>(v)])], -1.0});
    return tips;
}

// The persistent tips, most persistent first (at most five); the highest
// tip's saddle becomes the highest saddle of the others (its web).
std::vector<Tip> fingertips(const HandRegion& r, const FingerOptions& o)
{
    std::vector<Tip> tips;
    if (r.size() == 0 || r.length <= 0.0)
        return tips;
    for (const Tip& t : persistentMaxima(r))
        if (t.persistence() >= o.minProminence * r.length)
            tips.push_back(t);
    std::sort(tips.begin(), tips.end(), [](const Tip& a, const Tip& b) { return a.persistence() > b.persistence(); });
    if (tips.size() > static_cast<size_t>(maxFingers))
        tips.resize(static_cast<size_t>(maxFingers));
    double web = -1.0;
    for (const Tip& t : tips)
        web = std::max(web, t.saddle);
    for (Tip& t : tips)
        if (t.saddle < 0.0)
            t.saddle = tips.size() > 1 ? web : 0.0;
    return tips;
}

// ---------------------------------------------------------------------------
// A finger's line from its knuckle to its tip (steps 4 and 6).

// Centroids of the finger's level bands, from the saddle up, then the tip.
std::vector<Vec3> centreline(const Mesh& mesh, const HandRegion& r, const Tip& tip, int bands)
{
    std::vector<int> finger = {tip.vertex};
    std::vector<char> seen(static_cast<size_t>(r.size()), 0);
    seen[static_cast<size_t>(tip.vertex)] = 1;
    for (size_t k = 0; k < finger.size(); ++k)
        for (int w : r.nbr[static_cast<size_t>(finger[k])])
            if (!seen[static_cast<size_t>(w)] && r.d[static_cast<size_t>(w)] > tip.saddle) {
                seen[static_cast<size_t>(w)] = 1;
                finger.push_back(w);
            }
    const int b = std::max(1, bands);
    const double step = (tip.peak - tip.saddle) / b;
    std::vector<Vec3> sum(static_cast<size_t>(b), Vec3::Zero());
    std::vector<int> count(static_cast<size_t>(b), 0);
    for (int i : finger) {
        const int k = std::clamp(static_cast<int>((r.d[static_cast<size_t>(i)] - tip.saddle) / step), 0, b - 1);
        sum[static_cast<size_t>(k)] += rowOf(mesh.V, r.vertices[static_cast<size_t>(i)]);
        ++count[static_cast<size_t>(k)];
    }
    std::vector<Vec3> line;
    for (int k = 0; k + 1 < b; ++k) // the last band holds the tip itself
        if (count[static_cast<size_t>(k)] > 0)
            line.push_back(sum[static_cast<size_t>(k)] / count[static_cast<size_t>(k)]);
    line.push_back(rowOf(mesh.V, r.vertices[static_cast<size_t>(tip.vertex)]));
    return line;
}

double polylineLength(const std::vector<Vec3>& line)
{
    double length = 0.0;
    for (size_t k = 1; k < line.size(); ++k)
        length += (line[k] - line[k - 1]).norm();
    return length;
}

// The line continued below the web to the knuckle: fingers along their own
// direction, the thumb towards the wrist; never past 80 % of the way to the wrist.
std::vector<Vec3> withKnuckle(std::vector<Vec3> line, const Vec3& wrist, bool thumb, const FingerOptions& o)
{
    const double visible = polylineLength(line);
    const Vec3 start = line.front();
    Vec3 back = thumb || line.size() < 2 ? Vec3(wrist - start) : Vec3(start - line[std::min<size_t>(2, line.size() - 1)]);
    if (back.norm() <= 0.0)
        return line;
    const double step = std::min((thumb ? o.thumbDepth : o.knuckleDepth) * visible, 0.8 * (wrist - start).norm());
    line.insert(line.begin(), start + step * back.normalized());
    return line;
}

// The point at normalized arc length t along a polyline.
Vec3 pointAlong(const std::vector<Vec3>& line, double t)
{
    const double target = std::clamp(t, 0.0, 1.0) * polylineLength(line);
    double walked = 0.0;
    for (size_t k = 1; k < line.size(); ++k) {
        const double seg = (line[k] - line[k - 1]).norm();
        if (walked + seg >= target && seg > 0.0)
            return line[k - 1] + (target - walked) / seg * (line[k] - line[k - 1]);
        walked += seg;
    }
    return line.back();
}

// ---------------------------------------------------------------------------
// The template's fingers and the hand's frame (step 5, the shape placement).

struct HandJoints {
    int wrist = -1, elbow = -1;
    std::array<std::vector<int>, maxFingers> fingers; // joints by segment, per finger
    bool any() const
    {
        return std::any_of(fingers.begin(), fingers.end(), [](const auto& f) { return !f.empty(); });
    }
};

HandJoints handJoints(const RigTemplate& t, bool left)
{
    HandJoints h;
    std::array<std::vector<std::pair<int, int>>, maxFingers> bySegment;
    for (int j = 0; j < t.jointCount(); ++j)
        if (const auto f = fingerJoint(t.names[static_cast<size_t>(j)]); f && f->left == left)
            bySegment[static_cast<size_t>(f->finger)].push_back({f->segment, j});
    for (int f = 0; f < maxFingers; ++f) {
        auto& s = bySegment[static_cast<size_t>(f)];
        std::sort(s.begin(), s.end());
        for (const auto& entry : s)
            h.fingers[static_cast<size_t>(f)].push_back(entry.second);
        if (!s.empty() && h.wrist < 0) {
            h.wrist = t.parents[static_cast<size_t>(s.front().second)];
            h.elbow = h.wrist >= 0 ? t.parents[static_cast<size_t>(h.wrist)] : -1;
        }
    }
    return h;
}

// Fractions of a finger's rest length (first joint to its tip) at its joints.
std::vector<double> restFractions(const RigTemplate& t, const std::vector<int>& joints)
{
    std::vector<Vec3> points;
    for (int j : joints)
        points.push_back(rowOf(t.restPositions, j));
    points.push_back(tipOf(t, joints.back()));
    const double total = polylineLength(points);
    std::vector<double> out;
    double walked = 0.0;
    for (size_t k = 0; k < joints.size(); ++k) {
        out.push_back(total > 0.0 ? walked / total : static_cast<double>(k) / joints.size());
        walked += (points[k + 1] - points[k]).norm();
    }
    return out;
}

// An orthonormal hand frame at the wrist: along the hand, across it towards
// the thumb (the front), and through the palm.
struct HandFrame {
    Vec3 origin, along, across, through;
    double length = 0.0, width = 0.0; // along and across (at the knuckles)
    Vec3 centre = Vec3::Zero();       // (along, across, through) offset of the knuckles' middle
    Vec3 local(const Vec3& p) const
    {
        const Vec3 q = p - origin;
        return {q.dot(along), q.dot(across), q.dot(through)};
    }
    Vec3 world(const Vec3& c) const { return origin + c.x() * along + c.y() * across + c.z() * through; }
};

HandFrame frameFrom(const Vec3& origin, const Vec3& along, const Vec3& front)
{
    HandFrame f;
    f.origin = origin;
    f.along = along.normalized();
    Vec3 across = front - front.dot(f.along) * f.along;
    if (across.norm() < 1e-9)
        across = f.along.unitOrthogonal();
    f.across = across.normalized();
    f.through = f.along.cross(f.across);
    return f;
}

HandFrame restHandFrame(const RigTemplate& t, const HandJoints& h)
{
    const Vec3 wrist = rowOf(t.restPositions, h.wrist), elbow = rowOf(t.restPositions, h.elbow);
    HandFrame f = frameFrom(wrist, wrist - elbow, Vec3::UnitZ()); // templates face +Z
    for (const auto& joints : h.fingers)
        if (!joints.empty())
            f.length = std::max(f.length, f.local(tipOf(t, joints.back())).x());
    f.width = 0.5 * f.length; // a hand is about half as wide as it is long
    return f;
}

HandFrame meshHandFrame(const Mesh& mesh, const HandRegion& r, const Vec3& wrist, const Vec3& forearm, const Vec3& front,
                        double fallbackLength)
{
    if (r.size() < 4) {
        HandFrame f = frameFrom(wrist, forearm, front);
        f.length = fallbackLength;
        f.width = 0.5 * fallbackLength;
        return f;
    }
    Vec3 mean = Vec3::Zero();
    for (int v : r.vertices)
        mean += rowOf(mesh.V, v);
    mean /= r.size();
    const Vec3 along = (mean - wrist).norm() > 1e-12 ? Vec3(mean - wrist) : forearm;
    HandFrame f = frameFrom(wrist, along, front);
    Eigen::Matrix3d cov = Eigen::Matrix3d::Zero();
    for (int v : r.vertices) {
        Vec3 q = rowOf(mesh.V, v) - mean;
        q -= q.dot(f.along) * f.along;
        cov += q * q.transpose();
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(cov);
    Vec3 across = eig.eigenvectors().col(2); // the widest direction across the hand
    if (across.dot(front) < 0.0)
        across = -across;
    f = frameFrom(wrist, f.along, across);
    for (int v : r.vertices)
        f.length = std::max(f.length, f.local(rowOf(mesh.V, v)).x());
    double lo = kInf, hi = -kInf, through = 0.0;
    int n = 0;
    for (int v : r.vertices) {
        const Vec3 c = f.local(rowOf(mesh.V, v));
        if (c.x() < 0.4 * f.length || c.x() > 0.6 * f.length)
            continue;
        lo = std::min(lo, c.y());
        hi = std::max(hi, c.y());
        through += c.z();
        ++n;
    }
    if (n > 0) {
        f.width = hi - lo;
        f.centre = Vec3(0.0, 0.5 * (lo + hi), through / n);
    } else {
        f.width = 0.5 * f.length;
    }
    return f;
}

// A template point of the rest hand, mapped onto the mesh's hand box, then
// kept within the inner 70 % of the hand's cross-section at its level (a
// mitten without a thumb keeps the thumb inside, along its edge).
Vec3 mapToHand(const HandFrame& rest, const HandFrame& hand, const Mesh& mesh, const HandRegion& r, const Vec3& restPoint)
{
    const Vec3 c = rest.local(restPoint);
    const double s = hand.length / rest.length, w = hand.width / rest.width;
    Vec3 q(s * c.x(), hand.centre.y() + w * c.y(), hand.centre.z() + s * c.z());
    Vec3 lo = Vec3::Constant(kInf), hi = Vec3::Constant(-kInf);
    for (int v : r.vertices) {
        const Vec3 p = hand.local(rowOf(mesh.V, v));
        if (std::abs(p.x() - q.x()) <= 0.08 * hand.length) {
            lo = lo.cwiseMin(p);
            hi = hi.cwiseMax(p);
        }
    }
    if (lo.y() < hi.y() && lo.z() < hi.z()) {
        // Within an ellipse of 60 % of the section's half extents (a section is round, not a box).
        const Vec3 mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo);
        const double u = (q.y() - mid.y()) / half.y(), v = (q.z() - mid.z()) / half.z(), r = std::hypot(u, v);
        if (r > 0.6) {
            q.y() = mid.y() + 0.6 / r * u * half.y();
            q.z() = mid.z() + 0.6 / r * v * half.z();
        }
    }
    return hand.world(q);
}

// ---------------------------------------------------------------------------
// One hand.

struct HandResult {
    int resolved = 0, fromMesh = 0, fromShape = 0;
    std::array<Vec3, maxFingers> tips;
};

HandResult placeHand(FitResult& rig, const RigTemplate& t, const Mesh& mesh, const VertexAdjacency& adj,
                     const HandJoints& h, const FitOptions& fit, const FingerOptions& o)
{
    HandResult out;
    out.tips.fill(Vec3::Constant(std::numeric_limits<double>::quiet_NaN()));
    Skeleton& k = rig.skeleton;
    const Vec3 wrist = rowOf(k.bindPositions, h.wrist), elbow = rowOf(k.bindPositions, h.elbow);
    if ((wrist - elbow).norm() <= 0.0)
        return out;
    const HandRegion region = handRegion(mesh, adj, elbow, wrist, o);
    const HandFrame rest = restHandFrame(t, h);
    const double scale = (wrist - elbow).norm() / (rowOf(t.restPositions, h.wrist) - rowOf(t.restPositions, h.elbow)).norm();
    const HandFrame hand = meshHandFrame(mesh, region, wrist, wrist - elbow, fit.front, rest.length * scale);
    std::vector<Tip> tips = o.mode == FingerMode::Auto ? fingertips(region, o) : std::vector<Tip>{};
    out.resolved = static_cast<int>(tips.size());
    std::vector<int> present; // fingers of the template, in order
    for (int f = 0; f < maxFingers; ++f)
        if (!h.fingers[static_cast<size_t>(f)].empty())
            present.push_back(f);
    if (tips.size() > present.size())
        tips.resize(present.size());
    auto across = [&](const Tip& tip) { return hand.local(rowOf(mesh.V, region.vertices[static_cast<size_t>(tip.vertex)])).y(); };
    std::sort(tips.begin(), tips.end(), [&](const Tip& a, const Tip& b) { return across(a) > across(b); });
    const size_t usable = tips.size() >= 3 ? tips.size() : (tips.size() == 2 && present.front() == 0 ? 1 : 0);
    for (size_t i = 0; i < present.size(); ++i) {
        const int f = present[i];
        const std::vector<int>& joints = h.fingers[static_cast<size_t>(f)];
        const std::vector<double> fractions = restFractions(t, joints);
        std::vector<Vec3> line;
        if (i < usable) {
            line = withKnuckle(centreline(mesh, region, tips[i], o.bands), wrist, f == 0, o);
            ++out.fromMesh;
        } else {
            for (int j : joints)
                line.push_back(mapToHand(rest, hand, mesh, region, rowOf(t.restPositions, j)));
            line.push_back(mapToHand(rest, hand, mesh, region, tipOf(t, joints.back())));
            ++out.fromShape;
        }
        for (size_t s = 0; s < joints.size(); ++s) {
            k.bindPositions.row(joints[s]) = (i < usable ? pointAlong(line, fractions[s]) : line[s]).transpose();
            rig.jointNode[static_cast<size_t>(joints[s])] = -1;
        }
        out.tips[static_cast<size_t>(f)] = line.back();
    }
    return out;
}

bool hasFingerJoints(const RigTemplate& t, int count, std::vector<char>& keep)
{
    keep.assign(t.names.size(), 1);
    bool any = false;
    for (size_t j = 0; j < t.names.size(); ++j)
        if (const auto f = fingerJoint(t.names[j])) {
            any = true;
            keep[j] = static_cast<int>(f->finger) < count;
        }
    return any;
}

// The finger count the mesh asks for: the most tips either hand resolves when
// that is 3 or more, else five.
int countFromMesh(const FitResult& rig, const RigTemplate& t, const Mesh& mesh, const FingerOptions& o)
{
    const VertexAdjacency adj = vertexAdjacency(mesh.vertexCount(), mesh.F);
    int most = 0;
    for (bool left : {true, false}) {
        const HandJoints h = handJoints(t, left);
        if (h.elbow < 0)
            continue;
        const Vec3 wrist = rowOf(rig.skeleton.bindPositions, h.wrist), elbow = rowOf(rig.skeleton.bindPositions, h.elbow);
        if ((wrist - elbow).norm() > 0.0)
            most = std::max(most, static_cast<int>(fingertips(handRegion(mesh, adj, elbow, wrist, o), o).size()));
    }
    return most >= 3 ? std::min(most, maxFingers) : maxFingers;
}

} // namespace

std::string_view fingerName(Finger finger) { return kFingerNames[static_cast<size_t>(finger)]; }

std::string_view fingerModeId(FingerMode mode)
{
    switch (mode) {
    case FingerMode::None: return "none";
    case FingerMode::Auto: return "auto";
    case FingerMode::Shape: return "shape";
    }
    return "none";
}

FingerMode parseFingerMode(std::string_view id)
{
    for (FingerMode m : {FingerMode::None, FingerMode::Auto, FingerMode::Shape})
        if (fingerModeId(m) == id)
            return m;
    throw InvalidInput("fingers '" + std::string(id) +
                       "' not understood; use none (no finger joints), auto (fingertips found on the mesh, else "
                       "from the hand's shape) or shape (from the hand's shape)");
}

std::optional<FingerJointName> fingerJoint(const std::string& fullName)
{
    const auto colon = fullName.find_last_of(':');
    const std::string name = fullName.substr(colon == std::string::npos ? 0 : colon + 1);
    FingerJointName out;
    std::string rest;
    if (name.rfind("LeftHand", 0) == 0) {
        rest = name.substr(8);
    } else if (name.rfind("RightHand", 0) == 0) {
        out.left = false;
        rest = name.substr(9);
    } else {
        return std::nullopt;
    }
    for (int f = 0; f < maxFingers; ++f) {
        const std::string_view finger = kFingerNames[static_cast<size_t>(f)];
        if (rest.size() == finger.size() + 1 && rest.compare(0, finger.size(), finger) == 0 &&
            rest.back() >= '1' && rest.back() <= '9') {
            out.finger = static_cast<Finger>(f);
            out.segment = rest.back() - '0';
            return out;
        }
    }
    return std::nullopt;
}

bool hasFingers(const RigTemplate& t)
{
    return std::any_of(t.names.begin(), t.names.end(), [](const std::string& n) { return fingerJoint(n).has_value(); });
}

RigTemplate templateWithFingers(const RigTemplate& t, int count)
{
    if (count < 0 || count > maxFingers)
        throw InvalidInput("rig::templateWithFingers(): " + std::to_string(count) +
                           " fingers per hand; choose 0 to 5 (thumb, index, middle, ring, pinky in that order)");
    std::vector<char> keep;
    if (!hasFingerJoints(t, count, keep))
        return t;
    std::vector<int> index(t.names.size(), -1);
    std::vector<std::string> names;
    std::vector<int> parents;
    std::vector<Vec3> offsets;
    for (size_t j = 0; j < t.names.size(); ++j)
        if (keep[j]) {
            index[j] = static_cast<int>(names.size());
            names.push_back(t.names[j]);
            parents.push_back(t.parents[j] < 0 ? -1 : index[static_cast<size_t>(t.parents[j])]);
            offsets.push_back(rowOf(t.offsets, static_cast<int>(j)));
        }
    // End Sites: the kept joints' own; a joint that lost every child ends at
    // its farthest removed tip (a hand without fingers at the middle fingertip).
    std::vector<Vec3> tip(names.size(), Vec3::Zero());
    std::vector<double> reach(names.size(), -1.0);
    for (size_t j = 0; j < t.names.size(); ++j) {
        const Vec3 rest = rowOf(t.restPositions, static_cast<int>(j));
        if (keep[j] && (tipOf(t, static_cast<int>(j)) - rest).norm() > 0.0) {
            tip[static_cast<size_t>(index[j])] = tipOf(t, static_cast<int>(j)) - rest;
            reach[static_cast<size_t>(index[j])] = kInf;
        }
    }
    for (size_t j = 0; j < t.names.size(); ++j) {
        if (keep[j])
            continue;
        int a = t.parents[j];
        while (a >= 0 && !keep[static_cast<size_t>(a)])
            a = t.parents[static_cast<size_t>(a)];
        const auto ka = static_cast<size_t>(index[static_cast<size_t>(a)]);
        const Vec3 offset = tipOf(t, static_cast<int>(j)) - rowOf(t.restPositions, a);
        if (offset.norm() > reach[ka]) {
            reach[ka] = offset.norm();
            tip[ka] = offset;
        }
    }
    std::vector<EndSite> ends;
    for (size_t j = 0; j < names.size(); ++j)
        if (reach[j] > 0.0)
            ends.push_back({static_cast<int>(j), tip[j]});
    // The chain ends as found in `t` (the arms': their last joint that is not a finger's).
    std::array<int, limbCount> limbs{};
    for (int l = 0; l < limbCount; ++l) {
        const std::vector<int>& chain = t.chainJoints[static_cast<size_t>(l)];
        int end = chain.back();
        for (int j : chain)
            if (!fingerJoint(t.names[static_cast<size_t>(j)]))
                end = j;
        limbs[static_cast<size_t>(l)] = index[static_cast<size_t>(end)];
    }
    MatrixX3d offsetRows(static_cast<Eigen::Index>(offsets.size()), 3);
    for (size_t j = 0; j < offsets.size(); ++j)
        offsetRows.row(static_cast<Eigen::Index>(j)) = offsets[j].transpose();
    return makeTemplate(t.name, std::move(names), std::move(parents), std::move(offsetRows), ends, limbs);
}

RigTemplate templateOfFit(const RigTemplate& t, const Skeleton& fitted)
{
    if (t.names == fitted.names)
        return t;
    const bool fingered = std::any_of(fitted.names.begin(), fitted.names.end(),
                                      [](const std::string& n) { return fingerJoint(n).has_value(); });
    const RigTemplate base = hasFingers(t) || !fingered || t.name != "humanoid21" ? t : builtinTemplate("humanoid51");
    if (!hasFingers(base))
        return t;
    for (int count = 0; count <= maxFingers; ++count)
        if (RigTemplate c = templateWithFingers(base, count); c.names == fitted.names)
            return c;
    return t;
}

HandTips findFingertips(const Mesh& mesh, const Vec3& elbow, const Vec3& wrist, const FingerOptions& options)
{
    HandTips out;
    if ((wrist - elbow).norm() <= 0.0 || mesh.vertexCount() == 0)
        return out;
    const VertexAdjacency adj = vertexAdjacency(mesh.vertexCount(), mesh.F);
    const HandRegion region = handRegion(mesh, adj, elbow, wrist, options);
    out.regionVertices = region.size();
    for (const Tip& t : fingertips(region, options)) {
        out.tips.push_back(rowOf(mesh.V, region.vertices[static_cast<size_t>(t.vertex)]));
        out.persistence.push_back(t.persistence() / region.length);
    }
    return out;
}

FingerReport placeFingers(FitResult& rig, const RigTemplate& t, const Mesh& mesh, const FitOptions& fit,
                          const FingerOptions& options)
{
    if (rig.skeleton.names != t.names)
        throw InvalidInput("rig::placeFingers(): the rig was not fitted with template '" + t.name + "'");
    FingerReport report;
    for (auto& hand : report.tips)
        hand.fill(Vec3::Constant(std::numeric_limits<double>::quiet_NaN()));
    if (options.mode == FingerMode::None)
        return report;
    const VertexAdjacency adj = vertexAdjacency(mesh.vertexCount(), mesh.F);
    for (int side = 0; side < 2; ++side) {
        const HandJoints h = handJoints(t, side == 0);
        if (!h.any() || h.elbow < 0)
            continue;
        const HandResult r = placeHand(rig, t, mesh, adj, h, fit, options);
        report.resolved[static_cast<size_t>(side)] = r.resolved;
        report.fromMesh[static_cast<size_t>(side)] = r.fromMesh;
        report.fromShape[static_cast<size_t>(side)] = r.fromShape;
        report.tips[static_cast<size_t>(side)] = r.tips;
        auto count = [](int n, const char* one, const char* many) { return std::to_string(n) + (n == 1 ? one : many); };
        rig.notes.push_back(std::string(side == 0 ? "Left" : "Right") + " hand: " +
                            count(r.resolved, " fingertip", " fingertips") + " found on the mesh; " +
                            count(r.fromMesh, " finger", " fingers") + " placed on them, " +
                            std::to_string(r.fromShape) + " from the hand's shape.");
    }
    orientBones(rig.skeleton, {.up = fit.up, .front = fit.front});
    return report;
}

FitResult fitWithFingers(const CurveSkeleton& skeleton, const EndNodeLabels& labels, const RigTemplate& t,
                         const Mesh& mesh, const FitOptions& fit, const FingerOptions& options, FingerReport* report)
{
    if (!hasFingers(t))
        return fitTemplate(skeleton, labels, t, fit);
    if (options.mode == FingerMode::None)
        return fitTemplate(skeleton, labels, templateWithFingers(t, 0), fit);
    int count = options.count;
    if (count < 0 && options.mode == FingerMode::Auto)
        count = countFromMesh(fitTemplate(skeleton, labels, t, fit), t, mesh, options);
    const RigTemplate kept = count >= 0 && count < maxFingers ? templateWithFingers(t, count) : t;
    FitResult rig = fitTemplate(skeleton, labels, kept, fit);
    const FingerReport r = placeFingers(rig, kept, mesh, fit, options);
    if (report)
        *report = r;
    return rig;
}

} // namespace rig
