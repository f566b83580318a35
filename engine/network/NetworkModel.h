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

    // In-network collectives (docs/in-network-collectives.md): the switch of NPU `npu`'s line
    // in Switch dimension `d` takes part as an endpoint. Each member sends `bytes` up once; the
    // switch combines them and sends the result down to every member.
    /// Starts moving `bytes` from `npu` up to its switch in d; the token is delivered when the
    /// switch can start combining it (a cut-through model: as the data begins to arrive).
    virtual void transmitToSwitch(int npu, int d, uint64_t bytes, uint64_t token) = 0;
    /// Starts moving `bytes` from the switch down to `npu`, the result of combining
    /// `inputBytes` per member, which a cut-through model streams at the slower of the two.
    virtual void transmitFromSwitch(int d, int npu, uint64_t bytes, uint64_t inputBytes,
                                    uint64_t token) = 0;
    virtual const char* name() const = 0;
};

} // namespace astrolabe
