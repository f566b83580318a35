// Format features that must be accepted: packed and unpacked deps, gzip, the three JSON shapes,
// the integer-family attribute conversions of feeder v3, and the canonical writer types.
#include "trace/chakra/ChakraFile.h"

#include "ChakraTestUtil.h"
#include "trace/ErrorCollector.h"
#include "trace/TraceIo.h"

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::test;

TEST(ChakraFile, UnpackedAndPackedDepsReadTheSame) {
    // Node{id=3, type=COMP, data_deps=[1,2]} with data_deps written unpacked (two varint fields,
    // tag 0x28) and ctrl_deps packed (tag 0x22, length 1, value 1).
    const std::string unpacked("\x08\x03\x18\x04\x28\x01\x28\x02\x22\x01\x01", 11);
    const std::string bytes = metadataRecord() + delimited(makeNode(1, ChakraProtoMsg::COMP_NODE)) +
                              delimited(makeNode(2, ChakraProtoMsg::COMP_NODE)) +
                              delimitedRaw(unpacked);
    const ChakraFile file = parseChakraBytes(bytes, "unpacked.et");
    ASSERT_EQ(file.nodes.size(), 3u);
    EXPECT_EQ(file.nodes[2].data_deps_size(), 2);
    EXPECT_EQ(file.nodes[2].data_deps(1), 2u);
    EXPECT_EQ(file.nodes[2].ctrl_deps(0), 1u);
    // Written back packed, as proto3 does by default: tag 0x2a, length 2, values 1 and 2.
    EXPECT_NE(file.nodes[2].SerializeAsString().find(std::string("\x2a\x02\x01\x02", 4)),
              std::string::npos);
}

TEST(ChakraFile, GzipIsDetectedByMagic) {
    TempDir tmp;
    const std::string bytes = traceBytes({makeColl(0, ChakraProtoMsg::ALL_REDUCE, 1024)});
    writeText(tmp.path("t.et"), gzip(bytes));
    const ChakraFile file = readChakraFile(tmp.path("t.et"));
    EXPECT_EQ(file.encoding, chakra::ChakraEncoding::Gzip);
    EXPECT_EQ(serializeChakraFile(file), bytes);
}

TEST(ChakraFile, JsonizerOutputConcatenatedObjects) {
    // What chakra_jsonizer prints: one JSON object per record, back to back, 64-bit integers as
    // strings, enum names as strings, camelCase members.
    const std::string json = R"({"version": "0.0.4"}
{
  "id": "5",
  "name": "ar",
  "type": "COMM_COLL_NODE",
  "dataDeps": ["4"],
  "attr": [{"name": "is_cpu_op", "boolVal": false},
           {"name": "comm_type", "int64Val": "0"},
           {"name": "comm_size", "int64Val": "1048576"},
           {"name": "involved_dim", "boolList": {"values": [true, false]}}]
}
{"id": "4", "type": "COMP_NODE", "durationMicros": "12"})";
    const ChakraFile file = parseChakraBytes(json, "t.json");
    EXPECT_EQ(file.encoding, chakra::ChakraEncoding::Json);
    EXPECT_EQ(file.metadata.version(), "0.0.4");
    ASSERT_EQ(file.nodes.size(), 2u);
    ErrorCollector errors;
    const WorkloadNode node = decodeNode(file.nodes[0], "t.json", errors);
    EXPECT_TRUE(errors.empty());
    EXPECT_EQ(node.id, 5u);
    EXPECT_EQ(node.commSize, 1048576u);
    EXPECT_EQ(node.detail->involvedDim, (std::vector<bool>{true, false}));
    EXPECT_EQ(node.dataDeps, std::vector<uint64_t>{4});
    EXPECT_EQ(file.nodes[1].duration_micros(), 12u);
}

TEST(ChakraFile, JsonArrayAndWrapperShapes) {
    const std::string array =
        R"([{"version":"0.0.4"},{"id":"1","type":"COMP_NODE"},{"id":"2","type":"COMP_NODE"}])";
    EXPECT_EQ(parseChakraBytes(array, "a.json").nodes.size(), 2u);
    const std::string wrapper =
        R"(  {"globalMetadata":{"version":"1.0.0"},"nodes":[{"id":"7","type":"MEM_LOAD_NODE"}]})";
    const ChakraFile file = parseChakraBytes(wrapper, "w.json");
    EXPECT_EQ(file.metadata.version(), "1.0.0");
    ASSERT_EQ(file.nodes.size(), 1u);
    EXPECT_EQ(file.nodes[0].type(), ChakraProtoMsg::MEM_LOAD_NODE);
}

// protobuf's JSON parser keeps the last of two equal keys, so a node given "runtime" twice ran
// with the second; in every shape (objects back to back, an array, the wrapper) it is refused
// with the line.
TEST(ChakraFile, AJsonKeyGivenTwiceIsRefusedInEveryShape) {
    for (const std::string& json :
         {std::string("{\"version\": \"0.0.4\"}\n{\"id\": \"1\", \"type\": \"COMP_NODE\",\n"
                      " \"durationMicros\": \"5\", \"durationMicros\": \"999\"}"),
          std::string(R"([{"version":"0.0.4"},{"id":"1","id":"2","type":"COMP_NODE"}])"),
          std::string(R"({"globalMetadata":{"version":"1.0.0"},"nodes":[],"nodes":[]})")}) {
        SCOPED_TRACE(json);
        try {
            parseChakraBytes(json, "d.json");
            ADD_FAILURE() << "accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.where().file, "d.json");
            EXPECT_GT(e.where().line, 0);
            EXPECT_NE(std::string(e.what()).find("is given twice in one object"), std::string::npos)
                << e.what();
        }
    }
}

TEST(ChakraFile, BinaryStartingWithABraceIsNotJson) {
    // A 123-byte first record starts with the byte '{'; the next byte is a protobuf tag, not '"'.
    ChakraProtoMsg::GlobalMetadata metadata;
    metadata.set_version(std::string(121, 'v'));
    const std::string bytes =
        delimited(metadata) + delimited(makeNode(1, ChakraProtoMsg::COMP_NODE));
    ASSERT_EQ(bytes[0], '{');
    const ChakraFile file = parseChakraBytes(bytes, "brace.et");
    EXPECT_EQ(file.encoding, chakra::ChakraEncoding::Binary);
    EXPECT_EQ(file.nodes.size(), 1u);
}

TEST(ChakraFile, IntegerFamilyMembersConvertLikeFeederV3) {
    ChakraProtoMsg::Node node = makeNode(9, ChakraProtoMsg::COMM_SEND_NODE);
    auto add = [&](const char* name) {
        auto* a = node.add_attr();
        a->set_name(name);
        return a;
    };
    add("comm_size")->set_uint32_val(4096);
    add("comm_dst")->set_sint64_val(3);
    add("comm_tag")->set_fixed32_val(77);
    add("comm_src")->set_sfixed64_val(0);
    add("is_cpu_op")->set_int32_val(0); // the docs' spelling of is_cpu_op
    add("comm_priority")->set_uint64_val(2);
    add("comm_size")->set_int64_val(1); // a second comm_size: first match wins
    ErrorCollector errors;
    const WorkloadNode n = decodeNode(node, "f.et", errors);
    EXPECT_TRUE(errors.empty());
    EXPECT_EQ(n.commSize, 4096u);
    EXPECT_EQ(n.commDst, 3u);
    EXPECT_EQ(n.commTag, 77u);
    EXPECT_TRUE(n.hasCommSrc);
    EXPECT_EQ(n.commSrc, 0u);
    EXPECT_FALSE(n.isCpuOp);
    EXPECT_EQ(n.commPriority, 2u);
}

TEST(ChakraFile, CanonicalWriterTypes) {
    WorkloadNode n;
    n.id = 12;
    n.type = NodeType::CommColl;
    n.hasCommType = n.hasCommSize = true;
    n.commType = CollectiveType::ReduceScatter;
    n.commSize = 1 << 20;
    n.detail.edit().involvedDim = {true, false};
    n.pgName = "2";
    n.commPriority = 3;
    const ChakraProtoMsg::Node node = encodeNode(n);
    std::map<std::string, ChakraProtoMsg::AttributeProto::ValueCase> cases;
    for (const auto& a : node.attr())
        cases[a.name()] = a.value_case();
    using A = ChakraProtoMsg::AttributeProto;
    EXPECT_EQ(cases.at("is_cpu_op"), A::kBoolVal);
    EXPECT_EQ(cases.at("comm_type"), A::kInt64Val);
    EXPECT_EQ(cases.at("comm_size"), A::kInt64Val);
    EXPECT_EQ(cases.at("comm_priority"), A::kInt32Val);
    EXPECT_EQ(cases.at("involved_dim"), A::kBoolList);
    EXPECT_EQ(cases.at("pg_name"), A::kStringVal);
    EXPECT_EQ(cases.size(), 6u);

    WorkloadNode s;
    s.type = NodeType::CommSend;
    s.hasCommDst = s.hasCommTag = s.hasCommSize = true;
    s.commDst = 1;
    s.commTag = 9;
    s.commSize = 8;
    WorkloadNode m;
    m.type = NodeType::MemLoad;
    m.hasTensorSize = m.hasNumOps = true;
    m.tensorSize = 64;
    m.numOps = 5;
    cases.clear();
    const ChakraProtoMsg::Node sendNode = encodeNode(s);
    const ChakraProtoMsg::Node memNode = encodeNode(m);
    for (const auto& a : sendNode.attr())
        cases[a.name()] = a.value_case();
    for (const auto& a : memNode.attr())
        cases[a.name()] = a.value_case();
    EXPECT_EQ(cases.at("comm_dst"), A::kInt32Val);
    EXPECT_EQ(cases.at("comm_tag"), A::kInt32Val);
    EXPECT_EQ(cases.at("tensor_size"), A::kUint64Val);
    EXPECT_EQ(cases.at("num_ops"), A::kInt64Val);
    EXPECT_EQ(cases.count("comm_src"), 0u); // absent stays absent
}

TEST(ChakraFile, WorkloadTraceRoundTripsThroughTheFile) {
    TempDir tmp;
    WorkloadTrace trace;
    trace.schemaVersion = "1.0.2-chakra.0.0.4";
    WorkloadNode a;
    a.id = 1;
    a.name = "gemm";
    a.type = NodeType::Comp;
    a.isCpuOp = false;
    a.durationMicros = 33;
    a.detail.edit().startTimeMicros = 4;
    a.hasNumOps = a.hasTensorSize = true;
    a.numOps = 1ull << 40;
    a.tensorSize = 1ull << 33;
    WorkloadNode b;
    b.id = 2;
    b.type = NodeType::CommRecv;
    b.dataDeps = {1};
    b.ctrlDeps = {1};
    b.hasCommSrc = b.hasCommTag = b.hasCommSize = true;
    b.commSrc = 3;
    b.commTag = 4;
    b.commSize = 5;
    b.detail.edit().msgChunkCount = 2;
    b.detail.edit().msgChunkIndex = 0;
    b.detail.edit().totalChunkCount = 8;
    WorkloadNode c;
    c.id = 3;
    c.type = NodeType::Metadata;
    c.detail.edit().inputsValues = "[[{\"pg_name\": \"0\", \"ranks\": []}]]";
    trace.nodes = {a, b, c};
    writeWorkloadTrace(tmp.path("t.0.et"), trace);
    const WorkloadTrace back = readWorkloadTrace(tmp.path("t.0.et"));
    EXPECT_EQ(back.schemaVersion, trace.schemaVersion);
    ASSERT_EQ(back.nodes.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        const WorkloadNode& x = trace.nodes[i];
        const WorkloadNode& y = back.nodes[i];
        EXPECT_EQ(x.id, y.id);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.type, y.type);
        EXPECT_EQ(x.dataDeps, y.dataDeps);
        EXPECT_EQ(x.ctrlDeps, y.ctrlDeps);
        EXPECT_EQ(x.durationMicros, y.durationMicros);
        EXPECT_EQ(x.detail->startTimeMicros, y.detail->startTimeMicros);
        EXPECT_EQ(x.hasNumOps, y.hasNumOps);
        EXPECT_EQ(x.numOps, y.numOps);
        EXPECT_EQ(x.tensorSize, y.tensorSize);
        EXPECT_EQ(x.hasCommSrc, y.hasCommSrc);
        EXPECT_EQ(x.commSrc, y.commSrc);
        EXPECT_EQ(x.commTag, y.commTag);
        EXPECT_EQ(x.commSize, y.commSize);
        EXPECT_EQ(x.detail->msgChunkCount, y.detail->msgChunkCount);
        EXPECT_EQ(x.detail->msgChunkIndex, y.detail->msgChunkIndex);
        EXPECT_EQ(x.detail->totalChunkCount, y.detail->totalChunkCount);
        EXPECT_EQ(x.detail->inputsValues, y.detail->inputsValues);
    }
}

TEST(ChakraFile, ProtoPreviewMetadataAttrListIsImported) {
    // Autumn-2023 proto3 preview: GlobalMetadata{repeated AttributeProto attr = 1}.
    ChakraProtoMsg::AttributeProto schema;
    schema.set_name("schema");
    schema.set_string_val("1.0.0-chakra.0.0.4");
    std::string record0;
    record0.push_back('\x0a');
    record0 += delimited(schema);
    const std::string bytes =
        delimitedRaw(record0) + delimited(makeColl(0, ChakraProtoMsg::ALL_GATHER, 64));
    const ChakraFile file = parseChakraBytes(bytes, "preview.et");
    ASSERT_EQ(file.metadata.attr_size(), 1);
    EXPECT_EQ(schemaVersionOf(file.metadata), "1.0.0-chakra.0.0.4");
    EXPECT_EQ(file.nodes.size(), 1u);
}
