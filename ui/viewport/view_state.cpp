#include "ui/viewport/view_state.h"

namespace rig::ui {

bool samePose(const Pose& a, const Pose& b)
{
    if (a.localRotations.size() != b.localRotations.size() || a.rootTranslation != b.rootTranslation)
        return false;
    for (size_t j = 0; j < a.localRotations.size(); ++j)
        if (a.localRotations[j].coeffs() != b.localRotations[j].coeffs())
            return false;
    return true;
}

SceneChange sceneChange(const ViewState& before, const ViewState& after)
{
    const RigProject &p = before.project, &q = after.project;
    SceneChange c;
    c.character = p.character() != q.character();
    c.curveSkeleton = p.curveSkeleton() != q.curveSkeleton();
    c.labels = !(p.labels() == q.labels()) || p.front() != q.front();
    c.rig = before.rig() != after.rig();
    c.skinning = p.skinning() != q.skinning();
    // Painted weights come as a new result with a copy of the segmentation: equal by value.
    c.weightsOnly = c.skinning && p.skinning() && q.skinning() && !c.character && !c.rig &&
                    p.skinning()->segmentation.bone == q.skinning()->segmentation.bone &&
                    p.skinning()->segmentation.delta == q.skinning()->segmentation.delta;
    c.pose = !samePose(before.pose, after.pose) || before.poseTwist != after.poseTwist;
    c.deformer = p.deformer() != q.deformer();
    c.clip = p.clip() != q.clip() || before.clipTime != after.clipTime || before.clipSkeleton != after.clipSkeleton;
    return c;
}

} // namespace rig::ui
