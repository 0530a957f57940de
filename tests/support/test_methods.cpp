#include "tests/support/test_methods.h"

#include "core/common/segment.h"

#include "core/deform/deformers.h"
#include "core/skin/weight_methods.h"

#include <algorithm>
#include <limits>
#include <memory>

namespace rig::test {
namespace {

struct TestRigidOptions {
    double reach = 0.5; ///< Stored and round-tripped; not used by the computation.
};

/// Distance from p to the segment a–b.
double segmentDistance(const Vec3& p, const Vec3& a, const Vec3& b) { return (p - closestPointOnSegment(p, a, b)).norm(); }

WeightMethodResult nearestBone(const WeightMethodInput& in, const TestRigidOptions&)
{
    const Skeleton& s = in.skeleton;
    const int n = in.mesh.vertexCount();
    WeightMethodResult r;
    r.weights.maxInfluences = 1;
    r.weights.joints.resize(n, 1);
    r.weights.weights.setOnes(n, 1);
    for (int i = 0; i < n; ++i) {
        const Vec3 p = in.mesh.V.row(i).transpose();
        double best = std::numeric_limits<double>::infinity();
        for (int j = 1; j < s.jointCount(); ++j) {
            const int parent = s.parents[static_cast<size_t>(j)];
            const double d = segmentDistance(p, s.bindPositions.row(parent).transpose(), s.bindPositions.row(j).transpose());
            if (d < best) {
                best = d;
                r.weights.joints(i, 0) = parent; // the bone from the parent moves with the parent
            }
        }
    }
    return r;
}

/// Each vertex rigidly with its most-weighted joint (slot 0 of a sorted binding).
class RigidDeformer : public BoundDeformer {
public:
    RigidDeformer(const DeformerInput& in) : m_skeleton(in.skeleton), m_rest(in.mesh.V), m_normals(in.mesh.N)
    {
        m_joint.resize(static_cast<size_t>(in.weights.vertexCount()));
        for (int i = 0; i < in.weights.vertexCount(); ++i) {
            int best = 0;
            for (int k = 1; k < in.weights.maxInfluences; ++k)
                if (in.weights.weights(i, k) > in.weights.weights(i, best))
                    best = k;
            m_joint[static_cast<size_t>(i)] = in.weights.joints(i, best);
        }
    }
    void deform(const Pose& pose, std::span<const double>, SkinnedMesh& out, const SkinningOptions&) const override
    {
        const PosedSkeleton posed = forwardKinematics(m_skeleton, pose);
        out.vertices.resize(m_joint.size());
        for (size_t i = 0; i < m_joint.size(); ++i) {
            const Eigen::Isometry3d& M = posed.skinning[static_cast<size_t>(m_joint[i])];
            const Vec3 p = M * Vec3(m_rest.row(Eigen::Index(i)).transpose());
            const Vec3 nrm = hasNormals() ? Vec3(M.linear() * m_normals.row(Eigen::Index(i)).transpose()) : Vec3::Zero();
            out.vertices[i] = {{float(p.x()), float(p.y()), float(p.z()), 1.0f},
                               {float(nrm.x()), float(nrm.y()), float(nrm.z()), 0.0f}};
        }
    }
    int vertexCount() const override { return static_cast<int>(m_joint.size()); }
    bool hasNormals() const override { return m_normals.rows() == m_rest.rows(); }

private:
    Skeleton m_skeleton;
    MatrixX3d m_rest, m_normals;
    std::vector<int> m_joint;
};

} // namespace

void registerTestMethods()
{
    static const bool once = [] {
        ParameterSet<TestRigidOptions> p;
        p.add(numberParameter("reach", "Reach", "A test parameter (round trips only)", 0.0, 2.0, 2), &TestRigidOptions::reach);
        registerWeightMethod(makeWeightMethod<TestRigidOptions>(testMethodId, "Rigid nearest bone (test only)",
                                                                "tests/support/test_methods.h", false, p,
                                                                nearestBone));
        DeformerInfo d;
        d.id = testDeformerId;
        d.title = "Rigid (test only)";
        d.shortTitle = "TestRigid";
        d.reference = "tests/support/test_methods.h";
        d.bind = [](const DeformerInput& in) { return std::make_unique<RigidDeformer>(in); };
        registerDeformer(std::move(d));
        return true;
    }();
    (void)once;
}

} // namespace rig::test
