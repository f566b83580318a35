#pragma once
// The packet-level tier behind a small interface, so that nothing but the module that holds it
// links ns-3 (docs/network-models.md, "Packet-level tier", "Loaded only when asked").
// engine/packet (every file that includes ns-3) is built as astrolabe-packet.so; a run whose
// backend is the packet tier opens it with dlopen() through openPacketTier(), and no other run
// maps ns-3 at all.
//
// Sharing: the module links no library of ours. Its references to the engine (Simulator,
// Topology, LinkRecorder, Error, ...) are resolved at load time against the executable that
// opened it, which exports its symbols (CMake ENABLE_EXPORTS, i.e. -rdynamic;
// astrolabe_packet_host() in engine/packet/CMakeLists.txt), so there is one copy of the engine's
// code and of whatever state it keeps, and exceptions and dynamic casts cross the boundary
// unchanged. An executable that links engine/packet in place (the engine's tests) is used as
// is: the entry point is looked up in the process before any module is opened.

#include "network/NetworkModel.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace astrolabe {

class LinkRecorder;
class Simulator;
class Topology;
struct PacketOptions;

/// A packet-tier network: a NetworkModel plus its report.
class PacketTierNetwork : public NetworkModel {
public:
    /// "[packet] ..." lines for the run report.
    virtual std::vector<std::string> reportLines() const = 0;
    /// Per platform link: the largest queue its port held, in bytes.
    virtual std::vector<uint64_t> maxQueueBytes() const = 0;
};

/// What the module's entry point is given; every pointer but recorder is non-null.
struct PacketTierArgs {
    Simulator* sim = nullptr;
    const Topology* topology = nullptr;
    const PacketOptions* options = nullptr;
    DeliverySink* sink = nullptr;
    LinkRecorder* recorder = nullptr;
};

/// Raised when the module and the executable were built from different versions of this file.
inline constexpr int kPacketTierAbi = 1;

/// The module's file name, and the entry points it exports (C names: no mangling to match).
inline constexpr const char* kPacketModuleName = "astrolabe-packet.so";
inline constexpr const char* kPacketAbiSymbol = "astrolabe_packet_abi";
inline constexpr const char* kPacketCreateSymbol = "astrolabe_packet_create";

/// Where the module is looked for, in order: $ASTROLABE_PACKET_MODULE alone when it is set;
/// otherwise next to the executable, the installed location relative to it (the .deb's
/// <libdir>/astrolabe/), and the build tree's folder of the module.
std::vector<std::string> packetModuleCandidates();

/// The packet network of a run. `askedBy` names the setting that asked for the packet tier
/// (for the error). Throws Error(Unsupported) naming every path tried and why each failed when
/// the module, or the ns-3 libraries it needs, cannot be loaded.
std::unique_ptr<PacketTierNetwork> openPacketTier(const PacketTierArgs& args,
                                                  const std::string& askedBy);

} // namespace astrolabe
