// Every stored fuzz input (seeds and past findings, tests/fuzz/corpus/<target>/) through its
// target on every build: what a fuzzer once found stays fixed without needing clang.
#include "FuzzTarget.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#define ASTROLABE_DECLARE_TARGET(name) void astrolabeFuzz_##name(std::string_view input);
ASTROLABE_DECLARE_TARGET(chakra)
ASTROLABE_DECLARE_TARGET(chakra_lenient)
ASTROLABE_DECLARE_TARGET(kineto)
ASTROLABE_DECLARE_TARGET(network)
ASTROLABE_DECLARE_TARGET(system)
ASTROLABE_DECLARE_TARGET(memory)
ASTROLABE_DECLARE_TARGET(comm_groups)
ASTROLABE_DECLARE_TARGET(project)
ASTROLABE_DECLARE_TARGET(msccl)
ASTROLABE_DECLARE_TARGET(sweep)
ASTROLABE_DECLARE_TARGET(nccl_tests)
ASTROLABE_DECLARE_TARGET(nccl_fit)
ASTROLABE_DECLARE_TARGET(graph_csv)
ASTROLABE_DECLARE_TARGET(lesson)
ASTROLABE_DECLARE_TARGET(blobs)
ASTROLABE_DECLARE_TARGET(request_traces)
ASTROLABE_DECLARE_TARGET(pytorch_link)

namespace {

namespace fs = std::filesystem;

void replay(const char* name, void (*target)(std::string_view)) {
    const fs::path folder = fs::path(ASTROLABE_FUZZ_CORPUS) / name;
    ASSERT_TRUE(fs::is_directory(folder)) << folder;
    int inputs = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
        if (!entry.is_regular_file())
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        std::string why;
        EXPECT_TRUE(astrolabe::fuzz::runGuarded(target, bytes.str(), &why))
            << entry.path().filename() << ": " << why;
        ++inputs;
    }
    EXPECT_GE(inputs, 3) << "the seed corpus of " << name << " is missing";
}

} // namespace

TEST(FuzzCorpus, Chakra) {
    replay("chakra", astrolabeFuzz_chakra);
}
TEST(FuzzCorpus, ChakraLenient) {
    replay("chakra_lenient", astrolabeFuzz_chakra_lenient);
}
TEST(FuzzCorpus, Kineto) {
    replay("kineto", astrolabeFuzz_kineto);
}
TEST(FuzzCorpus, PytorchLink) {
    replay("pytorch_link", astrolabeFuzz_pytorch_link);
}
TEST(FuzzCorpus, Network) {
    replay("network", astrolabeFuzz_network);
}
TEST(FuzzCorpus, System) {
    replay("system", astrolabeFuzz_system);
}
TEST(FuzzCorpus, Memory) {
    replay("memory", astrolabeFuzz_memory);
}
TEST(FuzzCorpus, CommGroups) {
    replay("comm_groups", astrolabeFuzz_comm_groups);
}
TEST(FuzzCorpus, Project) {
    replay("project", astrolabeFuzz_project);
}
TEST(FuzzCorpus, Msccl) {
    replay("msccl", astrolabeFuzz_msccl);
}
TEST(FuzzCorpus, Sweep) {
    replay("sweep", astrolabeFuzz_sweep);
}
TEST(FuzzCorpus, NcclTests) {
    replay("nccl_tests", astrolabeFuzz_nccl_tests);
}
TEST(FuzzCorpus, NcclFit) {
    replay("nccl_fit", astrolabeFuzz_nccl_fit);
}
TEST(FuzzCorpus, GraphCsv) {
    replay("graph_csv", astrolabeFuzz_graph_csv);
}
TEST(FuzzCorpus, Lesson) {
    replay("lesson", astrolabeFuzz_lesson);
}
TEST(FuzzCorpus, Blobs) {
    replay("blobs", astrolabeFuzz_blobs);
}
TEST(FuzzCorpus, RequestTraces) {
    replay("request_traces", astrolabeFuzz_request_traces);
}
