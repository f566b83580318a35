#pragma once
// `astrolabe-cli optimize parallelism PROJECT.yaml --model PRESET|FILE [--gpus N]
// [--global-batch B] [--top K]`: the parallelism planner (docs/planner.md) on the project's
// platform and system, its best candidates simulated, and the chosen one as Megatron-LM / NeMo
// arguments.

#include "cli/ArgParser.h"

#include <iosfwd>
#include <vector>

namespace astrolabe::cli {

/// The flags only `optimize parallelism` reads (optimizeParser lists them too).
std::vector<FlagSpec> parallelismFlags();
int parallelismCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
