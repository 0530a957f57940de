#include "ui/panels/timeline_panel.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QSignalSpy>
#include <QSlider>
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

} // namespace
} // namespace rig::ui
