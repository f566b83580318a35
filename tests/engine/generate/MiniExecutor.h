#pragma once
// A deliberately small reference executor for generated traces, used to prove they can run to
// completion under ASTRA-sim's resource rules (spec §2.2-2.4) before the real engine exists:
//   * a node is ready when all data and control parents finished; ready nodes issue in id order;
//   * one compute slot and one communication slot per NPU (RECV takes no slot; a MEM_LOAD or
//     MEM_STORE holds the communication slot for tensor_size x 10^-4 us, spec §6.2);
//   * a collective finishes when every member of its group has issued its k-th collective on
//     that group (communication itself is free);
//   * a SEND is delivered at once and frees its slot; a RECV finishes once its (tag, src, dst,
//     size) message was sent (FIFO per key).
// Compute takes duration_micros x a per-node jitter factor, so ranks drift apart and any
// cyclic wait that the generator's ordering allows shows up as a deadlock.

#include "generate/WorkloadGenerator.h"

#include <string>

namespace astrolabe::generate::test {

struct MiniRun {
    bool completed = false;
    double makespan = 0;  ///< microseconds
    std::string deadlock; ///< who waits on what, when not completed
};

/// jitter: node i on rank r takes (1 + jitter * ((7919 r + 104729 i + salt) % 13) / 13) x its
/// duration; salt picks another pattern.
MiniRun runMiniExecutor(const GeneratedWorkload& workload, double jitter, unsigned salt = 0);

} // namespace astrolabe::generate::test
