#include "core/EventQueue.h"

#include <algorithm>

namespace astrolabe {

EventQueue::Handle EventQueue::schedule(SimTime at, Callback callback) {
    uint32_t slot;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        slot = static_cast<uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    Slot& s = m_slots[slot];
    s.callback = std::move(callback);
    s.live = true;
    m_heap.push_back(Entry{at.ps(), m_nextSequence++, slot, s.generation});
    std::push_heap(m_heap.begin(), m_heap.end(), later);
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
        const Entry& top = m_heap.front();
        const Slot& s = m_slots[top.slot];
        if (s.live && s.generation == top.generation)
            return;
        const uint32_t slot = top.slot;
        std::pop_heap(m_heap.begin(), m_heap.end(), later);
        m_heap.pop_back();
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
    std::pop_heap(m_heap.begin(), m_heap.end(), later);
    m_heap.pop_back();
    Slot& s = m_slots[top.slot];
    at = SimTime::fromPs(top.timePs);
    callback = std::move(s.callback);
    s.callback = nullptr;
    s.live = false;
    --m_live;
    releaseSlot(top.slot);
    return true;
}

} // namespace astrolabe
