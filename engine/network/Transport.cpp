#include "network/Transport.h"

#include "core/Error.h"

#include <algorithm>
#include <bit>
#include <tuple>

namespace astrolabe {

Transport::Transport(Simulator& sim, bool rendezvous)
    : m_sim(sim)
    , m_rendezvous(rendezvous) {}

void Transport::send(int src, int dst, uint64_t tag, uint64_t bytes, Handler onDelivered) {
    if (!m_rendezvous) {
        sendNow(src, dst, tag, bytes, std::move(onDelivered));
        return;
    }
    // Wait for the receiver's control message, then inject the data.
    receiveNow(src, dst, tag | kControlTagBit, kControlBytes,
               [this, src, dst, tag, bytes, h = std::move(onDelivered)]() mutable {
                   sendNow(src, dst, tag, bytes, std::move(h));
               });
}

void Transport::receive(int dst, int src, uint64_t tag, uint64_t bytes, Handler onReceived) {
    if (!m_rendezvous) {
        receiveNow(dst, src, tag, bytes, std::move(onReceived));
        return;
    }
    sendNow(dst, src, tag | kControlTagBit, kControlBytes,
            [this, dst, src, tag, bytes, h = std::move(onReceived)]() mutable {
                receiveNow(dst, src, tag, bytes, std::move(h));
            });
}

void Transport::sendNow(int src, int dst, uint64_t tag, uint64_t bytes, Handler onDelivered) {
    if (m_ranks && !m_ranks->simulated(dst)) {
        const Key deliverAs{m_ranks->representative(dst), m_ranks->pullBack(dst, src), tag, bytes};
        transmit(src, dst, deliverAs, bytes, std::move(onDelivered));
        return;
    }
    transmit(src, dst, Key{dst, src, tag, bytes}, bytes, std::move(onDelivered));
}

void Transport::sendMirrored(int src, int dst, int mirrorSrc, uint64_t tag, uint64_t bytes) {
    transmit(src, dst, Key{src, mirrorSrc, tag, bytes}, bytes, {});
}

void Transport::transmit(int src, int dst, const Key& deliverAs, uint64_t bytes,
                         Handler onDelivered) {
    const uint32_t slot = allocateSlot(InFlight{deliverAs, std::move(onDelivered)});
    if (src == dst) {
        // A message to oneself costs nothing on the network.
        m_sim.scheduleIn(SimTime::zero(), [this, slot] { this->onDelivered(slot); });
        return;
    }
    m_network->transmit(src, dst, bytes, slot);
}

uint32_t Transport::allocateSlot(InFlight message) {
    if (!m_network)
        throw Error(ErrorKind::Internal, "Transport used before a network model was attached");
    uint32_t slot;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        slot = static_cast<uint32_t>(m_inFlight.size());
        m_inFlight.emplace_back();
    }
    m_inFlight[slot] = std::move(message);
    return slot;
}

void Transport::sendToSwitch(int npu, int d, uint64_t bytes, Handler onArrived) {
    const uint32_t slot = allocateSlot(InFlight{Key{}, std::move(onArrived), false});
    m_network->transmitToSwitch(npu, d, bytes, slot);
}

void Transport::sendFromSwitch(int d, int npu, uint64_t bytes, uint64_t inputBytes,
                               Handler onArrived) {
    const uint32_t slot = allocateSlot(InFlight{Key{}, std::move(onArrived), false});
    m_network->transmitFromSwitch(d, npu, bytes, inputBytes, slot);
}

void Transport::receiveNow(int dst, int src, uint64_t tag, uint64_t bytes, Handler onReceived) {
    if (--m_untilSweep == 0)
        sweepIdleMailboxes();
    Mailbox& box = mailbox(Key{dst, src, tag, bytes});
    if (box.arrived > 0) {
        --box.arrived;
        m_sim.scheduleIn(SimTime::zero(), std::move(onReceived));
        return;
    }
    if (box.head == box.receives.size()) {
        box.receives.clear();
        box.head = 0;
    }
    box.receives.push_back(std::move(onReceived));
}

Transport::Mailbox& Transport::mailbox(const Key& key) {
    if (2 * (m_usedEntries + 1) > m_table.size())
        rebuildTable(std::max<size_t>(64, 2 * m_table.size()));
    const size_t mask = m_table.size() - 1;
    for (size_t i = KeyHash{}(key)&mask;; i = (i + 1) & mask) {
        TableEntry& entry = m_table[i];
        if (entry.box == kEmpty) {
            uint32_t box;
            if (!m_freeBoxes.empty()) {
                box = m_freeBoxes.back();
                m_freeBoxes.pop_back();
            } else {
                box = static_cast<uint32_t>(m_boxes.size());
                m_boxes.emplace_back();
            }
            entry = TableEntry{key, box};
            ++m_usedEntries;
            return m_boxes[box];
        }
        if (entry.key == key)
            return m_boxes[entry.box];
    }
}

void Transport::rebuildTable(size_t capacity) {
    std::vector<TableEntry> old = std::move(m_table);
    m_table.assign(capacity, TableEntry{});
    m_usedEntries = 0;
    const size_t mask = capacity - 1;
    for (const TableEntry& entry : old) {
        if (entry.box == kEmpty)
            continue;
        size_t i = KeyHash{}(entry.key) & mask;
        while (m_table[i].box != kEmpty)
            i = (i + 1) & mask;
        m_table[i] = entry;
        ++m_usedEntries;
    }
}

void Transport::sweepIdleMailboxes() {
    m_untilSweep = kSweepInterval;
    bool dropped = false;
    for (TableEntry& entry : m_table) {
        if (entry.box == kEmpty || !m_boxes[entry.box].idle())
            continue;
        m_boxes[entry.box] = Mailbox{};
        m_freeBoxes.push_back(entry.box);
        entry.box = kEmpty;
        dropped = true;
    }
    if (dropped) // linear probing has no holes: re-place the rest, shrinking when sparse
        rebuildTable(
            std::max<size_t>(64, std::bit_ceil(4 * (m_boxes.size() - m_freeBoxes.size()))));
}

void Transport::onDelivered(uint64_t token) {
    const auto slot = static_cast<uint32_t>(token);
    InFlight message = std::move(m_inFlight[slot]);
    m_inFlight[slot].onDelivered = nullptr;
    m_freeSlots.push_back(slot);
    ++m_delivered;
    if (message.onDelivered)
        message.onDelivered();
    if (!message.matched)
        return;
    Mailbox& box = mailbox(message.key);
    if (box.head < box.receives.size()) {
        Handler h = std::move(box.receives[box.head++]);
        h(); // may post receives into this mailbox: nothing of `box` is used afterwards
        return;
    }
    ++box.arrived;
}

std::vector<Transport::PendingReceive> Transport::pendingReceives() const {
    std::vector<PendingReceive> out;
    for (const TableEntry& entry : m_table) {
        if (entry.box == kEmpty)
            continue;
        const Mailbox& box = m_boxes[entry.box];
        const Key& key = entry.key;
        for (size_t i = box.head; i < box.receives.size(); ++i)
            out.push_back({key.dst, key.src, key.tag, key.bytes});
    }
    // In a fixed order whatever the table's layout: by receiver, sender, tag and size.
    std::sort(out.begin(), out.end(), [](const PendingReceive& a, const PendingReceive& b) {
        return std::tie(a.dst, a.src, a.tag, a.bytes) < std::tie(b.dst, b.src, b.tag, b.bytes);
    });
    return out;
}

} // namespace astrolabe
