#include "cli/SweepCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/SweepMpi.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "core/Units.h"
#include "store/RunStorage.h"
#include "sweep/ServingSweep.h"
#include "sweep/SweepLock.h"
#include "sweep/SweepRun.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>

namespace astrolabe::cli {
namespace {

using units::countOf;
using units::formatPlain;
using units::formatTime;

int defaultJobs() {
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string seconds(double s) {
    char text[32];
    if (s < 60)
        std::snprintf(text, sizeof text, "%.1f s", s);
    else
        std::snprintf(text, sizeof text, "%d min %02d s", static_cast<int>(s / 60),
                      static_cast<int>(s) % 60);
    return text;
}

/// "0.0374 goodput/GPU (requests/s), 412 output tokens/s/GPU, TPOT p50 21.3 ms, 97.0% meet
/// the SLOs at 12.5 requests/s"
std::string servingText(const SweepServing& options, const serving::ServingSummary& s,
                        double rate) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "%.4g goodput/GPU (requests/s), %.4g output tokens/s/GPU, TPOT p50 %.4g ms, "
                  "%.1f%% meet the SLOs at %.4g requests/s [%s %.4g]",
                  s.goodputPerGpu, s.outputTokensPerGpuSecond, s.tpot.p50 * 1e3,
                  s.sloAttainment * 100, rate, options.objective.c_str(),
                  servingObjectiveValue(options.objective, s));
    return text;
}

/// One line per finished point with the share done and the time left, estimated from the mean
/// wall time of the points finished so far.
class SweepProgress {
public:
    SweepProgress(std::ostream& out, size_t total)
        : m_out(out)
        , m_total(total) {}
    void finished(const SweepPlan& plan, const PointOutcome& o, int64_t runNumber) {
        ++m_done;
        const double elapsed = std::chrono::duration<double>(Clock::now() - m_start).count();
        const double eta =
            elapsed / static_cast<double>(m_done) * static_cast<double>(m_total - m_done);
        char head[64];
        std::snprintf(head, sizeof head, "[%*zu/%zu] %5.1f%%", static_cast<int>(digits(m_total)),
                      m_done, m_total,
                      100.0 * static_cast<double>(m_done) / static_cast<double>(m_total));
        m_out << head << "  point " << o.index << " (" << plan.point(o.index).label() << "): ";
        if (o.serving)
            m_out << servingText(plan.file.serving, *o.serving, o.servingRate);
        else if (o.result)
            m_out << formatTime(o.result->endTime);
        else
            m_out << runStatusName(o.status) << ": " << o.error;
        m_out << "  · run #" << runNumber << " · " << seconds(elapsed) << " elapsed";
        if (m_done < m_total)
            m_out << ", about " << seconds(eta) << " left";
        m_out << "\n" << std::flush;
    }

private:
    using Clock = std::chrono::steady_clock;
    static size_t digits(size_t n) { return std::to_string(n).size(); }
    std::ostream& m_out;
    size_t m_total, m_done = 0;
    Clock::time_point m_start = Clock::now();
};

/// The table of every point of the sweep as stored now (this run's and earlier ones').
struct PointRow {
    const PlannedPoint* point = nullptr;
    SweepPoint coordinates;
    std::optional<RunRecord> run;
    SimTime maxCompute, maxExposed;
    std::optional<serving::ServingSummary> serving; ///< a serving point's summary
};

std::vector<PointRow> pointRows(const SweepPlan& plan, const ProjectDatabase& db) {
    std::map<size_t, RunRecord> stored = storedSweepRuns(db, plan.identity);
    std::vector<PointRow> rows;
    for (const PlannedPoint& p : plan.points) {
        PointRow row{&p, plan.point(p.index), std::nullopt, {}, {}, std::nullopt};
        if (const auto it = stored.find(p.index); it != stored.end()) {
            row.run = std::move(it->second);
            if (row.run->status == RunStatus::Ok)
                row.serving = storedServingSummary(db, row.run->id);
            for (const NpuSummary& s : db.loadNpuSummaries(row.run->id)) {
                row.maxCompute = std::max(row.maxCompute, s.gpuTime);
                row.maxExposed = std::max(row.maxExposed, s.exposedComm);
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (const char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string csvTable(const SweepPlan& plan, const std::vector<PointRow>& rows) {
    std::ostringstream csv;
    csv << "point";
    for (const SweepGroup& g : plan.file.groups)
        for (const SweepAxis& a : g.axes)
            csv << "," << csvField(a.name);
    // A serving sweep's rows add its numbers; a training sweep's table keeps its columns.
    const bool serving = std::any_of(rows.begin(), rows.end(),
                                     [](const PointRow& row) { return row.serving.has_value(); });
    csv << ",status,end_time_ns,compute_max_ns,exposed_comm_max_ns,run,note";
    if (serving)
        csv << ",goodput_per_gpu,output_tokens_per_gpu_s,tpot_p50_ms,slo_attainment,"
               "requests_per_s";
    csv << "\n";
    for (const PointRow& row : rows) {
        csv << row.point->index;
        for (const SweepCoordinate& c : row.coordinates.coordinates)
            csv << "," << csvField(c.value);
        if (!row.point->runnable())
            csv << ",skipped,,,,," << csvField(row.point->skipReason);
        else if (!row.run)
            csv << ",not run,,,,,";
        else if (row.run->status != RunStatus::Ok)
            csv << "," << runStatusName(row.run->status) << ",,,," << row.run->number << ","
                << csvField(row.run->errorMessage);
        else
            csv << ",ok," << formatPlain(row.run->simulatedTime.ns(), 15) << ","
                << formatPlain(row.maxCompute.ns(), 15) << ","
                << formatPlain(row.maxExposed.ns(), 15) << "," << row.run->number << ",";
        if (serving && !row.serving)
            csv << ",,,,,";
        else if (row.serving)
            csv << "," << formatPlain(row.serving->goodputPerGpu, 9) << ","
                << formatPlain(row.serving->outputTokensPerGpuSecond, 9) << ","
                << formatPlain(row.serving->tpot.p50 * 1e3, 9) << ","
                << formatPlain(row.serving->sloAttainment, 9) << ","
                << formatPlain(row.serving->requestsPerSecond, 9);
        csv << "\n";
    }
    return csv.str();
}

/// A serving sweep's ranking: the best point by the objective, and each point's numbers.
void printServingRanking(std::ostream& out, const SweepPlan& plan,
                         const std::vector<PointRow>& rows) {
    const PointRow* best = nullptr;
    const std::string& objective = plan.file.serving.objective;
    for (const PointRow& row : rows)
        if (row.serving && (!best || servingObjectiveValue(objective, *row.serving) >
                                         servingObjectiveValue(objective, *best->serving)))
            best = &row;
    if (!best)
        return;
    out << "\n  Serving objective " << objective << " (higher is better):\n";
    for (const PointRow& row : rows)
        if (row.serving) {
            char line[64];
            std::snprintf(line, sizeof line, "  %s %5zu  ", &row == best ? "*" : " ",
                          row.point->index);
            out << line << row.coordinates.label() << ": "
                << servingText(plan.file.serving, *row.serving, row.serving->requestsPerSecond)
                << "\n";
        }
    out << "  best: point " << best->point->index << " (" << best->coordinates.label() << "), "
        << objective << " " << formatPlain(servingObjectiveValue(objective, *best->serving), 6)
        << "\n";
}

void printTable(std::ostream& out, const std::vector<PointRow>& rows) {
    out << "\n  point  coordinates" << std::string(34, ' ') << "end time        run\n";
    for (const PointRow& row : rows) {
        char head[16];
        std::snprintf(head, sizeof head, "  %5zu  ", row.point->index);
        std::string label = row.coordinates.label();
        label.resize(std::max<size_t>(label.size(), 45), ' ');
        out << head << label << "  ";
        if (!row.point->runnable())
            out << "skipped: " << row.point->skipReason;
        else if (!row.run)
            out << "not run";
        else if (row.run->status != RunStatus::Ok)
            out << runStatusName(row.run->status) << "          #" << row.run->number;
        else {
            std::string end = formatTime(row.run->simulatedTime);
            end.resize(std::max<size_t>(end.size(), 14), ' ');
            out << end << "  #" << row.run->number;
        }
        out << "\n";
    }
}

} // namespace

ArgParser sweepParser() {
    return ArgParser(
        "sweep",
        "Run every point of a sweep (docs/sweeps.md) and store each as a run. Points already "
        "stored are not run again: after an interruption the same command finishes the sweep. "
        "Points that failed are run again; the exit status is 1 while any point fails.",
        {{"jobs", "N", "points run at once, one per worker thread",
          "one per core (" + std::to_string(defaultJobs()) + " here)"},
         {"db", "FILE", "project database to store the points in",
          "the base project's folder/astrolabe.db"},
         {"csv", "FILE", "also write every point's coordinates and results as CSV", ""},
         {"dry-run", "",
          "list the points and what the constraints skip; run nothing and write nothing", ""},
         {"mpi", "",
          "distribute the points over MPI ranks (mpirun -n N ... --mpi); rank 0 "
          "stores them",
          ""}},
        {"SWEEP.yaml"});
}

int sweepCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string sweepPath = args.positional().at(0);
    requireFile("sweep", sweepPath);
    // At least one worker: "--jobs=0" is refused, not run with "0 worker threads".
    constexpr int kMaxJobs = 1024;
    const int jobs =
        args.has("jobs") ? parseCount("jobs", args.value("jobs"), 1, kMaxJobs) : defaultJobs();
    std::unique_ptr<MpiSweep> mpi;
    if (args.has("mpi"))
        mpi = std::make_unique<MpiSweep>(); // removes orphaned scratch itself
    else
        removeOrphanedSweepScratch(); // what ranks of an earlier MPI sweep left when they died
    const bool leader = !mpi || mpi->rank() == 0;
    bool serving = false; // a worker rank's own error (not the plan's, which every rank has)
    try {
        const SweepPlan plan = planSweep(sweepPath);
        if (!leader) {
            serving = true;
            mpi->serve(plan);
            return kExitOk;
        }
        const std::string dbPath = args.value("db").empty()
                                       ? defaultDatabasePath(plan.file.projectPath)
                                       : args.value("db");
        const bool dryRun = args.has("dry-run");
        // The table is written after every point ran: a path it cannot take is said now.
        if (const std::string csv = args.value("csv"); !csv.empty() && !dryRun)
            checkOutputPath(csv, "the sweep table",
                            {{sweepPath, "the sweep file"},
                             {plan.file.projectPath, "the base project"},
                             {dbPath, "the project database"}});
        // A dry run writes nothing: it reads what an existing database holds, and makes none.
        std::optional<SweepLock> lock;
        if (!dryRun)
            lock.emplace(dbPath, plan.identity);
        std::optional<ProjectDatabase> opened;
        if (!dryRun || std::filesystem::exists(dbPath))
            opened.emplace(dbPath);
        const std::map<size_t, RunRecord> previous =
            opened ? storedSweepRuns(*opened, plan.identity) : std::map<size_t, RunRecord>{};
        const std::set<size_t> stored =
            opened ? storedSweepPoints(*opened, plan.identity) : std::set<size_t>{};
        const std::vector<size_t> todo = pendingSweepPoints(plan, stored);
        const size_t skipped = plan.points.size() - plan.runnable();
        const size_t failedBefore = previous.size() - stored.size();
        out << "Sweep \"" << plan.file.name << "\": " << countOf(plan.points.size(), "point")
            << " over " << plan.file.projectPath << "\n  " << todo.size() << " to run";
        if (failedBefore > 0)
            out << " (" << failedBefore << " of them failed before and run again)";
        out << ", " << (plan.runnable() - todo.size()) << " already stored, " << skipped
            << " skipped by constraints; database " << dbPath << "\n";
        if (mpi)
            out << "  MPI: " << mpi->size() - 1 << " worker ranks\n";
        else
            out << "  "
                << countOf(static_cast<uint64_t>(
                               std::min<size_t>(jobs, std::max<size_t>(todo.size(), 1))),
                           "worker thread")
                << "\n";
        for (const PlannedPoint& p : plan.points)
            if (!p.runnable() && (dryRun || stored.empty()))
                out << "  skip point " << p.index << " (" << plan.point(p.index).label()
                    << "): " << p.skipReason << "\n";
        if (dryRun) {
            for (const size_t i : todo)
                out << "  would run point " << i << " (" << plan.point(i).label() << ")\n";
            if (mpi)
                mpi->distribute(plan, {}, [](PointOutcome&&) {});
            return kExitOk;
        }
        ProjectDatabase& db = *opened;
        SweepProgress progress(out, todo.size());
        size_t failed = 0, delivered = 0;
        double simulating = 0, storing = 0;
        auto deliver = [&](PointOutcome&& outcome) {
            ++delivered;
            const auto storeStart = std::chrono::steady_clock::now();
            const int64_t id = storeSweepPoint(db, plan, outcome);
            storing += std::chrono::duration<double>(std::chrono::steady_clock::now() - storeStart)
                           .count();
            simulating += outcome.wallSeconds;
            failed += outcome.status == RunStatus::Ok ? 0 : 1;
            progress.finished(plan, outcome, db.run(id).number);
        };
        const auto started = std::chrono::steady_clock::now();
        std::vector<int> lost;
        if (mpi)
            lost = mpi->distribute(plan, todo, deliver);
        else
            runSweepOnThreads(plan, todo, jobs, deliver);
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        out << "Ran " << countOf(delivered, "point") << " in " << seconds(wall) << " ("
            << delivered - failed << " ok, " << failed << " failed); simulating took "
            << seconds(simulating) << " summed over the workers, storing " << seconds(storing)
            << ".\n";
        for (const int rank : lost)
            err << "astrolabe-cli: error: MPI rank " << rank << " stopped answering\n";
        if (delivered < todo.size())
            err << "astrolabe-cli: error: " << countOf(todo.size() - delivered, "point")
                << " not run (their ranks were lost); the same command runs them\n";
        if (failed > 0)
            err << "astrolabe-cli: error: " << countOf(failed, "point")
                << " failed (listed below); the same command runs them again\n";
        const int status =
            failed == 0 && delivered == todo.size() && lost.empty() ? kExitOk : kExitFailure;
        if (mpi)
            mpi->setExitStatus(status); // a lost rank ends the process in ~MpiSweep
        const std::vector<PointRow> rows = pointRows(plan, db);
        printTable(out, rows);
        printServingRanking(out, plan, rows);
        if (const std::string csv = args.value("csv"); !csv.empty()) {
            const std::string table = csvTable(plan, rows);
            writeOutputFile(csv, "the sweep table", [&](std::ostream& o) { o << table; });
            out << "  table written to " << csv << "\n";
        }
        return status;
    } catch (const std::exception& e) {
        if (!mpi || mpi->size() == 1)
            throw;
        if (leader)
            err << "astrolabe-cli: error: " << e.what() << "\n";
        else if (serving)
            err << "astrolabe-cli: error on MPI rank " << mpi->rank() << ": " << e.what() << "\n"
                << std::flush;
        mpi->abort(kExitFailure); // the other ranks may be waiting for work: end them all
        return kExitFailure;
    }
}

} // namespace astrolabe::cli
