// Communicator-group JSON ({"1": [0, 2], ...}).
#include "FuzzTarget.h"
#include "astra/AstraMemoryConfig.h"

ASTROLABE_FUZZ_TARGET(comm_groups) {
    (void)astrolabe::parseCommGroupsJson(std::string(input), "fuzz.json");
}
