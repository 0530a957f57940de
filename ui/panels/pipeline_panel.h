#pragma once
/// @file pipeline_panel.h
/// The pipeline dock: one row per stage with its state and time, a progress
/// bar for the running stage and a Cancel button. Later stages add their rows.

#include "ui/task.h"

#include <QWidget>

class QLabel;
class QSpinBox;
class QProgressBar;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace rig::ui {

class Document;

class PipelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit PipelinePanel(Document* document, QWidget* parent = nullptr);

private:
    QTreeWidgetItem* row(Task stage);
    void onStarted(Task stage);
    void onProgress(Task stage, const QString& step, double fraction);
    void onFinished(Task stage, double seconds);
    void onFailed(Task stage, const QString& message);
    void onCancelled(Task stage);
    void onCurveSkeletonChanged();

    Document* m_document;
    QTreeWidget* m_stages;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_step;
    QSpinBox* m_resolution;
    QPushButton* m_rebuild;
    QLabel* m_skeletonStats;
};

} // namespace rig::ui
