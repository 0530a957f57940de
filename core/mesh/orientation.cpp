#include "core/mesh/orientation.h"

#include "core/common/error.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

namespace rig {
namespace {

/// Vertices and triangle centroids: a low-poly limb still fills its cells. A
/// dense mesh gives every k-th of each, about `kMaxSamples` in all: the tests
/// read a 24-cell grid and slabs of 4-15 % of the height, which ten thousand
/// surface points fill (up and front of the 154k-vertex bench mesh took 28 ms
/// from all its 462k points, 1.6 ms now; 0.65 ms at 17k, 0.5 ms at 4k).
constexpr Eigen::Index kMaxSamples = 10000;

/// The stride that takes about `kMaxSamples` of n items (1 for fewer).
Eigen::Index sampleStep(Eigen::Index n)
{
    return std::max<Eigen::Index>(1, (n + kMaxSamples - 1) / kMaxSamples);
}

std::vector<Vec3> samplePoints(const Mesh& mesh)
{
    const Eigen::Index n = mesh.V.rows() + mesh.F.rows();
    const Eigen::Index step = sampleStep(n);
    std::vector<Vec3> p;
    p.reserve(static_cast<size_t>(n / step + 2));
    for (Eigen::Index i = 0; i < mesh.V.rows(); i += step)
        p.push_back(mesh.V.row(i).transpose());
    for (Eigen::Index f = 0; f < mesh.F.rows(); f += step)
        p.push_back((mesh.V.row(mesh.F(f, 0)) + mesh.V.row(mesh.F(f, 1)) + mesh.V.row(mesh.F(f, 2))).transpose() / 3.0);
    return p;
}

Box3 boxOf(const std::vector<Vec3>& p)
{
    Box3 b;
    for (const Vec3& x : p)
        b.extend(x);
    return b;
}

/// The occupied cells of a grid over the points' box, 24 cells along its
/// longest side (built once per detection; each axis's mirror test reads it),
/// as flags over the grid (at most 25³) and the list of the occupied ones.
struct OccupiedCells {
    std::vector<char> flags;
    Eigen::Vector3i dims = Eigen::Vector3i::Ones();   ///< Flag grid size (one more than `extent`: a point on the box's far side).
    std::vector<Eigen::Vector3i> cells;
    Eigen::Vector3i extent = Eigen::Vector3i::Ones(); ///< Cells along each axis.

    size_t index(const Eigen::Vector3i& i) const { return static_cast<size_t>((i.x() * dims.y() + i.y()) * dims.z() + i.z()); }
    bool occupied(const Eigen::Vector3i& i) const
    {
        return (i.array() >= 0).all() && (i.array() < dims.array()).all() && flags[index(i)] != 0;
    }
};

OccupiedCells occupiedCells(const std::vector<Vec3>& p, const Box3& box)
{
    OccupiedCells g;
    const double cell = std::max(box.size().maxCoeff(), 1e-300) / 24.0;
    for (int a = 0; a < 3; ++a)
        g.extent(a) = std::max(1, static_cast<int>(std::ceil(box.size()(a) / cell)));
    g.dims = g.extent.array() + 1;
    g.flags.assign(static_cast<size_t>(g.dims.prod()), 0);
    for (const Vec3& x : p) {
        const Eigen::Vector3i i = ((x - box.min) / cell).array().floor().cast<int>().cwiseMax(0).cwiseMin(g.dims.array() - 1);
        char& f = g.flags[g.index(i)];
        if (!f) {
            f = 1;
            g.cells.push_back(i);
        }
    }
    return g;
}

/// Fraction of the occupied cells whose mirror image across a plane normal
/// to `axis` is occupied too, for the best such plane between a quarter and
/// three quarters of the box's extent (half-cell steps): a body's midline,
/// wherever the box's middle is (an arm reaching out to one side moves the
/// middle off the midline: the generated character reaching forward scored
/// 0.18 across the box's middle, and its head-to-foot axis, 0.58, was taken
/// for left-right).
double mirrorSymmetry(const OccupiedCells& g, int axis)
{
    const int n = g.extent(axis);
    double best = 0.0;
    for (int twice = n / 2; twice <= (3 * n + 1) / 2; ++twice) { // the plane at twice / 2 cells from the box's start
        int both = 0;
        for (Eigen::Vector3i i : g.cells) {
            i(axis) = twice - 1 - i(axis);
            both += g.occupied(i);
        }
        best = std::max(best, double(both) / double(std::max<size_t>(1, g.cells.size())));
    }
    return best;
}

/// The points whose height along `up` is within [lo, hi] of the extent (fractions from the bottom).
std::vector<Vec3> slab(const std::vector<Vec3>& p, const Vec3& up, double bottom, double height, double lo, double hi)
{
    std::vector<Vec3> out;
    for (const Vec3& x : p) {
        const double t = (x.dot(up) - bottom) / height;
        if (t >= lo && t <= hi)
            out.push_back(x);
    }
    return out;
}

double meanAlong(const std::vector<Vec3>& p, const Vec3& axis)
{
    double s = 0.0;
    for (const Vec3& x : p)
        s += x.dot(axis);
    return p.empty() ? 0.0 : s / double(p.size());
}

/// Separate blobs of `p` along `axis`: gaps wider than `gap` split them.
int clustersAlong(const std::vector<Vec3>& p, const Vec3& axis, double gap)
{
    if (p.empty())
        return 0;
    std::vector<double> x;
    x.reserve(p.size());
    for (const Vec3& q : p)
        x.push_back(q.dot(axis));
    std::sort(x.begin(), x.end());
    int n = 1;
    for (size_t k = 1; k < x.size(); ++k)
        n += x[k] - x[k - 1] > gap;
    return n;
}

/// Every k-th triangle (about `kMaxSamples`): centroid, area and unit normal.
struct TriangleSample {
    std::vector<Vec3> centroid, normal;
    std::vector<double> area;
    double totalArea = 0.0;
};

TriangleSample triangleSample(const Mesh& mesh)
{
    TriangleSample t;
    const Eigen::Index step = sampleStep(mesh.F.rows());
    for (Eigen::Index f = 0; f < mesh.F.rows(); f += step) {
        const Vec3 a = mesh.V.row(mesh.F(f, 0)).transpose(), b = mesh.V.row(mesh.F(f, 1)).transpose(),
                   c = mesh.V.row(mesh.F(f, 2)).transpose();
        const Vec3 n = (b - a).cross(c - a);
        const double area = 0.5 * n.norm();
        t.centroid.push_back((a + b + c) / 3.0);
        t.normal.push_back(area > 0.0 ? Vec3(n / (2.0 * area)) : Vec3::Zero());
        t.area.push_back(area);
        t.totalArea += area;
    }
    return t;
}

/// The weights of the up score (see the header): per feature, fitted by
/// multinomial logistic regression over the four candidates of rignet-val's
/// 270 characters (bench/notes/orientation.md), divided by the temperature 1.6
/// that leaves no wrong answer at confidence 0.9 there and 97 % right at 0.5.
constexpr double kWeightContacts = 122.5; ///< Ground contacts within 0.3 % of the longest side.
constexpr double kWeightNearContacts = 17.7; ///< Ground contacts within 1 %.
constexpr double kWeightFlat = 2.63;      ///< Flat area at the bottom.
constexpr double kWeightCentroid = 0.96;  ///< The surface's centroid above the middle.
constexpr double kWeightAsymmetry = 2.64; ///< Less mirror-symmetric across up than across the front axis.
constexpr double kWeightLength = 0.143;   ///< Longer along up than front to back.

/// One of the four candidate ups (the two signed axes other than left-right):
/// its features, bottom minus top, and its score.
struct UpCandidate {
    Vec3 up = Vec3::UnitY();
    double contactsBelow = 0.0, contactsAbove = 0.0; ///< Fractions of the vertices within 0.3 % of the longest side.
    double flatBelow = 0.0, flatAbove = 0.0;         ///< Fractions of the area in the end 1 %, facing the end.
    double score = 0.0;
    double probability = 0.0;
};

/// The features and score of `up` (see the header) over `vertices` (every k-th
/// vertex of a dense mesh) and `tris`; `asymmetry` is the mirror
/// symmetry across the front axis minus that across up, `length` the extent
/// along up minus that along the front axis over the longest side.
UpCandidate upCandidate(const std::vector<Vec3>& vertices, const TriangleSample& tris, const Box3& box, const Vec3& up,
                        double asymmetry, double length)
{
    UpCandidate c;
    c.up = up;
    const double longest = std::max(box.size().maxCoeff(), 1e-300);
    // The ends too are those of the vertices counted (`vertices`, every k-th of a dense mesh).
    double lo = 1e300, hi = -1e300;
    for (const Vec3& v : vertices) {
        lo = std::min(lo, v.dot(up));
        hi = std::max(hi, v.dot(up));
    }
    const double h = std::max(hi - lo, 1e-300);
    // Ground contacts: vertices on the lowest plane (soles, paws, a base),
    // against those on the highest (a head's top is one point).
    int below3 = 0, above3 = 0, below10 = 0, above10 = 0;
    const int n = std::max<int>(1, static_cast<int>(vertices.size()));
    for (const Vec3& v : vertices) {
        const double x = v.dot(up);
        below3 += x - lo < 0.003 * longest;
        above3 += hi - x < 0.003 * longest;
        below10 += x - lo < 0.01 * longest;
        above10 += hi - x < 0.01 * longest;
    }
    c.contactsBelow = double(below3) / n;
    c.contactsAbove = double(above3) / n;
    const double cos25 = std::cos(25.0 * std::numbers::pi / 180.0);
    double flatLow = 0.0, flatHigh = 0.0, moment = 0.0;
    for (size_t f = 0; f < tris.area.size(); ++f) {
        const double t = (tris.centroid[f].dot(up) - lo) / h;
        moment += tris.area[f] * t;
        // Either winding: a sole seen from below faces outward, its other side (double-sided meshes) too.
        const bool flat = std::abs(tris.normal[f].dot(up)) > cos25;
        flatLow += flat && t <= 0.01 ? tris.area[f] : 0.0;
        flatHigh += flat && t >= 0.99 ? tris.area[f] : 0.0;
    }
    const double area = std::max(tris.totalArea, 1e-300);
    c.flatBelow = flatLow / area;
    c.flatAbove = flatHigh / area;
    c.score = kWeightContacts * (c.contactsBelow - c.contactsAbove) +
              kWeightNearContacts * double(below10 - above10) / n + kWeightFlat * (c.flatBelow - c.flatAbove) +
              kWeightCentroid * (moment / area - 0.5) + kWeightAsymmetry * asymmetry + kWeightLength * length;
    return c;
}

bool isSignedAxis(const Vec3& a)
{
    return a.allFinite() && std::abs(a.norm() - 1.0) < 1e-9 && (a.array().abs() > 1.0 - 1e-9).count() == 1;
}

std::string fmt(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

} // namespace

std::optional<Vec3> parseSignedAxis(std::string_view text)
{
    std::string t;
    for (char c : text)
        t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (t.size() == 1)
        t = "+" + t;
    if (t.size() != 2 || (t[0] != '+' && t[0] != '-') || t[1] < 'x' || t[1] > 'z')
        return std::nullopt;
    Vec3 a = Vec3::Zero();
    a(t[1] - 'x') = t[0] == '+' ? 1.0 : -1.0;
    return a;
}

std::string signedAxisName(const Vec3& axis)
{
    Eigen::Index k = 0;
    axis.cwiseAbs().maxCoeff(&k);
    return std::string(axis(k) < 0 ? "-" : "+") + static_cast<char>('x' + k);
}

UpGuess detectUp(const Mesh& mesh)
{
    if (mesh.V.rows() == 0)
        throw InvalidInput("rig::detectUp(): the mesh has no vertices");
    const std::vector<Vec3> p = samplePoints(mesh);
    const Box3 box = boxOf(p);
    const OccupiedCells grid = occupiedCells(p, box);
    std::array<double, 3> sym{};
    for (int a = 0; a < 3; ++a)
        sym[static_cast<size_t>(a)] = mirrorSymmetry(grid, a);
    const int lr = static_cast<int>(std::max_element(sym.begin(), sym.end()) - sym.begin());
    const std::array<int, 2> axes{(lr + 1) % 3, (lr + 2) % 3};
    const TriangleSample tris = triangleSample(mesh);
    std::vector<Vec3> vertices; // every k-th, about `kMaxSamples`, contiguous for the four candidates' passes
    vertices.reserve(static_cast<size_t>(kMaxSamples + 1));
    for (Eigen::Index i = 0; i < mesh.V.rows(); i += sampleStep(mesh.V.rows()))
        vertices.push_back(mesh.V.row(i).transpose());

    std::array<UpCandidate, 4> c;
    for (size_t k = 0; k < 4; ++k) {
        const int axis = axes[k / 2], other = axes[1 - k / 2];
        c[k] = upCandidate(vertices, tris, box, (k % 2 ? -1.0 : 1.0) * Vec3::Unit(axis),
                           sym[static_cast<size_t>(other)] - sym[static_cast<size_t>(axis)],
                           (box.size()(axis) - box.size()(other)) / std::max(box.size().maxCoeff(), 1e-300));
    }
    double top = -1e300;
    for (const UpCandidate& x : c)
        top = std::max(top, x.score);
    double sum = 0.0;
    for (UpCandidate& x : c)
        sum += x.probability = std::exp(x.score - top);
    for (UpCandidate& x : c)
        x.probability /= sum;
    std::array<size_t, 4> order{0, 1, 2, 3};
    std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return c[i].probability > c[j].probability; });
    const UpCandidate& best = c[order[0]];

    UpGuess g;
    g.leftRight = Vec3::Unit(lr);
    g.up = best.up;
    g.confidence = std::clamp(best.probability, 0.0, 1.0);
    g.reason = "mirror axis " + signedAxisName(g.leftRight).substr(1) + " (symmetry " + fmt(sym[0]) + "/" + fmt(sym[1]) +
               "/" + fmt(sym[2]) + " for x/y/z); up " + signedAxisName(best.up) + ": ground contacts " +
               fmt(100.0 * best.contactsBelow) + "% of the vertices vs " + fmt(100.0 * best.contactsAbove) +
               "% at the top, flat area " + fmt(100.0 * best.flatBelow) + "% vs " + fmt(100.0 * best.flatAbove) +
               "% of the surface; then " + signedAxisName(c[order[1]].up) + " (" + fmt(c[order[1]].probability) + "), " +
               signedAxisName(c[order[2]].up) + " (" + fmt(c[order[2]].probability) + ")";
    return g;
}

FrontGuess detectFront(const Mesh& mesh, const Vec3& up)
{
    if (mesh.V.rows() == 0)
        throw InvalidInput("rig::detectFront(): the mesh has no vertices");
    if (!isSignedAxis(up))
        throw InvalidInput("rig::detectFront(): up must be one of the six coordinate axes");
    const std::vector<Vec3> p = samplePoints(mesh);
    double bottom = 1e300, top = -1e300;
    for (const Vec3& x : p) {
        bottom = std::min(bottom, x.dot(up));
        top = std::max(top, x.dot(up));
    }
    const double h = std::max(top - bottom, 1e-300);
    // The two horizontal axes; the front is along the less symmetric (the
    // mirror axis is left-right).
    const Box3 box = boxOf(p);
    Eigen::Index upAxis = 0;
    up.cwiseAbs().maxCoeff(&upAxis);
    const int a1 = (static_cast<int>(upAxis) + 1) % 3, a2 = (static_cast<int>(upAxis) + 2) % 3;
    // Left-right is the axis across which the feet are two blobs (a body is
    // thin front to back, so across the best plane it is nearly as
    // symmetric front to back as left to right: the generated character
    // reaching forward, 0.82 and 0.83); else the more symmetric.
    const std::vector<Vec3> soles = slab(p, up, bottom, h, 0.0, 0.06);
    const bool two1 = clustersAlong(soles, Vec3::Unit(a1), 0.03 * h) == 2;
    const bool two2 = clustersAlong(soles, Vec3::Unit(a2), 0.03 * h) == 2;
    auto lessSymmetric = [&] {
        const OccupiedCells grid = occupiedCells(p, box);
        return mirrorSymmetry(grid, a1) >= mirrorSymmetry(grid, a2) ? a2 : a1;
    };
    const int frontAxis = two1 != two2 ? (two1 ? a2 : a1) : lessSymmetric();
    const Vec3 axis = Vec3::Unit(frontAxis);

    FrontGuess g;
    g.twoFeet = two1 != two2;
    const double feet = meanAlong(soles, axis);
    const double ankles = meanAlong(slab(p, up, bottom, h, 0.06, 0.11), axis);
    const double shins = meanAlong(slab(p, up, bottom, h, 0.15, 0.30), axis);
    // Toes ahead of the shins; where the shins lean far from the ankles (bent
    // knees: the generated character's knees-bent pose, whose shins are 8 %
    // of the height ahead of its ankles, read "toes behind"), the forefoot
    // (lowest 4 %) ahead of the ankle above it (4-8 %).
    const bool bentLegs = std::abs(shins - ankles) / h > 0.03;
    const double toes = bentLegs ? (meanAlong(slab(p, up, bottom, h, 0.0, 0.04), axis) -
                                    meanAlong(slab(p, up, bottom, h, 0.04, 0.08), axis)) / h
                                 : (feet - shins) / h;
    const double head = meanAlong(slab(p, up, bottom, h, 0.88, 1.0), axis);
    const double neck = meanAlong(slab(p, up, bottom, h, 0.80, 0.86), axis);
    const double nose = (head - neck) / h;
    double signal = toes;
    std::string by = bentLegs ? "toes (legs bent)" : "toes";
    if (std::abs(toes) < 0.01 && std::abs(nose) > std::abs(toes)) {
        signal = nose;
        by = "face";
    }
    g.front = signal >= 0.0 ? axis : Vec3(-axis);
    g.confidence = std::clamp(std::abs(signal) / 0.03, 0.0, 1.0);
    g.reason = by + " point to " + signedAxisName(g.front) + " (feet " + fmt(100.0 * toes) + "%, head " +
               fmt(100.0 * nose) + "% of the height ahead along " + signedAxisName(axis) + ")";
    return g;
}

Eigen::Matrix3d frameRotation(const Vec3& up, const Vec3& front)
{
    if (!isSignedAxis(up) || !isSignedAxis(front) || std::abs(up.dot(front)) > 1e-9)
        throw InvalidInput("rig::frameRotation(): up and front must be orthogonal coordinate axes");
    Eigen::Matrix3d R;
    R.row(0) = up.cross(front).transpose();
    R.row(1) = up.transpose();
    R.row(2) = front.transpose();
    return R;
}

} // namespace rig
