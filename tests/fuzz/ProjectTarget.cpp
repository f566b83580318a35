// Astrolabe project YAML (files it names are read through the same checked reader as always).
#include "FuzzTarget.h"
#include "project/ProjectFile.h"

ASTROLABE_FUZZ_TARGET(project) {
    (void)astrolabe::parseProject(std::string(input), "fuzz.yaml");
}
