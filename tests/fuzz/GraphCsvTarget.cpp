// Graph edge lists (config/GraphCsv.h): `graph import` and the CSV files a project names.
#include "FuzzTarget.h"
#include "graph/GraphCsv.h"

ASTROLABE_FUZZ_TARGET(graph_csv) {
    (void)astrolabe::parseGraphEdgeCsv(std::string(input), "fuzz.csv");
}
