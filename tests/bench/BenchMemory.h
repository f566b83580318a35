#pragma once
// What the whole-process benchmarks print about memory: this process's resident set, read from
// /proc/self/status (Linux), in MiB; 0 where it cannot be read.

#include <cstdlib>
#include <fstream>
#include <string>

namespace astrolabe::bench {

inline double residentMiB() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atof(line.c_str() + 6) / 1024.0;
    return 0;
}

} // namespace astrolabe::bench
