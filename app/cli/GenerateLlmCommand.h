#pragma once
// `astrolabe-cli generate-llm` (to be folded under `generate llm`) and `astrolabe-cli
// model-info`: build a training-iteration workload from a preset and overrides, print the live
// figures (parameters, FLOPs against the closed forms, memory per NPU, bubble) and, for
// generate-llm, generate every NPU's Chakra trace in memory and write it under --out.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser generateLlmParser();
int generateLlmCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

ArgParser modelInfoParser();
int modelInfoCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
