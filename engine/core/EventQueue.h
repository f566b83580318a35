#pragma once
// The discrete-event queue: a 4-ary min-heap ordered by (time, insertion sequence), so events
// at equal times run first-in first-out and a run is deterministic bit for bit.
//
// Cancellation is by handle and O(1): the slot is marked dead and its heap entry is skipped when
// it surfaces (lazy deletion); only then is the slot reused, so a heap entry never needs a
// generation. Callbacks live in a slot pool; the heap holds 16-byte keys (time, and sequence
// and slot packed in one word), so sifting never moves a std::function.
// Complexity: schedule and pop O(log n); cancel O(1). Not thread-safe; one queue per Simulation.

#include "core/SimTime.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace astrolabe {

class EventQueue {
public:
    using Callback = std::function<void()>;

    struct Handle {
        uint32_t slot = UINT32_MAX;
        uint32_t generation = 0;
        bool valid() const { return slot != UINT32_MAX; }
    };

    Handle schedule(SimTime at, Callback callback);
    /// Returns false when the event already ran or was cancelled.
    bool cancel(Handle handle);
    bool pending(Handle handle) const;

    /// Live (not cancelled) events.
    size_t size() const { return m_live; }
    bool empty() const { return m_live == 0; }
    /// Time of the earliest live event; SimTime::max() when empty.
    SimTime nextTime();
    /// Removes the earliest live event; false when empty.
    bool pop(SimTime& at, Callback& callback);

private:
    static constexpr int kSlotBits = 24;
    static constexpr uint64_t kSlotMask = (1ULL << kSlotBits) - 1;
    struct Entry {
        int64_t timePs;
        uint64_t order; ///< sequence << kSlotBits | slot: orders equal times by insertion
        uint32_t slot() const { return static_cast<uint32_t>(order & kSlotMask); }
    };
    struct Slot {
        Callback callback;
        uint32_t generation = 0;
        bool live = false;
    };
    static bool earlier(const Entry& a, const Entry& b) {
        return a.timePs != b.timePs ? a.timePs < b.timePs : a.order < b.order;
    }
    void push(Entry e);
    void popTop();
    void dropCancelledTop();
    void releaseSlot(uint32_t slot);

    std::vector<Entry> m_heap;
    std::vector<Slot> m_slots;
    std::vector<uint32_t> m_freeSlots;
    uint64_t m_nextSequence = 0;
    size_t m_live = 0;
};

} // namespace astrolabe
