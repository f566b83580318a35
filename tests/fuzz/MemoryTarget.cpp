// ASTRA-sim remote-memory JSON.
#include "FuzzTarget.h"
#include "astra/AstraMemoryConfig.h"

ASTROLABE_FUZZ_TARGET(memory) {
    (void)astrolabe::parseAstraRemoteMemoryJson(std::string(input), "fuzz.json");
}
