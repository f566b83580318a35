#pragma once
// Network models move bytes between NPUs and say when they arrive. They know nothing of tags,
// receives or collectives: the Transport does the matching.

#include <cstdint>

namespace astrolabe {

class DeliverySink {
public:
    virtual ~DeliverySink() = default;
    /// Called at arrival time with the token given to transmit().
    virtual void onDelivered(uint64_t token) = 0;
};

class NetworkModel {
public:
    virtual ~NetworkModel() = default;
    /// Starts moving `bytes` from `src` to `dst` (src != dst) now.
    virtual void transmit(int src, int dst, uint64_t bytes, uint64_t token) = 0;
    virtual const char* name() const = 0;
};

} // namespace astrolabe
