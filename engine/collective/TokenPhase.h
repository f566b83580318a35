#pragma once
// Ring, Direct and HalvingDoubling share ASTRA-sim's token engine (spec §5.4).
//
// Every message step passes the memory agent: a packet inserted into the phase's queue yields a
// token after E (plus the reduction R on reduce steps); a token lets one packet go out as a
// message. Receipts insert the next packet. Budgets z ("zero-latency" packets, no reduction)
// and nz decide which steps pay R: for a Ring all-reduce that is exactly the n-1 steps of its
// reduce-scatter half. The phase ends when every message was sent and all P tokens are back.

#include "collective/Phase.h"

#include <vector>

namespace astrolabe {

class TokenPhase : public Phase {
public:
    TokenPhase(const PhaseSpec& spec, PhaseContext context);
    void start() override;
    std::string waitingFor() const override;

private:
    struct Packet {
        int dst; ///< ring index
        int src; ///< ring index
        uint64_t bytes;
    };

    void insertPacket();
    void advanceCursor();
    void onToken();
    void onReceive();
    bool trySend();
    void recordedSend(const Packet& p);

    PhaseSpec m_spec;
    PhaseContext m_ctx;
    int m_n;
    std::vector<Packet> m_packets; ///< FIFO from m_head (at most P packets wait)
    size_t m_head = 0;
    int64_t m_toSend = 0;     ///< S
    int64_t m_totalSends = 0; ///< S at the start
    int64_t m_tokens = 0;     ///< F
    int m_parallel = 1;       ///< P
    int m_zeroBudget = 0;     ///< z
    int m_budget = 0;         ///< nz
    int m_budgetRefill = 0;   ///< NZ
    bool m_toggle = false;
    int m_received = 0;
    bool m_done = false;
    // Cursor.
    int m_dstOffset = 1;
    int m_srcOffset = 1;
    int m_delta = 1;         ///< halving-doubling distance
    bool m_doubling = false; ///< halving-doubling all-reduce in its second half
    uint64_t m_messageBytes = 0;
};

} // namespace astrolabe
