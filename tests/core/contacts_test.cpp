#include "core/skeleton/contacts.h"

#include "core/common/error.h"
#include "core/skeleton/extract.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace rig {
namespace {

/// A tube bent into a "C" around the z axis (major radius 1), whose two capped
/// ends meet at φ = 0 with a gap far below a voxel: one surface, closed, that
/// voxelizes into a ring (the solid fills the contact). The tube is 0.25 thick
/// but narrows to 0.13 opposite the contact (φ = π).
Mesh touchingC()
{
    const int rings = 120, around = 16;
    const double gap = 0.004; // radians between φ = 0 and each end: 0.01 at the outer rim
    auto minor = [](double phi) { return 0.25 - 0.12 * std::exp(-std::pow((phi - std::numbers::pi) / 0.3, 2)); };
    Mesh m;
    m.V.resize(rings * around + 2, 3);
    for (int i = 0; i < rings; ++i) {
        const double phi = gap + (2 * std::numbers::pi - 2 * gap) * i / (rings - 1);
        const Vec3 c(std::cos(phi), std::sin(phi), 0), out = c, up(0, 0, 1);
        for (int k = 0; k < around; ++k) {
            const double t = 2 * std::numbers::pi * k / around;
            m.V.row(i * around + k) = (c + minor(phi) * (std::cos(t) * out + std::sin(t) * up)).transpose();
        }
    }
    const int first = rings * around, last = first + 1;
    m.V.row(first) << std::cos(gap), std::sin(gap), 0;
    m.V.row(last) << std::cos(gap), -std::sin(gap), 0;
    std::vector<Vec3i> F;
    for (int i = 0; i + 1 < rings; ++i)
        for (int k = 0; k < around; ++k) {
            const int a = i * around + k, b = i * around + (k + 1) % around;
            F.emplace_back(a, a + around, b + around);
            F.emplace_back(a, b + around, b);
        }
    for (int k = 0; k < around; ++k) {
        F.emplace_back(first, (k + 1) % around, k);
        F.emplace_back(last, (rings - 1) * around + k, (rings - 1) * around + (k + 1) % around);
    }
    m.F.resize(static_cast<Eigen::Index>(F.size()), 3);
    for (size_t f = 0; f < F.size(); ++f)
        m.F.row(static_cast<Eigen::Index>(f)) = F[f].transpose();
    return m;
}

double angleOf(const Eigen::RowVector3d& p) { return std::atan2(p.y(), p.x()); }

TEST(Contacts, TheEndsOfATouchingCAreAContactItsNarrowingIsNot)
{
    const Mesh m = touchingC();
    CurveSkeletonOptions o;
    o.voxelize.resolution = 80;
    const CurveSkeletonResult r = extractCurveSkeleton(m, o);
    ASSERT_EQ(r.raw.loopCount, 1) << "the solid closes the C into a ring";
    const std::vector<char> contact = contactNodes(r.raw, m, r.solid.voxelSize);
    int atEnds = 0, elsewhere = 0;
    for (int i = 0; i < r.raw.nodeCount(); ++i) {
        if (!contact[static_cast<size_t>(i)])
            continue;
        (std::abs(angleOf(r.raw.positions.row(i))) < 0.5 ? atEnds : elsewhere) += 1;
    }
    EXPECT_GT(atEnds, 0);
    EXPECT_EQ(elsewhere, 0);
    EXPECT_THROW(contactNodes(r.raw, m, 0.0), InvalidInput);
}

/// Cut at its thinnest place (the rule before contacts), the ring would open
/// opposite the contact and join the C's two ends; cut at the contact, the
/// skeleton is the C itself: its two ends at φ = 0, the narrowing inside.
TEST(Contacts, TheRefinedSkeletonOfATouchingCEndsWhereItsEndsTouch)
{
    const Mesh m = touchingC();
    CurveSkeletonOptions o;
    o.voxelize.resolution = 80;
    const CurveSkeleton& s = extractCurveSkeleton(m, o).refined;
    ASSERT_EQ(s.loopCount, 0);
    const std::vector<int> ends = s.nodesOf(NodeType::End);
    ASSERT_EQ(ends.size(), 2u);
    for (int e : ends)
        EXPECT_LT(std::abs(angleOf(s.positions.row(e))), 0.6) << "end node at φ = " << angleOf(s.positions.row(e));
}

} // namespace
} // namespace rig
