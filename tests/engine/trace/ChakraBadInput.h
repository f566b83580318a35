// The fixture of the bad-input tests of Chakra traces: write traces per rank, load them, and
// return the error text.
#pragma once

#include "ChakraTestUtil.h"
#include "core/Error.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"

#include <gtest/gtest.h>

namespace astrolabe::test {

using ChakraProtoMsg::Node;

class ChakraBadInput : public ::testing::Test {
protected:
    /// Writes one trace per rank (binary) and loads them; returns the error text, "" if none.
    std::string load(const std::vector<std::vector<Node>>& ranks, LoadOptions options = {}) {
        for (size_t r = 0; r < ranks.size(); ++r)
            writeText(workloadFileName(prefix(), int(r)), traceBytes(ranks[r]));
        return loadPrefix(int(ranks.size()), options);
    }
    std::string loadPrefix(int npus, LoadOptions options = {}) {
        try {
            loadWorkload(prefix(), npus, options);
        } catch (const Error& e) {
            return e.what();
        }
        return {};
    }
    /// Reads one file with the given bytes as rank 0 of a 1-NPU workload.
    std::string loadBytes(const std::string& bytes) {
        writeText(workloadFileName(prefix(), 0), bytes);
        return loadPrefix(1);
    }
    std::string prefix() const { return m_tmp.path("w"); }

    TempDir m_tmp;
};

#define EXPECT_ERROR(text, fragment)                                                               \
    do {                                                                                           \
        const std::string error_ = (text);                                                         \
        EXPECT_NE(error_.find(fragment), std::string::npos)                                        \
            << "expected \"" << (fragment) << "\" in:\n"                                           \
            << error_;                                                                             \
    } while (0)

inline Node coll(uint64_t id, int64_t size = 1024) {
    return makeColl(id, ChakraProtoMsg::ALL_REDUCE, size);
}

} // namespace astrolabe::test
