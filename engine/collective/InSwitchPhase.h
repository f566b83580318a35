#pragma once
// In-network (in-switch) collectives on a Switch dimension (docs/in-network-collectives.md).
//
// The switch of a line reduces or gathers in the network, as SHARP-style switches do: every
// member sends its input up once and receives the combined result once, instead of the
// 2(n-1)/n of the input a ring moves through every NPU's link in each direction.
//
//   member: hop E, send the input up, [switch: wait for every member, send the result down],
//           hop E, done
//
// Result per member: all-reduce the input size m, reduce-scatter m/n (its shard), all-gather
// n*m. The switch reduces at line rate (no R term); how long the two crossings take is the
// network model's business (NetworkModel::transmitToSwitch / transmitFromSwitch).

#include "collective/Phase.h"

#include <map>
#include <utility>
#include <vector>

namespace astrolabe {

/// Collects the members' contributions to one chunk-phase at one switch; when the last of
/// `expected` has arrived, sends the result down to each of them.
class SwitchAggregator {
public:
    explicit SwitchAggregator(Transport& transport)
        : m_transport(transport) {}

    struct Contribution {
        int npu = 0;
        int dimension = 0;
        uint64_t inputBytes = 0;      ///< what the member sent up
        uint64_t resultBytes = 0;     ///< what it gets back
        std::function<void()> onSent; ///< the result leaves the switch (may be empty)
        std::function<void()> onResult;
    };
    /// `key` identifies the chunk-phase (the phase tag, equal on every member).
    void arrive(int switchDevice, uint64_t key, int expected, Contribution contribution);
    /// Contributions that reached `switchDevice` for `key` so far (deadlock report).
    int arrived(int switchDevice, uint64_t key) const;

private:
    Transport& m_transport;
    std::map<std::pair<int, uint64_t>, std::vector<Contribution>> m_waiting;
};

class InSwitchPhase : public Phase {
public:
    InSwitchPhase(const PhaseSpec& spec, PhaseContext context);
    void start() override;
    std::string waitingFor() const override;

private:
    void sendUp();
    void atSwitch();
    void onResult();
    /// Logs a message between this NPU and its switch (transfers on); returns its log index.
    size_t logMessage(bool up, uint64_t bytes, int step) const;

    PhaseSpec m_spec;
    PhaseContext m_ctx;
    bool m_waitingAtSwitch = false;
    std::string m_state = "not started";
    size_t m_logged = 0; ///< the message in flight's index in the transfers log
};

} // namespace astrolabe
