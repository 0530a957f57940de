#include "core/motion/retarget_rest.h"

#include <Eigen/SVD>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

namespace rig::retarget {
namespace {

using Quat = Eigen::Quaterniond;

// The rotation that best turns the unit vectors `from` onto `to` (Kabsch).
Quat kabsch(const std::vector<Vec3>& from, const std::vector<Vec3>& to)
{
    Eigen::Matrix3d h = Eigen::Matrix3d::Zero();
    for (size_t k = 0; k < from.size(); ++k)
        h += from[k] * to[k].transpose();
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(h, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
    d(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
    return Quat(svd.matrixV() * d * svd.matrixU().transpose()).normalized();
}

int firstSource(const JointRetarget& j)
{
    int f = std::numeric_limits<int>::max();
    for (const auto& s : j.sources)
        f = std::min(f, s.joint);
    return f;
}

int lastSource(const JointRetarget& j)
{
    int f = -1;
    for (const auto& s : j.sources)
        f = std::max(f, s.joint);
    return f;
}

bool sameSources(const JointRetarget& a, const JointRetarget& b)
{
    if (a.sources.size() != b.sources.size())
        return false;
    for (size_t k = 0; k < a.sources.size(); ++k)
        if (a.sources[k].joint != b.sources[k].joint)
            return false;
    return true;
}

// The body's frame at the pelvis or the chest: columns the lateral axis (the
// left limb's root minus the right one's: hip or shoulder joints, made
// horizontal), up (+Y: rest poses stand upright) and their cross product
// (the front). Nullopt without both limbs, when they are not side by side, or
// when the rest pose does not stand upright (the spine, pelvis → chest → head,
// more than 45° from +Y).
std::optional<Eigen::Matrix3d> bodyFrame(const Rest& r, bool pelvis)
{
    const BodyStructure& b = r.body;
    const std::array<BodyLimb, 2>& limbs = pelvis ? b.legs : b.arms;
    if (limbs[0].root < 0 || limbs[1].root < 0 || b.pelvis < 0 || b.head < 0)
        return std::nullopt;
    const Vec3 up = Vec3::UnitY(), spine = r.at(b.head) - r.at(b.pelvis);
    if (!(spine.dot(up) > std::cos(std::numbers::pi / 4.0) * spine.norm()))
        return std::nullopt;
    Vec3 lateral = r.at(limbs[0].root) - r.at(limbs[1].root);
    lateral -= lateral.dot(up) * up;
    if (lateral.norm() <= 1e-9 * std::max(1.0, r.positions.cwiseAbs().maxCoeff()))
        return std::nullopt;
    lateral.normalize();
    Eigen::Matrix3d f;
    f << lateral, up, lateral.cross(up);
    return f;
}

// The rest offset of the target's pelvis or chest from the two bodies' frames
// (RetargetOptions::branchRestFromBody), nullopt for other joints or when a
// frame is missing: only the heading (the turn about the vertical that lines
// up the two left-right axes). The bones from a branch joint to its limbs
// depend on where the artist put that joint (a pelvis below the hip joints
// turns them upwards), so they are not matched one by one.
std::optional<Quat> bodyRestOffset(int joint, const Rest& tr, const Rest& sr)
{
    const bool pelvis = joint == tr.body.pelvis;
    if (!pelvis && joint != tr.body.chest)
        return std::nullopt;
    const auto t = bodyFrame(tr, pelvis), s = bodyFrame(sr, pelvis);
    if (!t || !s)
        return std::nullopt;
    return Quat(Eigen::Matrix3d(*s * t->transpose())).normalized();
}

bool isAnkle(const Rest& r, int joint)
{
    return joint == r.body.legs[0].end || joint == r.body.legs[1].end;
}

// A standing rest pose has both feet flat on the ground; how steeply the line
// from the ankle joint to the toe joint falls is where each skeleton puts those
// joints (Cesium Man's artist put the ankle high above a toe joint under the
// instep, 64° below the horizontal; ours sits at the heel's height, 13°), not
// a pose. Matching it turned the foot heel-up by the difference: Cesium Man's
// own walk on its auto rig lifted the planted foot's ankle 0.07 of the height
// above the artist's. So the foot's offset only turns it about the vertical:
// its bones are levelled (a bone with almost no horizontal extent, whose
// heading says nothing, is left out).
void levelFootBones(std::vector<Vec3>& from, std::vector<Vec3>& to)
{
    constexpr double minHorizontal = 0.1;
    std::vector<Vec3> f, t;
    for (size_t k = 0; k < from.size(); ++k) {
        const Vec3 a(from[k].x(), 0.0, from[k].z()), b(to[k].x(), 0.0, to[k].z());
        if (a.norm() > minHorizontal && b.norm() > minHorizontal) {
            f.push_back(a.normalized());
            t.push_back(b.normalized());
        }
    }
    from = std::move(f);
    to = std::move(t);
}

// The target joints below `i` where the source changes: descendants reached
// through joints driven by the same sources as `i`, whose own sources differ.
std::vector<int> spanEnds(const RetargetMapping& m, const Rest& tr, int i)
{
    std::vector<int> ends, stack = tr.children[static_cast<size_t>(i)];
    while (!stack.empty()) {
        const int c = stack.back();
        stack.pop_back();
        const JointRetarget& jc = m.joints[static_cast<size_t>(c)];
        if (sameSources(jc, m.joints[static_cast<size_t>(i)]))
            stack.insert(stack.end(), tr.children[static_cast<size_t>(c)].begin(), tr.children[static_cast<size_t>(c)].end());
        else if (!jc.sources.empty())
            ends.push_back(c);
    }
    return ends;
}

// Where several target joints share one source joint s (the target has a
// clavicle or a neck the source has not), the source bone s -> e, e the source
// of target joint c, spans the target from one of them to c. Its owner is the
// one whose distance to c is nearest the source bone's length (times the
// height ratio `scale`): the chest where the source goes from the chest
// straight to the upper arm, the upper arm where the source's upper-arm joint
// also drives the target's clavicle. Only the owner matches its bone to s -> e;
// the others continue their parent's offset, which keeps them where the bind
// pose has them instead of turning them by where the two skeletons put s.
int spanOwner(const RetargetMapping& m, const Rest& tr, const Rest& sr, int c, double scale)
{
    const int p = tr.parents[static_cast<size_t>(c)];
    const JointRetarget& jp = m.joints[static_cast<size_t>(p)];
    const double want = scale * (sr.at(firstSource(m.joints[static_cast<size_t>(c)])) - sr.at(firstSource(jp))).norm();
    int best = p;
    double bestGap = std::numeric_limits<double>::infinity();
    for (int a = p; a >= 0 && sameSources(m.joints[static_cast<size_t>(a)], jp); a = tr.parents[static_cast<size_t>(a)]) {
        const double gap = std::abs((tr.at(c) - tr.at(a)).norm() - want);
        if (gap < bestGap) {
            best = a;
            bestGap = gap;
        }
    }
    return best;
}

} // namespace

double restHeight(const Rest& r)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int j = 0; j < r.count(); ++j)
        if (r.body.setAside.empty() || r.body.kept(j)) {
            lo = std::min(lo, r.positions(j, 1));
            hi = std::max(hi, r.positions(j, 1));
        }
    return hi > lo ? hi - lo : 0.0;
}

void computeRestOffsets(RetargetMapping& m, const Rest& tr, const Rest& sr, bool branchesFromBody)
{
    constexpr double eps = 1e-9;
    const double hs = restHeight(sr), ht = restHeight(tr);
    const double scale = hs > eps && ht > eps ? ht / hs : 1.0;
    for (int i = 0; i < tr.count(); ++i) {
        JointRetarget& j = m.joints[static_cast<size_t>(i)];
        const int p = tr.parents[static_cast<size_t>(i)];
        // Inherit from the nearest ancestor by default (a leaf continues its parent).
        j.restOffset = p >= 0 ? m.joints[static_cast<size_t>(p)].restOffset : Quat::Identity();
        if (j.sources.empty())
            continue;
        if (const auto body = branchesFromBody ? bodyRestOffset(i, tr, sr) : std::nullopt) {
            j.restOffset = *body;
            continue;
        }
        const int first = firstSource(j);
        std::vector<Vec3> from, to;
        bool ownedElsewhere = false;
        for (int c : spanEnds(m, tr, i)) {
            if (spanOwner(m, tr, sr, c, scale) != i) {
                ownedElsewhere = true;
                continue;
            }
            // Only a source below this joint's sources spans the same bone (a
            // hand-edited mapping may drive a child from another limb).
            const int e = firstSource(m.joints[static_cast<size_t>(c)]);
            int up = e;
            while (up > lastSource(j))
                up = sr.parents[static_cast<size_t>(up)];
            const Vec3 vt = tr.at(c) - tr.at(i), vs = sr.at(e) - sr.at(first);
            if (up == lastSource(j) && e != up && vt.norm() > eps && vs.norm() > eps) {
                from.push_back(vt.normalized());
                to.push_back(vs.normalized());
            }
        }
        if (from.empty() && !ownedElsewhere && tr.children[static_cast<size_t>(i)].size() == 1) {
            // Children without their own source (or from another limb, by
            // hand): the source joint's own bone.
            const auto& sc = sr.children[static_cast<size_t>(lastSource(j))];
            const int c = tr.children[static_cast<size_t>(i)][0];
            if (sc.size() == 1) {
                const Vec3 vt = tr.at(c) - tr.at(i), vs = sr.at(sc[0]) - sr.at(first);
                if (vt.norm() > eps && vs.norm() > eps) {
                    from.push_back(vt.normalized());
                    to.push_back(vs.normalized());
                }
            }
        }
        if (isAnkle(tr, i))
            levelFootBones(from, to);
        if (from.size() == 1)
            j.restOffset = Quat::FromTwoVectors(from[0], to[0]).normalized();
        else if (from.size() >= 2)
            j.restOffset = kabsch(from, to);
    }
}

} // namespace rig::retarget
