#include "export/AstraReport.h"

#include <cstdio>
#include <ctime>
#include <ostream>

namespace astrolabe {
namespace {

bool isLevel(const std::string& word) {
    for (const char* level : {"trace", "debug", "info", "warning", "error", "critical"})
        if (word == level)
            return true;
    return false;
}

} // namespace

std::string astraTimestamp(std::chrono::system_clock::time_point when) {
    using namespace std::chrono;
    const std::time_t seconds = system_clock::to_time_t(when);
    const auto millis = duration_cast<milliseconds>(when.time_since_epoch()).count() % 1000;
    std::tm local{};
    localtime_r(&seconds, &local);
    char buf[40];
    const size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &local);
    char full[48];
    std::snprintf(full, sizeof full, "%.*s.%03d", static_cast<int>(n), buf,
                  static_cast<int>(millis < 0 ? millis + 1000 : millis));
    return full;
}

std::string formatAstraLine(const std::string& line, const std::string& timestamp) {
    std::string logger = "astra";
    std::string level = "info";
    std::string message = line;
    if (line.size() > 2 && line[0] == '[') {
        const size_t close = line.find("] ");
        if (close != std::string::npos) {
            logger = line.substr(1, close - 1);
            message = line.substr(close + 2);
            if (message.size() > 2 && message[0] == '[') {
                const size_t levelClose = message.find("] ");
                if (levelClose != std::string::npos && isLevel(message.substr(1, levelClose - 1))) {
                    level = message.substr(1, levelClose - 1);
                    message = message.substr(levelClose + 2);
                }
            }
        }
    }
    return "[" + timestamp + "] [" + logger + "] [" + level + "] " + message;
}

void writeAstraReport(std::ostream& out, const RunResult& result,
                      std::chrono::system_clock::time_point when) {
    const std::string timestamp = astraTimestamp(when);
    for (const std::string& line : result.reportLines)
        out << formatAstraLine(line, timestamp) << '\n';
}

} // namespace astrolabe
