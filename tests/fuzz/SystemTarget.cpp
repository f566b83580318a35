// ASTRA-sim system JSON.
#include "FuzzTarget.h"
#include "astra/AstraSystemConfig.h"

ASTROLABE_FUZZ_TARGET(system) {
    (void)astrolabe::parseAstraSystemJson(std::string(input), "fuzz.json");
}
