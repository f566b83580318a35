#pragma once
// "Watch a collective": the network drawing with a recorded collective's chunks moving over it
// (CollectiveAnimation), and the controls of the replay: previous step, play / pause, next
// step, a time slider and the speed. At speed 1 the whole run plays in kSecondsPerRun seconds.
//
// The time is shared with the timeline's cursor: setTime() moves the replay (and emits
// timeChanged only when the time actually changes, so two widgets wired both ways settle).
#include "record/RunResult.h"
#include "spec/PlatformSpec.h"
#include "topology/CollectiveAnimation.h"
#include "topology/NetworkView.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace astrolabe::widgets {

class CollectiveAnimationView : public QWidget, private NetworkOverlay {
    Q_OBJECT
public:
    static constexpr double kSecondsPerRun = 10.0;

    explicit CollectiveAnimationView(QWidget* parent = nullptr);

    /// Shows `run` (its transfers must have been recorded: RunOptions::recordTransfers) on
    /// `platform`, at the first message, paused.
    void setRun(const PlatformSpec& platform, std::shared_ptr<const RunResult> run);
    const CollectiveAnimation& animation() const { return m_animation; }
    const AnimationFrame& frame() const { return m_frame; }
    NetworkView* networkView() const { return m_view; }

    SimTime time() const { return m_time; }
    bool playing() const { return m_timer.isActive(); }
    double speed() const { return m_speed; }
    void setSpeed(double speed);
    /// The frame's step as the drawing shows it: "reduce-scatter step 3 of 7".
    static QString stepText(const AnimationFrame& frame);

public slots:
    void setTime(qint64 ps);
    void play();
    void pause();
    void togglePlay();
    void stepForward();
    void stepBackward();

signals:
    void timeChanged(qint64 ps);

private:
    void paint(QPainter& painter, const NetworkView& view) const override;
    void paintCounts(QPainter& painter, const NetworkView& view) const;
    void paintNpuNumbers(QPainter& painter, const NetworkView& view) const;
    void paintGroups(QPainter& painter, const NetworkView& view) const;
    void advance();
    void updateControls();

    PlatformSpec m_platform;
    std::shared_ptr<const RunResult> m_run;
    CollectiveAnimation m_animation;
    AnimationFrame m_frame;
    SimTime m_time;
    double m_speed = 1.0;

    NetworkView* m_view;
    QToolButton* m_previous;
    QToolButton* m_play;
    QToolButton* m_next;
    QSlider* m_slider;
    QComboBox* m_speedBox;
    QLabel* m_clock;
    QTimer m_timer;
    QElapsedTimer m_wall;
};

} // namespace astrolabe::widgets
