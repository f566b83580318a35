#include "network/PacketTier.h"

#include "core/Error.h"
#include "core/Modules.h"

#include <dlfcn.h>
#include <filesystem>
#include <system_error>

namespace astrolabe {

namespace {

using AbiFn = int (*)();
using CreateFn = PacketTierNetwork* (*)(const PacketTierArgs*);

namespace fs = std::filesystem;

/// Opens one candidate; empty on success (entry point in `create`), else why it failed.
std::string tryOpen(const std::string& path, CreateFn& create) {
    std::error_code error;
    if (!fs::is_regular_file(path, error))
        return "no such file";
    // Never closed: ns-3's libraries keep process-wide state (its Simulator singleton, its type
    // registry) that must not be unloaded while this process may run again. dlopen() of a path
    // already open returns the same handle, so a second run opens nothing new.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr)
        return dlErrorText();
    const auto abi = reinterpret_cast<AbiFn>(dlsym(handle, kPacketAbiSymbol));
    const auto entry = reinterpret_cast<CreateFn>(dlsym(handle, kPacketCreateSymbol));
    if (abi == nullptr || entry == nullptr)
        return std::string("not a packet module: no ") + kPacketAbiSymbol + " or " +
               kPacketCreateSymbol;
    if (abi() != kPacketTierAbi)
        return "built for another version of Astrolabe (interface " + std::to_string(abi()) +
               ", this executable expects " + std::to_string(kPacketTierAbi) + ")";
    create = entry;
    return {};
}

} // namespace

std::vector<std::string> packetModuleCandidates() {
    return moduleCandidates(kPacketModuleName, "ASTROLABE_PACKET_MODULE");
}

std::unique_ptr<PacketTierNetwork> openPacketTier(const PacketTierArgs& args,
                                                  const std::string& askedBy) {
    // An executable that links engine/packet in place exports its entry point: no module.
    auto create = reinterpret_cast<CreateFn>(dlsym(RTLD_DEFAULT, kPacketCreateSymbol));
    std::string tried;
    if (create == nullptr) {
        for (const std::string& path : packetModuleCandidates()) {
            const std::string why = tryOpen(path, create);
            if (create != nullptr)
                break;
            tried += "\n  " + path + ": " + why;
        }
    }
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
