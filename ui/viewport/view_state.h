#pragma once
/// @file view_state.h
/// What the viewport shows of the document, handed over in one call
/// (`Viewport::showState()`): the project snapshot (a cheap value whose stage
/// results are shared immutable objects; its deformer is the one drawn), the
/// pose, and the two inputs that are not the project's (a joint move being
/// dragged, the timeline's time). The viewport keeps no other copy of the
/// document's data: as a RenderDoc panel, it is told that something changed
/// and reads the one state.
///
/// `sceneChange()` says what differs between two states, by the identity of
/// their shared results (the pose, which is not shared, by value), so the
/// viewport redoes only that; plain C++ (no Qt, no GL) that tests reach, as
/// OpenSCAD decides what to draw in code apart from its GL view.

#include "core/project/rig_project.h"
#include "core/rig/pose.h"

#include <memory>
#include <vector>

namespace rig::ui {

struct ViewState {
    RigProject project;            ///< The document's project (`Document::project()`).
    Pose pose;                     ///< `Document::pose()`.
    std::vector<double> poseTwist; ///< `Document::poseTwist()`: #J unwrapped twists, or empty.
    /// The rig drawn instead of the project's while a joint is dragged
    /// (`Document::previewJointMove()`); null: the project's.
    std::shared_ptr<const FitResult> rigPreview;
    double clipTime = 0.0;     ///< Seconds into the clip: where its own skeleton is drawn.
    bool clipSkeleton = true;  ///< The clip's own skeleton is drawn beside the character.

    /// The rig drawn: the preview, else the project's (null: none).
    const std::shared_ptr<const FitResult>& rig() const { return rigPreview ? rigPreview : project.rig(); }
};

/// What differs between two view states.
struct SceneChange {
    bool character = false;     ///< Another character (its mesh and file meshes).
    bool curveSkeleton = false; ///< Another curve skeleton.
    bool labels = false;        ///< Other end-node labels or facing (texts, glyph colours).
    bool rig = false;           ///< Another rig drawn: a fit, an edit, a drag's preview.
    bool skinning = false;      ///< Other weights or segmentation.
    /// `skinning` by painted weights alone: the same character, rig and an
    /// equal segmentation, so deformers that read no weights keep their binding.
    bool weightsOnly = false;
    bool pose = false;     ///< Another pose or unwrapped twists.
    bool deformer = false; ///< Another deformer drawn.
    bool clip = false;     ///< Another clip, time in it, or its skeleton shown or hidden.
    bool any() const
    {
        return character || curveSkeleton || labels || rig || skinning || pose || deformer || clip;
    }
};

/// What changed from `before` to `after`.
SceneChange sceneChange(const ViewState& before, const ViewState& after);

/// Equal rotations (coefficient for coefficient) and root translation.
bool samePose(const Pose& a, const Pose& b);

} // namespace rig::ui
