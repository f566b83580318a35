#pragma once
// Runs astrolabe-cli in-process with captured streams.

#include "cli/Commands.h"

#include <sstream>
#include <string>
#include <vector>

namespace clitest {

struct Result {
    int code;
    std::string out;
    std::string err;
};

inline Result cli(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int code = astrolabe::cli::runCli(args, out, err);
    return {code, out.str(), err.str()};
}

} // namespace clitest
