#pragma once
// Point-to-point messages over a NetworkModel, with ASTRA-sim's matching rule (spec §2.4):
// a message matches a receive iff (tag, src, dst, bytes) are equal; among several, the k-th
// send with a key matches the k-th receive with that key (FIFO per key). A receive posted after
// its message arrived completes at once (a zero-delay event).
//
// Rendezvous (spec §5.12): before every data message the receiver sends an 8 KiB control
// message to the sender; the sender injects the data when that arrives, and the receiver posts
// the data receive when its control message has been delivered.

#include "core/Simulator.h"
#include "network/NetworkModel.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace astrolabe {

/// A folded run (simulation/RankFolding.h) simulates one representative per class of NPUs: a
/// message to an NPU that is not simulated is delivered to its representative, as the message
/// that the representative receives at the same moment by symmetry.
class RankMap {
public:
    virtual ~RankMap() = default;
    virtual bool simulated(int npu) const = 0;
    virtual int representative(int npu) const = 0;
    /// h_n^-1(x), where h_n is the symmetry that maps representative(n) onto n.
    virtual int pullBack(int n, int x) const = 0;
};

class Transport : public DeliverySink {
public:
    using Handler = std::function<void()>;

    static constexpr uint64_t kControlBytes = 8192;
    static constexpr uint64_t kControlTagBit = 1ULL << 62;

    Transport(Simulator& sim, bool rendezvous);
    void setNetwork(NetworkModel* network) { m_network = network; }
    /// Folded runs: see RankMap (null: every NPU is simulated).
    void setRankMap(const RankMap* ranks) { m_ranks = ranks; }

    /// Sends now; onDelivered (may be empty) runs at arrival.
    void send(int src, int dst, uint64_t tag, uint64_t bytes, Handler onDelivered = {});
    /// Symmetric runs: moves `bytes` from src to dst over the network, but delivers it to src as
    /// the message `mirrorSrc` sends to src at the same moment (same delay by symmetry).
    void sendMirrored(int src, int dst, int mirrorSrc, uint64_t tag, uint64_t bytes);
    /// In-network collectives: `bytes` from npu up to its switch in Switch dimension d, and
    /// from that switch down to npu. No matching: onArrived runs at arrival (see NetworkModel).
    void sendToSwitch(int npu, int d, uint64_t bytes, Handler onArrived);
    void sendFromSwitch(int d, int npu, uint64_t bytes, uint64_t inputBytes, Handler onArrived);
    /// Posts a receive at dst for a message from src; onReceived runs when it is matched.
    void receive(int dst, int src, uint64_t tag, uint64_t bytes, Handler onReceived);

    void onDelivered(uint64_t token) override;

    uint64_t messagesDelivered() const { return m_delivered; }

    struct PendingReceive {
        int dst;
        int src;
        uint64_t tag;
        uint64_t bytes;
    };
    /// Receives still waiting for a message (for the deadlock report).
    std::vector<PendingReceive> pendingReceives() const;

private:
    struct Key {
        int dst;
        int src;
        uint64_t tag;
        uint64_t bytes;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const {
            uint64_t h = static_cast<uint64_t>(k.dst) * 0x9E3779B97F4A7C15ULL;
            h ^= (static_cast<uint64_t>(k.src) + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
            h ^= (k.tag + (h << 6) + (h >> 2)) * 0x94D049BB133111EBULL;
            h ^= k.bytes + (h << 7);
            return static_cast<size_t>(h ^ (h >> 31));
        }
    };
    struct Mailbox {
        std::vector<Handler> receives; ///< FIFO from index `head`
        size_t head = 0;
        uint64_t arrived = 0;
        bool idle() const { return head == receives.size() && arrived == 0; }
    };
    /// The mailbox of `key`, made when missing. Open addressing (linear probing) over a table
    /// of (key, index into m_boxes), at most half full: two lookups per message, and a node-based
    /// hash map's cache misses were 4-6% of a 128-NPU congestion-aware run. Idle mailboxes are
    /// dropped by the periodic sweep, which rebuilds the table.
    Mailbox& mailbox(const Key& key);
    void rebuildTable(size_t capacity);
    void sweepIdleMailboxes();
    struct InFlight {
        Key key;
        Handler onDelivered;
        bool matched = true; ///< false: a switch message, delivered to its handler only
    };
    uint32_t allocateSlot(InFlight message);

    void sendNow(int src, int dst, uint64_t tag, uint64_t bytes, Handler onDelivered);
    void transmit(int src, int dst, const Key& deliverAs, uint64_t bytes, Handler onDelivered);
    void receiveNow(int dst, int src, uint64_t tag, uint64_t bytes, Handler onReceived);

    Simulator& m_sim;
    NetworkModel* m_network = nullptr;
    const RankMap* m_ranks = nullptr;
    bool m_rendezvous;
    struct TableEntry {
        Key key;
        uint32_t box = kEmpty; ///< index into m_boxes, kEmpty for a free entry
    };
    static constexpr uint32_t kEmpty = UINT32_MAX;
    std::vector<TableEntry> m_table; ///< a power of two long
    std::vector<Mailbox> m_boxes;
    std::vector<uint32_t> m_freeBoxes;
    size_t m_usedEntries = 0;
    std::vector<InFlight> m_inFlight;
    std::vector<uint32_t> m_freeSlots;
    uint64_t m_delivered = 0;
    uint64_t m_untilSweep = kSweepInterval;
    static constexpr uint64_t kSweepInterval = 1 << 16;
};

} // namespace astrolabe
