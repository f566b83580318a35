#include "sweep/SweepRun.h"

#include "core/Error.h"
#include "generate/WorkloadGenerator.h"
#include "simulation/Simulation.h"
#include "store/RunStorage.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <thread>

namespace astrolabe {

PointOutcome runSweepPoint(const SweepPlan& plan, size_t index, const CancelToken* cancel) {
    PointOutcome outcome;
    outcome.index = index;
    const auto started = std::chrono::steady_clock::now();
    try {
        if (!plan.points.at(index).runnable())
            throw Error(ErrorKind::Internal,
                        "point " + std::to_string(index) + " is skipped and cannot run");
        PointWork work = plan.work(index);
        if (work.generator) {
            // Generating is O(NPUs x nodes per rank): on this worker, before the simulation.
            generate::GeneratedWorkload workload = generate::generateWorkload(*work.generator);
            work.spec.commGroups = std::move(workload.groups);
            work.spec.workload.kind = WorkloadSource::Kind::ChakraTrace;
            work.spec.workload.tracePrefix = "generated:" + work.generator->model.name;
            outcome.result = runSimulation(work.spec, std::move(workload.traces), nullptr, cancel);
        } else {
            outcome.result = runSimulation(work.spec, nullptr, cancel);
        }
    } catch (const Error& e) {
        outcome.status =
            e.kind() == ErrorKind::Cancelled ? RunStatus::Cancelled : RunStatus::Failed;
        outcome.error = e.what();
    } catch (const std::bad_alloc&) {
        outcome.status = RunStatus::Failed;
        outcome.error = "out of memory while simulating this point";
    } catch (const std::exception& e) {
        outcome.status = RunStatus::Failed;
        outcome.error = std::string("internal error: ") + e.what();
    }
    outcome.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
}

int64_t storeSweepPoint(ProjectDatabase& db, const SweepPlan& plan, const PointOutcome& outcome) {
    const SweepPoint point = plan.point(outcome.index);
    RunProvenance provenance;
    try {
        PointWork work = plan.work(outcome.index);
        if (work.generator) { // what ran: the generated iteration, not the project's workload
            work.spec.workload.kind = WorkloadSource::Kind::ChakraTrace;
            work.spec.workload.tracePrefix = "generated:" + work.generator->model.name;
        }
        provenance = makeProvenance(work.spec);
    } catch (const Error&) {
        // The point's project is invalid (its outcome says how): stored without a configuration.
    }
    provenance.tags = sweepPointTags(plan, point);
    provenance.notes = "Sweep " + plan.file.name + " (" + plan.file.file + "), point " +
                       std::to_string(outcome.index) + " of " + std::to_string(plan.points.size()) +
                       ":";
    for (const SweepCoordinate& c : point.coordinates)
        provenance.notes += "\n  " + c.name + " (" + c.path + ") = " + c.value;
    if (!plan.file.generator.empty()) {
        provenance.notes += "\nGenerated workload (generate-llm flags):";
        for (const auto& [name, value] : plan.file.generator)
            provenance.notes += " --" + name + " " + value;
    }
    const std::string name = plan.file.name + " · point " + std::to_string(outcome.index);
    if (!outcome.result)
        return db.saveFailedRun(name, outcome.status, outcome.error, outcome.wallSeconds,
                                provenance);
    RunResult copy = *outcome.result;
    copy.name = name;
    copy.wallSeconds = outcome.wallSeconds;
    return db.saveRun(copy, provenance);
}

std::map<size_t, RunRecord> storedSweepRuns(const ProjectDatabase& db,
                                            const std::string& identity) {
    std::map<size_t, RunRecord> newest;
    for (RunRecord& run : db.listRuns()) // newest first
        if (run.status != RunStatus::Cancelled)
            if (const auto index = storedPointIndex(run.tags, identity);
                index && !newest.count(*index))
                newest.emplace(*index, std::move(run));
    return newest;
}

std::set<size_t> storedSweepPoints(const ProjectDatabase& db, const std::string& identity) {
    std::set<size_t> stored;
    for (const auto& [index, run] : storedSweepRuns(db, identity))
        if (run.status == RunStatus::Ok)
            stored.insert(index);
    return stored;
}

std::vector<size_t> pendingSweepPoints(const SweepPlan& plan, const std::set<size_t>& stored) {
    std::vector<size_t> todo;
    for (const PlannedPoint& p : plan.points)
        if (p.runnable() && !stored.count(p.index))
            todo.push_back(p.index);
    return todo;
}

void runSweepOnThreads(const SweepPlan& plan, const std::vector<size_t>& todo, int jobs,
                       const std::function<void(PointOutcome&&)>& deliver,
                       const CancelToken* cancel) {
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<PointOutcome> finished;
    auto work = [&] {
        for (size_t i = next++; i < todo.size() && !stop; i = next++) {
            PointOutcome outcome = runSweepPoint(plan, todo[i], cancel);
            {
                const std::lock_guard lock(mutex);
                finished.push_back(std::move(outcome));
            }
            ready.notify_one();
        }
    };
    const size_t workers = std::clamp<size_t>(static_cast<size_t>(std::max(jobs, 1)), 1,
                                              std::max<size_t>(todo.size(), 1));
    std::vector<std::jthread> threads;
    for (size_t w = 0; w < workers; ++w)
        threads.emplace_back(work);
    // The calling thread is the single writer: it takes finished points as they come.
    for (size_t delivered = 0; delivered < todo.size(); ++delivered) {
        std::unique_lock lock(mutex);
        ready.wait(lock, [&] { return !finished.empty(); });
        PointOutcome outcome = std::move(finished.front());
        finished.pop_front();
        lock.unlock();
        try {
            deliver(std::move(outcome));
        } catch (...) {
            // No more points are handed out; the workers finish the ones they hold (their
            // outcomes are dropped) before the error goes on.
            stop = true;
            threads.clear();
            throw;
        }
    }
}

} // namespace astrolabe
