#include "core/EventQueue.h"

#include "core/Error.h"

#include <algorithm>
#include <bit>

namespace astrolabe {

size_t EventQueue::bucketOf(uint64_t key) const {
    return key == m_last ? 0 : static_cast<size_t>(64 - std::countl_zero(key ^ m_last));
}

void EventQueue::push(Entry e) {
    if (e.key < m_last)
        rebase(e.key);
    place(e);
}

void EventQueue::place(const Entry& e) {
    const size_t b = bucketOf(e.key);
    m_buckets[b].push_back(e);
    if (b > 0)
        m_occupied |= uint64_t{1} << (b - 1);
}

void EventQueue::rebase(uint64_t key) {
    std::vector<Entry> all;
    std::vector<Entry>& first = m_buckets[0];
    all.insert(all.end(), first.begin() + static_cast<std::ptrdiff_t>(m_head), first.end());
    for (size_t b = 1; b < m_buckets.size(); ++b)
        all.insert(all.end(), m_buckets[b].begin(), m_buckets[b].end());
    for (std::vector<Entry>& bucket : m_buckets)
        bucket.clear();
    m_occupied = 0;
    m_head = 0;
    m_last = key;
    // Bucket by bucket, each in its order: entries of equal time keep their order.
    for (const Entry& e : all)
        place(e);
}

bool EventQueue::refill() {
    std::vector<Entry>& first = m_buckets[0];
    if (m_head < first.size())
        return true;
    first.clear();
    m_head = 0;
    if (m_occupied == 0)
        return false;
    const size_t b = static_cast<size_t>(std::countr_zero(m_occupied)) + 1;
    m_occupied &= m_occupied - 1;
    std::vector<Entry>& source = m_buckets[b];
    uint64_t least = source.front().key;
    for (const Entry& e : source)
        least = std::min(least, e.key);
    m_last = least;
    // Every entry lands in a lower bucket (they share their bits above b with the new minimum);
    // walking the source in order keeps equal times in insertion order.
    for (const Entry& e : source)
        place(e);
    source.clear();
    return true;
}

EventQueue::Handle EventQueue::schedule(SimTime at, Callback callback) {
    uint32_t slot;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        if (m_slots.size() >= kMaxSlots)
            throw Error(ErrorKind::Unsupported,
                        "more than 16.7 million simultaneous pending events");
        slot = static_cast<uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    Slot& s = m_slots[slot];
    s.callback = std::move(callback);
    s.live = true;
    push(Entry{keyOf(at), slot});
    ++m_live;
    return Handle{slot, s.generation};
}

bool EventQueue::pending(Handle handle) const {
    return handle.slot < m_slots.size() && m_slots[handle.slot].live &&
           m_slots[handle.slot].generation == handle.generation;
}

bool EventQueue::cancel(Handle handle) {
    if (!pending(handle))
        return false;
    Slot& s = m_slots[handle.slot];
    s.live = false;
    s.callback = nullptr;
    --m_live;
    // The slot is reused only once its heap entry has surfaced (see dropCancelledTop), so a
    // stale entry can never run a newer callback.
    return true;
}

void EventQueue::releaseSlot(uint32_t slot) {
    ++m_slots[slot].generation;
    m_freeSlots.push_back(slot);
}

void EventQueue::dropCancelledTop() {
    while (refill()) {
        const uint32_t slot = m_buckets[0][m_head].slot;
        if (m_slots[slot].live)
            return;
        ++m_head;
        releaseSlot(slot);
    }
}

SimTime EventQueue::nextTime() {
    dropCancelledTop();
    return m_head < m_buckets[0].size() ? timeOf(m_last) : SimTime::max();
}

bool EventQueue::pop(SimTime& at, Callback& callback) {
    dropCancelledTop();
    if (m_head >= m_buckets[0].size())
        return false;
    const uint32_t slot = m_buckets[0][m_head++].slot;
    Slot& s = m_slots[slot];
    at = timeOf(m_last);
    callback = std::move(s.callback);
    s.callback = nullptr;
    s.live = false;
    --m_live;
    releaseSlot(slot);
    return true;
}

} // namespace astrolabe
