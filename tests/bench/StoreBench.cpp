// Project-database timing: save a large run, then load random 1/100 time windows.
// Acceptance (issue: store): a 4,096-NPU run with >= 10 million intervals saves in < 5 s and any
// 1/100 window loads in < 50 ms. Run under /usr/bin/time -v for peak memory:
//   /usr/bin/time -v build/tests/bench/bench_store [--npus 4096] [--steps 1221] [--db FILE]
//                                                  [--jitter PS]
#include "store/ProjectDatabase.h"
#include "support/SyntheticRun.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <random>
#include <string>

using namespace astrolabe;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

/// Process CPU time: on a shared machine the wall clock also measures the neighbours.
double cpuSeconds() {
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

} // namespace

int main(int argc, char** argv) {
    test::SyntheticRunShape shape;
    shape.npus = 4096;
    shape.steps = 1221; // 4096 * (2 + 2 * 1221) = 10,006,528 intervals
    shape.dims = 2;
    // The synthetic run is perfectly regular and compresses unrealistically well; --jitter P
    // adds up to P ps of random noise to every interval end (and random sizes) for a fairer
    // size figure.
    int64_t jitterPs = 0;
    std::string dbPath = (std::filesystem::temp_directory_path() / "astrolabe_bench.db").string();
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--npus"))
            shape.npus = std::stoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--steps"))
            shape.steps = std::stoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--db"))
            dbPath = argv[i + 1];
        else if (!std::strcmp(argv[i], "--jitter"))
            jitterPs = std::stoll(argv[i + 1]);
    }
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(dbPath + suffix);

    auto t = Clock::now();
    RunResult run = test::makeSyntheticRun(shape);
    if (jitterPs > 0) {
        std::mt19937_64 noise(1);
        for (ActivityInterval& a : run.activities) {
            a.end = a.end + SimTime::fromPs(static_cast<int64_t>(noise() % jitterPs));
            if (a.bytes)
                a.bytes = noise() % (1u << 24);
        }
        run.endTime = run.endTime + SimTime::fromPs(jitterPs);
    }
    std::printf("built run: %d NPUs, %zu intervals, %zu collectives, %zu phases, %zu links in "
                "%.2f s\n",
                run.npuCount, run.activities.size(), run.collectives.size(), run.phases.size(),
                run.links.size(), secondsSince(t));

    ProjectDatabase db(dbPath);
    t = Clock::now();
    double cpu = cpuSeconds();
    const int64_t id = db.saveRun(run, {});
    const double saveSeconds = secondsSince(t);
    const double saveCpu = cpuSeconds() - cpu;
    const auto bytes =
        std::filesystem::file_size(dbPath) + (std::filesystem::exists(dbPath + "-wal")
                                                  ? std::filesystem::file_size(dbPath + "-wal")
                                                  : 0);
    const double millions = static_cast<double>(run.activities.size()) / 1e6;
    std::printf("save: %.3f s wall, %.3f s CPU (%.2f M intervals/s); database %.1f MB = %.2f MB "
                "per million "
                "intervals (all tables)\n",
                saveSeconds, saveCpu, millions / saveSeconds, bytes / 1e6, bytes / 1e6 / millions);

    std::mt19937_64 rng(7);
    const int64_t end = run.endTime.ps();
    const int64_t window = end / 100;
    std::vector<double> ms, cpuMs;
    size_t loaded = 0;
    for (int q = 0; q < 100; ++q) {
        const int64_t t0 = static_cast<int64_t>(rng() % static_cast<uint64_t>(end - window));
        t = Clock::now();
        cpu = cpuSeconds();
        const auto intervals =
            db.loadActivities(id, SimTime::fromPs(t0), SimTime::fromPs(t0 + window));
        ms.push_back(secondsSince(t) * 1e3);
        cpuMs.push_back((cpuSeconds() - cpu) * 1e3);
        loaded += intervals.size();
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpuMs.begin(), cpuMs.end());
    std::printf("1/100 window, all NPUs (100 random windows): wall median %.1f ms, max %.1f ms; "
                "CPU median %.1f ms, max %.1f ms; %.0f intervals per window\n",
                ms[50], ms.back(), cpuMs[50], cpuMs.back(), static_cast<double>(loaded) / 100);
    const double worstWindow = ms.back();
    ms.clear();
    for (int q = 0; q < 100; ++q) {
        const int64_t t0 = static_cast<int64_t>(rng() % static_cast<uint64_t>(end - window));
        const std::vector<int> npus{static_cast<int>(rng() % static_cast<uint64_t>(shape.npus))};
        t = Clock::now();
        db.loadActivities(id, SimTime::fromPs(t0), SimTime::fromPs(t0 + window), npus);
        ms.push_back(secondsSince(t) * 1e3);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("1/100 window, one NPU: median %.2f ms, max %.2f ms\n", ms[50], ms.back());
    std::printf("acceptance (wall clock): save < 5 s %s; every 1/100 window < 50 ms %s\n",
                saveSeconds < 5.0 ? "met" : "NOT met", worstWindow < 50.0 ? "met" : "NOT met");
    return 0;
}
