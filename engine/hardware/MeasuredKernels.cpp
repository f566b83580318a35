#include "hardware/MeasuredKernels.h"

#include "core/CsvTable.h"
#include "core/Error.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::hardware {

// The text of resources/compute/*.csv, compiled in by CMake (KernelData.cpp.in).
extern const char* const kDeepGemmCsv;
extern const char* const kMlaDecodeCsv;
extern const char* const kDecodeKernelsCsv;

namespace {

Error inputError(const std::string& message, const std::string& file, int line) {
    return Error(ErrorKind::Input, message, SourceLocation{file, line, 0, {}});
}

/// The accelerator whose rows serve `accelerator`.
std::string measuredAs(const std::string& accelerator) {
    return accelerator == "h100" ? "h800" : accelerator;
}

double gemmBytes(double m, double n, double k) {
    return m * k + n * k + 2 * m * n;
}

} // namespace

const char* gemmLayoutName(GemmLayout layout) {
    switch (layout) {
    case GemmLayout::Normal:
        return "normal";
    case GemmLayout::Contiguous:
        return "contiguous";
    case GemmLayout::Masked:
        return "masked";
    }
    return "normal";
}

std::vector<MeasuredGemm> parseMeasuredGemms(const std::string& text, const std::string& file) {
    static const std::vector<std::string> columns{"accelerator", "layout", "groups", "m",     "n",
                                                  "k",           "tflops", "gbps",   "source"};
    std::vector<MeasuredGemm> out;
    readCsvTable(text, file, columns, [&](const std::vector<std::string>& f, int line) {
        MeasuredGemm g;
        g.accelerator = f[0];
        if (f[1] == "normal")
            g.layout = GemmLayout::Normal;
        else if (f[1] == "contiguous")
            g.layout = GemmLayout::Contiguous;
        else if (f[1] == "masked")
            g.layout = GemmLayout::Masked;
        else
            throw inputError("layout: expected normal, contiguous or masked, found \"" + f[1] +
                                 "\"",
                             file, line);
        double* fields[] = {&g.groups, &g.m, &g.n, &g.k, &g.tflops, &g.gbps};
        for (size_t i = 0; i < 6; ++i)
            *fields[i] = csvNumber(f[2 + i], columns[2 + i], file, line, true);
        g.source = f[8];
        if (g.source.empty())
            throw inputError("source: expected the publication behind the row, found nothing", file,
                             line);
        // The two rates are one time: they must agree (2% for the table's rounding).
        const double byFlops = 2 * g.groups * g.m * g.n * g.k / (g.tflops * 1e12);
        const double byBytes = g.groups * gemmBytes(g.m, g.n, g.k) / (g.gbps * 1e9);
        if (std::abs(byBytes / byFlops - 1) > 0.02)
            throw inputError("gbps: expected the time tflops gives (" +
                                 std::to_string(byFlops * 1e6) + " us), found " +
                                 std::to_string(byBytes * 1e6) + " us",
                             file, line);
        out.push_back(std::move(g));
    });
    return out;
}

std::vector<MlaDecodeRate> parseMlaDecodeRates(const std::string& text, const std::string& file) {
    static const std::vector<std::string> columns{"accelerator", "tflops", "gbps", "source"};
    std::vector<MlaDecodeRate> out;
    readCsvTable(text, file, columns, [&](const std::vector<std::string>& f, int line) {
        MlaDecodeRate r{f[0], csvNumber(f[1], columns[1], file, line, true),
                        csvNumber(f[2], columns[2], file, line, true), f[3]};
        if (r.source.empty())
            throw inputError("source: expected the publication behind the row, found nothing", file,
                             line);
        out.push_back(std::move(r));
    });
    return out;
}

std::vector<ProfileKernel> parseProfileKernels(const std::string& text, const std::string& file) {
    static const std::vector<std::string> columns{"accelerator", "operation",    "kernel",
                                                  "tokens",      "microseconds", "source"};
    std::vector<ProfileKernel> out;
    readCsvTable(text, file, columns, [&](const std::vector<std::string>& f, int line) {
        ProfileKernel k{f[0],
                        f[1],
                        f[2],
                        csvNumber(f[3], columns[3], file, line, true),
                        csvNumber(f[4], columns[4], file, line, true) * 1e-6,
                        f[5]};
        if (k.source.empty())
            throw inputError("source: expected the publication behind the row, found nothing", file,
                             line);
        out.push_back(std::move(k));
    });
    if (out.empty())
        throw inputError("expected at least one kernel, found none", file, 1);
    return out;
}

const std::vector<ProfileKernel>& profileKernels() {
    static const std::vector<ProfileKernel> all =
        parseProfileKernels(kDecodeKernelsCsv, "resources/compute/decode-kernels-h800.csv");
    return all;
}

double kernelLatencySeconds() {
    static const double shortest = [] {
        double s = profileKernels().front().seconds;
        for (const ProfileKernel& k : profileKernels())
            s = std::min(s, k.seconds);
        return s;
    }();
    return shortest;
}

const std::vector<MeasuredGemm>& measuredGemms() {
    static const std::vector<MeasuredGemm> all =
        parseMeasuredGemms(kDeepGemmCsv, "resources/compute/deepgemm-h800.csv");
    return all;
}

const std::vector<MlaDecodeRate>& mlaDecodeRates() {
    static const std::vector<MlaDecodeRate> all =
        parseMlaDecodeRates(kMlaDecodeCsv, "resources/compute/mla-decode.csv");
    return all;
}

const MlaDecodeRate* findMlaDecodeRate(const std::string& accelerator) {
    const std::string key = measuredAs(accelerator);
    for (const MlaDecodeRate& r : mlaDecodeRates())
        if (r.accelerator == key)
            return &r;
    return nullptr;
}

std::optional<double> measuredGemmSeconds(const std::string& accelerator, GemmLayout layout,
                                          double groups, double m, double n, double k) {
    if (!(groups > 0) || !(m > 0))
        return 0.0;
    const std::string key = measuredAs(accelerator);
    // The rows of this shape, by m (a few dozen rows: a linear scan).
    const MeasuredGemm* rows[16];
    size_t count = 0;
    for (const MeasuredGemm& g : measuredGemms())
        if (g.accelerator == key && g.layout == layout && g.n == n && g.k == k && count < 16)
            rows[count++] = &g;
    if (count == 0)
        return std::nullopt;
    std::sort(rows, rows + count, [](auto* a, auto* b) { return a->m < b->m; });
    const double flops = 2 * groups * m * n * k;
    if (m < rows[0]->m)
        return groups * gemmBytes(m, n, k) / (rows[0]->gbps * 1e9);
    if (m >= rows[count - 1]->m)
        return flops / (rows[count - 1]->tflops * 1e12);
    size_t hi = 1;
    while (rows[hi]->m < m)
        ++hi;
    const MeasuredGemm& a = *rows[hi - 1];
    const MeasuredGemm& b = *rows[hi];
    const double t = (std::log(m) - std::log(a.m)) / (std::log(b.m) - std::log(a.m));
    return flops / ((a.tflops + t * (b.tflops - a.tflops)) * 1e12);
}

} // namespace astrolabe::hardware
