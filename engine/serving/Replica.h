#pragma once
// One serving replica's iteration scheduler, as vLLM (v1) and SGLang schedule: every iteration
// (batch step) takes, first-come first-served, one token for each decoding request and prefill
// chunks for the others within a token budget and a maximum batch (continuous batching with
// chunked prefill), over a paged KV cache of whole blocks. Without chunked prefill a prompt runs
// whole in one iteration (alone when it exceeds the budget). When a running request needs a block
// and none is free, the most recently admitted request is preempted: its blocks are freed and it
// recomputes its prompt and the tokens generated so far when it is admitted again (vLLM's
// recompute mode), or, with `swap`, its blocks are copied to host memory and back when it is
// admitted again (the iteration pays for the copies, StepShape::swapTokens). Work per iteration is
// proportional to the running batch, not to tokens.
//
// A request's state: `computed` tokens have KV in the cache; while computed < target it is in
// prefill (target = prompt + tokens generated before a preemption); the iteration that reaches
// target emits a token; each later iteration computes one token's KV and emits one token.

#include "serving/StepCost.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace astrolabe::serving {

struct Sequence {
    int32_t request = 0; ///< index into the run's request records
    int32_t prompt = 0;
    int32_t output = 0;
    int32_t computed = 0; ///< tokens with KV in the cache
    int32_t target = 0;   ///< prefill until computed reaches it
    int32_t generated = 0;
    int32_t blocks = 0;
    int32_t scheduled = 0; ///< tokens of the iteration in flight
    bool swapped = false;  ///< its cache is in host memory (swap preemption)
    bool prefilling() const { return computed < target; }
};

struct SchedulerLimits {
    int maxBatch = 256;
    int tokenBudget = 8192;
    bool chunkedPrefill = true;
    int blockTokens = 16;
    int64_t kvBlocks = 0;
    /// Prefill pool of a P/D deployment: a request leaves after its first token.
    bool prefillOnly = false;
    /// Preemption swaps the cache to host memory (and back when readmitted) instead of
    /// dropping it for recomputation.
    bool swap = false;
};

/// What an iteration did to one request, for the run to record.
struct StepEvent {
    Sequence sequence;
    bool emitted = false;   ///< produced an output token
    bool finished = false;  ///< all output tokens produced: it left the replica
    bool handedOff = false; ///< prefill pool: prefill done, leaves for a decode replica
};

class Replica {
public:
    explicit Replica(const SchedulerLimits& limits);

    void enqueue(const Sequence& sequence); ///< joins the waiting queue (FCFS)
    bool idle() const { return m_running.empty() && m_waiting.empty(); }
    bool busy() const { return m_busy; }

    /// Picks the next iteration's work; returns its shape (tokens() == 0: nothing to run, e.g.
    /// every waiting request needs more free blocks than there are). Marks the replica busy.
    StepShape schedule();
    /// Applies the iteration scheduled last; `events` receives (after clear()) what happened to
    /// each request it ran. Marks the replica free.
    void complete(std::vector<StepEvent>& events);
    /// A sequence too large for the whole cache (the run checks requests before they start).
    bool fits(int64_t tokens) const { return blocksFor(tokens) <= m_limits.kvBlocks; }

    int64_t usedBlocks() const { return m_limits.kvBlocks - m_freeBlocks; }
    int64_t totalBlocks() const { return m_limits.kvBlocks; }
    int64_t preemptions() const { return m_preemptions; }
    size_t waiting() const { return m_waiting.size(); }
    size_t running() const { return m_running.size(); }
    size_t load() const { return m_running.size() + m_waiting.size(); }

private:
    int32_t blocksFor(int64_t tokens) const;
    /// Prefill tokens `s` runs this iteration within `budget` (0: it waits).
    int64_t wholeOrChunk(const Sequence& s, int64_t budget) const;
    bool grow(Sequence& s, int32_t tokens); ///< allocate blocks for computed + tokens
    void preemptLast();
    void addToShape(StepShape& shape, const Sequence& s) const;

    SchedulerLimits m_limits;
    std::vector<Sequence> m_running; ///< in admission order
    std::deque<Sequence> m_waiting;
    int64_t m_freeBlocks = 0;
    int64_t m_preemptions = 0;
    int64_t m_swapTokens = 0; ///< tokens swapped out or in while scheduling this iteration
    bool m_busy = false;
};

} // namespace astrolabe::serving
