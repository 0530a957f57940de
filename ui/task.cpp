#include "ui/task.h"

#include <QCoreApplication>

namespace rig::ui {
namespace {

QString fromView(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

} // namespace

QString taskName(Task task)
{
    if (const std::optional<Stage> stage = stageOf(task))
        return fromView(stageId(*stage));
    switch (task) {
    case Task::Project: return QStringLiteral("project");
    case Task::Save: return QStringLiteral("save");
    case Task::Autosave: return QStringLiteral("autosave");
    default: return QStringLiteral("pose");
    }
}

QString taskTitle(Task task)
{
    if (const std::optional<Stage> stage = stageOf(task))
        return fromView(stageTitle(*stage));
    switch (task) {
    case Task::Project: return QCoreApplication::translate("rig::ui::Task", "Open project");
    case Task::Save: return QCoreApplication::translate("rig::ui::Task", "Save project");
    case Task::Autosave: return QCoreApplication::translate("rig::ui::Task", "Autosave");
    default: return QCoreApplication::translate("rig::ui::Task", "Pose");
    }
}

void registerTaskType()
{
    static const bool registered = [] {
        qRegisterMetaType<Task>();
        return QMetaType::registerConverter<Task, QString>(&taskName);
    }();
    (void)registered;
}

} // namespace rig::ui
