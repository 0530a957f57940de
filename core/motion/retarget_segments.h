#pragma once
/// @file retarget_segments.h
/// The retargeter's segment matching (core/motion/retarget.cpp, thesis Ch. 5,
/// Figs. 5.6 and 5.7: "adjust between two logic skeletons"): each skeleton cut
/// into segments at its branch joints, matched segment by segment, and within
/// a matched pair bone by bone by normalized arc length, names only breaking
/// ties. Internal to the retargeter; each rule is documented at its definition
/// in core/motion/retarget_segments.cpp.

#include "core/motion/retarget_rest.h"

#include <vector>

namespace rig::retarget {

// A segment (thesis Fig. 5.6): joints[0] is the root or a branch joint, the
// inner joints have one child, the last has none or several. Bone k (1-based)
// runs from joints[k-1] to joints[k]; ends[k-1] is its normalized end.
struct Segment {
    std::vector<int> joints;
    std::vector<double> ends;
    std::vector<double> lengths; // bone lengths
    Vec3 direction = Vec3::Zero();
    int level = 0;
    std::vector<int> childSegments;
    int bones() const { return static_cast<int>(joints.size()) - 1; }
    int last() const { return joints.back(); }
};

/// A segment along the given joints (joints[0] its start).
Segment segmentAlong(const Rest& r, std::vector<int> joints, int level);
/// Every segment of the hierarchy, level 0 the trunk from the root.
std::vector<Segment> segmentsOf(const Rest& r);
/// The segments hanging below `start` (out[0] is just `start`).
std::vector<Segment> segmentsBelow(const Rest& r, int start, int level);
/// Sets a target joint's sources and how they were matched (Unmapped when none).
void setSources(JointRetarget& j, std::vector<RetargetSource> sources, RetargetMatch match);
/// Pairs the bones of matched segments t (target) and s (source) and fills the
/// target joints they own (all but t.joints[0], which the branch rule sets).
void mapSegmentPair(const Segment& t, const Rest& tr, const Segment& s, const Rest& sr, const RetargetOptions& o,
                    RetargetMapping& m);
/// Matches the child segments of target segment ti and source segment si, recursively.
void mapChildren(const std::vector<Segment>& ts, const Rest& tr, int ti, const std::vector<Segment>& ss,
                 const Rest& sr, int si, const RetargetOptions& o, RetargetMapping& m);

} // namespace rig::retarget
