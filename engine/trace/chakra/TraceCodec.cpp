// ChakraProtoMsg::Node <-> WorkloadNode, with the attribute typing rules of spec §1.4.
#include "core/Error.h"
#include "trace/ErrorCollector.h"
#include "trace/TraceIo.h"
#include "trace/chakra/ChakraFile.h"

#include <climits>
#include <cstdint>
#include <optional>
#include <unordered_set>

namespace astrolabe {
namespace {

using Attr = ChakraProtoMsg::AttributeProto;

const char* memberName(const Attr& attr) {
    if (attr.value_case() == Attr::VALUE_NOT_SET)
        return "no value";
    const auto* field = Attr::descriptor()->FindFieldByNumber(attr.value_case());
    return field ? field->name().c_str() : "unknown member";
}

/// Feeder-v3 rule: every integer-family member (and bool) converts to an integer by plain cast.
std::optional<uint64_t> integerValue(const Attr& attr) {
    switch (attr.value_case()) {
    case Attr::kInt32Val:
        return static_cast<uint64_t>(static_cast<int64_t>(attr.int32_val()));
    case Attr::kInt64Val:
        return static_cast<uint64_t>(attr.int64_val());
    case Attr::kUint32Val:
        return attr.uint32_val();
    case Attr::kUint64Val:
        return attr.uint64_val();
    case Attr::kSint32Val:
        return static_cast<uint64_t>(static_cast<int64_t>(attr.sint32_val()));
    case Attr::kSint64Val:
        return static_cast<uint64_t>(attr.sint64_val());
    case Attr::kFixed32Val:
        return attr.fixed32_val();
    case Attr::kFixed64Val:
        return attr.fixed64_val();
    case Attr::kSfixed32Val:
        return static_cast<uint64_t>(static_cast<int64_t>(attr.sfixed32_val()));
    case Attr::kSfixed64Val:
        return static_cast<uint64_t>(attr.sfixed64_val());
    case Attr::kBoolVal:
        return attr.bool_val() ? 1 : 0;
    default:
        return std::nullopt;
    }
}

class NodeDecoder {
public:
    NodeDecoder(const ChakraProtoMsg::Node& node, const std::string& file, ErrorCollector& errors,
                bool readTensors)
        : m_node(node)
        , m_file(file)
        , m_errors(errors)
        , m_readTensors(readTensors) {}

    WorkloadNode decode() {
        WorkloadNode out;
        out.id = m_node.id();
        out.name = m_node.name();
        const int type = m_node.type();
        if (!ChakraProtoMsg::NodeType_IsValid(type))
            error("unknown NodeType " + std::to_string(type) +
                      " (valid: 0 INVALID_NODE .. 7 COMM_COLL_NODE)",
                  "the trace was written with a newer or different Chakra schema");
        out.type = static_cast<NodeType>(type);
        out.ctrlDeps.assign(m_node.ctrl_deps().begin(), m_node.ctrl_deps().end());
        out.dataDeps.assign(m_node.data_deps().begin(), m_node.data_deps().end());
        if (m_node.start_time_micros() != 0)
            out.detail.edit().startTimeMicros = m_node.start_time_micros();
        out.durationMicros = m_node.duration_micros();
        // Simulated time is kept in picoseconds in 63 bits: about 106 days.
        constexpr uint64_t kMaxDurationMicros = static_cast<uint64_t>(INT64_MAX) / 1'000'000;
        if (out.durationMicros > kMaxDurationMicros) {
            error("duration_micros = " + std::to_string(out.durationMicros) +
                      " is longer than the longest simulated time (" +
                      std::to_string(kMaxDurationMicros) + " us, about 106 days)",
                  "check the unit: duration_micros is in microseconds");
            out.durationMicros = 0;
        }
        if (out.type == NodeType::Metadata)
            out.detail.edit().inputsValues = m_node.inputs().values();

        // Upstream looks attributes up by first match. A node usually has a handful, and a scan
        // of the earlier ones is cheaper than a set built for every node; long lists use a set.
        const auto& attrs = m_node.attr();
        constexpr int kScanLimit = 32;
        std::unordered_set<std::string_view> seen;
        for (int i = 0; i < attrs.size(); ++i) {
            const std::string& name = attrs[i].name();
            bool repeated = false;
            if (attrs.size() <= kScanLimit)
                for (int j = 0; j < i && !repeated; ++j)
                    repeated = attrs[j].name() == name;
            else
                repeated = !seen.insert(name).second;
            if (!repeated)
                decodeAttribute(attrs[i], out);
        }
        return out;
    }

private:
    void decodeAttribute(const Attr& attr, WorkloadNode& out) {
        const std::string& name = attr.name();
        if (name == "is_cpu_op") {
            out.isCpuOp = integer(attr).value_or(0) != 0;
        } else if (name == "num_ops") {
            out.hasNumOps = assignCount(attr, out.numOps);
        } else if (name == "tensor_size") {
            out.hasTensorSize = assignCount(attr, out.tensorSize);
        } else if (name == "comm_type") {
            uint64_t value = 0;
            if ((out.hasCommType = assign(attr, value))) {
                if (!ChakraProtoMsg::CollectiveCommType_IsValid(static_cast<int>(value)) ||
                    value > 9) {
                    error("attribute \"comm_type\" = " + std::to_string(value) +
                          " is not a CollectiveCommType (0 ALL_REDUCE .. 9 BARRIER)");
                    out.hasCommType = false;
                } else {
                    out.commType = static_cast<CollectiveType>(value);
                }
            }
        } else if (name == "comm_size") {
            out.hasCommSize = assignCount(attr, out.commSize);
        } else if (name == "comm_priority") {
            out.commPriority = static_cast<uint32_t>(integer(attr).value_or(0));
        } else if (name == "comm_src") {
            out.hasCommSrc = assign32(attr, out.commSrc);
        } else if (name == "comm_dst") {
            out.hasCommDst = assign32(attr, out.commDst);
        } else if (name == "comm_tag") {
            out.hasCommTag = assign32(attr, out.commTag);
        } else if (name == "pg_name") {
            if (attr.value_case() == Attr::kStringVal)
                out.pgName = attr.string_val();
            else
                error(std::string("attribute \"pg_name\" holds ") + memberName(attr) +
                          "; it must be a string_val (a decimal communicator group id)",
                      "write pg_name as string_val, e.g. \"1\"");
        } else if (name == "involved_dim") {
            if (attr.value_case() == Attr::kBoolList)
                out.detail.edit().involvedDim.assign(attr.bool_list().values().begin(),
                                                     attr.bool_list().values().end());
            else
                error(std::string("attribute \"involved_dim\" holds ") + memberName(attr) +
                          "; expected bool_list (one bool per network dimension)",
                      "write involved_dim as bool_list, e.g. [true, false]");
        } else if (name == "msg_chunk_cnt") {
            out.detail.edit().msgChunkCount = static_cast<int32_t>(integer(attr).value_or(-1));
        } else if (name == "msg_chunk_idx") {
            out.detail.edit().msgChunkIndex = static_cast<int32_t>(integer(attr).value_or(-1));
        } else if (name == "total_chunk_cnt") {
            out.detail.edit().totalChunkCount = static_cast<int32_t>(integer(attr).value_or(-1));
        } else if (m_readTensors && name == "inputs") {
            tensorList(attr, out.detail.edit().inputs);
        } else if (m_readTensors && name == "outputs") {
            tensorList(attr, out.detail.edit().outputs);
        }
    }

    /// "inputs" / "outputs": a string_list of [name, bytes as decimal text, name, bytes, ...].
    void tensorList(const Attr& attr, std::vector<TensorUse>& target) {
        // Built with += (GCC 12 warns falsely on "a" + string + "b" chains).
        std::string hint = "write ";
        hint += attr.name();
        hint += " as a string_list of tensor-name, size-in-bytes pairs, e.g. [\"act0\", \"4096\"]";
        std::string message = "attribute \"";
        message += attr.name();
        if (attr.value_case() != Attr::kStringList) {
            message += "\" holds ";
            message += memberName(attr);
            message += "; expected string_list";
            error(message, hint);
            return;
        }
        const auto& values = attr.string_list().values();
        if (values.size() % 2 != 0) {
            message += "\" has ";
            message += std::to_string(values.size());
            message += " strings; expected an even count (tensor name, size in bytes, ...)";
            error(message, hint);
            return;
        }
        target.reserve(static_cast<size_t>(values.size()) / 2);
        for (int i = 0; i < values.size(); i += 2) {
            const std::string& size = values[i + 1];
            uint64_t bytes = 0;
            bool valid = !size.empty() && size.size() <= 19; // 19 digits always fit in 64 bits
            for (char c : size) {
                valid = valid && c >= '0' && c <= '9';
                bytes = bytes * 10 + static_cast<uint64_t>(c - '0');
            }
            if (!valid) {
                message += "\": the size of tensor \"";
                message += values[i];
                message += "\" is \"";
                message += size;
                message += "\"; expected a decimal number of bytes";
                error(message, hint);
                target.clear();
                return;
            }
            target.push_back({values[i], bytes});
        }
    }

    std::optional<uint64_t> integer(const Attr& attr) {
        if (auto value = integerValue(attr))
            return value;
        const bool floating =
            attr.value_case() == Attr::kDoubleVal || attr.value_case() == Attr::kFloatVal;
        const bool list = attr.value_case() != Attr::VALUE_NOT_SET && attr.value_case() % 2 == 0;
        std::string what = floating ? "a floating-point value (" : list ? "a list (" : "a value (";
        error("attribute \"" + attr.name() + "\" holds " + what + memberName(attr) +
                  ") where an integer is read",
              floating ? "floating-point values are not converted to integers (as in ASTRA-sim); "
                         "write an integer member such as int64_val"
                       : "write a single integer member such as int64_val");
        return std::nullopt;
    }
    bool assign(const Attr& attr, uint64_t& target) {
        const auto value = integer(attr);
        if (value)
            target = *value;
        return value.has_value();
    }
    // A count (bytes, operations) written in a signed member: a negative one is an error, not
    // 2^64 minus it (comm_size = -4096 was an all-reduce of 16 EiB).
    bool assignCount(const Attr& attr, uint64_t& target) {
        if (!assign(attr, target))
            return false;
        const bool isSigned =
            attr.value_case() == Attr::kInt32Val || attr.value_case() == Attr::kInt64Val ||
            attr.value_case() == Attr::kSint32Val || attr.value_case() == Attr::kSint64Val ||
            attr.value_case() == Attr::kSfixed32Val || attr.value_case() == Attr::kSfixed64Val;
        if (isSigned && static_cast<int64_t>(target) < 0) {
            error("attribute \"" + attr.name() +
                      "\" = " + std::to_string(static_cast<int64_t>(target)) + " is negative",
                  attr.name() == "num_ops" ? "it counts operations" : "it counts bytes");
            target = 0;
            return false;
        }
        return true;
    }
    // A 32-bit field (comm_src, comm_dst, comm_tag) takes any value of int32 or uint32; a wider
    // one is an error instead of being cut to its low 32 bits (2^32 + 1 was NPU 1).
    bool assign32(const Attr& attr, uint32_t& target) {
        const auto value = integer(attr);
        if (!value)
            return false;
        const auto signedValue = static_cast<int64_t>(*value);
        const bool fits = *value <= UINT32_MAX || (signedValue < 0 && signedValue >= INT32_MIN);
        if (!fits) {
            error("attribute \"" + attr.name() + "\" = " +
                  (signedValue < 0 ? std::to_string(signedValue) : std::to_string(*value)) +
                  " does not fit in 32 bits");
            return false;
        }
        target = static_cast<uint32_t>(*value);
        return true;
    }
    void error(const std::string& message, const std::string& hint = {}) {
        m_errors.add(ErrorKind::Validation, m_file, "node " + std::to_string(m_node.id()), message,
                     hint);
    }

    const ChakraProtoMsg::Node& m_node;
    const std::string& m_file;
    ErrorCollector& m_errors;
    bool m_readTensors;
};

Attr* addAttr(ChakraProtoMsg::Node& node, const char* name) {
    Attr* attr = node.add_attr();
    attr->set_name(name);
    return attr;
}

} // namespace

WorkloadNode decodeNode(const ChakraProtoMsg::Node& node, const std::string& file,
                        ErrorCollector& errors, bool readTensors) {
    return NodeDecoder(node, file, errors, readTensors).decode();
}

std::string schemaVersionOf(const ChakraProtoMsg::GlobalMetadata& metadata) {
    for (const Attr& attr : metadata.attr())
        if (attr.name() == "schema" && attr.value_case() == Attr::kStringVal)
            return attr.string_val();
    return metadata.version();
}

void readMetadata(const ChakraProtoMsg::GlobalMetadata& metadata, WorkloadTrace& trace) {
    trace.schemaVersion = schemaVersionOf(metadata);
    for (const Attr& attr : metadata.attr()) {
        // PyTorch's converter records the measured span; any integer member is read, as for
        // node attributes, and anything else is left out (ASTRA-sim ignores both).
        uint64_t* target = attr.name() == "start_ts"    ? &trace.recordedStartTs
                           : attr.name() == "finish_ts" ? &trace.recordedFinishTs
                           : attr.name() == "ngpus"     ? &trace.recordedNpus
                                                        : nullptr;
        if (const auto value = integerValue(attr); target && value)
            *target = *value;
    }
}

WorkloadTrace decodeChakraFile(const ChakraFile& file, const std::string& path, bool readTensors) {
    ErrorCollector errors;
    WorkloadTrace trace;
    trace.file = path;
    readMetadata(file.metadata, trace);
    trace.nodes.reserve(file.nodes.size());
    for (const ChakraProtoMsg::Node& node : file.nodes)
        trace.nodes.push_back(decodeNode(node, path, errors, readTensors));
    errors.throwIfAny();
    return trace;
}

ChakraProtoMsg::Node encodeNode(const WorkloadNode& n) {
    ChakraProtoMsg::Node node;
    node.set_id(n.id);
    node.set_name(n.name);
    node.set_type(static_cast<ChakraProtoMsg::NodeType>(n.type));
    for (uint64_t dep : n.ctrlDeps)
        node.add_ctrl_deps(dep);
    for (uint64_t dep : n.dataDeps)
        node.add_data_deps(dep);
    node.set_start_time_micros(n.detail->startTimeMicros);
    node.set_duration_micros(n.durationMicros);
    if (!n.detail->inputsValues.empty())
        node.mutable_inputs()->set_values(n.detail->inputsValues);

    addAttr(node, "is_cpu_op")->set_bool_val(n.isCpuOp);
    if (n.hasNumOps)
        addAttr(node, "num_ops")->set_int64_val(static_cast<int64_t>(n.numOps));
    if (n.hasTensorSize)
        addAttr(node, "tensor_size")->set_uint64_val(n.tensorSize);
    if (n.hasCommType)
        addAttr(node, "comm_type")->set_int64_val(static_cast<int64_t>(n.commType));
    if (n.hasCommSize)
        addAttr(node, "comm_size")->set_int64_val(static_cast<int64_t>(n.commSize));
    if (n.commPriority != 0)
        addAttr(node, "comm_priority")->set_int32_val(static_cast<int32_t>(n.commPriority));
    if (!n.detail->involvedDim.empty()) {
        auto* list = addAttr(node, "involved_dim")->mutable_bool_list();
        for (bool b : n.detail->involvedDim)
            list->add_values(b);
    }
    if (!n.pgName.empty())
        addAttr(node, "pg_name")->set_string_val(n.pgName);
    if (n.hasCommSrc)
        addAttr(node, "comm_src")->set_int32_val(static_cast<int32_t>(n.commSrc));
    if (n.hasCommDst)
        addAttr(node, "comm_dst")->set_int32_val(static_cast<int32_t>(n.commDst));
    if (n.hasCommTag)
        addAttr(node, "comm_tag")->set_int32_val(static_cast<int32_t>(n.commTag));
    if (n.detail->msgChunkCount >= 0)
        addAttr(node, "msg_chunk_cnt")->set_int32_val(n.detail->msgChunkCount);
    if (n.detail->msgChunkIndex >= 0)
        addAttr(node, "msg_chunk_idx")->set_int32_val(n.detail->msgChunkIndex);
    if (n.detail->totalChunkCount >= 0)
        addAttr(node, "total_chunk_cnt")->set_int32_val(n.detail->totalChunkCount);
    auto addTensors = [&](const char* name, const std::vector<TensorUse>& tensors) {
        if (tensors.empty())
            return;
        auto* list = addAttr(node, name)->mutable_string_list();
        for (const TensorUse& t : tensors) {
            list->add_values(t.name);
            list->add_values(std::to_string(t.bytes));
        }
    };
    addTensors("inputs", n.detail->inputs);
    addTensors("outputs", n.detail->outputs);
    return node;
}

ChakraFile encodeWorkloadTrace(const WorkloadTrace& trace) {
    ChakraFile file;
    // We always write the 0.0.4 wire format; a different recorded schema string is kept as the
    // free-form "schema" attribute converters use.
    file.metadata.set_version("0.0.4");
    if (!trace.schemaVersion.empty() && trace.schemaVersion != "0.0.4") {
        Attr* schema = file.metadata.add_attr();
        schema->set_name("schema");
        schema->set_string_val(trace.schemaVersion);
    }
    for (const auto& [name, value] : {std::pair{"start_ts", trace.recordedStartTs},
                                      std::pair{"finish_ts", trace.recordedFinishTs}})
        if (value != 0) {
            Attr* attr = file.metadata.add_attr();
            attr->set_name(name);
            attr->set_uint64_val(value);
        }
    file.nodes.reserve(trace.nodes.size());
    for (const WorkloadNode& node : trace.nodes)
        file.nodes.push_back(encodeNode(node));
    return file;
}

WorkloadTrace readWorkloadTrace(const std::string& path, bool readTensors) {
    ErrorCollector errors;
    WorkloadTrace trace;
    trace.file = path;
    chakra::ChakraVisitor visitor;
    visitor.onMetadata = [&](ChakraProtoMsg::GlobalMetadata& m) { readMetadata(m, trace); };
    visitor.onNodeCount = [&](size_t count) { trace.nodes.reserve(count); };
    visitor.onNode = [&](ChakraProtoMsg::Node& n, uint64_t, uint64_t) {
        trace.nodes.push_back(decodeNode(n, path, errors, readTensors));
    };
    chakra::visitChakraFile(path, visitor);
    errors.throwIfAny();
    return trace;
}

void writeWorkloadTrace(const std::string& path, const WorkloadTrace& trace) {
    writeChakraFile(path, encodeWorkloadTrace(trace));
}

} // namespace astrolabe
