#pragma once
// Runs a piece of work in a child process with a wall-clock limit and a limit on how much more
// memory it may take, so that a test of "this input must not hang or blow up" fails in bounded
// time instead of hanging the suite or taking the machine's memory. POSIX only (fork).
//
// The memory limit is on the address space (RLIMIT_AS) above what the process already maps; an
// allocation past it fails with std::bad_alloc, which the child reports. Under AddressSanitizer,
// which maps terabytes of shadow memory, only the time limit applies.

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define ASTROLABE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASTROLABE_TEST_ASAN 1
#endif
#endif

namespace astrolabe::test {

struct BoundedOutcome {
    bool finished = false; ///< false: still running at the time limit, and killed
    bool ok = false;       ///< finished and the work returned without throwing
    double seconds = 0;    ///< wall time until it finished or was killed
    std::string message;   ///< what the work threw, or how the child ended
};

/// Bytes the calling process maps now (VmSize).
inline size_t mappedBytes() {
    std::ifstream statm("/proc/self/statm");
    size_t pages = 0;
    statm >> pages;
    return pages * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

/// Runs `work` in a forked child for at most `seconds`, with at most `extraBytes` more address
/// space than this process has now. The child writes what it threw to a pipe.
inline BoundedOutcome runBounded(const std::function<void()>& work, double seconds,
                                 size_t extraBytes) {
    int fds[2];
    if (::pipe(fds) != 0)
        return {false, false, 0, "pipe failed"};
    const size_t limit = mappedBytes() + extraBytes;
    const auto start = std::chrono::steady_clock::now();
    const pid_t child = ::fork();
    if (child < 0)
        return {false, false, 0, "fork failed"};
    if (child == 0) {
        ::close(fds[0]);
#ifndef ASTROLABE_TEST_ASAN
        const rlimit cap{limit, limit};
        ::setrlimit(RLIMIT_AS, &cap);
#endif
        std::string message;
        int code = 0;
        try {
            work();
        } catch (const std::exception& e) {
            message = e.what();
            code = 1;
        } catch (...) {
            message = "an exception that is not std::exception";
            code = 1;
        }
        message.resize(std::min<size_t>(message.size(), 4000)); // less than a pipe holds
        if (!message.empty() && ::write(fds[1], message.data(), message.size()) < 0)
            code = 2;
        ::_exit(code);
    }
    ::close(fds[1]);
    BoundedOutcome outcome;
    int status = 0;
    for (;;) {
        outcome.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (::waitpid(child, &status, WNOHANG) == child) {
            outcome.finished = true;
            break;
        }
        if (outcome.seconds > seconds) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
            outcome.message = "still running after " + std::to_string(seconds) + " s";
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
        outcome.message.append(buffer, static_cast<size_t>(n));
    ::close(fds[0]);
    if (outcome.finished) {
        outcome.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (WIFSIGNALED(status))
            outcome.message += std::string("killed by signal ") + strsignal(WTERMSIG(status));
    }
    return outcome;
}

} // namespace astrolabe::test
