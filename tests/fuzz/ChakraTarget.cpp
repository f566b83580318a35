// Chakra execution traces: binary, gzip-compressed binary and protobuf-JSON, read and decoded
// into the executor's nodes as `trace check` and every run do.
#include "FuzzTarget.h"
#include "trace/chakra/ChakraFile.h"
#include "trace/chakra/ChakraRecords.h"

ASTROLABE_FUZZ_TARGET(chakra) {
    using namespace astrolabe;
    const std::string bytes = chakra::inflateTraceBytes(std::string(input), "fuzz.0.et");
    const ChakraFile file = parseChakraBytes(bytes, "fuzz.0.et");
    (void)decodeChakraFile(file, "fuzz.0.et");
}
