#pragma once
// One clock and one event queue. Components schedule callbacks; run() dispatches them in
// (time, sequence) order, setting now() before each dispatch.
//
// Cancellation: run() polls a CancelToken every kPollEvents events (an atomic load) and stops
// within well under 100 ms of wall time. Progress goes to a ProgressSink at most every
// kProgressInterval of wall time; the sink knows nothing of Qt.

#include "core/EventQueue.h"
#include "core/SimTime.h"

#include <atomic>
#include <chrono>
#include <cstdint>

namespace astrolabe {

class CancelToken {
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled{false};
};

struct Progress {
    SimTime now;
    uint64_t eventsProcessed = 0;
    size_t eventsPending = 0;
    double wallSeconds = 0;
    double eventsPerSecond = 0;
};

class ProgressSink {
public:
    virtual ~ProgressSink() = default;
    /// Called from the simulating thread; implementations must be cheap and thread-safe.
    virtual void onProgress(const Progress& progress) = 0;
};

class Simulator {
public:
    using Callback = EventQueue::Callback;
    using Handle = EventQueue::Handle;

    enum class StopReason { Drained, ReachedLimit, Cancelled };

    static constexpr uint64_t kPollEvents = 1024;
    static constexpr std::chrono::milliseconds kProgressInterval{100};

    SimTime now() const { return m_now; }
    uint64_t eventsProcessed() const { return m_eventsProcessed; }
    size_t eventsPending() const { return m_queue.size(); }
    /// Time of the earliest pending event; SimTime::max() when none is left.
    SimTime nextEventTime() { return m_queue.nextTime(); }

    Handle scheduleAt(SimTime at, Callback callback) {
        if (at < m_now) [[unlikely]]
            throwScheduledInThePast(at);
        return m_queue.schedule(at, std::move(callback));
    }
    Handle scheduleIn(SimTime delay, Callback callback) {
        return scheduleAt(m_now + delay, std::move(callback));
    }
    bool cancel(Handle handle) { return m_queue.cancel(handle); }
    bool pending(Handle handle) const { return m_queue.pending(handle); }

    /// Dispatches one event; false when the queue is empty.
    bool step();
    /// Runs until the queue drains or the token is cancelled.
    StopReason run(const CancelToken* cancel = nullptr, ProgressSink* progress = nullptr);
    /// Runs every event with time <= limit; the clock then reads max(now, limit) unless drained.
    StopReason runUntil(SimTime limit, const CancelToken* cancel = nullptr,
                        ProgressSink* progress = nullptr);

private:
    [[noreturn]] void throwScheduledInThePast(SimTime at) const;

    EventQueue m_queue;
    SimTime m_now;
    uint64_t m_eventsProcessed = 0;
};

} // namespace astrolabe
