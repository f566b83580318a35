// MSCCL-IR XML custom collectives, converted for a 1 MiB collective.
#include "FuzzTarget.h"
#include "collective/MscclXml.h"

ASTROLABE_FUZZ_TARGET(msccl) {
    (void)astrolabe::parseMscclXml(std::string(input), "fuzz.xml", 1 << 20);
}
