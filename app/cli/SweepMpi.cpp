#include "cli/SweepMpi.h"

#include "cli/ArgParser.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/types.h>

namespace astrolabe::cli {
namespace {

/// No such process, or a dead one its parent has not reaped yet (a zombie still answers
/// kill(pid, 0); a rank that mpirun ended can stay one for a moment under load).
bool processIsGone(pid_t pid) {
    if (::kill(pid, 0) != 0)
        return errno == ESRCH;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const size_t close = line.rfind(')'); // "pid (name) S ...": the name may hold spaces
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

} // namespace

// Scratch databases of sweeps whose process is gone (a rank killed while it packed a result)
// on this machine: removed, so a killed sweep leaves nothing behind once any sweep runs again.
void removeOrphanedSweepScratch() {
    namespace fs = std::filesystem;
    std::error_code failed;
    for (const fs::directory_entry& entry :
         fs::directory_iterator(fs::temp_directory_path(), failed)) {
        const std::string name = entry.path().filename().string();
        const std::string prefix = "astrolabe-sweep-";
        if (name.rfind(prefix, 0) != 0)
            continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && processIsGone(static_cast<pid_t>(pid)))
            fs::remove(entry.path(), failed);
    }
}

} // namespace astrolabe::cli

#ifndef ASTROLABE_WITH_MPI

namespace astrolabe::cli {

struct MpiSweep::Impl {};

MpiSweep::MpiSweep() {
    throw UsageError("--mpi: this astrolabe-cli was built without MPI (install libopenmpi-dev and "
                     "configure with -DASTROLABE_WITH_MPI=ON, as packaging/build.sh does)");
}
MpiSweep::~MpiSweep() = default;
int MpiSweep::rank() const {
    return 0;
}
int MpiSweep::size() const {
    return 1;
}
void MpiSweep::abort(int) {
    std::abort();
}
std::vector<int> MpiSweep::distribute(const SweepPlan&, const std::vector<size_t>&,
                                      const std::function<void(PointOutcome&&)>&) {
    return {};
}
void MpiSweep::serve(const SweepPlan&) {}
void MpiSweep::setExitStatus(int) {}

} // namespace astrolabe::cli

#else

#include "core/Error.h"
#include "core/InputFile.h"
#include "core/OutputFile.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mpi.h>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

namespace astrolabe::cli {
namespace {

namespace fs = std::filesystem;

enum Tag : int { kReady = 1, kWork = 2, kStop = 3, kResult = 4 };

/// A result crosses the wire as a one-run project database: the store's own codecs, so nothing
/// of a RunResult is lost or needs a second serialization to be kept in step.
std::string scratchDatabase(int rank) {
    return (fs::temp_directory_path() /
            ("astrolabe-sweep-" + std::to_string(::getpid()) + "-" + std::to_string(rank) + ".db"))
        .string();
}

/// This process's scratch database and its SQLite companions as plain strings, filled before
/// the handler below is installed, so that the handler needs nothing but unlink.
char g_scratchFiles[4][4096];

/// mpirun ends the other ranks with SIGTERM when one dies: a rank in the middle of packing or
/// unpacking a result removes its scratch files before it goes (SIGKILL cannot be caught; what
/// it leaves, the next sweep's removeOrphanedSweepScratch removes).
extern "C" void removeScratchAndEnd(int signal) {
    for (const char* file : g_scratchFiles)
        if (file[0] != '\0')
            ::unlink(file);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

void removeScratchOnTermination(int rank) {
    const std::string path = scratchDatabase(rank);
    const char* suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < 4; ++i) {
        const std::string file = path + suffixes[i];
        if (file.size() >= sizeof g_scratchFiles[i])
            return; // a temporary folder this deep: left to the next sweep's clean-up
        std::memcpy(g_scratchFiles[i], file.c_str(), file.size() + 1);
    }
    struct sigaction action {};
    action.sa_handler = removeScratchAndEnd;
    sigemptyset(&action.sa_mask);
    for (const int signal : {SIGTERM, SIGINT, SIGHUP})
        sigaction(signal, &action, nullptr);
}

void removeDatabase(const std::string& path) {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        fs::remove(path + suffix, ignored);
}

template <typename T> void put(std::string& buffer, const T& value) {
    buffer.append(reinterpret_cast<const char*>(&value), sizeof value);
}
template <typename T> T take(const std::string& buffer, size_t& at) {
    T value{};
    if (at + sizeof value > buffer.size())
        throw Error(ErrorKind::Internal, "a sweep result message from an MPI rank is truncated");
    std::memcpy(&value, buffer.data() + at, sizeof value);
    at += sizeof value;
    return value;
}

std::string packOutcome(const PointOutcome& o, int rank) {
    std::string buffer;
    put<uint64_t>(buffer, o.index);
    put<uint8_t>(buffer, static_cast<uint8_t>(o.status));
    put<double>(buffer, o.wallSeconds);
    put<uint64_t>(buffer, o.error.size());
    buffer += o.error;
    if (o.result) {
        const std::string path = scratchDatabase(rank);
        removeDatabase(path);
        {
            ProjectDatabase scratch(path);
            scratch.saveRun(*o.result, RunProvenance{});
        }
        buffer += InputFile(path, "a sweep point's result", 2 * kGiB).readAll();
        removeDatabase(path);
    }
    return buffer;
}

PointOutcome unpackOutcome(const std::string& buffer) {
    size_t at = 0;
    PointOutcome o;
    o.index = take<uint64_t>(buffer, at);
    o.status = static_cast<RunStatus>(take<uint8_t>(buffer, at));
    o.wallSeconds = take<double>(buffer, at);
    const auto errorSize = take<uint64_t>(buffer, at);
    if (at + errorSize > buffer.size())
        throw Error(ErrorKind::Internal, "a sweep result message from an MPI rank is truncated");
    o.error = buffer.substr(at, errorSize);
    at += errorSize;
    if (at < buffer.size()) {
        const std::string path = scratchDatabase(0);
        removeDatabase(path);
        writeOutputFile(path, "a received sweep result", [&](std::ostream& out) {
            out.write(buffer.data() + at, static_cast<std::streamsize>(buffer.size() - at));
        });
        {
            const ProjectDatabase scratch(path);
            o.result = scratch.loadResult(scratch.listRuns().at(0).id);
        }
        removeDatabase(path);
    }
    return o;
}

} // namespace

struct MpiSweep::Impl {
    int rank = 0;
    int size = 1;
    int exitStatus = 0;
    std::vector<int> lost; ///< ranks that never answered after the last point
    /// A worker told by rank 0 that a rank was lost: MPI_Finalize would wait for it forever
    /// under mpirun --enable-recovery, so this rank leaves without it too.
    bool peerLost = false;
};

MpiSweep::MpiSweep()
    : m_impl(std::make_unique<Impl>()) {
    MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &m_impl->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_impl->size);
    removeOrphanedSweepScratch();
    removeScratchOnTermination(m_impl->rank);
    if (m_impl->size < 2) {
        MPI_Finalize();
        throw UsageError("--mpi needs at least 2 ranks: rank 0 stores the points and the others "
                         "run them (mpirun -n 3 astrolabe-cli sweep SWEEP.yaml --mpi)");
    }
}

MpiSweep::~MpiSweep() {
    // MPI_Finalize waits for every rank, and a lost rank never comes: leave without it (the
    // database is closed by now; mpirun reports the missing finalize).
    // What ranks of this or an earlier sweep left when they died, on this machine (a rank that
    // mpirun ends may outlive it by a moment, so the start of the next sweep is not enough).
    removeOrphanedSweepScratch();
    if (!m_impl->lost.empty() || m_impl->peerLost) {
        std::cout.flush();
        std::cerr.flush();
        std::quick_exit(m_impl->exitStatus);
    }
    MPI_Finalize();
}

void MpiSweep::setExitStatus(int status) {
    m_impl->exitStatus = status;
}

int MpiSweep::rank() const {
    return m_impl->rank;
}
int MpiSweep::size() const {
    return m_impl->size;
}

void MpiSweep::abort(int exitCode) {
    MPI_Abort(MPI_COMM_WORLD, exitCode);
    std::abort();
}

void MpiSweep::serve(const SweepPlan& plan) {
    MPI_Send(nullptr, 0, MPI_BYTE, 0, kReady, MPI_COMM_WORLD);
    for (;;) {
        MPI_Status status;
        uint64_t index = 0;
        MPI_Recv(&index, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        if (status.MPI_TAG == kStop) {
            m_impl->peerLost = index != 0; // the stop carries how many ranks were lost
            return;
        }
        if (index >= plan.points.size())
            throw Error(ErrorKind::Internal, "rank 0 sent point " + std::to_string(index) +
                                                 " of a sweep with " +
                                                 std::to_string(plan.points.size()));
        const std::string message = packOutcome(runSweepPoint(plan, index), m_impl->rank);
        if (message.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
            throw Error(ErrorKind::Unsupported,
                        "point " + std::to_string(index) +
                            "'s result is over 2 GiB, more than one MPI "
                            "message carries",
                        {}, "turn off run.record-timeline for the sweep");
        MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, kResult,
                 MPI_COMM_WORLD);
    }
}

std::vector<int> MpiSweep::distribute(const SweepPlan&, const std::vector<size_t>& todo,
                                      const std::function<void(PointOutcome&&)>& deliver) {
    std::deque<size_t> queue(todo.begin(), todo.end());
    std::set<size_t> done;
    std::map<int, size_t> busy;   // rank -> the point it runs
    std::map<size_t, int> copies; // point -> how many ranks run it
    std::set<int> stopped;        // ranks with nothing more to do: parked, or dead
    const int workers = m_impl->size - 1;

    // A rank with nothing left to do is parked, not told to stop: the stop is sent at the end
    // and says whether a rank was lost, since a worker that calls MPI_Finalize then would wait
    // for the lost rank forever (mpirun --enable-recovery keeps the job alive without it).
    std::set<int> parked;
    auto stop = [&](int rank) {
        parked.insert(rank);
        stopped.insert(rank);
    };
    auto give = [&](int rank) {
        std::optional<size_t> point;
        if (!queue.empty()) {
            point = queue.front();
            queue.pop_front();
        } else {
            // Every point is out: back up the one with the fewest copies still running.
            for (const auto& [r, index] : busy)
                if (!done.count(index) && copies[index] < 2 &&
                    (!point || copies[index] < copies[*point]))
                    point = index;
        }
        if (!point)
            return stop(rank);
        uint64_t index = *point;
        MPI_Send(&index, 1, MPI_UINT64_T, rank, kWork, MPI_COMM_WORLD);
        busy[rank] = *point;
        ++copies[*point];
    };

    // Until every point is in: answer each message with work (or stop, once all is done).
    using Clock = std::chrono::steady_clock;
    double longest = 0;
    std::set<int> dead;
    // A rank that dies while it sends a result leaves the receive waiting forever (and every
    // other rank waiting on rank 0): the receive has a deadline, past which the rank is lost,
    // its buffer kept for the receive that may still write into it, and its point handed on.
    std::vector<std::unique_ptr<char[]>> abandoned;
    auto receive = [&](const MPI_Status& status) {
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        const int rank = status.MPI_SOURCE;
        auto buffer = std::make_unique<char[]>(static_cast<size_t>(std::max(bytes, 1)));
        MPI_Request request;
        MPI_Irecv(buffer.get(), bytes, MPI_BYTE, rank, status.MPI_TAG, MPI_COMM_WORLD, &request);
        const auto deadline =
            Clock::now() + std::chrono::duration<double>(std::max(30.0, 3 * longest));
        for (int complete = 0; !complete;) {
            MPI_Test(&request, &complete, MPI_STATUS_IGNORE);
            if (complete)
                break;
            if (Clock::now() > deadline) {
                MPI_Cancel(&request);
                abandoned.push_back(std::move(buffer));
                dead.insert(rank);
                stopped.insert(rank);
                if (const auto it = busy.find(rank); it != busy.end()) {
                    if (!done.count(it->second))
                        queue.push_front(it->second);
                    --copies[it->second];
                    busy.erase(it);
                }
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        const std::string message(buffer.get(), static_cast<size_t>(bytes));
        if (status.MPI_TAG == kResult) {
            PointOutcome outcome = unpackOutcome(message);
            busy.erase(rank);
            longest = std::max(longest, outcome.wallSeconds);
            if (done.insert(outcome.index).second)
                deliver(std::move(outcome)); // the first copy to finish is the one kept
        }
        if (done.size() == todo.size() && queue.empty())
            stop(rank);
        else
            give(rank);
    };
    while (done.size() < todo.size() && static_cast<int>(stopped.size()) < workers) {
        MPI_Status status;
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        receive(status);
    }
    // Every point is stored. Ranks still busy run a backup copy, or died (mpirun
    // --enable-recovery keeps the job alive when a rank dies): wait for them, but not forever.
    const auto deadline = Clock::now() + std::chrono::duration<double>(std::max(30.0, 3 * longest));
    while (static_cast<int>(stopped.size()) < workers && Clock::now() < deadline) {
        int waiting = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, &status);
        if (waiting)
            receive(status);
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    for (int rank = 1; rank <= workers; ++rank)
        if (!stopped.count(rank) || dead.count(rank))
            m_impl->lost.push_back(rank);
    const uint64_t lostCount = m_impl->lost.size();
    for (const int rank : parked)
        if (!dead.count(rank))
            MPI_Send(&lostCount, 1, MPI_UINT64_T, rank, kStop, MPI_COMM_WORLD);
    return m_impl->lost;
}

} // namespace astrolabe::cli

#endif
