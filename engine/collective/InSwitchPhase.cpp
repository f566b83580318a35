#include "collective/InSwitchPhase.h"

namespace astrolabe {

void SwitchAggregator::arrive(int switchDevice, uint64_t key, int expected,
                              Contribution contribution) {
    std::vector<Contribution>& waiting = m_waiting[{switchDevice, key}];
    waiting.push_back(std::move(contribution));
    if (static_cast<int>(waiting.size()) < expected)
        return;
    std::vector<Contribution> members = std::move(waiting);
    m_waiting.erase({switchDevice, key});
    for (Contribution& c : members) {
        if (c.onSent)
            c.onSent();
        m_transport.sendFromSwitch(c.dimension, c.npu, c.resultBytes, c.inputBytes,
                                   std::move(c.onResult));
    }
}

int SwitchAggregator::arrived(int switchDevice, uint64_t key) const {
    const auto it = m_waiting.find({switchDevice, key});
    return it == m_waiting.end() ? 0 : static_cast<int>(it->second.size());
}

InSwitchPhase::InSwitchPhase(const PhaseSpec& spec, PhaseContext context)
    : m_spec(spec)
    , m_ctx(std::move(context)) {}

void InSwitchPhase::start() {
    m_state = "in its endpoint hop before sending";
    m_ctx.sim->scheduleIn(m_ctx.endpointDelay, [this] { sendUp(); });
}

size_t InSwitchPhase::logMessage(bool up, uint64_t bytes, int step) const {
    ChunkTransfer t = m_ctx.transferTemplate;
    t.start = t.end = m_ctx.sim->now();
    t.src = up ? m_ctx.npu : ChunkTransfer::kSwitch;
    t.dst = up ? ChunkTransfer::kSwitch : m_ctx.npu;
    t.bytes = bytes;
    t.step = static_cast<int16_t>(step);
    // The switch combines what goes up, unless it only gathers.
    t.reduce = up && m_spec.kind != CollectiveKind::AllGather;
    m_ctx.transfers->push_back(t);
    return m_ctx.transfers->size() - 1;
}

void InSwitchPhase::sendUp() {
    m_state = "sending its input to the switch";
    if (m_ctx.transfers)
        m_logged = logMessage(true, m_spec.inputBytes, 0);
    m_ctx.transport->sendToSwitch(m_ctx.npu, m_spec.dimension, m_spec.inputBytes, [this] {
        if (m_ctx.transfers)
            (*m_ctx.transfers)[m_logged].end = m_ctx.sim->now();
        atSwitch();
    });
}

void InSwitchPhase::atSwitch() {
    m_state = "waiting at the switch for the other members";
    m_waitingAtSwitch = true;
    // A symmetric run simulates one representative: the others arrive with it, by symmetry.
    const int expected = m_ctx.symmetric ? 1 : m_spec.ring.size;
    SwitchAggregator::Contribution c;
    c.npu = m_ctx.npu;
    c.dimension = m_spec.dimension;
    c.inputBytes = m_spec.inputBytes;
    c.resultBytes = phaseOutputBytes(m_spec.kind, m_spec.ring.size, m_spec.inputBytes);
    if (m_ctx.transfers)
        c.onSent = [this, bytes = c.resultBytes] { m_logged = logMessage(false, bytes, 1); };
    c.onResult = [this] {
        if (m_ctx.transfers)
            (*m_ctx.transfers)[m_logged].end = m_ctx.sim->now();
        onResult();
    };
    m_ctx.switches->arrive(m_spec.switchDevice, m_ctx.tag, expected, std::move(c));
}

void InSwitchPhase::onResult() {
    m_waitingAtSwitch = false;
    m_state = "in its endpoint hop after the result arrived";
    m_ctx.sim->scheduleIn(m_ctx.endpointDelay, [this] { m_ctx.onDone(); });
}

std::string InSwitchPhase::waitingFor() const {
    std::string out = "inSwitch phase on dimension ";
    out += std::to_string(m_spec.dimension);
    out += ": ";
    out += m_state;
    if (m_waitingAtSwitch && m_ctx.switches) {
        out += " (";
        out += std::to_string(m_ctx.switches->arrived(m_spec.switchDevice, m_ctx.tag));
        out += " of ";
        out += std::to_string(m_spec.ring.size);
        out += " arrived)";
    }
    return out;
}

} // namespace astrolabe
