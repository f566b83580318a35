#include "collective/TokenPhase.h"

#include "collective/InSwitchPhase.h"
#include "collective/TreePhase.h"
#include "core/Error.h"

#include <algorithm>
#include <cmath>

namespace astrolabe {

SimTime PhaseContext::reduction(uint64_t bytes) const {
    if (!(localMemBandwidthGBps > 0)) {
        // Named as the file that set it names it: ASTRA-sim's system JSON or the project.
        SourceLocation where;
        where.file = systemFile ? *systemFile : std::string();
        const bool json = where.file.ends_with(".json");
        where.keyPath = json ? "local-mem-bw" : "system.local-memory-bandwidth";
        throw Error(ErrorKind::Validation,
                    "an all-reduce or reduce-scatter reduces in the NPU's local memory, but the "
                    "local memory bandwidth is 0 (not set)",
                    where,
                    json ? "set local-mem-bw to the NPU's memory bandwidth in GB/s"
                         : "set system.local-memory-bandwidth to the NPU's memory bandwidth, "
                           "e.g. 2039 GB/s for an A100 80GB");
    }
    const double ns = static_cast<double>(bytes) / (localMemBandwidthGBps * 1e9) * 1e9;
    return timing.fromNs(ns) * 3;
}

uint64_t PhaseContext::wireBytes(uint64_t bytes) const {
    if (bandwidthFactor == 1 || bytes == 0)
        return bytes;
    return std::max<uint64_t>(
        1, static_cast<uint64_t>(std::llround(static_cast<double>(bytes) / bandwidthFactor)));
}

void PhaseContext::sendRecorded(int dst, uint64_t bytes, int step, bool reduce) const {
    ChunkTransfer t = transferTemplate;
    t.start = t.end = sim->now();
    t.src = npu;
    t.dst = dst;
    t.bytes = bytes;
    t.step = static_cast<int16_t>(step);
    t.reduce = reduce;
    const size_t index = transfers->size();
    transfers->push_back(t);
    transport->send(npu, dst, tag, bytes,
                    [log = transfers, index, s = sim] { (*log)[index].end = s->now(); });
}

std::unique_ptr<Phase> makePhase(const PhaseSpec& spec, PhaseContext context) {
    if (spec.algorithm.kind == AlgorithmKind::DoubleBinaryTree)
        return std::make_unique<TreePhase>(spec, std::move(context));
    if (spec.algorithm.kind == AlgorithmKind::InSwitch)
        return std::make_unique<InSwitchPhase>(spec, std::move(context));
    return std::make_unique<TokenPhase>(spec, std::move(context));
}

namespace {
int log2Exact(int n) {
    int l = 0;
    while ((1 << l) < n)
        ++l;
    return l;
}
} // namespace

TokenPhase::TokenPhase(const PhaseSpec& spec, PhaseContext context)
    : m_spec(spec)
    , m_ctx(std::move(context))
    , m_n(spec.ring.size) {
    const int n = m_n;
    const uint64_t D = spec.inputBytes;
    const auto un = static_cast<uint64_t>(n);
    switch (spec.algorithm.kind) {
    case AlgorithmKind::Direct: {
        const int window = spec.algorithm.window > 0 ? spec.algorithm.window : n - 1;
        m_parallel = std::min(window, n - 1);
        m_budgetRefill = spec.ring.local ? (n - 1) * m_parallel : m_parallel;
        switch (spec.kind) {
        case CollectiveKind::AllReduce:
            m_toSend = 2 * (n - 1);
            break;
        default:
            m_toSend = n - 1;
            break;
        }
        m_messageBytes = spec.kind == CollectiveKind::AllGather ? D : D / un;
        break;
    }
    case AlgorithmKind::HalvingDoubling: {
        const int L = log2Exact(n);
        m_parallel = 1;
        m_budgetRefill = L - 1;
        m_toSend = spec.kind == CollectiveKind::AllReduce ? 2 * L : L;
        m_delta = spec.kind == CollectiveKind::AllGather ? n / 2 : 1;
        m_messageBytes = spec.kind == CollectiveKind::AllGather ? D : D / 2;
        break;
    }
    default: // Ring
        m_parallel = 1;
        m_budgetRefill = n - 1;
        switch (spec.kind) {
        case CollectiveKind::AllReduce:
            m_toSend = 2 * (n - 1);
            break;
        case CollectiveKind::AllToAll:
            m_toSend = static_cast<int64_t>(n) * (n - 1) / 2;
            break;
        default:
            m_toSend = n - 1;
            break;
        }
        m_messageBytes = spec.kind == CollectiveKind::AllGather ? D : D / un;
        break;
    }
    m_totalSends = m_toSend;
}

void TokenPhase::start() {
    for (int i = 0; i < m_parallel; ++i)
        insertPacket();
}

void TokenPhase::insertPacket() {
    if (m_zeroBudget == 0 && m_budget == 0) {
        m_zeroBudget = m_parallel;
        m_budget = m_budgetRefill;
        m_toggle = !m_toggle;
    }
    const int me = m_spec.ring.myIndex;
    Packet p{me, me, m_messageBytes};
    switch (m_spec.algorithm.kind) {
    case AlgorithmKind::HalvingDoubling:
        if (m_delta > 0 && m_delta < m_n) {
            const int peer = ((me / m_delta) % 2 == 0) ? me + m_delta : me - m_delta;
            p.dst = p.src = peer;
        }
        break;
    case AlgorithmKind::Direct: {
        const int sign = m_spec.clockwise ? 1 : -1;
        p.dst = me + sign * m_dstOffset;
        p.src = me - sign * m_srcOffset;
        break;
    }
    default: {
        const int sign = m_spec.clockwise ? 1 : -1;
        p.dst = me + sign;
        p.src = me - sign;
        break;
    }
    }
    m_packets.push_back(p);

    SimTime delay = m_ctx.endpointDelay;
    if (m_zeroBudget > 0) {
        --m_zeroBudget;
    } else {
        const bool reduce = m_spec.kind == CollectiveKind::ReduceScatter ||
                            (m_spec.kind == CollectiveKind::AllReduce && m_toggle);
        if (reduce)
            delay += m_ctx.reduction(p.bytes);
        --m_budget;
    }
    m_ctx.sim->scheduleIn(delay, [this] { onToken(); });
    advanceCursor();
}

void TokenPhase::advanceCursor() {
    switch (m_spec.algorithm.kind) {
    case AlgorithmKind::Direct:
        m_dstOffset = m_dstOffset % (m_n - 1) + 1;
        m_srcOffset = m_srcOffset % (m_n - 1) + 1;
        break;
    case AlgorithmKind::HalvingDoubling:
        if (m_spec.kind == CollectiveKind::AllGather || m_doubling) {
            m_delta /= 2;
            m_messageBytes *= 2;
        } else {
            m_delta *= 2;
            m_messageBytes /= 2;
            if (m_spec.kind == CollectiveKind::AllReduce && m_delta >= m_n) {
                m_doubling = true;
                m_delta = m_n / 2;
                m_messageBytes *= 2;
            }
        }
        break;
    default:
        break;
    }
}

bool TokenPhase::trySend() {
    if (m_head == m_packets.size() || m_toSend <= 0 || m_tokens <= 0)
        return false;
    const Packet p = m_packets[m_head++];
    if (m_head == m_packets.size()) {
        m_packets.clear();
        m_head = 0;
    }
    --m_toSend;
    --m_tokens;
    const int me = m_ctx.npu;
    const int src = m_spec.ring.npuAt(p.src);
    if (m_ctx.symmetric)
        m_ctx.transport->sendMirrored(me, m_spec.ring.npuAt(p.dst), src, m_ctx.tag,
                                      m_ctx.wireBytes(p.bytes));
    else if (m_ctx.transfers)
        recordedSend(p);
    else
        m_ctx.transport->send(me, m_spec.ring.npuAt(p.dst), m_ctx.tag, m_ctx.wireBytes(p.bytes));
    m_ctx.transport->receive(me, src, m_ctx.tag, m_ctx.wireBytes(p.bytes), [this] { onReceive(); });
    return true;
}

void TokenPhase::recordedSend(const Packet& p) {
    // m_toSend was already decremented: this is message number m_totalSends - m_toSend - 1.
    const auto step = static_cast<int>(m_totalSends - m_toSend - 1);
    // The receiver combines what it receives in a reduce-scatter, and in the first half of an
    // all-reduce (its reduce-scatter: n - 1 ring or direct steps, log2 n halving steps).
    const bool reduce = m_spec.kind == CollectiveKind::ReduceScatter ||
                        (m_spec.kind == CollectiveKind::AllReduce && step < m_totalSends / 2);
    m_ctx.sendRecorded(m_spec.ring.npuAt(p.dst), m_ctx.wireBytes(p.bytes), step, reduce);
}

void TokenPhase::onReceive() {
    ++m_received;
    insertPacket();
}

void TokenPhase::onToken() {
    ++m_tokens;
    const bool directAllReduceSecondHalf = m_spec.algorithm.kind == AlgorithmKind::Direct &&
                                           m_spec.kind == CollectiveKind::AllReduce &&
                                           m_toSend <= m_n - 1;
    if (directAllReduceSecondHalf) {
        // The all-gather half waits for every reduce-scatter receipt (a barrier).
        if (m_received >= m_n - 1)
            for (int i = 0; i < m_parallel && trySend(); ++i) {
            }
    } else {
        trySend();
    }
    if (!m_done && m_toSend == 0 && m_tokens == m_parallel) {
        m_done = true;
        // The engine may destroy this phase inside onDone: run it from a local and return.
        const std::function<void()> done = std::move(m_ctx.onDone);
        done();
    }
}

std::string TokenPhase::waitingFor() const {
    return algorithmName(m_spec.algorithm) + " " + collectiveKindName(m_spec.kind) +
           " phase: " + std::to_string(m_received) + " messages received, " +
           std::to_string(m_toSend) + " still to send";
}

} // namespace astrolabe
