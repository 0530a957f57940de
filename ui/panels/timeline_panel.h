#pragma once
/// @file timeline_panel.h
/// The timeline dock of a loaded motion clip: play/pause (Space), loop, scrub,
/// frame step (Left / Right), playback speed, frame counter and clip time.
///
/// The panel only keeps time: it knows the clip's frame count and frame time
/// and emits `timeChanged(seconds)` whenever the time moves (playing, scrubbing
/// or stepping). Whoever listens turns the time into a pose (the main window
/// asks the document, which interpolates between frames). Playback runs on a
/// QTimer on the GUI thread (posing a frame is fast work, style habit 8) and
/// follows the wall clock, so a slow frame skips ahead instead of slowing the
/// clip down; `achievedFps()` says how many frames per second were shown.

#include <QElapsedTimer>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace rig::ui {

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    /// Sets the clip: `frames` frames, `frameTime` seconds each (> 0). Zero
    /// frames clears the timeline and disables it. Resets the time to 0.
    void setClip(const QString& name, int frames, double frameTime);
    int frameCount() const { return m_frames; }
    double frameTime() const { return m_frameTime; }
    /// The current time in seconds, in [0, duration].
    double time() const { return m_time; }
    /// The current time in frames (fractional between frames).
    double frame() const { return m_frameTime > 0 ? m_time / m_frameTime : 0.0; }
    double duration() const { return m_frames > 1 ? (m_frames - 1) * m_frameTime : 0.0; }
    bool isPlaying() const { return m_playing; }
    bool loop() const;
    double speed() const;
    /// Frames shown per second over the last second of playback (0 when stopped).
    double achievedFps() const { return m_achievedFps; }

public slots:
    void play();
    void pause();
    void togglePlay();
    /// Moves to `seconds` (clamped to the clip) and emits timeChanged.
    void setTime(double seconds);
    /// Moves to frame `f` (clamped) and emits timeChanged.
    void setFrame(int f);
    void stepForward();
    void stepBackward();
    void setLoop(bool on);
    void setSpeed(double factor);

signals:
    void timeChanged(double seconds);
    void playingChanged(bool playing);

private:
    void tick();
    void updateReadout();

    int m_frames = 0;
    double m_frameTime = 1.0 / 30.0;
    double m_time = 0.0;
    bool m_playing = false;
    QElapsedTimer m_clock;     ///< Wall time of the last tick.
    QElapsedTimer m_fpsWindow; ///< Start of the current one-second FPS window.
    int m_fpsFrames = 0;
    double m_achievedFps = 0.0;
    QTimer* m_timer;
    QLabel* m_name;
    QToolButton* m_play;
    QToolButton* m_back;
    QToolButton* m_forward;
    QSlider* m_slider;
    QCheckBox* m_loop;
    QDoubleSpinBox* m_speed;
    QLabel* m_readout;
};

} // namespace rig::ui
