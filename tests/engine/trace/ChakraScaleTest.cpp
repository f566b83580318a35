// Writes a large workload for timing the loader by hand (disabled in normal runs):
//   ASTROLABE_SCALE_DIR=/tmp/scale engine_tests --gtest_also_run_disabled_tests
//   --gtest_filter=ChakraScale.* /usr/bin/time -v astrolabe-cli trace check /tmp/scale/w --npus
//   1000
// Each NPU: 2,000 nodes in a dependency chain; every 10th position is a SEND to the next rank
// and a RECV from the previous one (same tag), the rest alternate COMP (roofline attributes) and
// ALL_REDUCE collectives.
#include "ChakraTestUtil.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"

#include <cstdlib>
#include <gtest/gtest.h>

using namespace astrolabe;

TEST(ChakraScale, DISABLED_WriteLargeWorkload) {
    const char* dir = std::getenv("ASTROLABE_SCALE_DIR");
    if (!dir)
        GTEST_SKIP() << "set ASTROLABE_SCALE_DIR";
    const int npus =
        std::getenv("ASTROLABE_SCALE_NPUS") ? std::atoi(std::getenv("ASTROLABE_SCALE_NPUS")) : 1000;
    const int nodesPerNpu = 2000;
    for (int rank = 0; rank < npus; ++rank) {
        WorkloadTrace trace;
        trace.schemaVersion = "0.0.4";
        for (int i = 0; i < nodesPerNpu; ++i) {
            WorkloadNode n;
            n.id = uint64_t(i);
            n.name = "op" + std::to_string(i);
            if (i > 0)
                n.dataDeps.push_back(uint64_t(i - 1));
            if (i > 5)
                n.ctrlDeps.push_back(uint64_t(i - 5));
            if (i % 10 == 3) {
                n.type = NodeType::CommSend;
                n.hasCommDst = n.hasCommTag = n.hasCommSize = true;
                n.commDst = uint32_t((rank + 1) % npus);
                n.commTag = uint32_t(i);
                n.commSize = 65536;
            } else if (i % 10 == 4) {
                n.type = NodeType::CommRecv;
                n.hasCommSrc = n.hasCommTag = n.hasCommSize = true;
                n.commSrc = uint32_t((rank + npus - 1) % npus);
                n.commTag = uint32_t(i - 1);
                n.commSize = 65536;
            } else if (i % 2 == 0) {
                n.type = NodeType::Comp;
                n.hasNumOps = n.hasTensorSize = true;
                n.numOps = 1u << 30;
                n.tensorSize = 1u << 24;
                n.durationMicros = 100;
            } else {
                n.type = NodeType::CommColl;
                n.hasCommType = n.hasCommSize = true;
                n.commSize = 1 << 20;
            }
            trace.nodes.push_back(std::move(n));
        }
        writeWorkloadTrace(workloadFileName(std::string(dir) + "/w", rank), trace);
    }
}
