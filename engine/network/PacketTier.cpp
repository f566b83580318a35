#include "network/PacketTier.h"

#include "core/Error.h"
#include "core/Modules.h"

#include <dlfcn.h>

namespace astrolabe {

namespace {

using CreateFn = PacketTierNetwork* (*)(const PacketTierArgs*);

} // namespace

std::vector<std::string> packetModuleCandidates() {
    return moduleCandidates(kPacketModuleName, "ASTROLABE_PACKET_MODULE");
}

std::unique_ptr<PacketTierNetwork> openPacketTier(const PacketTierArgs& args,
                                                  const std::string& askedBy) {
    // An executable that links engine/packet in place exports its entry point: no module.
    auto create = reinterpret_cast<CreateFn>(dlsym(RTLD_DEFAULT, kPacketCreateSymbol));
    std::string tried;
    if (create == nullptr)
        create = reinterpret_cast<CreateFn>(openModuleEntry(
            packetModuleCandidates(),
            {kPacketAbiSymbol, kPacketTierAbi, kPacketCreateSymbol, "packet module"}, tried));
    if (create == nullptr)
        throw Error(ErrorKind::Unsupported,
                    askedBy + " asks for the packet-level tier (ns-3), which lives in the module " +
                        kPacketModuleName + ", and it could not be loaded. Tried:" + tried,
                    {},
                    "install ns-3's libraries (packaging/install-deps.sh: libns3-dev), build the "
                    "astrolabe-packet target, or set ASTROLABE_PACKET_MODULE to the module's "
                    "path; every other backend runs without them");
    return std::unique_ptr<PacketTierNetwork>(create(&args));
}

} // namespace astrolabe
