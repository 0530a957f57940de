#pragma once
/// @file document.h
/// The UI's one handle on the engine: wraps a `rig::RigProject` and runs long
/// stages on a worker thread with progress and cancel. Widgets observe its
/// signals; they never run algorithms or own threads.

#include "core/project/rig_project.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace rig::ui {

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    /// The current snapshot of the project (cheap to copy).
    const RigProject& project() const { return m_project; }
    /// True while a stage runs on the worker thread.
    bool busy() const { return m_busy; }
    /// The source of the current character ("" when none).
    QString characterSource() const;

public slots:
    /// Loads a file path, "default" or "default:POSE" on the worker thread.
    /// On success the character replaces the current one (`characterChanged`);
    /// on failure the current character stays and `stageFailed` carries the message.
    void openCharacter(const QString& spec);
    /// Asks the running stage to stop; it then ends with `stageCancelled` and nothing changes.
    void cancel();
    /// Blocks until the running stage has finished (tests, shutdown).
    void waitForIdle();

signals:
    void stageStarted(const QString& stage);
    void progressChanged(const QString& stage, const QString& step, double fraction);
    void stageFinished(const QString& stage, double seconds);
    void stageFailed(const QString& stage, const QString& message);
    void stageCancelled(const QString& stage);
    void characterChanged();
    void busyChanged(bool busy);

private:
    void setBusy(bool busy);

    RigProject m_project;
    bool m_busy = false;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<void>* m_watcher = nullptr;
};

} // namespace rig::ui
