#include "core/skin/weights_atlas.h"

#include "core/common/error.h"
#include "core/common/segment.h"
#include "core/mesh/vertex_adjacency.h"
#include "core/skin/limbs.h"

#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <queue>
#include <string>
#include <unordered_map>

namespace rig {
namespace {

const std::string kFn = "rig::atlasWeights(): ";
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;

/// The triangles of every vertex (CSR).
struct VertexTriangles {
    std::vector<int> start;
    std::vector<int> tri;
};

VertexTriangles vertexTriangles(int n, const MatrixX3i& F)
{
    VertexTriangles vt;
    vt.start.assign(static_cast<size_t>(n) + 1, 0);
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int k = 0; k < 3; ++k)
            ++vt.start[static_cast<size_t>(F(f, k)) + 1];
    std::partial_sum(vt.start.begin(), vt.start.end(), vt.start.begin());
    vt.tri.resize(static_cast<size_t>(vt.start.back()));
    std::vector<int> fill(vt.start.begin(), vt.start.end() - 1);
    for (Eigen::Index f = 0; f < F.rows(); ++f)
        for (int k = 0; k < 3; ++k)
            vt.tri[static_cast<size_t>(fill[static_cast<size_t>(F(f, k))]++)] = static_cast<int>(f);
    return vt;
}

/// The fast-marching value of x from the known corners a and b of one
/// triangle (planar wavefront through both), or the better edge update when
/// the characteristic does not come through the triangle.
double triangleUpdate(const Vec3& x, const Vec3& a, double ta, const Vec3& b, double tb)
{
    const Vec3 ea = a - x, eb = b - x;
    const double edge = std::min(ta + ea.norm(), tb + eb.norm());
    const double q11 = ea.dot(ea), q12 = ea.dot(eb), q22 = eb.dot(eb);
    const double det = q11 * q22 - q12 * q12;
    if (!(det > 1e-12 * q11 * q22))
        return edge;
    // P = Q^-1; the unit gradient g = E α with Q α = t − T·1 gives
    // (1ᵀP1) T² − 2 (1ᵀP t) T + tᵀ P t − 1 = 0.
    const double p11 = q22 / det, p12 = -q12 / det, p22 = q11 / det;
    const double A = p11 + 2.0 * p12 + p22;
    const double B = (p11 + p12) * ta + (p12 + p22) * tb;
    const double C = p11 * ta * ta + 2.0 * p12 * ta * tb + p22 * tb * tb - 1.0;
    const double disc = B * B - A * C;
    if (!(A > 0.0) || disc < 0.0)
        return edge;
    const double T = (B + std::sqrt(disc)) / A;
    if (T < std::max(ta, tb))
        return edge;
    // Upwind: −g must point into the triangle (both α ≤ 0).
    const double ra = ta - T, rb = tb - T;
    const double alphaA = p11 * ra + p12 * rb, alphaB = p12 * ra + p22 * rb;
    if (alphaA > 0.0 || alphaB > 0.0)
        return edge;
    return std::min(T, edge);
}

std::vector<double> march(const Mesh& mesh, const VertexTriangles& vt, const std::vector<std::pair<int, double>>& seeds,
                          double maxDistance)
{
    const int n = mesh.vertexCount();
    std::vector<double> dist(static_cast<size_t>(n), kInf);
    std::vector<char> done(static_cast<size_t>(n), 0);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    for (const auto& [v, d] : seeds)
        if (d < dist[static_cast<size_t>(v)]) {
            dist[static_cast<size_t>(v)] = d;
            heap.emplace(d, v);
        }
    const auto pos = [&](int v) { return Vec3(mesh.V.row(v).transpose()); };
    while (!heap.empty()) {
        const auto [d, v] = heap.top();
        heap.pop();
        if (done[static_cast<size_t>(v)] || d > dist[static_cast<size_t>(v)])
            continue;
        if (d > maxDistance)
            break;
        done[static_cast<size_t>(v)] = 1;
        for (int k = vt.start[static_cast<size_t>(v)]; k < vt.start[static_cast<size_t>(v) + 1]; ++k) {
            const int t = vt.tri[static_cast<size_t>(k)];
            for (int c = 0; c < 3; ++c) {
                const int x = mesh.F(t, c);
                if (x == v || done[static_cast<size_t>(x)])
                    continue;
                const int y = mesh.F(t, 0) != v && mesh.F(t, 0) != x   ? mesh.F(t, 0)
                              : mesh.F(t, 1) != v && mesh.F(t, 1) != x ? mesh.F(t, 1)
                                                                       : mesh.F(t, 2);
                double best = d + (pos(x) - pos(v)).norm();
                if (y != v && y != x && done[static_cast<size_t>(y)])
                    best = std::min(best, triangleUpdate(pos(x), pos(v), d, pos(y), dist[static_cast<size_t>(y)]));
                if (best < dist[static_cast<size_t>(x)]) {
                    dist[static_cast<size_t>(x)] = best;
                    heap.emplace(best, x);
                }
            }
        }
    }
    for (int v = 0; v < n; ++v)
        if (!done[static_cast<size_t>(v)])
            dist[static_cast<size_t>(v)] = kInf;
    return dist;
}

/// One plane's curve around a joint: its crossing triangles with their
/// segment, its perimeter and diameter.
struct Curve {
    std::vector<int> triangles;
    std::vector<std::pair<Vec3, Vec3>> segments;
    double perimeter = kInf;
    double diameter = 0.0;
};

std::uint64_t edgeKey(int a, int b)
{
    if (a > b)
        std::swap(a, b);
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

/// The curve of plane (J, n) around J (see step 1 of the header), or an
/// empty curve (infinite perimeter) when there is none.
Curve curveAround(const Mesh& mesh, const Vec3& J, const Vec3& n, double maxDiameter)
{
    const int nv = mesh.vertexCount();
    std::vector<double> s(static_cast<size_t>(nv));
    for (int v = 0; v < nv; ++v)
        s[static_cast<size_t>(v)] = n.dot(mesh.V.row(v).transpose() - J);
    const auto above = [&](int v) { return s[static_cast<size_t>(v)] >= 0.0; };
    // Crossing triangles and their segments; union-find through shared crossing edges.
    std::vector<int> tris;
    std::vector<std::pair<Vec3, Vec3>> segs;
    std::unordered_map<std::uint64_t, int> edgeOwner;
    std::vector<int> parent;
    const auto find = [&](int x) {
        while (parent[static_cast<size_t>(x)] != x)
            x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
        return x;
    };
    for (Eigen::Index f = 0; f < mesh.F.rows(); ++f) {
        const int a = mesh.F(f, 0), b = mesh.F(f, 1), c = mesh.F(f, 2);
        const int up = above(a) + above(b) + above(c);
        if (up == 0 || up == 3)
            continue;
        const int id = static_cast<int>(tris.size());
        tris.push_back(static_cast<int>(f));
        parent.push_back(id);
        Vec3 pts[2];
        int m = 0;
        for (const auto& [p, q] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
            if (above(p) == above(q) || m == 2)
                continue;
            const double sp = s[static_cast<size_t>(p)], sq = s[static_cast<size_t>(q)];
            const double t = sp / (sp - sq);
            pts[m++] = mesh.V.row(p).transpose() + t * (mesh.V.row(q) - mesh.V.row(p)).transpose();
            const auto [it, inserted] = edgeOwner.emplace(edgeKey(p, q), id);
            if (!inserted) {
                const int ra = find(id), rb = find(it->second);
                if (ra != rb)
                    parent[static_cast<size_t>(std::max(ra, rb))] = std::min(ra, rb);
            }
        }
        segs.emplace_back(pts[0], m == 2 ? pts[1] : pts[0]);
    }
    // Per component: length, centre, radius; keep the one around J nearest it.
    std::unordered_map<int, std::vector<int>> members;
    for (int k = 0; k < static_cast<int>(tris.size()); ++k)
        members[find(k)].push_back(k);
    Curve best;
    double bestCentreDistance = kInf;
    for (const auto& [root, ks] : members) {
        double length = 0.0;
        Vec3 centre = Vec3::Zero();
        for (int k : ks) {
            const auto& [p, q] = segs[static_cast<size_t>(k)];
            const double l = (q - p).norm();
            length += l;
            centre += 0.5 * l * (p + q);
        }
        if (!(length > 0.0))
            continue;
        centre /= length;
        double radius = 0.0;
        for (int k : ks)
            radius = std::max({radius, (segs[static_cast<size_t>(k)].first - centre).norm(),
                               (segs[static_cast<size_t>(k)].second - centre).norm()});
        const double toJoint = (centre - J).norm();
        if (toJoint > radius || toJoint >= bestCentreDistance || 2.0 * radius > maxDiameter)
            continue;
        bestCentreDistance = toJoint;
        best = Curve{};
        for (int k : ks) {
            best.triangles.push_back(tris[static_cast<size_t>(k)]);
            best.segments.push_back(segs[static_cast<size_t>(k)]);
        }
        best.perimeter = length;
        best.diameter = 2.0 * radius;
    }
    return best;
}

/// Unit vector perpendicular to u.
Vec3 perpendicular(const Vec3& u)
{
    const Vec3 other = std::abs(u.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
    return u.cross(other).normalized();
}

/// The candidate normals of joint j (step 1 of the header); empty when its
/// upper bone has no length.
std::vector<Vec3> candidateNormals(const Skeleton& s, const std::vector<std::vector<int>>& children, int j,
                                   const AtlasWeightOptions& o)
{
    const Vec3 J = s.bindPositions.row(j).transpose();
    const Vec3 P = s.bindPositions.row(s.parents[static_cast<size_t>(j)]).transpose();
    if (!((J - P).norm() > 0.0))
        return {};
    const Vec3 u = (J - P).normalized();
    Vec3 l = Vec3::Zero();
    for (int c : children[static_cast<size_t>(j)]) {
        const Vec3 d = s.bindPositions.row(c).transpose() - J;
        if (d.norm() > 0.0)
            l += d.normalized();
    }
    const double tilt = o.tiltDegrees * kPi / 180.0;
    const int k = o.planeCandidates;
    const auto fan = [&](const Vec3& w, double from, double to, std::vector<Vec3>& out) {
        for (int i = 0; i < k; ++i) {
            const double phi = k == 1 ? 0.5 * (from + to) : from + (to - from) * i / (k - 1);
            out.push_back((std::cos(phi) * u + std::sin(phi) * w).normalized());
        }
    };
    std::vector<Vec3> normals;
    Vec3 w = l - l.dot(u) * u;
    if (l.norm() > 1e-9 && w.norm() > 1e-6 * l.norm()) {
        w.normalize();
        const double theta = std::atan2(l.dot(w), l.dot(u)); // angle from u to l in Q
        fan(w, -tilt, theta + tilt, normals);
    } else { // straight (or a leaf): Q is undefined, two perpendicular fans
        const Vec3 w1 = perpendicular(u), w2 = u.cross(w1).normalized();
        fan(w1, -tilt, tilt, normals);
        fan(w2, -tilt, tilt, normals);
    }
    return normals;
}

/// A leaf that ends a limb (a head, a fingertip); a leaf beside other leaves
/// (a face's joints, an eye) marks a point, not a limb's end.
bool endsLimb(const std::vector<std::vector<int>>& children, const Skeleton& s, int j)
{
    const auto& siblings = children[static_cast<size_t>(s.parents[static_cast<size_t>(j)])];
    return children[static_cast<size_t>(j)].empty() && std::none_of(siblings.begin(), siblings.end(), [&](int k) {
               return k != j && children[static_cast<size_t>(k)].empty();
           });
}

/// How far the skin of leaf j's link reaches past j along the link (at least
/// half the link): the leaf's bone, so the cut at a head joint on the skull's
/// base may be as wide as the head. (Half the link, as before, refused every
/// section of Cesium Man's head, on a 5 cm neck link: the head went to the
/// neck joint and the head joint moved nothing; bench/notes/weights.md, stop 32.)
double leafReach(const Mesh& mesh, const Skeleton& s, const Segmentation& seg, int j)
{
    const Vec3 joint = s.bindPositions.row(j).transpose();
    const Vec3 link = joint - Vec3(s.bindPositions.row(s.parents[static_cast<size_t>(j)]).transpose());
    const double length = link.norm();
    double reach = 0.5 * length;
    if (length > 0.0)
        for (int i = 0; i < mesh.vertexCount(); ++i)
            if (seg.bone[static_cast<size_t>(i)] == j)
                reach = std::max(reach, link.dot(mesh.V.row(i).transpose() - joint) / length);
    return reach;
}

/// β of §4: β(0) = 0, β(1) = 1, β'(0) = β'(1) = 0.
double beta(double l) { return l * l * (3.0 - 2.0 * l); }

void checkInput(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg, const AtlasWeightOptions& o)
{
    if (mesh.V.rows() == 0)
        throw InvalidInput(kFn + "the mesh has no vertices; import or generate a character first");
    if (!mesh.V.allFinite())
        throw InvalidInput(kFn + "the mesh has NaN or infinite vertex coordinates; repair the mesh");
    if (mesh.F.rows() == 0)
        throw InvalidInput(kFn + "the mesh has no triangles: atlas weights need a surface (use another weight method "
                                 "for a point cloud)");
    if (mesh.F.minCoeff() < 0 || mesh.F.maxCoeff() >= mesh.V.rows())
        throw InvalidInput(kFn + "a triangle refers to a vertex outside [0, " + std::to_string(mesh.V.rows()) + ")");
    validateSkeleton(skeleton);
    if (skeleton.jointCount() < 2)
        throw InvalidInput(kFn + "the skeleton has 1 joint; atlas weights need at least one bone (2 joints)");
    if (static_cast<int>(seg.bone.size()) != mesh.vertexCount() || static_cast<int>(seg.delta.size()) != mesh.vertexCount())
        throw InvalidInput(kFn + "the segmentation covers " + std::to_string(seg.bone.size()) + " vertices, the mesh has " +
                           std::to_string(mesh.vertexCount()) + "; segment this mesh first");
    for (int b : seg.bone)
        if (b < -1 || b >= skeleton.jointCount())
            throw InvalidInput(kFn + "the segmentation names link " + std::to_string(b) + ", the skeleton has " +
                               std::to_string(skeleton.jointCount()) + " joints");
    if (o.planeCandidates < 1 || !(o.tiltDegrees >= 0.0 && o.tiltDegrees <= 90.0) ||
        !(o.overlap > 0.0 && o.overlap <= 4.0) || o.maxInfluences < 1)
        throw InvalidInput(kFn + "options out of range: planeCandidates >= 1, tiltDegrees in [0, 90], overlap in "
                                 "(0, 4], maxInfluences >= 1; got " +
                           std::to_string(o.planeCandidates) + ", " + std::to_string(o.tiltDegrees) + ", " +
                           std::to_string(o.overlap) + ", " + std::to_string(o.maxInfluences));
}

/// A boundary with its overlap: vertex distances within the overlap.
struct Overlap {
    AtlasBoundary boundary;
    double halfWidth = 0.0;                      ///< h = overlap · D.
    std::vector<std::pair<int, double>> near;    ///< (vertex, g) with g < h.
};

/// See "Regions are connected" in atlasWeights().
void mergeStrayPieces(int n, const VertexAdjacency& adj, std::vector<int>& proto)
{
    std::vector<int> piece(static_cast<size_t>(n), -1), size, stack;
    for (int s = 0; s < n; ++s) {
        if (piece[static_cast<size_t>(s)] >= 0)
            continue;
        const int id = static_cast<int>(size.size());
        size.push_back(0);
        piece[static_cast<size_t>(s)] = id;
        stack.assign(1, s);
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            ++size.back();
            for (int e = adj.start[static_cast<size_t>(v)]; e < adj.start[static_cast<size_t>(v) + 1]; ++e) {
                const int w = adj.nbr[static_cast<size_t>(e)];
                if (piece[static_cast<size_t>(w)] < 0 && proto[static_cast<size_t>(w)] == proto[static_cast<size_t>(s)]) {
                    piece[static_cast<size_t>(w)] = id;
                    stack.push_back(w);
                }
            }
        }
    }
    std::unordered_map<int, int> largest; // region -> its largest piece's size
    std::vector<int> regionOf(size.size());
    for (int v = 0; v < n; ++v) {
        regionOf[static_cast<size_t>(piece[static_cast<size_t>(v)])] = proto[static_cast<size_t>(v)];
        int& l = largest[proto[static_cast<size_t>(v)]];
        l = std::max(l, size[static_cast<size_t>(piece[static_cast<size_t>(v)])]);
    }
    std::vector<std::unordered_map<int, int>> votes(size.size());
    for (int v = 0; v < n; ++v)
        for (int e = adj.start[static_cast<size_t>(v)]; e < adj.start[static_cast<size_t>(v) + 1]; ++e) {
            const int w = adj.nbr[static_cast<size_t>(e)];
            if (piece[static_cast<size_t>(w)] != piece[static_cast<size_t>(v)])
                ++votes[static_cast<size_t>(piece[static_cast<size_t>(v)])][proto[static_cast<size_t>(w)]];
        }
    std::vector<int> to(size.size(), -1);
    for (size_t p = 0; p < size.size(); ++p) {
        if (votes[p].empty() || 10 * size[p] >= largest[regionOf[p]])
            continue; // a whole part, or a main piece
        int best = -1, count = 0;
        for (const auto& [region, c] : votes[p])
            if (c > count || (c == count && region < best)) {
                best = region;
                count = c;
            }
        to[p] = best;
    }
    for (int v = 0; v < n; ++v)
        if (const int t = to[static_cast<size_t>(piece[static_cast<size_t>(v)])]; t >= 0)
            proto[static_cast<size_t>(v)] = t;
}

} // namespace

std::vector<double> surfaceDistances(const Mesh& mesh, const std::vector<std::pair<int, double>>& seeds,
                                     double maxDistance)
{
    for (const auto& [v, d] : seeds)
        if (v < 0 || v >= mesh.vertexCount() || !(d >= 0.0) || !std::isfinite(d))
            throw InvalidInput("rig::surfaceDistances(): seed (" + std::to_string(v) + ", " + std::to_string(d) +
                               ") is out of range; vertices are in [0, " + std::to_string(mesh.vertexCount()) +
                               ") and distances finite and >= 0");
    if (mesh.F.rows() > 0 && (mesh.F.minCoeff() < 0 || mesh.F.maxCoeff() >= mesh.V.rows()))
        throw InvalidInput("rig::surfaceDistances(): a triangle refers to a vertex out of range");
    return march(mesh, vertexTriangles(mesh.vertexCount(), mesh.F), seeds, maxDistance);
}

AtlasWeightResult atlasWeights(const Mesh& mesh, const Skeleton& skeleton, const Segmentation& seg,
                               const AtlasWeightOptions& o)
{
    checkInput(mesh, skeleton, seg, o);
    const int n = mesh.vertexCount();
    const int J = skeleton.jointCount();
    const auto children = childrenOf(skeleton);
    const std::vector<int> limb = jointLimbs(skeleton);
    const VertexTriangles vt = vertexTriangles(n, mesh.F);

    // The proto-regions from the segmentation: a vertex on link c belongs to
    // the bone of parents[c] (the root's own region for c = 0 or -1).
    std::vector<int> proto(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int c = seg.bone[static_cast<size_t>(i)];
        proto[static_cast<size_t>(i)] = c <= 0 ? 0 : skeleton.parents[static_cast<size_t>(c)];
    }

    // 1. Boundaries, 3. their overlaps, 2. the regions near them.
    std::vector<Overlap> overlaps;
    for (int j = 1; j < J; ++j) {
        if (children[static_cast<size_t>(j)].size() >= 2 && limb[static_cast<size_t>(j)] < 0)
            continue; // a branching joint of the trunk (pelvis, chest): no plane (§3.1)
        const Vec3 joint = skeleton.bindPositions.row(j).transpose();
        // A cross-section of the limb at J, not of the body it passes
        // through: no wider than the two bones are long together.
        const double upperLength = (joint - Vec3(skeleton.bindPositions.row(skeleton.parents[static_cast<size_t>(j)]).transpose())).norm();
        const bool leaf = endsLimb(children, skeleton, j);
        double lowerLength = 0.0; // the longest bone out of J; a leaf's own bone
        for (int c : children[static_cast<size_t>(j)])
            lowerLength = std::max(lowerLength, (Vec3(skeleton.bindPositions.row(c).transpose()) - joint).norm());
        if (children[static_cast<size_t>(j)].empty())
            lowerLength = leaf ? leafReach(mesh, skeleton, seg, j) : 0.5 * upperLength;
        // The shortest curve; among those within 2% of it (a cylinder-like
        // limb gives many), the plane nearest the middle of the fan, so that
        // mirror-image joints choose mirror-image planes.
        const std::vector<Vec3> normals = candidateNormals(skeleton, children, j, o);
        std::vector<Curve> curves;
        double shortest = kInf;
        for (const Vec3& normal : normals) {
            curves.push_back(curveAround(mesh, joint, normal, upperLength + lowerLength));
            shortest = std::min(shortest, curves.back().perimeter);
        }
        Curve best;
        Vec3 bestNormal = Vec3::Zero();
        double bestOffCentre = kInf;
        const double middle = 0.5 * (o.planeCandidates - 1);
        for (size_t k = 0; k < curves.size(); ++k) {
            const double offCentre = std::abs(static_cast<double>(k % static_cast<size_t>(o.planeCandidates)) - middle);
            if (std::isfinite(shortest) && curves[k].perimeter <= 1.02 * shortest && offCentre < bestOffCentre) {
                bestOffCentre = offCentre;
                best = std::move(curves[k]);
                bestNormal = normals[k];
            }
        }
        if (!std::isfinite(best.perimeter) || !(best.diameter > 0.0))
            continue;
        Overlap ov;
        ov.boundary = {j, skeleton.parents[static_cast<size_t>(j)], bestNormal, best.perimeter, best.diameter};
        ov.halfWidth = o.overlap * best.diameter;
        // Seeds: the crossing triangles' corners at their distance to the curve.
        std::vector<std::pair<int, double>> seeds;
        for (size_t k = 0; k < best.triangles.size(); ++k)
            for (int c = 0; c < 3; ++c) {
                const int v = mesh.F(best.triangles[k], c);
                const Vec3 p = mesh.V.row(v).transpose();
                seeds.emplace_back(v, (closestPointOnSegment(p, best.segments[k].first, best.segments[k].second) - p).norm());
            }
        const std::vector<double> g = march(mesh, vt, seeds, ov.halfWidth);
        for (int i = 0; i < n; ++i)
            if (g[static_cast<size_t>(i)] < ov.halfWidth) {
                ov.near.emplace_back(i, g[static_cast<size_t>(i)]);
            }
        // The regions of the upper and the lower bone meet at the plane: a
        // vertex the segmentation put on the upper link (upper → J) or on a
        // link out of J goes to the side of the plane it lies on (not one on
        // another link out of the upper joint: the chest's other shoulder).
        // Within the curve's diameter of J too: a part the curve does not
        // reach (another shell: the players' torso around their legs' tops).
        for (int i = 0; i < n; ++i) {
            const int link = seg.bone[static_cast<size_t>(i)];
            const bool adjacent = link == j || (link > 0 && skeleton.parents[static_cast<size_t>(link)] == j);
            int& p = proto[static_cast<size_t>(i)];
            if (!adjacent || (p != j && p != ov.boundary.upper))
                continue;
            const Vec3 v = mesh.V.row(i).transpose();
            // Beyond a leaf's plane the whole of its link's skin is the leaf's
            // (a head beyond the skull's base), not only the band near it.
            if (g[static_cast<size_t>(i)] < ov.halfWidth || (v - joint).norm() < best.diameter || (leaf && link == j))
                p = bestNormal.dot(v - joint) >= 0.0 ? j : ov.boundary.upper;
        }
        overlaps.push_back(std::move(ov));
    }

    // Regions are connected (§3.2 grows them): a stray piece of a region
    // (a vertex the segmentation put on a far link), smaller than a tenth of
    // the region's largest piece and touching others, joins the region most
    // of its neighbours are in.
    mergeStrayPieces(n, vertexAdjacency(n, mesh.F), proto);

    // 4. Weights by eq. (1): per vertex, the regions across the boundaries it
    // is in the overlap of (the nearest boundary to each region).
    std::vector<std::vector<std::pair<int, double>>> across(static_cast<size_t>(n)); // (region, d_{proto,region})
    for (const Overlap& ov : overlaps)
        for (const auto& [i, g] : ov.near) {
            const int p = proto[static_cast<size_t>(i)];
            const int link = seg.bone[static_cast<size_t>(i)];
            if ((p != ov.boundary.joint && p != ov.boundary.upper) ||
                !(link == ov.boundary.joint || (link > 0 && skeleton.parents[static_cast<size_t>(link)] == ov.boundary.joint)))
                continue; // the vertex's region does not meet this boundary
            const int other = p == ov.boundary.joint ? ov.boundary.upper : ov.boundary.joint;
            const double d = (ov.halfWidth + g) / (2.0 * ov.halfWidth); // in [0.5, 1)
            auto& list = across[static_cast<size_t>(i)];
            const auto it = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == other; });
            if (it == list.end())
                list.emplace_back(other, d);
            else
                it->second = std::min(it->second, d);
        }
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(static_cast<size_t>(n) * 2);
    for (int i = 0; i < n; ++i) {
        const int p = proto[static_cast<size_t>(i)];
        const auto& list = across[static_cast<size_t>(i)];
        if (list.empty()) {
            triplets.emplace_back(i, p, 1.0);
            continue;
        }
        const double m = static_cast<double>(list.size()) + 1.0; // n related regions
        const double scale = 2.0 / (m * (m - 1.0));
        double own = 0.0;
        for (const auto& [r, d] : list)
            own += beta(d);
        triplets.emplace_back(i, p, scale * own);
        for (const auto& [r, d] : list)
            triplets.emplace_back(i, r, scale * (beta(1.0 - d) + (m - 2.0) * beta(0.5)));
    }
    Eigen::SparseMatrix<double> W(n, J);
    W.setFromTriplets(triplets.begin(), triplets.end());
    AtlasWeightResult result;
    result.weights = skinWeightsFromSparse(W, o.maxInfluences);
    for (Overlap& ov : overlaps)
        result.boundaries.push_back(ov.boundary);
    return result;
}

} // namespace rig
