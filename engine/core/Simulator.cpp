#include "core/Simulator.h"

#include "core/Error.h"

namespace astrolabe {

void Simulator::throwScheduledInThePast(SimTime at) const {
    throw Error(ErrorKind::Internal, "an event was scheduled in the past (" +
                                         std::to_string(at.ps()) + " ps < now " +
                                         std::to_string(m_now.ps()) + " ps)");
}

bool Simulator::step() {
    Callback callback;
    SimTime at;
    if (!m_queue.pop(at, callback))
        return false;
    m_now = at;
    ++m_eventsProcessed;
    callback();
    return true;
}

Simulator::StopReason Simulator::run(const CancelToken* cancel, ProgressSink* progress) {
    return runUntil(SimTime::max(), cancel, progress);
}

Simulator::StopReason Simulator::runUntil(SimTime limit, const CancelToken* cancel,
                                          ProgressSink* progress) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point started = Clock::now();
    Clock::time_point lastReport = started;
    const uint64_t firstEvent = m_eventsProcessed;
    uint64_t untilPoll = kPollEvents;
    if (cancel && cancel->cancelled())
        return StopReason::Cancelled;

    auto report = [&](Clock::time_point wallNow) {
        if (!progress)
            return;
        const double wall = std::chrono::duration<double>(wallNow - started).count();
        const uint64_t done = m_eventsProcessed - firstEvent;
        progress->onProgress(Progress{m_now, m_eventsProcessed, m_queue.size(), wall,
                                      wall > 0 ? static_cast<double>(done) / wall : 0.0});
    };

    for (;;) {
        if (--untilPoll == 0) {
            untilPoll = kPollEvents;
            if (cancel && cancel->cancelled())
                return StopReason::Cancelled;
            if (progress) {
                const Clock::time_point wallNow = Clock::now();
                if (wallNow - lastReport >= kProgressInterval) {
                    lastReport = wallNow;
                    report(wallNow);
                }
            }
        }
        if (m_queue.empty()) {
            report(Clock::now());
            return StopReason::Drained;
        }
        if (limit != SimTime::max() && m_queue.nextTime() > limit) {
            if (limit > m_now)
                m_now = limit;
            report(Clock::now());
            return StopReason::ReachedLimit;
        }
        step();
    }
}

} // namespace astrolabe
