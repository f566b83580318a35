#include "serving/Replica.h"

#include <algorithm>

namespace astrolabe::serving {

Replica::Replica(const SchedulerLimits& limits)
    : m_limits(limits)
    , m_freeBlocks(limits.kvBlocks) {}

void Replica::enqueue(const Sequence& sequence) {
    m_waiting.push_back(sequence);
}

int32_t Replica::blocksFor(int64_t tokens) const {
    return static_cast<int32_t>((tokens + m_limits.blockTokens - 1) / m_limits.blockTokens);
}

bool Replica::grow(Sequence& s, int32_t tokens) {
    const int32_t need = blocksFor(int64_t(s.computed) + tokens) - s.blocks;
    if (need <= 0)
        return true;
    if (need > m_freeBlocks)
        return false;
    m_freeBlocks -= need;
    s.blocks += need;
    return true;
}

void Replica::preemptLast() {
    Sequence s = m_running.back();
    m_running.pop_back();
    m_freeBlocks += s.blocks;
    s.blocks = 0;
    s.scheduled = 0;
    if (m_limits.swap && s.computed > 0) {
        m_swapTokens += s.computed;
        s.swapped = true;
    } else {
        s.computed = 0;
        s.target = s.prompt + s.generated;
    }
    m_waiting.push_front(s);
    ++m_preemptions;
}

void Replica::addToShape(StepShape& shape, const Sequence& s) const {
    const double n = s.scheduled, p = s.computed;
    if (s.prefilling()) {
        shape.prefillTokens += s.scheduled;
        shape.prefillContext += n * p + n * (n + 1) / 2;
        shape.prefillPriorContext += p;
        if (s.computed + s.scheduled == s.target)
            ++shape.logits;
    } else {
        ++shape.decodeTokens;
        shape.decodeContext += p + 1;
        ++shape.logits;
    }
}

int64_t Replica::wholeOrChunk(const Sequence& s, int64_t budget) const {
    const int64_t remaining = s.target - s.computed;
    if (m_limits.chunkedPrefill || remaining <= budget)
        return std::min(remaining, budget);
    // Without chunking a prompt runs whole; one longer than the whole budget runs alone rather
    // than waiting forever.
    return budget == m_limits.tokenBudget ? remaining : 0;
}

StepShape Replica::schedule() {
    StepShape shape;
    m_swapTokens = 0;
    int64_t budget = m_limits.tokenBudget;
    // Running requests first, in admission order; a request that cannot grow preempts the
    // newest ones (possibly itself).
    for (size_t i = 0; i < m_running.size() && budget > 0; ++i) {
        Sequence& s = m_running[i];
        int64_t n = 1;
        if (s.prefilling()) {
            n = wholeOrChunk(s, budget);
            if (n == 0)
                continue;
        }
        bool ok = grow(s, static_cast<int32_t>(n));
        while (!ok && i + 1 < m_running.size()) {
            preemptLast();
            ok = grow(m_running[i], static_cast<int32_t>(n));
        }
        if (!ok) {
            preemptLast(); // itself: it waits until others free their blocks
            break;
        }
        m_running[i].scheduled = static_cast<int32_t>(n);
        budget -= n;
    }
    // Then waiting requests, first come first served, while the batch and the budget allow and
    // the cache has room; the queue's head blocks the ones behind it (no overtaking).
    while (!m_waiting.empty() && budget > 0 && int(m_running.size()) < m_limits.maxBatch) {
        Sequence& s = m_waiting.front();
        const int64_t n = s.prefilling() ? wholeOrChunk(s, budget) : 1;
        if (n == 0)
            break;
        if (!grow(s, static_cast<int32_t>(n)))
            break;
        if (s.swapped) {
            m_swapTokens += s.computed;
            s.swapped = false;
        }
        s.scheduled = static_cast<int32_t>(n);
        budget -= n;
        m_running.push_back(s);
        m_waiting.pop_front();
    }
    for (const Sequence& s : m_running)
        if (s.scheduled > 0)
            addToShape(shape, s);
    shape.swapTokens = m_swapTokens;
    m_busy = shape.tokens() > 0;
    return shape;
}

void Replica::complete(std::vector<StepEvent>& events) {
    events.clear();
    size_t kept = 0;
    for (size_t i = 0; i < m_running.size(); ++i) {
        Sequence s = m_running[i];
        if (s.scheduled > 0) {
            StepEvent e;
            if (s.prefilling()) {
                s.computed += s.scheduled;
                if (s.computed == s.target) {
                    ++s.generated;
                    e.emitted = true;
                }
            } else {
                ++s.computed;
                ++s.target;
                ++s.generated;
                e.emitted = true;
            }
            s.scheduled = 0;
            e.finished = s.generated >= s.output;
            e.handedOff = !e.finished && m_limits.prefillOnly && !s.prefilling();
            e.sequence = s;
            events.push_back(e);
            if (e.finished || e.handedOff) {
                m_freeBlocks += s.blocks;
                continue;
            }
        }
        m_running[kept++] = s;
    }
    m_running.resize(kept);
    m_busy = false;
}

} // namespace astrolabe::serving
