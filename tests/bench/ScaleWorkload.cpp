// Writes a large, executable workload for whole-process timing of load + run:
//   bench_scale_workload DIR [NPUS=1000] [NODES=2000]
// then: /usr/bin/time -v astrolabe-cli astra --workload-configuration=DIR/w
//         --comm-group-configuration=DIR/groups.json --system-configuration=DIR/system.json
//         --network-configuration=DIR/network.yml --remote-memory-configuration=DIR/memory.json
// Per NPU a dependency chain of NODES nodes: compute (replayed, 100 us) with every 10th position
// an all-reduce of 1 MiB within the NPU's group of 8 (tensor parallel style) and every 10th+5 a
// send of 64 KiB to the next NPU's matching receive (pipeline style).
#include "astra/AstraExport.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"

#include <cstdlib>
#include <fstream>
#include <iostream>

using namespace astrolabe;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: bench_scale_workload DIR [NPUS] [NODES]\n";
        return 2;
    }
    const std::string dir = argv[1];
    const int npus = argc > 2 ? std::atoi(argv[2]) : 1000;
    const int nodes = argc > 3 ? std::atoi(argv[3]) : 2000;
    if (npus < 16 || npus % 8 != 0 || nodes < 20) {
        std::cerr << "NPUS must be a multiple of 8 (>= 16), NODES >= 20\n";
        return 2;
    }
    CommGroups groups;
    for (int g = 0; g < npus / 8; ++g)
        for (int i = 0; i < 8; ++i)
            groups[g + 1].push_back(8 * g + i);
    for (int rank = 0; rank < npus; ++rank) {
        WorkloadTrace trace;
        trace.schemaVersion = "0.0.4";
        for (int i = 0; i < nodes; ++i) {
            WorkloadNode n;
            n.id = static_cast<uint64_t>(i);
            n.name = "op" + std::to_string(i);
            if (i > 0)
                n.dataDeps.push_back(static_cast<uint64_t>(i - 1));
            const int next = (rank + 1) % npus, previous = (rank + npus - 1) % npus;
            if (i % 10 == 0) {
                n.type = NodeType::CommColl;
                n.hasCommType = n.hasCommSize = true;
                n.commSize = 1 << 20;
                n.pgName = std::to_string(rank / 8 + 1);
            } else if (i % 10 == 5 && rank % 2 == 0) {
                n.type = NodeType::CommSend;
                n.hasCommDst = n.hasCommTag = n.hasCommSize = true;
                n.commDst = static_cast<uint32_t>(next);
                n.commTag = static_cast<uint32_t>(i);
                n.commSize = 65536;
            } else if (i % 10 == 5) {
                n.type = NodeType::CommRecv;
                n.hasCommSrc = n.hasCommTag = n.hasCommSize = true;
                n.commSrc = static_cast<uint32_t>(previous);
                n.commTag = static_cast<uint32_t>(i);
                n.commSize = 65536;
            } else {
                n.type = NodeType::Comp;
                n.durationMicros = 100;
            }
            trace.nodes.push_back(std::move(n));
        }
        writeWorkloadTrace(workloadFileName(dir + "/w", rank), trace);
    }
    std::ofstream(dir + "/groups.json") << writeCommGroupsJson(groups);
    std::ofstream(dir + "/network.yml")
        << "topology: [ Switch, Switch ]\nnpus_count: [ 8, " << npus / 8
        << " ]\nbandwidth: [ 400, 50 ]\nlatency: [ 936.25, 2000 ]\n";
    std::ofstream(dir + "/system.json")
        << "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 10, "
           "\"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": 1, "
           "\"collective-optimization\": \"localBWAware\", \"local-mem-bw\": 1600, "
           "\"all-reduce-implementation\": [\"ring\", \"ring\"], "
           "\"reduce-scatter-implementation\": [\"ring\", \"ring\"], "
           "\"all-gather-implementation\": [\"ring\", \"ring\"], "
           "\"all-to-all-implementation\": [\"ring\", \"ring\"]}\n";
    std::ofstream(dir + "/memory.json") << "{\"memory-type\": \"NO_MEMORY_EXPANSION\"}\n";
    std::cout << "wrote " << npus << " traces of " << nodes << " nodes to " << dir << "/w.*.et\n";
    return 0;
}
