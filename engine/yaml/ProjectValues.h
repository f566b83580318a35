#pragma once
// Values of the Astrolabe project YAML (for the readers of project/, graph/ and schema/):
// quantities with explicit units, read with their key path for messages, and written back as the
// shortest text that reads back to exactly the same number (so load(save(spec)) == spec).

#include "core/SimTime.h"
#include "spec/SimulationSpec.h"
#include "yaml/YamlSupport.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::config {

// Readers: false after reporting an error that names the key and the accepted forms.
bool readBandwidth(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
                   double& bytesPerSecond);
bool readTime(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
              SimTime& out);
bool readSize(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
              uint64_t& bytes);
/// "900 TFLOP/s" (also GFLOP/s, PFLOP/s, FLOP/s); returns TFLOP/s.
bool readFlopRate(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
                  double& teraFlops);
double parseFlopRateTeraFlops(const std::string& text); ///< throws Error like units::parse*

// Writers: exact round trip through the matching reader.
std::string bandwidthText(double bytesPerSecond);
std::string decimalGigabytesPerSecondText(double gigabytesPerSecond);
std::string nanosecondsText(double ns);
std::string sizeText(uint64_t bytes);
std::string flopRateText(double teraFlops);
/// A YAML double-quoted scalar ("a \"b\"").
std::string quotedText(const std::string& text);

// Names used in projects (the first spelling of each value is the one written back).
const std::vector<std::string>& projectCollectiveNames(); ///< all-reduce, reduce-scatter, ...
int parseProjectCollective(const std::string& name);      ///< Chakra CollectiveCommType value
const char* projectCollectiveName(int chakraType);
const std::vector<std::string>& projectMemoryTypeNames(); ///< none, per-node, per-npu, pool, pooled
RemoteMemoryType parseProjectMemoryType(const std::string& name);
const char* projectMemoryTypeName(RemoteMemoryType type);
const std::vector<std::string>& backendNames(); ///< congestion-unaware, congestion-aware, packet
NetworkBackend parseBackend(const std::string& name);
const char* backendName(NetworkBackend backend);
const std::vector<std::string>& timingNames(); ///< astra-compatible, precise
TimingMode parseTiming(const std::string& name);
const char* timingName(TimingMode timing);

/// Reads a name through `parse` (which throws an Error listing the valid names).
template <typename Value, typename Parse>
bool readName(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
              Value& out, Parse parse) {
    std::string name;
    if (!readString(diagnostics, node, keyPath, name))
        return false;
    try {
        out = parse(name);
        return true;
    } catch (const Error& e) {
        diagnostics.relocate(e, locate(diagnostics, node, keyPath));
        return false;
    }
}

} // namespace astrolabe::config
