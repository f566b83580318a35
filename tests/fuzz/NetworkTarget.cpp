// ASTRA-sim analytical network YAML.
#include "FuzzTarget.h"
#include "config/AstraNetworkConfig.h"

ASTROLABE_FUZZ_TARGET(network) {
    (void)astrolabe::parseAstraNetworkYaml(std::string(input), "fuzz.yml");
}
