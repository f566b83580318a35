// ASTRA-sim analytical network YAML.
#include "FuzzTarget.h"
#include "astra/AstraNetworkConfig.h"

ASTROLABE_FUZZ_TARGET(network) {
    (void)astrolabe::parseAstraNetworkYaml(std::string(input), "fuzz.yml");
}
