// Name tables for the configuration enums: the registries that file parsers and messages share.
#include "core/Error.h"
#include "spec/PlatformSpec.h"
#include "spec/SimulationSpec.h"
#include "spec/SystemConfig.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace astrolabe {

const std::vector<std::string>& blockKindNames() {
    static const std::vector<std::string> names{"Ring", "FullyConnected", "Switch"};
    return names;
}

const char* blockKindName(BlockKind kind) {
    switch (kind) {
    case BlockKind::Ring:
        return "Ring";
    case BlockKind::FullyConnected:
        return "FullyConnected";
    case BlockKind::Switch:
        return "Switch";
    }
    return "?";
}

BlockKind parseBlockKind(const std::string& name) {
    const std::vector<std::string>& names = blockKindNames();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<BlockKind>(i);
    const std::string guess = closestMatch(name, names);
    throw Error(ErrorKind::Validation,
                "unknown topology building block \"" + name + "\"; expected " +
                    joinAlternatives(names),
                {}, guess.empty() ? std::string() : "did you mean \"" + guess + "\"?");
}

namespace {
const std::vector<std::string>& algorithmBaseNames() {
    static const std::vector<std::string> names{"ring",
                                                "oneRing",
                                                "direct",
                                                "oneDirect",
                                                "halvingDoubling",
                                                "oneHalvingDoubling",
                                                "doubleBinaryTree",
                                                "inSwitch"};
    return names;
}
} // namespace

AlgorithmSpec parseAlgorithm(const std::string& name) {
    const std::vector<std::string>& names = algorithmBaseNames();
    for (size_t i = 0; i < names.size(); ++i)
        if (name == names[i])
            return AlgorithmSpec{static_cast<AlgorithmKind>(i), 0};
    // directW / oneDirectW: a decimal window of up to 5 digits.
    for (const char* base : {"oneDirect", "direct"}) {
        const std::string prefix(base);
        if (name.size() > prefix.size() && name.size() <= prefix.size() + 5 &&
            name.compare(0, prefix.size(), prefix) == 0) {
            const std::string digits = name.substr(prefix.size());
            bool allDigits = true;
            for (char c : digits)
                allDigits = allDigits && std::isdigit(static_cast<unsigned char>(c));
            if (allDigits && std::stoi(digits) > 0)
                return AlgorithmSpec{prefix == "direct" ? AlgorithmKind::Direct
                                                        : AlgorithmKind::OneDirect,
                                     std::stoi(digits)};
        }
    }
    const std::string guess = closestMatch(name, names);
    throw Error(ErrorKind::Validation,
                "unknown collective algorithm \"" + name + "\"; expected " +
                    joinAlternatives(names) +
                    " (direct and oneDirect take an optional window, e.g. direct4)",
                {}, guess.empty() ? std::string() : "did you mean \"" + guess + "\"?");
}

std::string algorithmName(const AlgorithmSpec& spec) {
    std::string name = algorithmBaseNames().at(static_cast<size_t>(spec.kind));
    if (spec.window > 0)
        name += std::to_string(spec.window);
    return name;
}

std::string algorithmNames(const std::vector<AlgorithmSpec>& list, const char* separator) {
    std::string out;
    for (const AlgorithmSpec& a : list)
        out += (out.empty() ? "" : separator) + algorithmName(a);
    return out;
}

const char* networkBackendName(NetworkBackend backend) {
    switch (backend) {
    case NetworkBackend::CongestionAware:
        return "analytical-congestion-aware";
    case NetworkBackend::Packet:
        return "ns3";
    case NetworkBackend::CongestionUnaware:
        break;
    }
    return "analytical-congestion-unaware";
}

} // namespace astrolabe
