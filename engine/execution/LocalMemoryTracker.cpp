#include "execution/LocalMemoryTracker.h"

#include "core/Error.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace astrolabe {

LocalMemoryTracker::LocalMemoryTracker(int npu, const WorkloadTrace& trace, SimTime start)
    : m_npu(npu) {
    const size_t n = trace.nodes.size();
    std::unordered_map<std::string, uint32_t> indexOf;
    auto tensorOf = [&](const TensorUse& use) {
        const auto [it, added] = indexOf.try_emplace(use.name, 0);
        if (added) {
            it->second = static_cast<uint32_t>(m_tensors.size());
            m_tensors.push_back({use.name, use.bytes});
        }
        return it->second;
    };
    m_producedOffsets.assign(n + 1, 0);
    m_finishOffsets.assign(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
        const WorkloadNode& node = trace.nodes[i];
        for (const TensorUse& use : node.detail->outputs) {
            const uint32_t t = tensorOf(use);
            Tensor& tensor = m_tensors[t];
            if (tensor.producer == static_cast<int32_t>(i))
                continue; // listed twice by the same node
            if (tensor.producer >= 0) {
                std::string message = "NPU ";
                message += std::to_string(m_npu);
                message += ": tensor \"";
                message += use.name;
                message += "\" is an output of node ";
                message += std::to_string(tensor.producerNodeId);
                message += " and of node ";
                message += std::to_string(node.id);
                throw Error(ErrorKind::Validation, message, {trace.file, 0, 0, "outputs"},
                            "a tensor is written by one node; give each output its own name");
            }
            tensor.producer = static_cast<int32_t>(i);
            tensor.producerNodeId = static_cast<int64_t>(node.id);
            if (tensor.bytes == 0)
                tensor.bytes = use.bytes; // first mentioned as an input of size 0
            ++tensor.pending;
            m_produced.push_back(t);
            m_finish.push_back(t);
        }
        for (const TensorUse& use : node.detail->inputs) {
            const uint32_t t = tensorOf(use);
            ++m_tensors[t].pending;
            m_finish.push_back(t);
        }
        m_producedOffsets[i + 1] = static_cast<uint32_t>(m_produced.size());
        m_finishOffsets[i + 1] = static_cast<uint32_t>(m_finish.size());
    }
    for (Tensor& tensor : m_tensors)
        if (tensor.producer < 0)
            allocate(tensor, start);
    record(start);
}

void LocalMemoryTracker::allocate(Tensor& tensor, SimTime now) {
    tensor.live = tensor.allocated = true;
    tensor.allocatedAt = now;
    m_current += tensor.bytes;
}

void LocalMemoryTracker::release(Tensor& tensor, SimTime now) {
    tensor.live = false;
    tensor.releasedAt = now;
    m_current -= tensor.bytes;
}

void LocalMemoryTracker::record(SimTime now) {
    if (!m_usage.empty() && m_usage.back().time == now) {
        m_usage.back().bytes = m_current;
        // Netted back to the previous value: the step at `now` disappears.
        if (m_usage.size() >= 2 && m_usage[m_usage.size() - 2].bytes == m_current)
            m_usage.pop_back();
        return;
    }
    if (!m_usage.empty() && m_usage.back().bytes == m_current)
        return;
    m_usage.push_back({now, m_current});
}

void LocalMemoryTracker::nodeStarted(uint32_t index, SimTime now) {
    const uint32_t begin = m_producedOffsets[index], end = m_producedOffsets[index + 1];
    if (begin == end)
        return;
    for (uint32_t k = begin; k < end; ++k) {
        Tensor& tensor = m_tensors[m_produced[k]];
        if (!tensor.allocated)
            allocate(tensor, now);
    }
    record(now);
}

void LocalMemoryTracker::nodeFinished(uint32_t index, SimTime now) {
    const uint32_t begin = m_finishOffsets[index], end = m_finishOffsets[index + 1];
    if (begin == end)
        return;
    for (uint32_t k = begin; k < end; ++k) {
        Tensor& tensor = m_tensors[m_finish[k]];
        if (--tensor.pending == 0 && tensor.live)
            release(tensor, now);
    }
    record(now);
}

uint64_t LocalMemoryTracker::peakBytes() const {
    uint64_t peak = 0;
    for (const MemoryUsagePoint& p : m_usage)
        peak = std::max(peak, p.bytes);
    return peak;
}

std::vector<TensorLifetime> LocalMemoryTracker::lifetimes(SimTime end) const {
    std::vector<uint32_t> order;
    for (uint32_t t = 0; t < m_tensors.size(); ++t)
        if (m_tensors[t].allocated)
            order.push_back(t);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return m_tensors[a].allocatedAt < m_tensors[b].allocatedAt;
    });
    std::vector<TensorLifetime> out;
    out.reserve(order.size());
    for (uint32_t t : order) {
        const Tensor& tensor = m_tensors[t];
        TensorLifetime life;
        life.allocated = tensor.allocatedAt;
        life.released = tensor.live ? std::max(end, tensor.allocatedAt) : tensor.releasedAt;
        life.npu = m_npu;
        life.name = tensor.name;
        life.bytes = tensor.bytes;
        life.producerNodeId = tensor.producerNodeId;
        out.push_back(std::move(life));
    }
    return out;
}

std::string formatMemorySize(uint64_t bytes) {
    static const char* const kUnits[] = {"B", "KB", "MB", "GB", "TB"};
    int unit = 0;
    for (uint64_t limit = 1024; unit < 4 && bytes >= limit; limit *= 1024)
        ++unit;
    float value = static_cast<float>(bytes);
    float divisor = 1.0f;
    for (int k = 0; k < unit; ++k)
        divisor *= 1024.0f;
    value /= divisor;
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.2f %s", static_cast<double>(value), kUnits[unit]);
    return buffer;
}

} // namespace astrolabe
