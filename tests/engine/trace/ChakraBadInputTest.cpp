// Broken traces: framing, encodings and node attributes. Each case asserts its own error text;
// none may crash or hang (this suite also runs under ASan + UBSan: packaging/sanitize.sh).
#include "ChakraBadInput.h"

using namespace astrolabe;
using namespace astrolabe::test;

// --- framing -------------------------------------------------------------------------------

TEST_F(ChakraBadInput, EmptyFile) {
    EXPECT_ERROR(loadBytes(""), "w.0.et: the file is empty");
}

TEST_F(ChakraBadInput, LengthPastEndOfFile) {
    std::string bytes = traceBytes({coll(0)});
    bytes.resize(bytes.size() - 3);
    EXPECT_ERROR(loadBytes(bytes), "byte offset 8, record #1: record length");
    EXPECT_ERROR(loadBytes(bytes), "runs past the end of the file (");
}

TEST_F(ChakraBadInput, TruncatedRecordInsideMetadata) {
    EXPECT_ERROR(loadBytes(metadataRecord().substr(0, 4)),
                 "byte offset 0, record #0 (GlobalMetadata): record length 7 runs past the end");
}

TEST_F(ChakraBadInput, TruncatedVarintLength) {
    // A length prefix whose continuation bit promises a byte that never comes.
    EXPECT_ERROR(loadBytes(metadataRecord() + "\x85"),
                 "byte offset 8, record #1: the file ends inside the record's length prefix");
}

TEST_F(ChakraBadInput, OverlongVarintLength) {
    EXPECT_ERROR(loadBytes(metadataRecord() + std::string(6, '\xff') + "\x01"),
                 "byte offset 8, record #1: overlong length prefix");
}

TEST_F(ChakraBadInput, LengthAbove32Bits) {
    // Five bytes, but the value exceeds 2^32 - 1.
    EXPECT_ERROR(loadBytes(metadataRecord() + "\xff\xff\xff\xff\x7f"), "overlong length prefix");
}

TEST_F(ChakraBadInput, GarbageNodeBytes) {
    // Wire type 7 does not exist.
    EXPECT_ERROR(loadBytes(metadataRecord() + delimitedRaw("\x0f\x01\x02\x03")),
                 "record #1: 4 bytes that do not parse as a Chakra Node");
}

TEST_F(ChakraBadInput, GarbageFirstRecord) {
    EXPECT_ERROR(loadBytes(delimitedRaw("\x07\x07\x07")),
                 "record #0 (GlobalMetadata): not a GlobalMetadata message");
}

// --- schema ---------------------------------------------------------------------------------

TEST_F(ChakraBadInput, UnknownNodeType) {
    Node n = coll(0);
    n.set_type(static_cast<ChakraProtoMsg::NodeType>(42));
    EXPECT_ERROR(load({{n}}), "w.0.et: node 0: unknown NodeType 42");
}

TEST_F(ChakraBadInput, OldGenerationEgDef) {
    // eg_def / 0.0.1: Node{id=1, name="x", node_type=6, comm_type=13, comm_size=18} and no
    // GlobalMetadata record.
    const std::string node("\x08\x01\x12\x01x\x18\x06\x68\x01\x90\x01\x80\x80\x40", 14);
    EXPECT_ERROR(loadBytes(delimitedRaw(node)), "old Chakra schema generation eg_def / 0.0.1");
}

TEST_F(ChakraBadInput, OldGeneration002) {
    // 0.0.2: Node{id=1, name="x", type=3, attribute(11)={...}} without GlobalMetadata.
    const std::string node("\x08\x01\x12\x01x\x18\x03\x5a\x03\x0a\x01y", 12);
    EXPECT_ERROR(loadBytes(delimitedRaw(node)), "old Chakra schema generation 0.0.2");
}

TEST_F(ChakraBadInput, OldGeneration003) {
    // 0.0.3: GlobalMetadata{attribute(1)={name="schema"}} and nodes with attribute field 11.
    const std::string meta("\x0a\x08\x0a\x06schema", 10);
    const std::string node("\x08\x01\x12\x01x\x18\x04\x5a\x03\x0a\x01y", 12);
    EXPECT_ERROR(loadBytes(delimitedRaw(meta) + delimitedRaw(node)),
                 "old Chakra schema generation 0.0.3");
}

TEST_F(ChakraBadInput, GzipCorrupt) {
    std::string zipped = gzip(traceBytes({coll(0)}));
    for (size_t i = 10; i < zipped.size() - 8; ++i)
        zipped[i] = static_cast<char>(zipped[i] ^ 0x5a);
    EXPECT_ERROR(loadBytes(zipped), "gzip data is corrupt at compressed byte");
}

TEST_F(ChakraBadInput, GzipTruncated) {
    const std::string zipped = gzip(traceBytes({coll(0)}));
    EXPECT_ERROR(loadBytes(zipped.substr(0, zipped.size() / 2)), "gzip data ends early");
}

TEST_F(ChakraBadInput, JsonMalformed) {
    EXPECT_ERROR(loadBytes("{\"version\": \"0.0.4\"}\n{\"id\": \"1\", \"type\": }"),
                 "not a valid ChakraProtoMsg.Node in protobuf-JSON");
}

TEST_F(ChakraBadInput, JsonNotClosed) {
    EXPECT_ERROR(loadBytes("{\"version\": \"0.0.4\"}\n{\"id\": \"1\""),
                 "JSON value is not closed before the end of the file");
}

TEST_F(ChakraBadInput, JsonUnknownNodeTypeName) {
    EXPECT_ERROR(loadBytes(R"({"version":"0.0.4"} {"id":"1","type":"STORAGE_NODE"})"),
                 "record #1: not a valid ChakraProtoMsg.Node");
}

// --- attributes ------------------------------------------------------------------------------

TEST_F(ChakraBadInput, MissingCommSizeOnCollective) {
    Node n = makeNode(3, ChakraProtoMsg::COMM_COLL_NODE);
    addInt(n, "comm_type", ChakraProtoMsg::ALL_GATHER);
    EXPECT_ERROR(load({{n}}),
                 "w.0.et: node 3 \"n3\": COMM_COLL_NODE lacks required attribute comm_size");
}

TEST_F(ChakraBadInput, RecvWithoutSource) {
    Node r = makeNode(1, ChakraProtoMsg::COMM_RECV_NODE);
    addInt(r, "comm_tag", 1);
    EXPECT_ERROR(load({{r}}), "COMM_RECV_NODE lacks required attributes comm_src, comm_size");
}

TEST_F(ChakraBadInput, SendWithoutDestination) {
    Node s = makeNode(1, ChakraProtoMsg::COMM_SEND_NODE);
    addInt(s, "comm_size", 8);
    EXPECT_ERROR(load({{s}}), "COMM_SEND_NODE lacks required attributes comm_dst, comm_tag");
}

TEST_F(ChakraBadInput, RooflineNeedsNumOpsAndTensorSize) {
    const Node comp = makeNode(1, ChakraProtoMsg::COMP_NODE);
    EXPECT_EQ(load({{comp}}), ""); // replay mode needs neither
    LoadOptions roofline;
    roofline.roofline = true;
    EXPECT_ERROR(load({{comp}}, roofline),
                 "COMP_NODE lacks required attributes num_ops, tensor_size (needed by the "
                 "roofline compute model)");
}

TEST_F(ChakraBadInput, MemoryNodeWithoutTensorSize) {
    EXPECT_ERROR(load({{makeNode(4, ChakraProtoMsg::MEM_STORE_NODE)}}),
                 "node 4 \"n4\": MEM_STORE_NODE lacks required attribute tensor_size");
}

TEST_F(ChakraBadInput, FloatInNumOps) {
    Node n = makeNode(2, ChakraProtoMsg::COMP_NODE);
    auto* a = n.add_attr();
    a->set_name("num_ops");
    a->set_double_val(1e9);
    EXPECT_ERROR(load({{n}}), "w.0.et: node 2: attribute \"num_ops\" holds a floating-point "
                              "value (double_val) where an integer is read");
}

TEST_F(ChakraBadInput, StringInCommSize) {
    Node n = makeNode(2, ChakraProtoMsg::COMM_COLL_NODE);
    addInt(n, "comm_type", 0);
    auto* a = n.add_attr();
    a->set_name("comm_size");
    a->set_string_val("1MB");
    EXPECT_ERROR(load({{n}}), "attribute \"comm_size\" holds a value (string_val)");
}

TEST_F(ChakraBadInput, InvolvedDimWrongType) {
    Node n = coll(0);
    auto* a = n.add_attr();
    a->set_name("involved_dim");
    a->set_int32_val(1);
    EXPECT_ERROR(load({{n}}), "attribute \"involved_dim\" holds int32_val; expected bool_list");
}

// Tensor lists (track-local-mem): [name, size, name, size, ...] as string_list.
static Node withTensors(const char* attribute, std::vector<std::string> values) {
    Node n = coll(5);
    auto* a = n.add_attr();
    a->set_name(attribute);
    for (const std::string& v : values)
        a->mutable_string_list()->add_values(v);
    return n;
}

static LoadOptions tracking() {
    LoadOptions options;
    options.readTensors = true;
    return options;
}

TEST_F(ChakraBadInput, TensorListOfOddLengthNamesNodeAndAttribute) {
    const std::string error = load({{withTensors("inputs", {"act0", "4096", "act1"})}}, tracking());
    EXPECT_ERROR(error, "w.0.et");
    EXPECT_ERROR(error, "node 5");
    EXPECT_ERROR(error, "attribute \"inputs\" has 3 strings; expected an even count");
    EXPECT_EQ(load({{withTensors("inputs", {"act0", "4096", "act1"})}}), "")
        << "ignored, as upstream, when tracking is off";
}

TEST_F(ChakraBadInput, TensorSizeThatIsNotADecimalNumber) {
    for (const char* size : {"4k", "", "-1", "12345678901234567890"}) {
        const std::string error = load({{withTensors("outputs", {"y", size})}}, tracking());
        EXPECT_ERROR(error, "node 5");
        std::string expected = "attribute \"outputs\": the size of tensor \"y\" is \"";
        expected += size;
        expected += "\"; expected a decimal number of bytes";
        EXPECT_ERROR(error, expected);
    }
}

TEST_F(ChakraBadInput, TensorListOfAnotherType) {
    Node n = coll(5);
    auto* a = n.add_attr();
    a->set_name("outputs");
    a->set_int64_val(3);
    EXPECT_ERROR(load({{n}}, tracking()),
                 "attribute \"outputs\" holds int64_val; expected string_list");
}

TEST_F(ChakraBadInput, TensorListsAreReadAndRoundTrip) {
    load({{withTensors("outputs", {"y", "4096", "z", "0"})}}, tracking());
    const auto traces = loadWorkload(prefix(), 1, tracking());
    const std::vector<TensorUse> expected{{"y", 4096}, {"z", 0}};
    EXPECT_EQ(traces[0].nodes[0].detail->outputs, expected);
    EXPECT_TRUE(traces[0].nodes[0].detail->inputs.empty());
    EXPECT_TRUE(loadWorkload(prefix(), 1)[0].nodes[0].detail->outputs.empty())
        << "not read when off";
    writeWorkloadTrace(workloadFileName(prefix(), 0), traces[0]);
    EXPECT_EQ(loadWorkload(prefix(), 1, tracking())[0].nodes[0].detail->outputs, expected);
}

TEST_F(ChakraBadInput, CommTypeOutOfRange) {
    EXPECT_ERROR(load({{makeColl(0, static_cast<ChakraProtoMsg::CollectiveCommType>(12), 8)}}),
                 "attribute \"comm_type\" = 12 is not a CollectiveCommType");
}

// Overflow: values that do not fit the field they go to are errors, never cut or wrapped.
TEST_F(ChakraBadInput, PeersAndTagsWiderThan32BitsAreRefused) {
    for (const char* field : {"comm_src", "comm_dst", "comm_tag"}) {
        for (const int64_t value : {(int64_t{1} << 32) + 1, int64_t{1} << 32, INT64_MIN}) {
            SCOPED_TRACE(std::string(field) + " = " + std::to_string(value));
            Node n = makeNode(0, ChakraProtoMsg::COMM_SEND_NODE);
            addInt(n, field, value);
            std::string expected = "\"";
            expected.append(field).append("\" = ").append(std::to_string(value));
            EXPECT_ERROR(load({{n}}), expected + " does not fit in 32 bits");
        }
    }
}

TEST_F(ChakraBadInput, DurationsBeyondTheSimulatedTimeAreRefused) {
    for (const uint64_t micros : {uint64_t{1} << 63, (uint64_t{1} << 63) + 5, uint64_t{1} << 62}) {
        SCOPED_TRACE(micros);
        Node n = makeNode(0, ChakraProtoMsg::COMP_NODE);
        n.set_duration_micros(micros);
        EXPECT_ERROR(load({{n}}), "duration_micros = " + std::to_string(micros) +
                                      " is longer than the longest simulated time");
    }
}

TEST_F(ChakraBadInput, NegativeCountsAreRefusedNotWrapped) {
    // A signed member holding a negative size or operation count used to be read as 2^64 minus
    // it: comm_size = -4096 became an all-reduce of 16 EiB that only the clock's limit stopped.
    for (const int64_t value : {int64_t{-1}, int64_t{-4096}, INT64_MIN}) {
        SCOPED_TRACE(value);
        const std::string said = " = " + std::to_string(value) + " is negative";
        EXPECT_ERROR(load({{coll(0, value)}}), "attribute \"comm_size\"" + said);
        EXPECT_ERROR(load({{makeSend(0, 0, 0, 1, value)}}), "attribute \"comm_size\"" + said);
        Node comp = makeNode(0, ChakraProtoMsg::COMP_NODE);
        addInt(comp, "num_ops", value);
        addInt(comp, "tensor_size", 64);
        EXPECT_ERROR(load({{comp}}), "attribute \"num_ops\"" + said);
        Node load_ = makeNode(0, ChakraProtoMsg::MEM_LOAD_NODE);
        addInt(load_, "tensor_size", value);
        EXPECT_ERROR(load({{load_}}), "attribute \"tensor_size\"" + said);
    }
    // The largest unsigned sizes stay sizes: the run, not the reader, decides if they fit.
    Node big = makeNode(0, ChakraProtoMsg::COMM_COLL_NODE);
    addInt(big, "comm_type", 0);
    auto* size = big.add_attr();
    size->set_name("comm_size");
    size->set_uint64_val(UINT64_MAX);
    EXPECT_EQ(load({{big}}), "");
}

TEST_F(ChakraBadInput, PgNamesThatAreNotGroupIdsAreRefusedByTheCheck) {
    // trace check used to call these valid; only the run refused them.
    for (const char* name : {"abc", "-3", "99999999999999999999", "1 ", "0x1"}) {
        SCOPED_TRACE(name);
        Node n = coll(0);
        auto* pg = n.add_attr();
        pg->set_name("pg_name");
        pg->set_string_val(name);
        EXPECT_ERROR(load({{n}}),
                     "pg_name \"" + std::string(name) + "\" is not a communicator group id");
    }
    for (const char* name : {"", "0", "7", "999999999"}) {
        SCOPED_TRACE(name);
        Node n = coll(0);
        auto* pg = n.add_attr();
        pg->set_name("pg_name");
        pg->set_string_val(name);
        EXPECT_EQ(load({{n}}), "");
    }
}

TEST_F(ChakraBadInput, WorkloadsForMoreNpusThanTheLimitAreRefusedBeforeAnyFileIsLookedFor) {
    // trace check --npus=2000000000 used to look for two billion files (tens of minutes).
    EXPECT_ERROR(loadPrefix(2'000'000'000), "expected at most 1048576");
    EXPECT_ERROR(loadPrefix((1 << 20) + 1), "cannot load a workload for 1048577 NPUs");
}

TEST_F(ChakraBadInput, PgNameNotAString) {
    Node n = coll(0);
    addInt(n, "pg_name", 1);
    EXPECT_ERROR(load({{n}}), "attribute \"pg_name\" holds int64_val; it must be a string_val");
}

// --- collectives ------------------------------------------------------------------------------

TEST_F(ChakraBadInput, AllFalseInvolvedDim) {
    Node n = coll(0);
    auto* list = n.add_attr();
    list->set_name("involved_dim");
    list->mutable_bool_list()->add_values(false);
    list->mutable_bool_list()->add_values(false);
    EXPECT_ERROR(load({{n}}), "COMM_COLL_NODE over no dimension: involved_dim is all false");
}

TEST_F(ChakraBadInput, InvolvedDimensionsAllOfSizeOne) {
    Node n = coll(0);
    auto* list = n.add_attr();
    list->set_name("involved_dim");
    list->mutable_bool_list()->add_values(true);
    list->mutable_bool_list()->add_values(false);
    LoadOptions options;
    options.dimensionSizes = {1, 4};
    EXPECT_ERROR(load({{n}}, options), "every involved dimension has 1 NPU");
    options.dimensionSizes = {2, 4};
    EXPECT_EQ(load({{n}}, options), "");
}

TEST_F(ChakraBadInput, UnsupportedCollectiveType) {
    EXPECT_ERROR(load({{makeColl(0, ChakraProtoMsg::REDUCE, 8)}}),
                 "unsupported collective type REDUCE");
    EXPECT_ERROR(load({{makeColl(0, ChakraProtoMsg::BARRIER, 8)}}),
                 "unsupported collective type BARRIER");
}

TEST_F(ChakraBadInput, CommunicationMarkedAsCpuOp) {
    Node n = makeNode(0, ChakraProtoMsg::COMM_COLL_NODE);
    addBool(n, "is_cpu_op", true);
    addInt(n, "comm_type", 0);
    addInt(n, "comm_size", 8);
    EXPECT_ERROR(load({{n}}), "COMM_COLL_NODE has is_cpu_op = true");
}
