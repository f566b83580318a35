// The one entry point of astrolabe-packet.so (network/PacketTier.h): the factory the engine
// looks up after dlopen(), wrapping PacketNetwork behind the PacketTierNetwork interface.
#include "network/PacketTier.h"
#include "packet/PacketNetwork.h"

namespace astrolabe {
namespace {

class ModuleNetwork final : public PacketTierNetwork {
public:
    explicit ModuleNetwork(const PacketTierArgs& a)
        : m_network(*a.sim, *a.topology, *a.options, *a.sink, a.recorder) {}

    void transmit(int src, int dst, uint64_t bytes, uint64_t token) override {
        m_network.transmit(src, dst, bytes, token);
    }
    void transmitToSwitch(int npu, int d, uint64_t bytes, uint64_t token) override {
        m_network.transmitToSwitch(npu, d, bytes, token);
    }
    void transmitFromSwitch(int d, int npu, uint64_t bytes, uint64_t inputBytes,
                            uint64_t token) override {
        m_network.transmitFromSwitch(d, npu, bytes, inputBytes, token);
    }
    const char* name() const override { return m_network.name(); }
    std::vector<std::string> reportLines() const override { return m_network.reportLines(); }
    std::vector<uint64_t> maxQueueBytes() const override { return m_network.maxQueueBytes(); }

private:
    PacketNetwork m_network;
};

} // namespace
} // namespace astrolabe

extern "C" {

// Exported by name for dlsym(); declared here only, as nothing links against them.
int astrolabe_packet_abi();
astrolabe::PacketTierNetwork* astrolabe_packet_create(const astrolabe::PacketTierArgs* args);

__attribute__((visibility("default"))) int astrolabe_packet_abi() {
    return astrolabe::kPacketTierAbi;
}

__attribute__((visibility("default"))) astrolabe::PacketTierNetwork*
astrolabe_packet_create(const astrolabe::PacketTierArgs* args) {
    return new astrolabe::ModuleNetwork(*args);
}

} // extern "C"
