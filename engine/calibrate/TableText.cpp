#include "calibrate/TableText.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace astrolabe::calibrate {

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    size_t at = 0;
    while (at < line.size()) {
        const size_t start = line.find_first_not_of(" \t\r", at);
        if (start == std::string_view::npos)
            break;
        size_t end = line.find_first_of(" \t\r", start);
        if (end == std::string_view::npos)
            end = line.size();
        out.push_back(line.substr(start, end - start));
        at = end;
    }
    return out;
}

bool parseCount(std::string_view token, uint64_t& out) {
    if (token.empty() || token.size() > 20)
        return false;
    uint64_t value = 0;
    for (const char c : token) {
        if (c < '0' || c > '9')
            return false;
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (value > (UINT64_MAX - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    out = value;
    return true;
}

bool parseNonNegative(std::string_view token, double& out) {
    if (token.empty() || token.size() > 64)
        return false;
    const std::string text(token);
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value) || value < 0)
        return false;
    out = value;
    return true;
}

void failAt(const std::string& file, int line, const std::string& message,
            const std::string& hint) {
    throw Error(ErrorKind::Input, message, SourceLocation{file, line, 0, ""}, hint);
}

void checkTwoRanksOrMore(int ranks, const std::string& file, int line) {
    if (ranks < 2)
        failAt(file, line,
               "a run over " + std::to_string(ranks) +
                   " GPU: it moves no data between GPUs (nccl-tests' bus bandwidth is 0 there), "
                   "so it says nothing of a network",
               "calibrate from a run over 2 or more GPUs (-g 2, or mpirun -np 2)");
}

} // namespace astrolabe::calibrate
