#pragma once
/// @file pipeline_panel.h
/// The pipeline dock: one row per stage with its state and time, a progress
/// bar for the running stage and a Cancel button. Later stages add their rows.

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
    QTreeWidgetItem* row(const QString& stage);
    void onStarted(const QString& stage);
    void onProgress(const QString& stage, const QString& step, double fraction);
    void onFinished(const QString& stage, double seconds);
    void onFailed(const QString& stage, const QString& message);
    void onCancelled(const QString& stage);
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
