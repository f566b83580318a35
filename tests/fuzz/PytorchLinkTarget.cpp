// PyTorch's execution trace linked with its profiler trace, as 'astrolabe-cli import pytorch
// --et ET.json --kineto TRACE.json' does. One input holds both files: the execution trace, a
// line "%%", then the profiler trace (without the line, the whole input is both).
#include "FuzzTarget.h"
#include "trace/kineto/KinetoTrace.h"
#include "trace/pytorch/ExecutionTrace.h"
#include "trace/pytorch/TraceLinker.h"

ASTROLABE_FUZZ_TARGET(pytorch_link) {
    using namespace astrolabe;
    const size_t split = input.find("\n%%\n");
    const std::string_view et = split == std::string_view::npos ? input : input.substr(0, split);
    const std::string_view profile =
        split == std::string_view::npos ? input : input.substr(split + 4);
    (void)pytorch::linkTraces(pytorch::parseExecutionTrace(et, "fuzz-et.json"),
                              kineto::parseKinetoTrace(profile, "fuzz-kineto.json"));
}
