#include "core/skin/weight_paint.h"

#include "core/common/error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace rig {
namespace {

double falloffAt(BrushFalloff falloff, double d)
{
    const double t = std::clamp(1.0 - d, 0.0, 1.0);
    switch (falloff) {
    case BrushFalloff::Smooth:
        return t * t * (3.0 - 2.0 * t);
    case BrushFalloff::Linear:
        return t;
    case BrushFalloff::Constant:
        return d <= 1.0 ? 1.0 : 0.0;
    }
    return 0.0;
}

void checkUnit(double x, const char* what, const char* fn)
{
    if (!(x >= 0.0 && x <= 1.0))
        throw InvalidInput(std::string(fn) + ": the " + what + " must lie in [0, 1], got " + std::to_string(x));
}

void checkRadius(double r, const char* fn)
{
    if (!(r > 0.0) || !std::isfinite(r))
        throw InvalidInput(std::string(fn) + ": the brush radius must be positive and finite, got " +
                           std::to_string(r));
}

double weightOf(const std::vector<WeightEntry>& row, int joint)
{
    for (const WeightEntry& e : row)
        if (e.joint == joint)
            return e.weight;
    return 0.0;
}

} // namespace

GradientFill boneGradient(const Skeleton& skeleton, int joint, double radius)
{
    const char* fn = "rig::boneGradient()";
    if (joint < 0 || joint >= skeleton.jointCount())
        throw InvalidInput(std::string(fn) + ": joint " + std::to_string(joint) + " is not one of the skeleton's " +
                           std::to_string(skeleton.jointCount()));
    if (skeleton.jointCount() < 2)
        throw InvalidInput(std::string(fn) + ": a one-joint skeleton has no bone");
    checkRadius(radius, fn);
    GradientFill g;
    g.joint = joint;
    g.radius = radius;
    const auto children = childrenOf(skeleton)[static_cast<size_t>(joint)];
    if (!children.empty()) {
        g.start = skeleton.bindPositions.row(joint).transpose();
        g.end = skeleton.bindPositions.row(children.front()).transpose();
        g.startValue = 1.0;
        g.endValue = 0.0;
    } else {
        g.start = skeleton.bindPositions.row(skeleton.parents[static_cast<size_t>(joint)]).transpose();
        g.end = skeleton.bindPositions.row(joint).transpose();
        g.startValue = 0.0;
        g.endValue = 1.0;
    }
    return g;
}

WeightPainter::WeightPainter(const Mesh& mesh, const Skeleton& skeleton, SkinWeights weights)
    : m_skeleton(skeleton), m_adjacency(vertexAdjacency(mesh.vertexCount(), mesh.F)), m_grid(mesh.V),
      m_locked(static_cast<size_t>(skeleton.jointCount()), 0)
{
    validateSkinWeights(weights, mesh.vertexCount(), skeleton.jointCount());
    m_weights = std::move(weights);
    m_jointMirror = mirrorJoints(skeleton);
    m_vertexMirror = vertexMirror(mesh.V, m_jointMirror.plane);
}

void WeightPainter::checkJoint(int joint, const char* fn) const
{
    if (joint < 0 || joint >= m_skeleton.jointCount())
        throw InvalidInput(std::string(fn) + ": joint " + std::to_string(joint) + " is not one of the skeleton's " +
                           std::to_string(m_skeleton.jointCount()) + "; pick a joint to paint");
    if (isLocked(joint))
        throw InvalidInput(std::string(fn) + ": joint '" + m_skeleton.names[static_cast<size_t>(joint)] +
                           "' is locked; unlock it to paint its weights");
}

void WeightPainter::setPositions(const MatrixX3d& V)
{
    if (V.rows() != m_weights.vertexCount())
        throw InvalidInput("rig::WeightPainter::setPositions(): " + std::to_string(V.rows()) +
                           " positions for a mesh of " + std::to_string(m_weights.vertexCount()) + " vertices");
    m_grid = PointGrid(V);
}

void WeightPainter::setLocked(int joint, bool locked)
{
    if (joint < 0 || joint >= m_skeleton.jointCount())
        throw InvalidInput("rig::WeightPainter::setLocked(): joint " + std::to_string(joint) +
                           " is not one of the skeleton's " + std::to_string(m_skeleton.jointCount()));
    m_locked[static_cast<size_t>(joint)] = locked ? 1 : 0;
}

void WeightPainter::setWeights(SkinWeights weights)
{
    validateSkinWeights(weights, m_weights.vertexCount(), m_skeleton.jointCount());
    m_weights = std::move(weights);
}

void WeightPainter::mirrorAll(MirrorDirection direction)
{
    m_weights = mirrorWeights(m_weights, m_vertexMirror, m_jointMirror.twin, direction, m_locked);
}

std::vector<int> WeightPainter::apply(const BrushDab& dab)
{
    const char* fn = "rig::WeightPainter::apply()";
    if (!dab.centre.allFinite())
        throw InvalidInput(std::string(fn) + ": the brush centre is not finite (" + std::to_string(dab.centre.x()) +
                           ", " + std::to_string(dab.centre.y()) + ", " + std::to_string(dab.centre.z()) + ")");
    checkRadius(dab.radius, fn);
    checkUnit(dab.strength, "strength", fn);
    checkUnit(dab.value, "value", fn);
    if (dab.tool != PaintTool::Smooth)
        checkJoint(dab.joint, fn);

    m_grid.pointsWithin(dab.centre, dab.radius, m_inBrush);
    const MatrixX3d& P = m_grid.points();
    m_newRows.resize(m_inBrush.size());
    std::vector<int> rewritten;
    rewritten.reserve(m_inBrush.size());
    std::vector<char> doWrite(m_inBrush.size(), 0);
    double sideSum = 0.0;
    // Every new row first (smoothing reads its neighbours as they were before the dab), then written.
    for (size_t i = 0; i < m_inBrush.size(); ++i) {
        const int v = m_inBrush[i];
        const double d = (P.row(v).transpose() - dab.centre).norm() / dab.radius;
        const double f = dab.strength * falloffAt(dab.falloff, d);
        if (!(f > 0.0))
            continue;
        sideSum += f * m_vertexMirror.side[static_cast<size_t>(v)];
        std::vector<WeightEntry>& row = m_newRows[i];
        row = weightRow(m_weights, v);
        if (dab.tool == PaintTool::Smooth) {
            const int begin = m_adjacency.start[static_cast<size_t>(v)];
            const int end = m_adjacency.start[static_cast<size_t>(v) + 1];
            if (begin == end)
                continue;
            for (WeightEntry& e : row)
                e.weight *= 1.0 - f;
            const double share = f / (end - begin);
            for (int a = begin; a < end; ++a) {
                const int n = m_adjacency.nbr[static_cast<size_t>(a)];
                for (int s = 0; s < m_weights.maxInfluences; ++s)
                    if (m_weights.weights(n, s) > 0.0f)
                        row.push_back({m_weights.joints(n, s), share * m_weights.weights(n, s)});
            }
            doWrite[i] = 1;
            continue;
        }
        const double old = weightOf(row, dab.joint);
        double target = old;
        switch (dab.tool) {
        case PaintTool::Add:
            target = std::min(1.0, old + f);
            break;
        case PaintTool::Subtract:
            target = std::max(0.0, old - f);
            break;
        case PaintTool::Set:
            target = old + f * (dab.value - old);
            break;
        case PaintTool::Smooth:
            break;
        }
        setPaintedWeight(row, dab.joint, old, target);
        doWrite[i] = 1;
    }
    for (size_t i = 0; i < m_inBrush.size(); ++i) {
        if (!doWrite[i])
            continue;
        const int v = m_inBrush[i];
        if (setLockedRow(m_weights, v, std::move(m_newRows[i]), dab.tool == PaintTool::Smooth ? -1 : dab.joint,
                         m_locked))
            rewritten.push_back(v);
    }
    return finish(std::move(rewritten), sideSum > 0.0 ? 1 : (sideSum < 0.0 ? -1 : 0));
}

void WeightPainter::setPaintedWeight(std::vector<WeightEntry>& row, int joint, double old, double target) const
{
    bool found = false;
    double others = 0.0;
    for (WeightEntry& e : row) {
        if (e.joint == joint) {
            e.weight = target;
            found = true;
        } else if (!isLocked(e.joint)) {
            others += e.weight;
        }
    }
    if (!found)
        row.push_back({joint, target});
    if (target >= old || others > 0.0)
        return;
    // Nothing else unlocked takes the loss: the nearest unlocked ancestor does.
    for (int a = m_skeleton.parents[static_cast<size_t>(joint)]; a >= 0; a = m_skeleton.parents[static_cast<size_t>(a)])
        if (!isLocked(a)) {
            row.push_back({a, old - target});
            return;
        }
}

std::vector<int> WeightPainter::apply(const GradientFill& fill)
{
    const char* fn = "rig::WeightPainter::apply(GradientFill)";
    if (!fill.start.allFinite() || !fill.end.allFinite())
        throw InvalidInput(std::string(fn) + ": the gradient's start or end is not finite");
    const Vec3 axis = fill.end - fill.start;
    const double len2 = axis.squaredNorm();
    if (!(len2 > 0.0))
        throw InvalidInput(std::string(fn) + ": the gradient's start and end coincide; pick two different points");
    checkRadius(fill.radius, fn);
    checkUnit(fill.strength, "strength", fn);
    checkUnit(fill.startValue, "start value", fn);
    checkUnit(fill.endValue, "end value", fn);
    checkJoint(fill.joint, fn);

    // The vertices within the capsule: a ball query around the middle, then the exact distance.
    const double halfLength = 0.5 * std::sqrt(len2);
    m_grid.pointsWithin(0.5 * (fill.start + fill.end), halfLength + fill.radius, m_inBrush);
    const MatrixX3d& P = m_grid.points();
    std::vector<int> rewritten;
    double sideSum = 0.0;
    for (const int v : m_inBrush) {
        const Vec3 p = P.row(v).transpose();
        const double t = std::clamp((p - fill.start).dot(axis) / len2, 0.0, 1.0);
        if ((p - (fill.start + t * axis)).norm() > fill.radius)
            continue;
        std::vector<WeightEntry> row = weightRow(m_weights, v);
        const double old = weightOf(row, fill.joint);
        const double goal = fill.startValue + t * (fill.endValue - fill.startValue);
        setPaintedWeight(row, fill.joint, old, old + fill.strength * (goal - old));
        sideSum += m_vertexMirror.side[static_cast<size_t>(v)];
        if (setLockedRow(m_weights, v, std::move(row), fill.joint, m_locked))
            rewritten.push_back(v);
    }
    return finish(std::move(rewritten), sideSum > 0.0 ? 1 : (sideSum < 0.0 ? -1 : 0));
}

std::vector<int> WeightPainter::finish(std::vector<int> rewritten, int sourceSide)
{
    if (m_mirror && sourceSide != 0) {
        const std::vector<int> sources = rewritten;
        mirrorRows(m_weights, m_vertexMirror, m_jointMirror.twin, sources, sourceSide, m_locked, rewritten);
    }
    std::sort(rewritten.begin(), rewritten.end());
    rewritten.erase(std::unique(rewritten.begin(), rewritten.end()), rewritten.end());
    return rewritten;
}

} // namespace rig
