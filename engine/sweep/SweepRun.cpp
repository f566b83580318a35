#include "sweep/SweepRun.h"

#include "core/Error.h"
#include "core/WorkerThreads.h"
#include "generate/WorkloadGenerator.h"
#include "serving/ServingRun.h"
#include "simulation/Simulation.h"
#include "store/RunStorage.h"
#include "sweep/ServingSweep.h"

#include <algorithm>
#include <chrono>
#include <new>

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
        } else if (serving::isServingProject(work.spec)) {
            ServingPointRun run = runServingPoint(plan.file.serving, std::move(work.spec), cancel);
            outcome.result = std::make_shared<const RunResult>(std::move(run.result));
            outcome.serving = run.summary;
            outcome.servingRate = run.rate;
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
    // The point's values in its name, so that the runs list and a comparison tell the points
    // apart without opening their notes; a long label is cut (the notes keep every value).
    constexpr size_t kLongestLabel = 80;
    std::string label = point.label();
    if (label.size() > kLongestLabel) {
        label.resize(kLongestLabel);
        while (!label.empty() && (static_cast<unsigned char>(label.back()) & 0xC0) == 0x80)
            label.pop_back(); // not inside a UTF-8 character
        if (!label.empty())
            label.pop_back();
        label += "…";
    }
    const std::string name = plan.file.name + " · point " + std::to_string(outcome.index) +
                             (label.empty() ? "" : " (" + label + ")");
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
    // The calling thread is the single writer: it takes finished points as they come.
    runOnWorkerThreads<PointOutcome>(
        todo.size(), jobs, [&](size_t i) { return runSweepPoint(plan, todo[i], cancel); },
        [&](size_t, PointOutcome&& outcome) { deliver(std::move(outcome)); });
}

} // namespace astrolabe
