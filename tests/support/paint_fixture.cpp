#include "tests/support/paint_fixture.h"

#include "core/character/humanoid.h"
#include "core/common/segment.h"
#include "tests/support/skeletons.h"

#include <algorithm>

namespace rig::test {
namespace {

PaintCharacter makePaintCharacter()
{
    const Humanoid h = generateHumanoid();
    PaintCharacter c;
    c.mesh = h.mesh;
    c.skeleton = groundTruthSkeleton(h);
    const auto children = childrenOf(c.skeleton);
    const int n = c.mesh.vertexCount(), joints = c.skeleton.jointCount();
    Eigen::MatrixXd W(n, joints);
    for (int v = 0; v < n; ++v)
        for (int j = 0; j < joints; ++j) {
            const Vec3 a = c.skeleton.bindPositions.row(j).transpose();
            const Vec3 b = children[static_cast<size_t>(j)].empty()
                               ? a
                               : Vec3(c.skeleton.bindPositions.row(children[static_cast<size_t>(j)].front()).transpose());
            const Vec3 p = c.mesh.V.row(v).transpose();
            const double d = (p - closestPointOnSegment(p, a, b)).norm() + 1e-3;
            W(v, j) = 1.0 / (d * d * d * d);
        }
    c.weights = skinWeightsFromDense(W, 4);
    return c;
}

} // namespace

const PaintCharacter& paintCharacter()
{
    static const PaintCharacter c = makePaintCharacter();
    return c;
}

} // namespace rig::test
