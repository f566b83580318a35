// ASTRA-sim system JSON.
#include "FuzzTarget.h"
#include "config/AstraSystemConfig.h"

ASTROLABE_FUZZ_TARGET(system) {
    (void)astrolabe::parseAstraSystemJson(std::string(input), "fuzz.json");
}
