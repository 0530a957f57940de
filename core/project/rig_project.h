#pragma once
/// @file rig_project.h
/// The facade between the engine and its two front ends (GUI and CLI).
///
/// A `RigProject` is a value: each stage result is an immutable
/// `shared_ptr<const T>`, so copying a project is a cheap snapshot that a worker
/// thread can read while the GUI keeps showing the previous one. Setting the
/// result of a stage clears the results of the stages after it.
///
/// Stages, in order: character (load) → curve skeleton (voxelize, fill, thin,
/// graph, refine) → later stages (labels, rig, segmentation, weights).

#include "core/project/character_source.h"
#include "core/skeleton/extract.h"

#include <memory>

namespace rig {

class RigProject {
public:
    /// The loaded character, or null before anything is loaded.
    const std::shared_ptr<const LoadedCharacter>& character() const { return m_character; }
    bool hasCharacter() const { return m_character != nullptr; }
    /// Replaces the character (and clears every later stage).
    void setCharacter(std::shared_ptr<const LoadedCharacter> character);

    /// Options of the curve-skeleton stage (resolution n and refinement).
    const CurveSkeletonOptions& curveSkeletonOptions() const { return m_skeletonOptions; }
    void setCurveSkeletonOptions(const CurveSkeletonOptions& options) { m_skeletonOptions = options; }
    /// The curve skeleton of the current character, or null when not computed.
    const std::shared_ptr<const CurveSkeletonResult>& curveSkeleton() const { return m_curveSkeleton; }
    /// Sets the curve skeleton (computed for the current character).
    void setCurveSkeleton(std::shared_ptr<const CurveSkeletonResult> skeleton);

private:
    std::shared_ptr<const LoadedCharacter> m_character;
    CurveSkeletonOptions m_skeletonOptions;
    std::shared_ptr<const CurveSkeletonResult> m_curveSkeleton;
};

/// Runs the curve-skeleton stage on the project's character with its options.
/// @throws rig::InvalidInput when no character is loaded, and whatever
/// `extractCurveSkeleton()` throws.
CurveSkeletonResult computeCurveSkeleton(const RigProject& project, const Progress& progress = {});

} // namespace rig
