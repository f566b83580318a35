#pragma once
// The discrete-event queue: ordered by (time, insertion sequence), so events at equal times run
// first-in first-out and a run is deterministic bit for bit.
//
// A radix heap over integer picoseconds (docs/performance.md, "Speed"): an entry sits in bucket
// b = bit length of (time XOR last), where last is the time of the latest minimum taken; bucket
// 0 holds the entries at time `last`, in insertion order. When bucket 0 is used up, the lowest
// non-empty bucket is redistributed below the new minimum. Entries of equal time always share a
// bucket and move together, appended in order, so equal times stay first-in first-out without a
// sequence number. Each entry moves down at most 64 times, in sequential passes over vectors
// (the 4-ary heap it replaces spent 10% of a 128-NPU run sifting). Scheduling before `last`
// (which the Simulator never does) is still correct: every entry is re-bucketed below it.
//
// Cancellation is by handle and O(1): the slot is marked dead and its entry is skipped when it
// surfaces (lazy deletion); only then is the slot reused, so an entry never needs a generation.
// Callbacks live in a slot pool; buckets hold 16-byte entries (time and slot), so moving them
// never moves a std::function.
// Complexity: schedule O(1), pop amortized O(log T) for T the time span; cancel O(1). Not
// thread-safe; one queue per Simulation.

#include "core/SimTime.h"

#include <array>
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
    static constexpr uint32_t kMaxSlots = 1u << 24;
    struct Entry {
        uint64_t key; ///< the time in ps, sign bit flipped so that unsigned order is time order
        uint32_t slot;
    };
    struct Slot {
        Callback callback;
        uint32_t generation = 0;
        bool live = false;
    };
    static uint64_t keyOf(SimTime at) {
        return static_cast<uint64_t>(at.ps()) ^ (uint64_t{1} << 63);
    }
    static SimTime timeOf(uint64_t key) {
        return SimTime::fromPs(static_cast<int64_t>(key ^ (uint64_t{1} << 63)));
    }
    size_t bucketOf(uint64_t key) const;
    void push(Entry e);
    void place(const Entry& e);
    /// Makes bucket 0 hold the earliest entry at m_head; false when no entry is left.
    bool refill();
    /// Re-buckets every entry below a key earlier than m_last.
    void rebase(uint64_t key);
    void dropCancelledTop();
    void releaseSlot(uint32_t slot);

    std::array<std::vector<Entry>, 65> m_buckets;
    uint64_t m_occupied = 0;             ///< bit b - 1 set when bucket b > 0 holds entries
    size_t m_head = 0;                   ///< entries of bucket 0 already taken
    uint64_t m_last = uint64_t{1} << 63; ///< the key of bucket 0 (time 0 to start with)
    std::vector<Slot> m_slots;
    std::vector<uint32_t> m_freeSlots;
    size_t m_live = 0;
};

} // namespace astrolabe
