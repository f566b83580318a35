#include "cli/PlanMpi.h"

#ifdef ASTROLABE_WITH_MPI
#include "core/Error.h"

#include <cstring>
#include <mpi.h>
#include <string>
#endif

namespace astrolabe::cli {

#ifndef ASTROLABE_WITH_MPI

std::vector<plan::SimulatedCandidate>
simulateCandidatesMpi(MpiSweep&, const SimulationSpec&, const plan::PlanRequest&,
                      const std::vector<plan::RankedCandidate>&, int,
                      const std::function<void(const plan::SimulatedCandidate&)>&) {
    throw UsageError("--mpi: this astrolabe-cli was built without MPI");
}

#else

namespace {

template <typename T> void put(std::string& buffer, const T& value) {
    buffer.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T> T take(const std::string& buffer, size_t& at) {
    T value{};
    if (at + sizeof value > buffer.size())
        throw Error(ErrorKind::Internal, "a planner result message from an MPI rank is truncated");
    std::memcpy(&value, buffer.data() + at, sizeof value);
    at += sizeof value;
    return value;
}

} // namespace

std::vector<plan::SimulatedCandidate>
simulateCandidatesMpi(MpiSweep& mpi, const SimulationSpec& project,
                      const plan::PlanRequest& request,
                      const std::vector<plan::RankedCandidate>& candidates, int jobs,
                      const std::function<void(const plan::SimulatedCandidate&)>& done) {
    const int rank = mpi.rank(), size = mpi.size();
    std::vector<plan::RankedCandidate> mine;
    for (size_t i = size_t(rank); i < candidates.size(); i += size_t(size))
        mine.push_back(candidates[i]);
    const std::vector<plan::SimulatedCandidate> local =
        plan::simulateCandidates(project, request, mine, jobs);
    // (index, ran, simulated, wall, error length, error) per outcome.
    std::string packed;
    for (size_t j = 0; j < local.size(); ++j) {
        put(packed, uint64_t(size_t(rank) + j * size_t(size)));
        put(packed, uint8_t(local[j].ran));
        put(packed, local[j].simulatedSeconds);
        put(packed, local[j].wallSeconds);
        put(packed, uint64_t(local[j].error.size()));
        packed += local[j].error;
    }
    int length = int(packed.size());
    std::vector<int> lengths(static_cast<size_t>(size)), offsets(static_cast<size_t>(size));
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < size; ++r) {
        offsets[size_t(r)] = total;
        total += lengths[size_t(r)];
    }
    std::string all(size_t(total), '\0');
    MPI_Allgatherv(packed.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                   MPI_CHAR, MPI_COMM_WORLD);
    std::vector<plan::SimulatedCandidate> out(candidates.size());
    for (size_t at = 0; at < all.size();) {
        const auto index = take<uint64_t>(all, at);
        if (index >= out.size())
            throw Error(ErrorKind::Internal, "an MPI rank returned a planner result out of range");
        plan::SimulatedCandidate& s = out[index];
        s.ranked = candidates[index];
        s.ran = take<uint8_t>(all, at) != 0;
        s.simulatedSeconds = take<double>(all, at);
        s.wallSeconds = take<double>(all, at);
        const auto errorLength = take<uint64_t>(all, at);
        if (at + errorLength > all.size())
            throw Error(ErrorKind::Internal,
                        "a planner result message from an MPI rank is truncated");
        s.error = all.substr(at, errorLength);
        at += errorLength;
    }
    if (done)
        for (const plan::SimulatedCandidate& s : out)
            done(s);
    return out;
}

#endif

} // namespace astrolabe::cli
