#include "core/EventQueue.h"

#include "core/Error.h"

namespace astrolabe {

void EventQueue::push(Entry e) {
    // Sift up in a 4-ary heap: parent of i is (i - 1) / 4.
    size_t i = m_heap.size();
    m_heap.push_back(e);
    while (i > 0) {
        const size_t parent = (i - 1) / 4;
        if (!earlier(e, m_heap[parent]))
            break;
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = e;
}

void EventQueue::popTop() {
    const Entry last = m_heap.back();
    m_heap.pop_back();
    const size_t n = m_heap.size();
    if (n == 0)
        return;
    size_t i = 0;
    for (;;) {
        const size_t first = 4 * i + 1;
        if (first >= n)
            break;
        size_t best = first;
        const size_t end = first + 4 < n ? first + 4 : n;
        for (size_t c = first + 1; c < end; ++c)
            if (earlier(m_heap[c], m_heap[best]))
                best = c;
        if (!earlier(m_heap[best], last))
            break;
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = last;
}

EventQueue::Handle EventQueue::schedule(SimTime at, Callback callback) {
    uint32_t slot;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        if (m_slots.size() > kSlotMask)
            throw Error(ErrorKind::Unsupported,
                        "more than 16.7 million simultaneous pending events");
        slot = static_cast<uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    Slot& s = m_slots[slot];
    s.callback = std::move(callback);
    s.live = true;
    push(Entry{at.ps(), (m_nextSequence++ << kSlotBits) | slot});
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
    while (!m_heap.empty()) {
        const uint32_t slot = m_heap.front().slot();
        if (m_slots[slot].live)
            return;
        popTop();
        releaseSlot(slot);
    }
}

SimTime EventQueue::nextTime() {
    dropCancelledTop();
    return m_heap.empty() ? SimTime::max() : SimTime::fromPs(m_heap.front().timePs);
}

bool EventQueue::pop(SimTime& at, Callback& callback) {
    dropCancelledTop();
    if (m_heap.empty())
        return false;
    const Entry top = m_heap.front();
    popTop();
    const uint32_t slot = top.slot();
    Slot& s = m_slots[slot];
    at = SimTime::fromPs(top.timePs);
    callback = std::move(s.callback);
    s.callback = nullptr;
    s.live = false;
    --m_live;
    releaseSlot(slot);
    return true;
}

} // namespace astrolabe
