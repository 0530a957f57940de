#include "ui/document.h"

#include "core/common/error.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace rig::ui {

Document::Document(QObject* parent) : QObject(parent) {}

Document::~Document()
{
    // Stop the worker and wait for it, without delivering its result to a
    // half-destroyed window.
    cancel();
    if (m_watcher) {
        m_watcher->disconnect(this);
        m_watcher->waitForFinished();
    }
}

QString Document::characterSource() const
{
    return m_project.character() ? QString::fromStdString(m_project.character()->source) : QString();
}

void Document::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

void Document::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void Document::waitForIdle()
{
    if (!m_watcher)
        return;
    m_watcher->waitForFinished();
    // Deliver the watcher's queued "finished" so the result is applied now.
    QCoreApplication::sendPostedEvents(m_watcher);
}

void Document::openCharacter(const QString& spec)
{
    if (m_busy) {
        emit stageFailed("load", tr("Another stage is still running; wait for it or cancel it first."));
        return;
    }
    const QString stage = QStringLiteral("load");
    setBusy(true);
    emit stageStarted(stage);
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    struct Outcome {
        std::shared_ptr<const LoadedCharacter> character;
        QString error;
        bool cancelled = false;
        double seconds = 0.0;
    };
    auto outcome = std::make_shared<Outcome>();
    QPointer<Document> self(this);
    const std::string path = spec.toStdString();

    delete m_watcher;
    m_watcher = new QFutureWatcher<void>(this);
    connect(m_watcher, &QFutureWatcher<void>::finished, this, [this, outcome, stage] {
        setBusy(false);
        if (outcome->cancelled) {
            emit stageCancelled(stage);
        } else if (!outcome->character) {
            emit stageFailed(stage, outcome->error);
        } else {
            m_project.setCharacter(outcome->character);
            emit characterChanged();
            emit stageFinished(stage, outcome->seconds);
        }
    });
    m_watcher->setFuture(QtConcurrent::run([outcome, cancelFlag, path, self, stage] {
        QElapsedTimer timer;
        timer.start();
        Progress progress;
        progress.cancelFlag = cancelFlag.get();
        progress.report = [self, stage](std::string_view step, double fraction) {
            const QString s = QString::fromUtf8(step.data(), qsizetype(step.size()));
            QMetaObject::invokeMethod(
                self.data(), [self, stage, s, fraction] {
                    if (self)
                        emit self->progressChanged(stage, s, fraction);
                },
                Qt::QueuedConnection);
        };
        try {
            outcome->character = std::make_shared<const LoadedCharacter>(loadCharacter(path, progress));
        } catch (const Cancelled&) {
            outcome->cancelled = true;
        } catch (const std::bad_alloc&) {
            outcome->error = QStringLiteral("'%1' is too large to load: out of memory").arg(QString::fromStdString(path));
        } catch (const std::exception& e) {
            outcome->error = QString::fromUtf8(e.what());
        }
        outcome->seconds = double(timer.nsecsElapsed()) * 1e-9;
    }));
}

} // namespace rig::ui
