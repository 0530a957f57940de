#include "core/rig/humanoid_check.h"

#include "core/skeleton/humanoid_ends.h"

#include <algorithm>
#include <cstdio>

namespace rig {
namespace {

struct Extent {
    Vec3 min = Vec3::Zero(), max = Vec3::Zero();
    Vec3 size() const { return max - min; }
};

Extent extentOf(const MatrixX3d& V)
{
    Extent e;
    if (V.rows() == 0)
        return e;
    e.min = V.colwise().minCoeff().transpose();
    e.max = V.colwise().maxCoeff().transpose();
    return e;
}

std::vector<int> endNodes(const CurveSkeleton& s)
{
    std::vector<int> ends;
    for (size_t i = 0; i < s.types.size(); ++i)
        if (s.types[i] == NodeType::End)
            ends.push_back(static_cast<int>(i));
    return ends;
}

/// Ends within `band` of the height from the bottom (or the top when `top`).
int endsNear(const CurveSkeleton& s, const Extent& e, double band, bool top)
{
    const double h = e.size().y();
    int n = 0;
    for (int i : endNodes(s)) {
        const double y = s.positions(i, 1);
        if (top ? y >= e.max.y() - band * h : y <= e.min.y() + band * h)
            ++n;
    }
    return n;
}

/// The feet among the ends within `band` of the height from the bottom: ends
/// joined by the skeleton below `footHeight` of the height are one foot. A
/// fine curve skeleton forks a flat foot into heel and toe ends, which meet
/// at the foot or the ankle (the Red Eclipse players at n = 255: four ground
/// ends, two feet); two legs meet at the body, above that height.
int feetOnTheGround(const CurveSkeleton& s, const Extent& e, double band, double footHeight)
{
    const double h = e.size().y();
    const auto low = [&](int i) { return s.positions(i, 1) <= e.min.y() + footHeight * h; };
    const std::vector<std::vector<int>> adjacency = s.adjacency();
    std::vector<int> foot(adjacency.size(), -1);
    int feet = 0;
    for (int i : endNodes(s)) {
        if (s.positions(i, 1) > e.min.y() + band * h || foot[static_cast<size_t>(i)] >= 0)
            continue;
        // Everything this end reaches through the skeleton's low nodes.
        std::vector<int> stack{i};
        foot[static_cast<size_t>(i)] = feet;
        while (!stack.empty()) {
            const int u = stack.back();
            stack.pop_back();
            for (int v : adjacency[static_cast<size_t>(u)])
                if (foot[static_cast<size_t>(v)] < 0 && low(v)) {
                    foot[static_cast<size_t>(v)] = feet;
                    stack.push_back(v);
                }
        }
        ++feet;
    }
    return feet;
}

/// The ends at the tip of a segment (end to junction) at least `minLength` long.
std::vector<int> longBranchEnds(const CurveSkeleton& s, double minLength)
{
    std::vector<int> ends;
    for (const std::vector<int>& seg : s.segments) {
        if (seg.size() < 2)
            continue;
        const int end = s.types[static_cast<size_t>(seg.back())] == NodeType::End    ? seg.back()
                        : s.types[static_cast<size_t>(seg.front())] == NodeType::End ? seg.front()
                                                                                      : -1;
        double length = 0.0;
        for (size_t k = 0; k + 1 < seg.size(); ++k)
            length += (s.positions.row(seg[k + 1]) - s.positions.row(seg[k])).norm();
        if (end >= 0 && length >= minLength)
            ends.push_back(end);
    }
    return ends;
}

std::string percent(double f)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2g%%", 100.0 * f);
    return buf;
}

std::string ratio(double f)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", f);
    return buf;
}

} // namespace

std::string HumanoidCheck::message() const
{
    if (reasons.empty())
        return {};
    std::string joined;
    for (const std::string& r : reasons)
        joined += (joined.empty() ? "" : "; ") + r;
    return "This does not look like a humanoid (" + joined +
           "): the 21-joint humanoid rig fitted to it will be wrong.";
}

namespace {

/// The figure's proportions: no upright body axis. As deep as it is wide
/// counts only without a body found (`bodyFound`): a tail, wings, a shell or
/// a weapon held out make an upright biped's box deep.
void proportionReasons(const Extent& e, const HumanoidCheckOptions& options, bool bodyFound,
                       std::vector<std::string>& reasons)
{
    const Vec3 size = e.size();
    const double height = size.y(), across = std::max(size.x(), size.z());
    const double thin = std::min(size.x(), size.z());
    if (across > 0.0 && height < options.minHeightRatio * across)
        reasons.push_back("no upright body axis: it is " + ratio(height / across) +
                          " times as tall as it is wide or deep");
    else if (height > 0.0 && thin > options.maxThicknessRatio * height && !bodyFound)
        reasons.push_back("no upright body axis: it is as deep and as wide as it is tall (" + ratio(thin / height) +
                          " of its height both ways)");
}

/// The skeleton's ends and limbs: too many, legs across, a partial skeleton.
/// Ends and limbs beyond a humanoid's five count against it only when no head,
/// two arms and two legs were found among them (`bodyFound`): then they are
/// hair, hats, capes and weapons the rig ignores.
void limbReasons(const CurveSkeleton& skeleton, const Extent& e, const HumanoidCheckOptions& options,
                 bool bodyFound, std::vector<std::string>& reasons)
{
    const Vec3 size = e.size();
    const double height = size.y();
    const int ends = static_cast<int>(endNodes(skeleton).size());
    if (ends > options.maxEnds && !bodyFound)
        reasons.push_back(std::to_string(ends) + " skeleton ends, where a humanoid has five (head, hands, feet) " +
                          "and a few more for fingers or toes");
    const std::vector<int> limbEnds = longBranchEnds(skeleton, options.longBranch * size.maxCoeff());
    const int limbs = static_cast<int>(limbEnds.size());
    if (limbs > options.maxLongEnds && !bodyFound)
        reasons.push_back(std::to_string(limbs) + " long limbs (skeleton branches longer than " +
                          percent(options.longBranch) + " of its size), where a humanoid has at most five " +
                          "(head, hands, feet)");
    if (skeleton.nodeCount() > 0 && height > 0.0) {
        const double span = skeleton.positions.col(1).maxCoeff() - skeleton.positions.col(1).minCoeff();
        if (span < options.minSkeletonSpan * height)
            reasons.push_back("its curve skeleton spans only " + percent(span / height) + " of its height (a " +
                              "figure of separate or open pieces that did not fill into one body?)");
    }
    const int sideways = static_cast<int>(std::count_if(limbEnds.begin(), limbEnds.end(), [&](int i) {
        const double y = skeleton.positions(i, 1);
        return y > e.min.y() + options.groundBand * height && y < e.max.y() - options.groundBand * height;
    }));
    if (sideways > options.maxMidLimbs && !bodyFound)
        reasons.push_back(std::to_string(sideways) + " long limbs end between the ground and the top, where a " +
                          "humanoid has its two hands: legs sticking out sideways (an animal stood on its nose " +
                          "or tail?)");
}

/// What stands on the ground: more feet than two or three (legs), or none.
/// Beside the two feet of a confident body (`confidentBody`) more feet are a
/// robe's hem, a cape, a staff or a tail: a doubt, not a reason.
void groundReasons(const CurveSkeleton& skeleton, const Extent& e, const HumanoidCheckOptions& options,
                   bool confidentBody, HumanoidCheck& c)
{
    // More ground ends than a humanoid's feet have are its own only when they
    // form two or three feet (forked heels and toes), not one blob (a head
    // down, a hem) nor four legs.
    const int ground = endsNear(skeleton, e, options.groundBand, false);
    const int feet = ground > options.maxGroundEnds
                         ? feetOnTheGround(skeleton, e, options.groundBand, options.footHeight)
                         : ground;
    if (feet > options.maxGroundEnds || (feet < 2 && ground > options.maxGroundEnds)) {
        if (!confidentBody)
            c.reasons.push_back(std::to_string(ground) + " skeleton ends reach the ground, legs of an animal or a " +
                                "machine rather than two feet");
        else
            c.doubts.push_back({"extra_ground_ends",
                                std::to_string(ground) + " skeleton ends reach the ground beside the two feet " +
                                    "chosen (a robe, a cape, a staff or a tail - or the legs of an animal): " +
                                    "check the feet labels"});
    }
    if (ground == 0 && !endNodes(skeleton).empty())
        c.reasons.push_back("no skeleton end reaches the ground (the lowest " + percent(options.groundBand) +
                            " of its height), where a humanoid stands on its feet");
}

} // namespace

HumanoidCheck checkHumanoid(const Mesh& mesh, const CurveSkeleton& skeleton, const std::string& format,
                            const HumanoidCheckOptions& options)
{
    HumanoidCheck c;
    if (format == "bvh")
        c.reasons.push_back("it is a motion clip, read as the boxes of its bones; load it as a clip instead");
    const Extent e = extentOf(mesh.V);
    std::string why;
    const auto body = findHumanoidEnds(skeleton, e.min.y(), e.size().y(), {}, &why);
    c.body = body ? body->summary : "no head, two arms and two legs found: " + why;
    c.bodyConfidence = body ? body->confidence : 0.0;
    c.bodyConfident = body && body->confidence >= options.confidentBody;
    const bool bodyFound = body && body->confidence >= options.plausibleBody;
    proportionReasons(e, options, bodyFound, c.reasons);
    limbReasons(skeleton, e, options, bodyFound, c.reasons);
    if (looksUpsideDown(mesh, skeleton, options))
        c.reasons.push_back("it seems to stand on its head (one skeleton end on the ground, two or more at the "
                            "top): is its up axis wrong?");
    groundReasons(skeleton, e, options, c.bodyConfident, c);
    if (!c.bodyConfident)
        c.doubts.insert(c.doubts.begin(), {"doubtful_body", "the head, hands and feet were chosen with little "
                                                            "confidence (" + c.body + "): check the labels"});
    if (!c.looksHumanoid())
        c.doubts.clear();
    return c;
}

std::string explainTooFewEnds(const Mesh& mesh, const CurveSkeleton& skeleton)
{
    const Vec3 size = extentOf(mesh.V).size();
    double s[3] = {size.x(), size.y(), size.z()};
    std::sort(s, s + 3);
    if (s[2] > 0.0 && s[1] < 0.02 * s[2])
        return "the mesh is nearly a line (its two smaller extents are " + percent(s[0] / s[2]) + " and " +
               percent(s[1] / s[2]) + " of its length): a curve skeleton of a line has two ends";
    if (s[2] > 0.0 && s[0] < 0.02 * s[2])
        return "the mesh is flat (its thinnest extent is " + percent(s[0] / s[2]) +
               " of its largest): it has no inside for a curve skeleton";
    if (skeleton.componentCount > 1)
        return "the mesh is in " + std::to_string(skeleton.componentCount) +
               " separate pieces, each with a skeleton of its own: the figure has no connected body";
    return {};
}

bool looksUpsideDown(const Mesh& mesh, const CurveSkeleton& skeleton, const HumanoidCheckOptions& options)
{
    const Extent e = extentOf(mesh.V);
    return endsNear(skeleton, e, options.groundBand, false) == 1 &&
           endsNear(skeleton, e, options.groundBand, true) >= 2;
}

} // namespace rig
