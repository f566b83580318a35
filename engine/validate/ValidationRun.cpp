#include "validate/ValidationRun.h"

#include "core/Error.h"
#include "core/WorkerThreads.h"
#include "generate/ModelFigures.h"
#include "generate/StageMemory.h"
#include "generate/WorkloadGenerator.h"
#include "record/RunResult.h"
#include "sweep/SweepPlan.h"
#include "sweep/SweepRun.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

namespace astrolabe::validate {
namespace {

std::string describeSetup(const generate::GeneratorSpec& s) {
    const generate::ParallelSpec& p = s.parallel;
    // Not the model's name: a row changes a preset's shape, and the name is the preset's.
    std::string text = std::to_string(s.model.layers) + " layers, h " +
                       std::to_string(s.model.hidden) + ", " + std::to_string(s.model.heads) +
                       " heads, s " + std::to_string(s.model.sequence) + "; t" +
                       std::to_string(p.tp) + (p.cp > 1 ? " c" + std::to_string(p.cp) : "") + " p" +
                       std::to_string(p.pp) + " d" + std::to_string(p.dp);
    if (p.virtualStages > 1)
        text += " v" + std::to_string(p.virtualStages);
    text += "; B " + std::to_string(s.training.globalBatch) + ", b " +
            std::to_string(s.training.microBatch);
    if (p.recompute)
        text += ", recompute";
    if (p.sequenceParallel)
        text += ", sp";
    return text;
}

double percent(double predicted, double measured) {
    return (predicted - measured) / measured * 100.0;
}

} // namespace

bool RowOutcome::withinTolerance() const {
    return ran && std::abs(errorPercent) <= row.tolerancePercent;
}

bool TableSummary::passes(double meanTolerancePercent) const {
    return failed == 0 && outOfTolerance == 0 && meanAbsErrorPercent <= meanTolerancePercent;
}

RowOutcome runValidationRow(const ValidationRow& row, const std::string& folder) {
    RowOutcome outcome;
    outcome.row = row;
    const auto started = std::chrono::steady_clock::now();
    try {
        const std::string path = (std::filesystem::path(folder) / row.setup).string();
        const SweepPlan plan = planSweep(path);
        const auto oneRunnablePoint = [&](const std::string& found) {
            return Error(ErrorKind::Validation,
                         "expected one runnable point with a generate: section, found " + found,
                         SourceLocation{path, 0, 0, "axes"},
                         "a row's setup is one point: give each axis a single value");
        };
        if (plan.points.size() != 1 || !plan.points[0].runnable())
            throw oneRunnablePoint(std::to_string(plan.points.size()) + " points");
        const PointWork work = plan.work(0);
        if (!work.generator)
            throw oneRunnablePoint("a point without one");
        const generate::GeneratorSpec& spec = *work.generator;
        outcome.setup = describeSetup(spec);
        outcome.platform = work.spec.name;
        outcome.npus = static_cast<int>(spec.parallel.npus());
        const PointOutcome run = runSweepPoint(plan, 0);
        if (run.status != RunStatus::Ok)
            throw Error(ErrorKind::Validation, run.error, SourceLocation{path, 0, 0, {}});
        SimTime last;
        for (const NpuSummary& npu : run.result->npus)
            last = std::max(last, npu.finish);
        outcome.iterationSeconds = last.seconds();
        if (outcome.iterationSeconds <= 0)
            throw Error(ErrorKind::Internal, "the simulated iteration took no time");
        const generate::ModelFigures figures = generate::computeFigures(spec);
        switch (row.metric) {
        case Metric::TflopsPerGpu:
            if (figures.megatronFlops <= 0)
                throw Error(ErrorKind::Validation,
                            "tflops-per-gpu needs a dense transformer (Megatron's FLOP formula)",
                            SourceLocation{path, 0, 0, "generate"});
            outcome.predicted =
                figures.megatronFlops / (outcome.iterationSeconds * outcome.npus) / 1e12;
            break;
        case Metric::TokensPerSecPerGpu:
            outcome.predicted = figures.tokens / (outcome.iterationSeconds * outcome.npus);
            break;
        case Metric::PeakMemoryGib:
            outcome.predicted =
                generate::stageMemory(spec, generate::buildProgram(spec), spec.parallel.pp - 1)
                    .total() /
                double(1ull << 30);
            break;
        }
        outcome.errorPercent = percent(outcome.predicted, row.measured);
        outcome.ran = true;
    } catch (const std::exception& e) {
        outcome.error = e.what();
    }
    outcome.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
}

std::vector<RowOutcome> runValidation(const std::vector<ValidationRow>& rows,
                                      const std::string& folder, int jobs,
                                      const std::function<void(const RowOutcome&)>& done) {
    std::vector<RowOutcome> outcomes(rows.size());
    runOnWorkerThreads<RowOutcome>(
        rows.size(), jobs, [&](size_t i) { return runValidationRow(rows[i], folder); },
        [&](size_t i, RowOutcome&& outcome) {
            outcomes[i] = std::move(outcome);
            if (done)
                done(outcomes[i]);
        });
    return outcomes;
}

std::vector<TableSummary> summarizeTables(const std::vector<RowOutcome>& outcomes) {
    std::vector<TableSummary> tables;
    for (const RowOutcome& o : outcomes) {
        auto it = std::find_if(tables.begin(), tables.end(),
                               [&](const TableSummary& t) { return t.table == o.row.table; });
        if (it == tables.end()) {
            tables.push_back({o.row.table});
            it = tables.end() - 1;
        }
        ++it->rows;
        if (!o.ran) {
            ++it->failed;
            continue;
        }
        if (!o.withinTolerance())
            ++it->outOfTolerance;
        const double e = std::abs(o.errorPercent);
        it->meanAbsErrorPercent += e;
        it->maxAbsErrorPercent = std::max(it->maxAbsErrorPercent, e);
    }
    for (TableSummary& t : tables)
        if (t.rows > t.failed)
            t.meanAbsErrorPercent /= (t.rows - t.failed);
    return tables;
}

bool validationPasses(const std::vector<RowOutcome>& outcomes, double meanTolerancePercent) {
    const std::vector<TableSummary> tables = summarizeTables(outcomes);
    return !tables.empty() && std::all_of(tables.begin(), tables.end(), [&](const TableSummary& t) {
        return t.passes(meanTolerancePercent);
    });
}

} // namespace astrolabe::validate
