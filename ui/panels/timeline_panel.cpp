#include "ui/panels/timeline_panel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QStyleOptionSlider>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rig::ui {
namespace {

/// The timeline's track: a click on the groove jumps to the frame under the
/// pointer (a plain QSlider steps a page, 10 frames, toward it) and keeps the
/// handle under the pointer, so pressing and dragging scrubs from there.
class TimelineSlider : public QSlider {
public:
    using QSlider::QSlider;

protected:
    void mousePressEvent(QMouseEvent* event) override
    {
        if (event->button() == Qt::LeftButton && isEnabled()) {
            QStyleOptionSlider opt;
            initStyleOption(&opt);
            const QRect handle = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, this);
            if (!handle.contains(event->position().toPoint())) {
                setSliderDown(true); // a press on the track: the panel stops playing first
                const QRect groove = style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, this);
                const int span = std::max(1, groove.width() - handle.width());
                const int x = int(event->position().x()) - groove.x() - handle.width() / 2;
                setValue(QStyle::sliderValueFromPosition(minimum(), maximum(), std::clamp(x, 0, span), span,
                                                         opt.upsideDown));
            }
        }
        // The handle is now under the pointer: the default press grabs it and a drag scrubs.
        QSlider::mousePressEvent(event);
    }
};

} // namespace

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent), m_timer(new QTimer(this))
{
    setObjectName("timelinePanel");
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    layout->addLayout(row);

    m_back = new QToolButton(this);
    m_back->setObjectName("stepBackward");
    m_back->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    m_back->setToolTip(tr("Previous frame (Left)"));
    m_play = new QToolButton(this);
    m_play->setObjectName("playPause");
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_play->setToolTip(tr("Play / pause (Space)"));
    m_forward = new QToolButton(this);
    m_forward->setObjectName("stepForward");
    m_forward->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    m_forward->setToolTip(tr("Next frame (Right)"));
    row->addWidget(m_back);
    row->addWidget(m_play);
    row->addWidget(m_forward);

    m_slider = new TimelineSlider(Qt::Horizontal, this);
    m_slider->setObjectName("timeSlider");
    m_slider->setToolTip(tr("Click to jump to a frame, drag to scrub"));
    row->addWidget(m_slider, 1);

    m_loop = new QCheckBox(tr("Loop"), this);
    m_loop->setObjectName("loop");
    m_loop->setChecked(true);
    row->addWidget(m_loop);
    m_speed = new QDoubleSpinBox(this);
    m_speed->setObjectName("speed");
    m_speed->setRange(0.05, 4.0);
    m_speed->setSingleStep(0.25);
    m_speed->setValue(1.0);
    m_speed->setSuffix(tr("×"));
    m_speed->setToolTip(tr("Playback speed"));
    row->addWidget(m_speed);

    auto* info = new QHBoxLayout;
    layout->addLayout(info);
    m_name = new QLabel(tr("No clip — File ▸ Load Clip… or drop a .bvh file"), this);
    m_name->setObjectName("clipName");
    info->addWidget(m_name, 1);
    m_readout = new QLabel(this);
    m_readout->setObjectName("frameReadout");
    info->addWidget(m_readout);

    connect(m_play, &QToolButton::clicked, this, &TimelinePanel::togglePlay);
    connect(m_back, &QToolButton::clicked, this, &TimelinePanel::stepBackward);
    connect(m_forward, &QToolButton::clicked, this, &TimelinePanel::stepForward);
    connect(m_slider, &QSlider::sliderPressed, this, &TimelinePanel::pause); // scrubbing stops playback
    connect(m_slider, &QSlider::valueChanged, this, [this](int f) {
        if (!m_playing || m_slider->isSliderDown())
            setFrame(f);
    });
    connect(m_timer, &QTimer::timeout, this, &TimelinePanel::tick);
    m_timer->setTimerType(Qt::PreciseTimer);
    setClip({}, 0, 1.0 / 30.0);
}

bool TimelinePanel::loop() const { return m_loop->isChecked(); }
double TimelinePanel::speed() const { return m_speed->value(); }
void TimelinePanel::setLoop(bool on) { m_loop->setChecked(on); }
void TimelinePanel::setSpeed(double factor) { m_speed->setValue(factor); }

void TimelinePanel::setClip(const QString& name, int frames, double frameTime)
{
    pause();
    m_frames = std::max(0, frames);
    m_frameTime = frameTime > 0 ? frameTime : 1.0 / 30.0;
    m_time = 0.0;
    const bool on = m_frames > 0;
    for (QWidget* w : std::initializer_list<QWidget*>{m_play, m_back, m_forward, m_slider, m_loop, m_speed})
        w->setEnabled(on);
    {
        const QSignalBlocker block(m_slider);
        m_slider->setRange(0, std::max(0, m_frames - 1));
        m_slider->setValue(0);
    }
    if (on)
        m_name->setText(tr("%1 — %2 frames at %3 fps").arg(name).arg(m_frames).arg(1.0 / m_frameTime, 0, 'f', 1));
    else
        m_name->setText(tr("No clip — File ▸ Load Clip… or drop a .bvh file"));
    updateReadout();
}

void TimelinePanel::play()
{
    if (m_frames < 2 || m_playing)
        return;
    if (m_time >= duration() && !loop())
        m_time = 0.0; // play again from the start
    m_playing = true;
    m_clock.start();
    m_fpsWindow.start();
    m_fpsFrames = 0;
    m_timer->start(std::clamp(int(std::lround(1000.0 * m_frameTime)), 4, 16));
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    emit playingChanged(true);
}

void TimelinePanel::pause()
{
    if (!m_playing)
        return;
    m_playing = false;
    m_timer->stop();
    m_achievedFps = 0.0;
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    updateReadout();
    emit playingChanged(false);
}

void TimelinePanel::togglePlay() { m_playing ? pause() : play(); }

void TimelinePanel::setTime(double seconds)
{
    if (m_frames == 0)
        return;
    m_time = std::clamp(std::isfinite(seconds) ? seconds : 0.0, 0.0, duration());
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(int(std::lround(frame())));
    }
    updateReadout();
    emit timeChanged(m_time);
}

void TimelinePanel::setFrame(int f) { setTime(std::clamp(f, 0, std::max(0, m_frames - 1)) * m_frameTime); }

void TimelinePanel::stepForward()
{
    pause();
    setFrame(int(std::floor(frame() + 1e-6)) + 1);
}

void TimelinePanel::stepBackward()
{
    pause();
    setFrame(int(std::ceil(frame() - 1e-6)) - 1);
}

void TimelinePanel::tick()
{
    const double dt = 1e-3 * double(m_clock.restart()) * speed();
    double t = m_time + dt;
    const double d = duration();
    if (t > d) {
        if (loop() && d > 0) {
            t = std::fmod(t, d);
        } else {
            setTime(d);
            pause();
            return;
        }
    }
    setTime(t);
    ++m_fpsFrames;
    if (m_fpsWindow.elapsed() >= 1000) {
        m_achievedFps = 1000.0 * m_fpsFrames / double(m_fpsWindow.restart());
        m_fpsFrames = 0;
    }
}

void TimelinePanel::updateReadout()
{
    if (m_frames == 0) {
        m_readout->clear();
        return;
    }
    QString text = tr("frame %1 / %2   %3 s / %4 s")
                       .arg(int(std::lround(frame())) + 1)
                       .arg(m_frames)
                       .arg(m_time, 0, 'f', 2)
                       .arg(duration(), 0, 'f', 2);
    if (m_playing && m_achievedFps > 0)
        text += tr("   %1 fps").arg(m_achievedFps, 0, 'f', 0);
    m_readout->setText(text);
}

} // namespace rig::ui
