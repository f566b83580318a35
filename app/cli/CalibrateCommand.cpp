#include "cli/CalibrateCommand.h"

#include "calibrate/CalibratedProject.h"
#include "calibrate/Calibration.h"
#include "calibrate/CalibrationPlot.h"
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/PngChart.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "core/Units.h"
#include "project/ProjectFile.h"

#include <filesystem>
#include <ostream>

namespace astrolabe::cli {

ArgParser calibrateParser() {
    return ArgParser(
        "calibrate",
        "Fit one platform dimension's latency, bandwidth and endpoint delay to nccl-tests (or "
        "rccl-tests) output, check the fit on points it did not see, and write the fitted "
        "values into the project.",
        {{"project", "FILE", "the project to calibrate (required)", ""},
         {"out", "FILE", "where to write the calibrated project", "the --project file itself"},
         {"dimension", "INDEX", "the platform dimension the runs exercised", "0"},
         {"collective", "NAME",
          "the test program of every file (all_reduce, all_gather, reduce_scatter, alltoall, "
          "sendrecv), when the files do not say",
          ""},
         {"plot", "FILE",
          "also write the measured-against-predicted chart: FILE.svg, or FILE.png (drawn by Qt)",
          ""},
         {"dry-run", "", "report the fit and the settings, write no project", ""}},
        {"SOURCE", "FILE..."});
}

int calibrateCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::vector<std::string>& positional = args.positional();
    if (positional.front() != "nccl-tests")
        throw UsageError("calibrate: unknown source \"" + positional.front() +
                         "\"; the one source is nccl-tests: calibrate nccl-tests FILES... "
                         "--project P");
    if (positional.size() < 2)
        throw UsageError("calibrate nccl-tests: no files given");
    const std::string project = args.value("project");
    requireFile("--project", project);
    std::optional<NcclCollective> collective;
    if (const std::string name = args.value("collective"); !name.empty()) {
        collective = ncclCollectiveFromName(name);
        if (!collective)
            throw UsageError("--collective: expected " + joinAlternatives(ncclCollectiveNames()) +
                             ", found \"" + name + "\"");
    }
    const int dimension = parseCount("dimension", args.value("dimension", "0"), 0, 63);
    std::vector<std::string> warnings;
    SimulationSpec spec = loadProject(project, &warnings);
    for (const std::string& w : warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    // Every output is checked before the fit: none may be a file this command reads.
    std::vector<NamedInput> measurements;
    for (size_t i = 1; i < positional.size(); ++i)
        measurements.push_back({positional[i], "a measurement file"});
    const std::string target = args.value("out", project);
    if (!args.has("dry-run") && target != project)
        checkOutputPath(target, "the calibrated project", measurements);
    const std::string plot = args.value("plot");
    if (!plot.empty()) {
        if (!wantsPng(plot) && !wantsSvg(plot))
            throw UsageError("--plot: expected a file ending in .svg or .png, found \"" + plot +
                             "\"");
        std::vector<NamedInput> inputs = measurements;
        inputs.push_back({project, "the project"});
        if (!args.has("dry-run"))
            inputs.push_back({target, "the calibrated project"});
        checkOutputPath(plot, "the calibration chart", inputs);
    }
    std::vector<NcclRun> runs;
    for (size_t i = 1; i < positional.size(); ++i) {
        requireFile("nccl-tests", positional[i]);
        runs.push_back(readNcclTests(positional[i], collective));
    }
    FitOptions options;
    options.reduceUsPerByte = reduceUsPerByte(spec);
    const Calibration calibration = calibrate(std::move(runs), options);
    out << calibrationReportText(calibration);
    const AppliedCalibration applied =
        applyCalibration(spec, dimension, calibration.fit, calibration.runs);
    out << applied.settings << "\n";
    for (const std::string& w : applied.warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    // The chart is drawn before anything is written: a PNG that cannot be drawn (no module)
    // leaves no calibrated project behind either.
    std::string chart;
    if (!plot.empty()) {
        const std::string title = "Calibration of " +
                                  std::filesystem::path(project).filename().string() +
                                  ", dimension " + std::to_string(dimension);
        chart = calibrationSvg(calibration.points, calibration.fit.model,
                               calibration.heldOut.predictedUs, title);
        if (wantsPng(plot))
            chart = renderPngChart(chart);
    }
    // The chart first: a chart that cannot be written leaves the project as it was (a re-run
    // would otherwise calibrate the calibrated project); one written is removed when the
    // project then cannot be.
    OutputSet written;
    if (!plot.empty()) {
        writeOutputFile(plot, "the calibration chart", [&](std::ostream& o) { o << chart; });
        written.add(plot);
    }
    if (!args.has("dry-run")) {
        const std::string text = calibratedProjectText(spec, applied, target);
        writeOutputFile(target, "the calibrated project", [&](std::ostream& o) { o << text; });
        out << "wrote " << target << "\n";
    }
    written.commit();
    if (!plot.empty())
        out << "wrote " << plot << "\n";
    out << "fit and checks took " << units::formatFixed(calibration.seconds, 3) << " s\n";
    return kExitOk;
}

} // namespace astrolabe::cli
