#pragma once
/// @file task.h
/// What the Document's stage signals (`stageStarted`, `stageFailed`, …)
/// report on: a pipeline stage of core (core/project/pipeline.h) or one of the
/// Document's own tasks (opening or saving a project, posing). Widgets compare
/// tasks, never names; `taskName()` is the stable id ("load", "project", …)
/// that a QVariant holding a Task converts to.

#include "core/project/pipeline.h"

#include <QMetaType>
#include <QString>

#include <optional>

namespace rig::ui {

/// The pipeline's stages first, in their order and with their values, then the document's tasks.
enum class Task { Load, Skeleton, Rig, Weights, Clip, Export, Project, Save, Autosave, Pose };

/// The task that reports stage `stage`.
constexpr Task taskOf(Stage stage) { return static_cast<Task>(static_cast<int>(stage)); }

/// The pipeline stage `task` is, if it is one.
constexpr std::optional<Stage> stageOf(Task task)
{
    return task <= Task::Export ? std::optional<Stage>(static_cast<Stage>(static_cast<int>(task))) : std::nullopt;
}

/// Stable id: the stage's core id, else "project", "save", "autosave", "pose".
QString taskName(Task task);
/// For people: the stage's title ("Curve skeleton"), else "Open project", "Save", …
QString taskTitle(Task task);
/// Makes a QVariant holding a Task convert to its `taskName()` (signal spies,
/// logs). Called by the Document's constructor; idempotent.
void registerTaskType();

} // namespace rig::ui

Q_DECLARE_METATYPE(rig::ui::Task)
