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
    // A finished stage may start the next one (load -> skeleton): wait for all.
    while (m_watcher && m_busy) {
        QFutureWatcher<void>* watcher = m_watcher;
        watcher->waitForFinished();
        // Deliver the watcher's queued "finished" so the result is applied now.
        QCoreApplication::sendPostedEvents(watcher);
        if (watcher == m_watcher && m_busy)
            QCoreApplication::processEvents();
    }
}

void Document::openCharacter(const QString& spec)
{
    const std::string path = spec.toStdString();
    runStage(
        "load",
        [path](const RigProject&, const Progress& progress) -> Apply {
            auto character = std::make_shared<const LoadedCharacter>(loadCharacter(path, progress));
            return [character](RigProject& p) { p.setCharacter(character); };
        },
        [this] {
            emit characterChanged();
            emit curveSkeletonChanged(); // cleared
        });
}

void Document::buildCurveSkeleton(int resolution)
{
    if (!m_project.hasCharacter()) {
        emit stageFailed("skeleton", tr("Open a character first."));
        return;
    }
    CurveSkeletonOptions options = m_project.curveSkeletonOptions();
    options.voxelize.resolution = resolution;
    const auto character = m_project.character();
    runStage(
        "skeleton",
        [options, character](const RigProject& snapshot, const Progress& progress) -> Apply {
            RigProject p = snapshot;
            p.setCurveSkeletonOptions(options);
            auto result = std::make_shared<const CurveSkeletonResult>(computeCurveSkeleton(p, progress));
            return [options, character, result](RigProject& project) {
                if (project.character() != character)
                    return; // the character changed meanwhile: this result is stale
                project.setCurveSkeletonOptions(options);
                project.setCurveSkeleton(result);
            };
        },
        [this] { emit curveSkeletonChanged(); });
}

void Document::runStage(const QString& stage, Work work, std::function<void()> onApplied)
{
    if (m_busy) {
        emit stageFailed(stage, tr("Another stage is still running; wait for it or cancel it (Esc) first."));
        return;
    }
    setBusy(true);
    emit stageStarted(stage);
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    struct Outcome {
        Apply apply;
        QString error;
        bool cancelled = false;
        double seconds = 0.0;
    };
    auto outcome = std::make_shared<Outcome>();
    QPointer<Document> self(this);
    const RigProject snapshot = m_project;

    if (m_watcher)
        m_watcher->deleteLater();
    m_watcher = new QFutureWatcher<void>(this);
    connect(m_watcher, &QFutureWatcher<void>::finished, this, [this, outcome, stage, onApplied] {
        setBusy(false);
        if (outcome->cancelled) {
            emit stageCancelled(stage);
        } else if (!outcome->apply) {
            emit stageFailed(stage, outcome->error);
        } else {
            outcome->apply(m_project);
            onApplied();
            emit stageFinished(stage, outcome->seconds);
            if (stage == "load" && m_autoSkeleton)
                buildCurveSkeleton(m_project.curveSkeletonOptions().voxelize.resolution);
        }
    });
    m_watcher->setFuture(QtConcurrent::run([outcome, cancelFlag, snapshot, self, stage, work] {
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
            outcome->apply = work(snapshot, progress);
        } catch (const Cancelled&) {
            outcome->cancelled = true;
        } catch (const std::bad_alloc&) {
            outcome->error = tr("Out of memory: the input is too large for this machine.");
        } catch (const std::exception& e) {
            outcome->error = QString::fromUtf8(e.what());
        }
        outcome->seconds = double(timer.nsecsElapsed()) * 1e-9;
    }));
}

} // namespace rig::ui
