// Bad inputs: each case names the file, the line:column, the key path and what was expected.
#include "ConfigTestSupport.h"
#include "astra/AstraMemoryConfig.h"
#include "astra/AstraNetworkConfig.h"
#include "astra/AstraSystemConfig.h"
#include "project/ProjectFile.h"
#include "spec/Diagnostics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using astrolabe::configtest::errorText;
using ::testing::HasSubstr;

namespace {

enum class Loader { Network, System, Memory, CommGroups, Project };

struct BadCase {
    const char* name;
    Loader loader;
    std::string text;
    std::vector<std::string> expected; ///< substrings of the error text
};

std::string load(const BadCase& c) {
    return errorText([&] {
        switch (c.loader) {
        case Loader::Network:
            parseAstraNetworkYaml(c.text, "n.yml");
            break;
        case Loader::System:
            parseAstraSystemJson(c.text, "s.json");
            break;
        case Loader::Memory:
            parseAstraRemoteMemoryJson(c.text, "m.json");
            break;
        case Loader::CommGroups:
            parseCommGroupsJson(c.text, "g.json");
            break;
        case Loader::Project:
            parseProject(c.text, "p.yaml");
            break;
        }
    });
}

const std::string kNet = "npus_count: [8]\nbandwidth: [50]\nlatency: [500]\n";
const std::string kProjectHead =
    "name: t\nplatform:\n  dimensions:\n"
    "    - {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 5 ns}\n";
const std::string kProjectSystem = "system:\n  algorithms: [ring]\n  chunks: 4\n";
const std::string kProjectWorkload =
    "workload:\n  microbenchmark: {collective: all-reduce, size: 1 MiB}\n";

const std::vector<BadCase>& badCases() {
    static const std::vector<BadCase> cases{
        {"NetworkLengthMismatch",
         Loader::Network,
         "topology: [Ring, Ring]\nnpus_count: [4]\nbandwidth: [50, 50]\nlatency: [1, 1]\n",
         {"n.yml:2:13: npus_count: expected 2 entries (one per dimension, as in topology), "
          "found 1"}},
        {"NetworkObsoleteFormat",
         Loader::Network,
         "topology-name: Hierarchical\ndimensions-count: 2\nunits-count: [4, 2]\n",
         {"n.yml:1:1: topology-name: this is the obsolete 2022 analytical network format"}},
        {"NetworkUnknownTopology",
         Loader::Network,
         "topology: [Rign]\n" + kNet,
         {"n.yml:1:12: topology[0]: unknown topology building block \"Rign\"; expected Ring, "
          "FullyConnected or Switch (hint: did you mean \"Ring\"?)"}},
        {"NetworkScalarInsteadOfList",
         Loader::Network,
         "topology: Ring\n" + kNet,
         {"n.yml:1:11: topology: expected a list with one entry per dimension, found \"Ring\" "
          "(hint: write topology: [ Ring ])"}},
        {"NetworkMisspelledKey",
         Loader::Network,
         "topology: [Ring]\nnpus-count: [8]\nbandwidth: [50]\nlatency: [500]\n",
         {"n.yml: npus_count: required key is missing (hint: found \"npus-count\"; did you mean "
          "\"npus_count\"?)"}},
        {"NetworkSingleNpu",
         Loader::Network,
         "topology: [Ring]\nnpus_count: [1]\nbandwidth: [50]\nlatency: [500]\n",
         {"n.yml:2:14: npus_count[0]: expected more than 1 NPU per dimension, found 1"}},
        {"SystemMissingSplits",
         Loader::System,
         R"({"scheduling-policy": "LIFO"})",
         {"s.json: preferred-dataset-splits: required key is missing", "division by zero"}},
        {"SystemUnknownAlgorithm",
         Loader::System,
         "{\n  \"preferred-dataset-splits\": 1,\n  \"all-reduce-implementation\": [\"rign\"]\n}",
         {"s.json:3:3: all-reduce-implementation[0]: unknown collective algorithm \"rign\"",
          "did you mean \"ring\"?"}},
        {"SystemTwoCustomPrefixes",
         Loader::System,
         "{\n  \"preferred-dataset-splits\": 1,\n"
         "  \"all-gather-implementation-custom\": [\"a\", \"b\"]\n}",
         {"s.json:3:3: all-gather-implementation-custom: expected a list with exactly one "
          "custom collective ET prefix, found 2 entries"}},
        {"SystemSharedBus",
         Loader::System,
         "{\"preferred-dataset-splits\": 1, \"model-shared-bus\": 1}",
         {"s.json:1:33: model-shared-bus: the LogGP shared-bus model is not supported"}},
        {"SystemUnknownPolicy",
         Loader::System,
         "{\"preferred-dataset-splits\": 1,\n \"scheduling-policy\": \"RANDOM\"}",
         {"s.json:2:2: scheduling-policy: unknown scheduling policy \"RANDOM\"; expected LIFO, "
          "FIFO or EXPLICIT"}},
        {"SystemSyntaxError",
         Loader::System,
         "{\n  \"scheduling-policy\": \"LIFO\"\n  \"preferred-dataset-splits\": 1\n}",
         // nlohmann reports the end of the token it could not place.
         {"s.json:3:28: JSON syntax error: syntax error while parsing object - unexpected string "
          "literal; expected '}' (hint: is a comma missing before this value?)"}},
        // The parser keeps the last of two equal keys; a setting edited in one place and left
        // in another would silently do nothing.
        {"SystemKeyGivenTwice",
         Loader::System,
         "{\n  \"preferred-dataset-splits\": 4,\n  \"scheduling-policy\": \"LIFO\",\n"
         "  \"preferred-dataset-splits\": 16\n}",
         {"s.json:4:3: preferred-dataset-splits: the key \"preferred-dataset-splits\" is given "
          "twice in one object, on lines 2 and 4 (hint: keep one of them: only the last would be "
          "read)"}},
        {"SystemKeyGivenTwiceOnOneLine",
         Loader::System,
         "{\"preferred-dataset-splits\": 4, \"preferred-dataset-splits\": 16}",
         {"s.json:1:33: preferred-dataset-splits: the key \"preferred-dataset-splits\" is given "
          "twice in one object, both on line 1"}},
        // Equal keys in different objects are two settings, not a repeat: only "2" is one.
        {"CommGroupKeyGivenTwiceInTheSecondObjectOnly",
         Loader::CommGroups,
         "{\"1\": [0, 1], \"x\": {\"1\": 2},\n \"2\": [2, 3],\n \"2\": [4, 5]}",
         {"g.json:3:2: 2: the key \"2\" is given twice in one object, on lines 2 and 3"}},
        {"ProjectCommGroupNotDefined",
         Loader::Project,
         kProjectHead + kProjectSystem +
             "workload:\n  microbenchmark: {collective: all-reduce, size: 1 MiB, comm-group: 2}\n"
             "comm-groups: {1: [0, 3]}\n",
         {"p.yaml:9:69: workload.microbenchmark.comm-group: communicator group 2 is not defined"}},
        // A collective over one NPU has no dimension to run on: refused at load, with the file,
        // line and key.
        {"ProjectCommGroupOfOneNpu",
         Loader::Project,
         kProjectHead + kProjectSystem +
             "workload:\n  microbenchmark: {collective: all-reduce, size: 1 MiB, comm-group: 1}\n"
             "comm-groups: {1: [3]}\n",
         {"p.yaml:9:69: workload.microbenchmark.comm-group: communicator group 1 has one NPU: a "
          "collective over it moves nothing and could never complete (hint: give comm-groups.1 "
          "two or more NPUs, or use 0 for all NPUs)"}},
        {"SystemAstraSim1AlgorithmString",
         Loader::System,
         "{\"preferred-dataset-splits\": 1,\n"
         "\"all-reduce-implementation\": \"ring_doubleBinaryTree\"}",
         {"s.json:2:1: all-reduce-implementation: expected a list of algorithm names",
          "(hint: write [\"ring\", \"doubleBinaryTree\"])"}},
        {"SystemZeroSplits",
         Loader::System,
         "{\"preferred-dataset-splits\": 0}",
         {"s.json:1:2: preferred-dataset-splits: expected 1 or more chunks, found 0"}},
        {"MemoryUnknownType",
         Loader::Memory,
         "{\"memory-type\": \"HBM\"}",
         {"m.json:1:2: memory-type: unsupported memory type \"HBM\"; expected "
          "NO_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION, PER_NPU_MEMORY_EXPANSION or "
          "MEMORY_POOL"}},
        {"MemoryPoolWithoutBandwidth",
         Loader::Memory,
         "{\"memory-type\": \"MEMORY_POOL\", \"remote-mem-latency\": 5}",
         {"m.json: remote-mem-bw: expected a bandwidth of 1 or more"}},
        {"CommGroupZeroIsReserved",
         Loader::CommGroups,
         "{\"0\": [0, 1]}",
         {"g.json:1:2: 0: group id 0 is reserved for all NPUs"}},
        {"CommGroupDuplicateRank",
         Loader::CommGroups,
         "{\"1\": [0, 1, 1]}",
         {"g.json:1:2: 1[2]: rank 1 is listed twice in this group"}},
        {"ProjectBareBandwidth",
         Loader::Project,
         "name: t\nplatform:\n  dimensions:\n"
         "    - {type: Ring, size: 8, bandwidth: 50, latency: 500 ns}\n" +
             kProjectSystem + kProjectWorkload,
         {"p.yaml:4:40: platform.dimensions[0].bandwidth: expected a bandwidth with a unit, "
          "found \"50\" (a bare number is ambiguous; write the unit)",
          "accepted forms:"}},
        {"ProjectBareLatency",
         Loader::Project,
         "name: t\nplatform:\n  dimensions:\n"
         "    - {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 500}\n" +
             kProjectSystem + kProjectWorkload,
         {"p.yaml:4:59: platform.dimensions[0].latency: expected a time with a unit, found "
          "\"500\""}},
        {"ProjectBareSize",
         Loader::Project,
         kProjectHead + kProjectSystem +
             "workload:\n  microbenchmark: {collective: all-reduce, size: 1048576}\n",
         {"p.yaml:9:50: workload.microbenchmark.size: expected a size with a unit, found "
          "\"1048576\""}},
        {"ProjectYamlSyntax",
         Loader::Project,
         "name: t\nplatform:\n  dimensions:\n"
         "    - {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 5 ns\nsystem:\n  chunks: 4\n",
         // yaml-cpp notices the unclosed flow map where the next block starts.
         {"p.yaml:5:7: YAML syntax error: end of map flow not found"}},
        {"ProjectUnknownTopLevelKey",
         Loader::Project,
         kProjectHead + kProjectSystem + kProjectWorkload + "sytem: {}\n",
         {"p.yaml:10:1: sytem: unknown key (hint: did you mean \"system\"?)"}},
        {"ProjectMissingChunks",
         Loader::Project,
         kProjectHead + "system:\n  algorithms: [ring]\n" + kProjectWorkload,
         {"p.yaml:6:3: system.chunks: required key is missing"}},
        {"ProjectRankOutOfRange",
         Loader::Project,
         kProjectHead + kProjectSystem + kProjectWorkload + "comm-groups:\n  1: [0, 9]\n",
         {"p.yaml:11:10: comm-groups.1[1]: expected a rank below 8 (the platform's NPU count), "
          "found 9"}},
        {"ProjectUndefinedCommGroup",
         Loader::Project,
         kProjectHead + kProjectSystem +
             "workload:\n  microbenchmark: {collective: all-reduce, size: 1 MiB, comm-group: 3}\n",
         {"p.yaml:9:69: workload.microbenchmark.comm-group: communicator group 3 is not "
          "defined"}},
        {"ProjectTooManyAlgorithms",
         Loader::Project,
         kProjectHead + "system:\n  algorithms: {all-reduce: [ring, ring]}\n  chunks: 4\n" +
             kProjectWorkload,
         {"p.yaml:6:28: system.algorithms.all-reduce: expected at most 1 algorithms (one per "
          "network dimension), found 2"}},
        {"ProjectUnknownCollective",
         Loader::Project,
         kProjectHead + kProjectSystem +
             "workload:\n  microbenchmark: {collective: all-reduse, size: 1 MiB}\n",
         {"p.yaml:9:32: workload.microbenchmark.collective: unknown collective \"all-reduse\"",
          "did you mean \"all-reduce\"?"}},
        // Limits (docs/limits.md): refused before anything is allocated for them.
        {"FourSwitchesOf65536Npus",
         Loader::Project,
         std::string("name: t\nplatform:\n  dimensions:\n") +
             "    - {type: Switch, size: 65536, bandwidth: 50 GiB/s, latency: 5 ns}\n"
             "    - {type: Switch, size: 65536, bandwidth: 50 GiB/s, latency: 5 ns}\n"
             "    - {type: Switch, size: 65536, bandwidth: 50 GiB/s, latency: 5 ns}\n"
             "    - {type: Switch, size: 65536, bandwidth: 50 GiB/s, latency: 5 ns}\n" +
             kProjectSystem + kProjectWorkload,
         {"p.yaml:4:5: platform.dimensions: expected at most 1048576 NPUs, found the dimensions "
          "65536 x 65536 x 65536 x 65536"}},
        {"FortyDimensions",
         Loader::Project,
         "name: t\nplatform:\n  dimensions:\n" +
             std::string(
                 "    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: "
                 "Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, "
                 "bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 "
                 "GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: "
                 "5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - "
                 "{type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, "
                 "size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, "
                 "bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 "
                 "GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: "
                 "5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - "
                 "{type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, "
                 "size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, "
                 "bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 "
                 "GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: "
                 "5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - "
                 "{type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, "
                 "size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, "
                 "bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 "
                 "GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: "
                 "5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - "
                 "{type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, "
                 "size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, "
                 "bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 "
                 "GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: "
                 "5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - "
                 "{type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, "
                 "size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, "
                 "bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 "
                 "GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: "
                 "5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - "
                 "{type: Ring, size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, "
                 "size: 2, bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, "
                 "bandwidth: 50 GiB/s, latency: 5 ns}\n    - {type: Ring, size: 2, bandwidth: 50 "
                 "GiB/s, latency: 5 ns}\n") +
             kProjectSystem + kProjectWorkload,
         {"expected at most 16 network dimensions, found 40"}},
        {"ABillionChunks",
         Loader::Project,
         kProjectHead + "system:\n  algorithms: [ring]\n  chunks: 1000000000\n" + kProjectWorkload,
         {"p.yaml:7:11: system.chunks: expected at most 16384 chunks per collective, found "
          "1000000000"}},
        {"ABillionQueues",
         Loader::Project,
         kProjectHead + kProjectSystem + "  num-queues-per-dim: 1000000000\n" + kProjectWorkload,
         {"system.num-queues-per-dim: expected at most 1024 queues per dimension, found "
          "1000000000"}},
        // Found by fuzzing (tests/fuzz/corpus): a delay that overflowed the integer it is kept
        // in, and a key path into a map that lacks the key (yaml-cpp threw InvalidNode).
        {"EndpointDelayOfTenToThe47",
         Loader::System,
         "{\"scheduling-policy\": \"LIFO\", \"preferred-dataset-splits\": 4,\n"
         " \"endpoint-delay\": 111111111111111111111111111111111111111111111110}",
         {"s.json:2:2: endpoint-delay: expected at most 1000000000 cycles (ns, one second)"}},
        {"AlgorithmsWithoutAllReduceForAnAllReduce",
         Loader::Project,
         kProjectHead + "system:\n  algorithms:\n    all-to-all: [direct]\n  chunks: 4\n" +
             kProjectWorkload,
         {"system.algorithms.all-reduce: no algorithm is configured for all-reduce"}},
    };
    return cases;
}

class BadConfig : public ::testing::TestWithParam<size_t> {};

} // namespace

TEST_P(BadConfig, NamesFileLineKeyAndExpectation) {
    const BadCase& c = badCases().at(GetParam());
    const std::string text = load(c);
    ASSERT_FALSE(text.empty()) << c.name << ": no error for\n" << c.text;
    for (const std::string& piece : c.expected)
        EXPECT_THAT(text, HasSubstr(piece)) << c.name;
}

INSTANTIATE_TEST_SUITE_P(Cases, BadConfig, ::testing::Range<size_t>(0, badCases().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return std::string(badCases().at(info.param).name);
                         });

TEST(BadProject, AllErrorsOfAProjectComeTogether) {
    try {
        parseProject("name: t\nplatform:\n  dimensions:\n"
                     "    - {type: Rng, size: 1, bandwidth: 5, latency: -3 ns}\n"
                     "system: {chunks: 0}\nworkload: {trace: x}\nrun: {backend: fast}\n",
                     "all.yaml");
        FAIL() << "no error";
    } catch (const ErrorList& list) {
        // type, size, bandwidth, latency, chunks, backend.
        EXPECT_EQ(list.errors().size(), 6u) << list.what();
        for (const Error& e : list.errors())
            EXPECT_EQ(e.where().file, "all.yaml");
    }
}

TEST(BadProject, ThousandsOfMistakesListTheFirstHundredInFileOrderAndCountTheRest) {
    // 3,000 unknown keys, each long (a binary file or a pasted paragraph read as YAML): every one
    // is an error with a did-you-mean search over the known keys.
    std::string text = "name: t\n";
    const std::string filler(900, 'q');
    for (int i = 0; i < 3000; ++i)
        text.append("k").append(std::to_string(i)).append(filler).append(": 1\n");
    try {
        parseProject(text, "many.yaml");
        FAIL() << "no error";
    } catch (const ErrorList& list) {
        ASSERT_EQ(list.errors().size(), config::Diagnostics::kErrorsListed + 1);
        for (size_t i = 0; i < config::Diagnostics::kErrorsListed; ++i) {
            EXPECT_EQ(list.errors()[i].where().file, "many.yaml");
            EXPECT_EQ(list.errors()[i].where().line, static_cast<int>(i) + 2) << i;
        }
        EXPECT_THAT(list.errors().back().message(),
                    HasSubstr("2903 more errors not listed (only the first 100 are)"))
            << "3,000 unknown keys and the three missing sections (platform, system, workload)";
        EXPECT_LT(std::string(list.what()).size(), 400'000u);
    }
}

TEST(Diagnostics, ListsInFileOrderWhateverTheOrderFound) {
    config::Diagnostics d("f.yaml");
    for (int line : {7, 3, 5})
        d.error(d.at(line, 1, "k"), "bad " + std::to_string(line));
    d.error(SourceLocation{"other.json", 1, 1, {}}, "in another file");
    d.error(d.at(0, 0, {}), "no line");
    try {
        d.throwIfErrors();
        FAIL() << "no error";
    } catch (const ErrorList& list) {
        std::vector<std::string> messages;
        for (const Error& e : list.errors())
            messages.push_back(e.message());
        EXPECT_THAT(messages, ::testing::ElementsAre("bad 3", "bad 5", "bad 7", "no line",
                                                     "in another file"));
    }
}
