#pragma once
// astrolabe-cli's subcommands. runCli() is the whole program minus process start-up, so tests
// call it directly with captured streams.
//
// Exit codes: 0 success; 1 the input was read but the run failed; 2 usage error (unknown flag,
// missing file); 3 the simulation could not finish (deadlock report printed).

#include <iosfwd>
#include <string>
#include <vector>

namespace astrolabe::cli {

enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2, kExitDeadlock = 3 };

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
