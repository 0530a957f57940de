#include "ui/panels/timeline_panel.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QSignalSpy>
#include <QMouseEvent>
#include <QSlider>
#include <QStyle>
#include <QTest>
#include <QToolButton>

namespace rig::ui {
namespace {

TEST(TimelinePanel, WithoutAClipEverythingIsDisabledAndNothingMoves)
{
    TimelinePanel panel;
    QSignalSpy changed(&panel, &TimelinePanel::timeChanged);
    EXPECT_FALSE(panel.findChild<QToolButton*>("playPause")->isEnabled());
    panel.play();
    panel.stepForward();
    panel.setTime(3.0);
    EXPECT_FALSE(panel.isPlaying());
    EXPECT_EQ(changed.count(), 0);
    EXPECT_EQ(panel.time(), 0.0);
}

TEST(TimelinePanel, StepsAndScrubsAreClampedToTheClip)
{
    TimelinePanel panel;
    panel.setClip("walk", 10, 0.1);
    QSignalSpy changed(&panel, &TimelinePanel::timeChanged);
    panel.stepForward();
    EXPECT_DOUBLE_EQ(panel.frame(), 1.0);
    panel.stepBackward();
    panel.stepBackward();
    EXPECT_DOUBLE_EQ(panel.frame(), 0.0);
    panel.setTime(100.0);
    EXPECT_NEAR(panel.time(), 0.9, 1e-12);
    panel.setFrame(-4);
    EXPECT_EQ(panel.time(), 0.0);
    EXPECT_EQ(changed.count(), 5);
    // Dragging the slider is scrubbing.
    panel.findChild<QSlider*>("timeSlider")->setValue(7);
    EXPECT_NEAR(panel.time(), 0.7, 1e-12);
}

TEST(TimelinePanel, PlaybackFollowsTheClockAndLoops)
{
    TimelinePanel panel;
    panel.setClip("walk", 5, 0.02); // 80 ms long
    panel.setLoop(true);
    QSignalSpy changed(&panel, &TimelinePanel::timeChanged);
    panel.play();
    EXPECT_TRUE(panel.isPlaying());
    QTest::qWait(250);
    EXPECT_TRUE(panel.isPlaying()); // looping: still going after three lengths
    EXPECT_GE(changed.count(), 5);
    for (const auto& args : changed)
        EXPECT_LE(args.at(0).toDouble(), panel.duration() + 1e-12);
    panel.pause();
    EXPECT_FALSE(panel.isPlaying());
}

TEST(TimelinePanel, WithoutLoopPlaybackStopsAtTheEnd)
{
    TimelinePanel panel;
    panel.setClip("jump", 4, 0.01);
    panel.setLoop(false);
    panel.setSpeed(2.0);
    QSignalSpy playing(&panel, &TimelinePanel::playingChanged);
    panel.play();
    QTest::qWait(150);
    EXPECT_FALSE(panel.isPlaying());
    EXPECT_NEAR(panel.time(), panel.duration(), 1e-12);
    EXPECT_EQ(playing.count(), 2);
    // Play again starts from the beginning.
    panel.play();
    EXPECT_LT(panel.time(), panel.duration());
    panel.pause();
}

/// The x of frame `f` on the slider's track (the handle's centre there).
int trackX(QSlider* slider, int f)
{
    const int margin = slider->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, slider) / 2;
    const int span = slider->width() - 2 * margin;
    return margin + QStyle::sliderPositionFromValue(slider->minimum(), slider->maximum(), f, span);
}

// Issue 19 item 8: a click on the track jumps to the clicked frame (a plain
// QSlider steps 10 frames toward it), and a press-and-drag scrubs.
TEST(TimelinePanel, ClickOnTheTrackJumpsToTheClickedFrameAndDragScrubs)
{
    TimelinePanel panel;
    panel.resize(900, 80);
    panel.setClip("walk", 200, 1.0 / 30.0);
    panel.show();
    QCoreApplication::processEvents();
    auto* slider = panel.findChild<QSlider*>("timeSlider");
    ASSERT_NE(slider, nullptr);
    ASSERT_GT(slider->width(), 300);
    const int y = slider->height() / 2;
    QTest::mouseClick(slider, Qt::LeftButton, {}, QPoint(trackX(slider, 150), y));
    EXPECT_NEAR(panel.frame(), 150.0, 3.0); // one pixel is less than a frame and a half here
    QTest::mouseClick(slider, Qt::LeftButton, {}, QPoint(trackX(slider, 40), y));
    EXPECT_NEAR(panel.frame(), 40.0, 3.0);

    // Press on the track, drag, release: the time follows the pointer.
    QSignalSpy changed(&panel, &TimelinePanel::timeChanged);
    QTest::mousePress(slider, Qt::LeftButton, {}, QPoint(trackX(slider, 100), y));
    EXPECT_NEAR(panel.frame(), 100.0, 3.0);
    QMouseEvent move(QEvent::MouseMove, QPointF(trackX(slider, 170), y), slider->mapToGlobal(QPointF(trackX(slider, 170), y)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(slider, &move);
    EXPECT_NEAR(panel.frame(), 170.0, 3.0);
    QTest::mouseRelease(slider, Qt::LeftButton, {}, QPoint(trackX(slider, 170), y));
    EXPECT_GE(changed.count(), 2);
    EXPECT_NEAR(panel.frame(), 170.0, 3.0);

    // A click while playing jumps there and stops playback.
    panel.play();
    ASSERT_TRUE(panel.isPlaying());
    QTest::mouseClick(slider, Qt::LeftButton, {}, QPoint(trackX(slider, 60), y));
    EXPECT_FALSE(panel.isPlaying());
    EXPECT_NEAR(panel.frame(), 60.0, 3.0);
}

} // namespace
} // namespace rig::ui
