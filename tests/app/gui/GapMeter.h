#pragma once
// Event-loop latency: a 5 ms timer on the GUI thread records the longest wall-clock gap between
// its ticks, and the longest stretch of GUI-thread CPU time between them. The CPU figure shows
// what the GUI thread itself did (work that blocks the event loop); the wall figure also counts
// time the thread waited for a core, which on a loaded 2-core machine (parallel builds) says
// more about the machine than about the code. loaded() tells the two situations apart.

#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <thread>

namespace astrolabe::gui::test {

class GapMeter {
public:
    GapMeter() {
        m_timer.setInterval(5);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { tick(); });
        m_clock.start();
        m_lastCpu = threadCpuMs();
        m_timer.start();
    }
    qint64 maxGapMs() const { return m_maxGap; }
    double maxCpuGapMs() const { return m_maxCpuGap; }
    qint64 ticks() const { return m_ticks; }
    qint64 elapsedMs() const { return m_clock.elapsed(); }
    /// Forget the time since the last tick (work the test did itself, e.g. a screenshot).
    void skip() {
        m_last = m_clock.elapsed();
        m_lastCpu = threadCpuMs();
    }
    void stop() { m_timer.stop(); }

    /// More runnable threads than cores (1-minute load average): wall gaps include waiting for
    /// a core.
    static bool loaded() {
        double load[1] = {0};
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        return getloadavg(load, 1) == 1 && load[0] > cores;
    }

private:
    static double threadCpuMs() {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
    }
    void tick() {
        const qint64 now = m_clock.elapsed();
        const double cpu = threadCpuMs();
        m_maxGap = std::max(m_maxGap, now - m_last);
        m_maxCpuGap = std::max(m_maxCpuGap, cpu - m_lastCpu);
        m_last = now;
        m_lastCpu = cpu;
        ++m_ticks;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0, m_maxGap = 0, m_ticks = 0;
    double m_lastCpu = 0, m_maxCpuGap = 0;
};

} // namespace astrolabe::gui::test
