#include "ui/viewport/picking.h"

#include <gtest/gtest.h>

namespace rig::ui {
namespace {

TEST(PickMeshVertex, HitsTheNearestTriangleAndReturnsItsClosestVertex)
{
    // Two parallel triangles at z = 0 and z = -1, seen from +z.
    MatrixX3d V(6, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, //
        0, 0, -1, 1, 0, -1, 0, 1, -1;
    MatrixX3i F(2, 3);
    F << 3, 4, 5, 0, 1, 2;
    const Ray ray{glm::vec3(0.8f, 0.1f, 5.0f), glm::vec3(0, 0, -1)};
    const auto v = pickMeshVertex(ray, V, F);
    ASSERT_TRUE(v);
    EXPECT_EQ(*v, 1); // the front triangle, its corner at (1, 0, 0)
}

TEST(PickMeshVertex, MissesOutsideAndBehind)
{
    MatrixX3d V(3, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0;
    MatrixX3i F(1, 3);
    F << 0, 1, 2;
    EXPECT_FALSE(pickMeshVertex({glm::vec3(2, 2, 5), glm::vec3(0, 0, -1)}, V, F));
    EXPECT_FALSE(pickMeshVertex({glm::vec3(0.2f, 0.2f, 5), glm::vec3(0, 0, 1)}, V, F)); // pointing away
    EXPECT_FALSE(pickMeshVertex({glm::vec3(0.2f, 0.2f, 5), glm::vec3(0, 0, -1)}, MatrixX3d(0, 3), MatrixX3i(0, 3)));
}

} // namespace
} // namespace rig::ui
