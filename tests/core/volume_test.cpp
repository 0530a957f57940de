#include "core/mesh/volume.h"

#include "core/common/error.h"
#include "tests/support/meshes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace rig {
namespace {

TEST(Volume, InvalidFacesAreRejected)
{
    Mesh m = test::boxMesh(Vec3(0, 0, 0), Vec3(1, 1, 1));
    m.F(3, 1) = 8;
    EXPECT_THROW(signedVolume(m), InvalidInput);
    m.F(3, 1) = -1;
    EXPECT_THROW(signedVolume(m), InvalidInput);
    EXPECT_EQ(signedVolume(MatrixX3d(), MatrixX3i()), 0.0);
}

TEST(Volume, BoxIsTheProductOfItsSidesAnywhere)
{
    const Mesh m = test::boxMesh(Vec3(-1, 2, 3), Vec3(1, 5, 7));
    EXPECT_NEAR(signedVolume(m), 2.0 * 3.0 * 4.0, 1e-12);
    const Mesh far = test::boxMesh(Vec3(1e4, 1e4, 1e4), Vec3(1e4 + 2, 1e4 + 3, 1e4 + 4));
    EXPECT_NEAR(signedVolume(far), 24.0, 1e-6);
    // Inside out: negative.
    Mesh flipped = m;
    flipped.F.col(1).swap(flipped.F.col(2));
    EXPECT_NEAR(signedVolume(flipped), -24.0, 1e-12);
}

TEST(Volume, CapsuleApproachesCylinderPlusSphere)
{
    const double r = 0.5, L = 2.0;
    const double exact = std::numbers::pi * r * r * L + 4.0 / 3.0 * std::numbers::pi * r * r * r;
    const Mesh coarse = test::capsuleMesh(Vec3(0, 0, 0), Vec3(0, L, 0), r, 24, 8);
    const Mesh fine = test::capsuleMesh(Vec3(1, 2, 3), Vec3(1, 2, 3 + L), r, 128, 32);
    const double vc = signedVolume(coarse), vf = signedVolume(fine);
    EXPECT_LT(vc, exact); // inscribed polygons
    EXPECT_LT(vf, exact);
    EXPECT_NEAR(vc, exact, 0.03 * exact);
    EXPECT_NEAR(vf, exact, 0.002 * exact);
}

} // namespace
} // namespace rig
